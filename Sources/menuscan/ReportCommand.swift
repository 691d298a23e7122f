import ArgumentParser
import Foundation
import Logging
import MenuScanKit

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write OUT_DIR/index.html: a self-contained gallery of a scan's photos with hotspot overlays.",
        discussion: """
        Reads every NAME.json in OUT_DIR, re-reads each photo from its source.path (relative paths \
        against --photos-root), checks it is the photo that was scanned (SHA-256), and embeds it \
        upright and downscaled as a JPEG data URI. The page needs no network and runs no script.
        """)

    @Argument(help: "A scan's output folder.")
    var outDir: String

    @Option(name: .long, help: "Folder that relative source paths are resolved against (default: current folder).")
    var photosRoot: String = FileManager.default.currentDirectoryPath

    @Option(name: .long, help: "Long side in pixels of each embedded photo.")
    var imageSize: Int = 1600

    @Option(name: .long, help: "Where to write the page (default: OUT_DIR/index.html).")
    var output: String?

    @Flag(name: .long, help: "Only warnings and errors on stderr.")
    var quiet = false

    func validate() throws {
        guard imageSize >= 64 else { throw ValidationError("--image-size must be at least 64") }
    }

    func run() throws {
        let logger = CLILogging.make(quiet: quiet, verbose: false)
        let dir = URL(fileURLWithPath: outDir, isDirectory: true)
        let results = ReportBuilder.results(in: dir)
        guard !results.isEmpty else {
            logger.error("no photo results found", metadata: ["out": "\(dir.path)"])
            throw ExitCode(ExitCodes.noInput)
        }
        let options = ReportBuilder.Options(photosRoot: URL(fileURLWithPath: photosRoot, isDirectory: true),
                                            imageLongSide: imageSize)
        var photos: [ReportPhoto] = []
        for (name, result) in results {
            let photo = ReportBuilder.photo(name: name, result: result, options: options)
            if let note = photo.imageNote {
                logger.warning("photo not embedded", metadata: ["file": "\(result.source.path)", "reason": "\(note)"])
            }
            photos.append(photo)
        }
        let target = output.map { URL(fileURLWithPath: $0) } ?? dir.appendingPathComponent("index.html")
        do {
            try AtomicWriter.write(HTMLReport.render(photos), to: target)
        } catch {
            logger.error("report not written", metadata: ["code": "\(error.code)", "detail": "\(error.detail ?? "")"])
            throw ExitCode(ExitCodes.cannotWrite)
        }
        logger.notice("report written", metadata: ["photos": "\(photos.count)", "file": "\(target.path)"])
    }
}
