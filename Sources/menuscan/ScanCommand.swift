import ArgumentParser
import Foundation
import Logging
import MenuScanKit

struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "OCR every photo in the given folders and files; write JSON and text per photo.")

    @Argument(help: "Photos or folders (searched recursively; hidden files skipped).")
    var paths: [String]

    @Option(name: .long, help: "Output folder.")
    var out: String = "out"

    @Option(name: .long, help: "Worker threads, one OCR engine each (default: number of cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(name: .long, help: "Tesseract language(s), e.g. eng or eng+deu.")
    var lang: String = "eng"

    @Option(name: .long, help: "Tesseract page segmentation mode (1-13).")
    var psm: Int = OCRSettings.defaultPageSegmentationMode

    @Option(name: .long, help: "Refuse images larger than this many megapixels (checked from the header).")
    var maxMegapixels: Double = 100

    @Option(name: .long, help: "Folder with LANG.traineddata, tried before models/tessdata and the system's.")
    var tessdata: String?

    @Option(name: .long, help: "Quality gate: enforce (reject defective photos before OCR), warn (OCR anyway, keep the defects as warnings) or off.")
    var quality: QualityMode = .enforce

    @OptionGroup(title: "Allergen profile")
    var profileOptions: ProfileOptions

    @Flag(name: .long, help: "Skip menu structure and allergen/diet classification.")
    var noMenu = false

    @Flag(name: .long, help: "Skip the second pass that reads text lines the layout pass left unread (e.g. isolated prices).")
    var noRecover = false

    @OptionGroup(title: "Preprocessing")
    var preprocessing: PreprocessOptions

    @OptionGroup(title: "Quality thresholds")
    var qualityThresholds: QualityOptions

    @Flag(name: .long, help: "Also write NAME.overlay.png: the upright photo with hotspot outlines, grey unrecognised regions and a legend (long side ≤ 2000 px).")
    var overlay = false

    @Flag(name: .long, help: "Only warnings and errors on stderr; no progress.")
    var quiet = false

    @Flag(name: .long, help: "Log one line per photo (file, status, code, timings; never menu text).")
    var verbose = false

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
        guard (1...13).contains(psm) else { throw ValidationError("--psm must be 1…13 (0 only detects orientation)") }
        guard maxMegapixels > 0 else { throw ValidationError("--max-megapixels must be positive") }
        guard !lang.isEmpty, lang.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "_" || $0 == "-" }) else {
            throw ValidationError("--lang takes Tesseract language names joined by '+', e.g. eng+deu")
        }
    }

    func run() throws {
        let logger = CLILogging.make(quiet: quiet, verbose: verbose)
        let profile: AllergenProfile?
        do {
            profile = try profileOptions.resolve()
        } catch let error as MenuScanError {
            throw ValidationError("\(error.title): \(error.message) \(error.detail ?? "")")
        }
        var ocr = OCRSettings(language: lang, pageSegmentationMode: psm, tessdataDirectory: tessdata)
        ocr.thresholding = preprocessing.thresholding
        var settings = ScanSettings(ocr: ocr, maxMegapixels: maxMegapixels, quality: quality,
                                    qualityThresholds: qualityThresholds.thresholds,
                                    preprocess: preprocessing.settings)
        settings.menu = !noMenu
        settings.recoverLines = !noRecover
        settings.allergenProfile = profile
        guard settings.ocr.resolveTessdata() != nil else {
            let e = MenuScanError.modelUnavailable.with(detail: "no \(lang) model in \(settings.ocr.tessdataCandidates().joined(separator: ", "))")
            logger.critical("\(e.title): \(e.message) \(e.recovery)", metadata: ["code": "\(e.code)", "detail": "\(e.detail ?? "")"])
            throw ExitCode(ExitCodes.environment)
        }

        let discovery = InputDiscovery.discover(paths)
        for missing in discovery.missing {
            logger.error("input not found", metadata: ["path": "\(missing)"])
        }
        if discovery.skippedFiles > 0 {
            logger.notice("skipped files that are not images by name", metadata: ["count": "\(discovery.skippedFiles)"])
        }
        guard !discovery.photos.isEmpty else {
            logger.error("no photos found", metadata: ["paths": "\(paths.joined(separator: " "))"])
            throw ExitCode(ExitCodes.noInput)
        }

        let outURL = URL(fileURLWithPath: out, isDirectory: true)
        let options = BatchOptions(settings: settings, outputDirectory: outURL, jobs: jobs, overlay: overlay)
        let bar = ProgressLine(enabled: !quiet && isatty(STDERR_FILENO) != 0)
        logger.notice("scan started", metadata: ["photos": "\(discovery.photos.count)", "jobs": "\(options.jobs)",
                                                 "lang": "\(lang)", "psm": "\(psm)"])
        let runner = BatchRunner(photos: discovery.photos, options: options, logger: logger,
                                 progress: { bar.update($0) })
        let outcome = runner.run()
        bar.finish()

        let summary = outcome.summary
        do {
            try summary.write(to: outURL)
        } catch {
            logger.error("summary not written", metadata: ["code": "\(error.code)", "detail": "\(error.detail ?? "")"])
        }
        for warning in summary.warnings {
            logger.warning("\(warning.title)", metadata: ["code": "\(warning.code)", "detail": "\(warning.detail ?? "")"])
        }
        let counts = PhotoStatus.allCases.map { "\($0.rawValue)=\(summary.counts[$0.rawValue] ?? 0)" }.joined(separator: " ")
        logger.notice("scan finished", metadata: [
            "photos": "\(summary.processed)/\(summary.photos)", "counts": "\(counts)",
            "seconds": "\(String(format: "%.2f", summary.wallSeconds))",
            "photosPerSecond": "\(String(format: "%.2f", summary.photosPerSecond))",
            "meanConfidence": "\(summary.meanConfidence.map { String(format: "%.3f", $0) } ?? "n/a")",
            "out": "\(outURL.path)",
        ])

        if let fatal = outcome.fatal {
            logger.critical("\(fatal.title): \(fatal.message) \(fatal.recovery)", metadata: ["code": "\(fatal.code)", "detail": "\(fatal.detail ?? "")"])
            throw ExitCode(fatal.code == MenuScanError.storageFull.code ? ExitCodes.cannotWrite : ExitCodes.environment)
        }
        let notOK = summary.processed - (summary.counts[PhotoStatus.ok.rawValue] ?? 0) - (summary.counts[PhotoStatus.partial.rawValue] ?? 0)
        if notOK > 0 || !discovery.missing.isEmpty { throw ExitCode(ExitCodes.somePhotosNotOK) }
    }
}
