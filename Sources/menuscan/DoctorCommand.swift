import ArgumentParser
import Foundation
import MenuScanKit

/// Prints what the tool will use: engine, models, threading. Never reads photos.
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Show the OCR engine, model folders and threading this run would use.")

    @Option(name: .long, help: "Language(s) to check, e.g. eng+deu.")
    var lang: String = "eng"

    @Option(name: .long, help: "Folder with LANG.traineddata, tried first.")
    var tessdata: String?

    func run() throws {
        let settings = OCRSettings(language: lang, tessdataDirectory: tessdata)
        let resolved = settings.resolveTessdata()
        let env = ProcessInfo.processInfo.environment
        let report: [(String, String)] = [
            ("engine", "tesseract \(TesseractEngine.version)"),
            ("language", lang),
            ("tessdata", resolved ?? "NOT FOUND (searched \(settings.tessdataCandidates().joined(separator: ", ")))"),
            ("models", ModelLocator.modelsDirectory()?.path ?? "none found"),
            ("OMP_THREAD_LIMIT", env["OMP_THREAD_LIMIT"] ?? "unset"),
            ("cores", "\(ProcessInfo.processInfo.activeProcessorCount)"),
            ("defaultPSM", "\(OCRSettings.defaultPageSegmentationMode)"),
        ]
        for (key, value) in report { print("\(key): \(value)") }
        if resolved == nil { throw ExitCode(ExitCodes.environment) }
    }
}
