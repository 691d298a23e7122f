import ArgumentParser
import Foundation
import Logging
import MenuScanKit

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure OCR confidence, outcomes, accuracy (where NAME.gt.txt exists) and speed on a set of photos.",
        discussion: """
        Runs the pipeline over DIR once per --config (or reads an earlier `scan --out` folder with \
        --from-scan) and writes bench.json, bench.md and bench.html (with SVG charts) to --out. \
        The Markdown report is also printed on stdout; progress goes to stderr. \
        A config is LABEL:key=value,… with keys psm, lang, max-megapixels, tessdata, \
        rotate, rescale, recover, order, menu, invert, retry-inverted (on/off), text-height, min-text-height, max-text-height, \
        large-text-height, rotate-confidence, thresholding and quality.
        """)

    @Argument(help: "A folder (or files) of photos; with --from-scan, the output folder of an earlier scan.")
    var paths: [String]

    @Option(name: .long, help: "Where bench.json, bench.md, bench.html and each config's scan outputs go.")
    var out: String = "out/bench"

    @Option(name: .long, help: "Worker threads (default: number of cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(name: .customLong("config"), help: "A setting to compare, e.g. psm6:psm=6 (repeatable).")
    var configs: [String] = []

    @Flag(name: .long, help: "Read the JSON results of an earlier `menuscan scan --out DIR` instead of scanning.")
    var fromScan = false

    @Option(name: .long, help: "With --from-scan: folder the scanned paths are relative to (for NAME.gt.txt).")
    var groundTruthRoot: String?

    @Flag(name: .long, help: "No progress on stderr.")
    var quiet = false

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
        if fromScan, !configs.isEmpty { throw ValidationError("--config runs the pipeline; it cannot be combined with --from-scan") }
    }

    func run() throws {
        let logger = CLILogging.make(quiet: quiet, verbose: false)
        let outURL = URL(fileURLWithPath: out, isDirectory: true)
        var reports: [BenchReport] = []

        if fromScan {
            let clock = ContinuousClock(), start = clock.now
            var photos: [BenchPhoto] = []
            for path in paths {
                do {
                    photos += try ScanOutputReader.read(directory: URL(fileURLWithPath: path, isDirectory: true),
                                                        groundTruthRoot: groundTruthRoot.map { URL(fileURLWithPath: $0, isDirectory: true) })
                } catch {
                    logger.error("scan results not readable", metadata: ["path": "\(path)", "error": "\(error)"])
                    throw ExitCode(ExitCodes.noInput)
                }
            }
            guard !photos.isEmpty else { throw ExitCode(ExitCodes.noInput) }
            // Speed comes from the photos' own stage timings; the wall time here is only reading.
            reports.append(BenchReport.build(label: paths.joined(separator: " "), photos: photos,
                                             wallSeconds: (clock.now - start).seconds, peakRSSBytes: nil))
        } else {
            let base = ScanSettings()
            let specs = configs.isEmpty ? ["default:"] : configs
            var parsed: [BenchConfig] = []
            for spec in specs {
                do { parsed.append(try BenchConfig.parse(spec, base: base)) } catch {
                    throw ValidationError(error.detail ?? error.message)
                }
            }
            guard Set(parsed.map(\.label)).count == parsed.count else { throw ValidationError("--config labels must differ") }
            let discovery = InputDiscovery.discover(paths)
            guard !discovery.photos.isEmpty else {
                logger.error("no photos found", metadata: ["paths": "\(paths.joined(separator: " "))"])
                throw ExitCode(ExitCodes.noInput)
            }
            for config in parsed {
                guard config.settings.ocr.resolveTessdata() != nil else {
                    logger.critical("language model missing", metadata: ["config": "\(config.label)", "code": "MSG-ENV-001"])
                    throw ExitCode(ExitCodes.environment)
                }
                let collector = BenchCollector()
                let bar = ProgressLine(enabled: !quiet && isatty(STDERR_FILENO) != 0)
                if !quiet { FileHandle.standardError.write(Data("bench \(config.label): \(discovery.photos.count) photos\n".utf8)) }
                let options = BatchOptions(settings: config.settings,
                                           outputDirectory: outURL.appendingPathComponent(config.label, isDirectory: true),
                                           jobs: jobs)
                let runner = BatchRunner(photos: discovery.photos, options: options, logger: logger,
                                         progress: { bar.update($0) },
                                         observer: { photo, result in collector.add(photo, result) })
                let outcome = runner.run()
                bar.finish()
                try? outcome.summary.write(to: options.outputDirectory)
                if let fatal = outcome.fatal {
                    logger.critical("\(fatal.title)", metadata: ["code": "\(fatal.code)", "detail": "\(fatal.detail ?? "")"])
                    throw ExitCode(fatal.code == MenuScanError.storageFull.code ? ExitCodes.cannotWrite : ExitCodes.environment)
                }
                reports.append(BenchReport.build(label: config.label, photos: collector.photos(order: discovery.photos),
                                                 wallSeconds: outcome.summary.wallSeconds,
                                                 peakRSSBytes: ProcessMemory.peakRSSBytes()))
            }
        }

        let markdown = BenchRender.markdown(reports)
        do {
            try AtomicWriter.write(Array(try BenchRender.json(reports)), to: outURL.appendingPathComponent("bench.json"))
            try AtomicWriter.write(markdown, to: outURL.appendingPathComponent("bench.md"))
            try AtomicWriter.write(BenchRender.html(reports), to: outURL.appendingPathComponent("bench.html"))
        } catch let error as MenuScanError {
            logger.critical("\(error.title)", metadata: ["code": "\(error.code)", "detail": "\(error.detail ?? "")"])
            throw ExitCode(ExitCodes.cannotWrite)
        }
        print(markdown)
        if !quiet { FileHandle.standardError.write(Data("bench: wrote \(outURL.path)/bench.{json,md,html}\n".utf8)) }
    }
}

/// Collects BenchPhotos from worker threads.
final class BenchCollector: @unchecked Sendable {
    // @unchecked: `byPath` is guarded by `lock`.
    private let lock = NSLock()
    private var byPath: [String: BenchPhoto] = [:]

    func add(_ photo: InputPhoto, _ result: PhotoResult) {
        // The same lookup and decoding as --from-scan, so both give the same figures.
        let gt = ScanOutputReader.groundTruth(for: photo.url.path, root: nil)
        var bench = BenchPhoto(path: photo.displayPath, status: result.status.rawValue,
                               messageCodes: result.messages.map(\.code), page: result.ocr?.page,
                               groundTruth: gt, stageSeconds: result.timings.filter { $0.key != "total" })
        bench.readConfidence = result.readQuality?.readConfidence
        lock.lock()
        byPath[photo.displayPath] = bench
        lock.unlock()
    }

    func photos(order: [InputPhoto]) -> [BenchPhoto] {
        lock.lock()
        defer { lock.unlock() }
        return order.compactMap { byPath[$0.displayPath] }
    }
}
