import ArgumentParser
import Foundation
import Logging
import MenuScanKit

extension LogFormat: ExpressibleByArgument {}
extension LanguageReread: ExpressibleByArgument {}

struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "OCR every photo in the given folders and files; write JSON and text per photo.",
        discussion: """
        Each photo runs in a worker process (--jobs of them): a photo that crashes, traps or \
        hangs past --timeout is tried once more in a fresh worker, then recorded as an error, \
        and the run goes on. Re-running the same command resumes: photos done earlier with the \
        same content and settings are kept (journal in OUT/.menuscan/). Ctrl-C stops starting \
        new photos, lets those in flight finish, writes the summary and exits 130; a second \
        Ctrl-C, or SIGTERM, kills the workers at once (their photos are redone by the next \
        run). A second run on the same OUT (and shard) is refused with exit 75.
        """)

    @Argument(help: "Photos or folders (searched recursively; hidden files skipped).")
    var paths: [String]

    @Option(name: .long, help: "Output folder.")
    var out: String = "out"

    @Option(name: .long, help: "Worker threads, one OCR engine each (default: number of cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(name: .long, help: "Tesseract language(s), e.g. eng or deu+eng; auto (default) reads with eng and again with deu, fra, spa or ita (when installed) when the text is in that language.")
    var lang: String = OCRSettings.auto

    @Option(name: .long, help: "Tesseract page segmentation mode (1-13).")
    var psm: Int = OCRSettings.defaultPageSegmentationMode

    @Option(name: .long, help: "Refuse images larger than this many megapixels (checked from the header).")
    var maxMegapixels: Double = 100

    @Option(name: .long, help: "Refuse PDFs with more pages than this (each page is one result, NAME.pN.json).")
    var maxPdfPages: Int = InputDiscovery.defaultMaxPDFPages

    @Option(name: .long, help: "Folder with LANG.traineddata, tried before models/tessdata and the system's.")
    var tessdata: String?

    @Option(name: .long, help: "Per-photo time limit in seconds (every stage, reading the file included); a photo over it is retried once, then recorded as an error, and the run goes on.")
    var timeout: Double = 300

    @Option(name: .long, help: "Replace a worker process after this many photos.")
    var workerPhotos: Int = 500

    @Option(name: .long, help: "Replace a worker process once its resident memory passes this many MB.")
    var workerMaxRss: Int = 2048

    @Flag(name: .long, help: .hidden)
    var inProcess = false

    @Flag(name: .long, help: "Redo photos whose last result was failed, error or rejected (others done earlier are kept).")
    var retryFailed = false

    @Flag(name: .long, help: "Redo every photo, ignoring earlier results.")
    var force = false

    @Option(name: .long, help: "Process shard K of N (K from 0): the photos whose relative path hashes to K. Default: from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID/COUNT.")
    var shard: String?

    @Option(name: .long, help: "Number of shards when K comes from JOB_COMPLETION_INDEX (or MENUSCAN_SHARDS).")
    var shards: Int?

    @Option(name: .long, help: "Log format on stderr: text or json (one object per line).")
    var logFormat: LogFormat = .text
    @Option(name: .long, help: "Quality gate: enforce (reject defective photos before OCR), warn (OCR anyway, keep the defects as warnings) or off.")
    var quality: QualityMode = .enforce

    @OptionGroup(title: "Allergen profile")
    var profileOptions: ProfileOptions

    @Flag(name: .long, help: "Skip menu structure and allergen/diet classification.")
    var noMenu = false

    @Flag(name: .long, help: "Skip the second pass that reads text lines the layout pass left unread (e.g. isolated prices).")
    var noRecover = false

    @Option(name: .long, help: ArgumentHelp("Line recovery gives up after reading N unread lines without keeping one (default \(ScanSettings().recoveryGiveUp); 0: reads all).", visibility: .hidden))
    var recoveryGiveUp: Int?

    @Option(name: .long, help: ArgumentHelp("OSD's copy holds at most this many megapixels (default \(PreprocessSettings().osdMaxMegapixels); 0: no cap).", visibility: .hidden))
    var osdMaxMegapixels: Double?

    @Option(name: .long, help: ArgumentHelp("--lang auto: read a page again on the other language alone and keep per line the more confident read (lines), or again on it with English (combined).", visibility: .hidden))
    var langReread: LanguageReread?

    @Flag(name: .long, help: "Keep Tesseract's line order instead of reading column by column (ruling lines and gutters as column walls).")
    var noReadingOrder = false

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
        guard maxPdfPages > 0 else { throw ValidationError("--max-pdf-pages must be positive") }
        guard timeout > 0 else { throw ValidationError("--timeout must be positive (seconds)") }
        guard !(force && retryFailed) else { throw ValidationError("--force redoes everything; use it or --retry-failed, not both") }
        guard !lang.isEmpty, lang.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "_" || $0 == "-" }) else {
            throw ValidationError("--lang takes Tesseract language names joined by '+', e.g. eng+deu")
        }
        if let shard, Shard(parsing: shard) == nil {
            throw ValidationError("--shard takes K/N with 0 <= K < N, e.g. 0/3")
        }
        if let shards, shards < 1 { throw ValidationError("--shards must be at least 1") }
        guard workerPhotos >= 1 else { throw ValidationError("--worker-photos must be at least 1") }
        guard workerMaxRss >= 64 else { throw ValidationError("--worker-max-rss is in MB and must be at least 64") }
    }

    func resolveShard() throws -> Shard? {
        if let shard { return Shard(parsing: shard) }
        switch Shard.fromEnvironment(ProcessInfo.processInfo.environment, shards: shards) {
        case .success(let s): return s
        case .failure(let e): throw ValidationError(e.description)
        }
    }

    func run() throws {
        let logger = CLILogging.make(quiet: quiet, verbose: verbose, format: logFormat)
        let profile: AllergenProfile?
        do {
            profile = try profileOptions.resolve()
        } catch let error as MenuScanError {
            throw ValidationError("\(error.title): \(error.message) \(error.detail ?? "")")
        }
        var ocr = OCRSettings(language: lang, pageSegmentationMode: psm, tessdataDirectory: tessdata,
                              timeLimitSeconds: timeout)
        ocr.thresholding = preprocessing.thresholding
        ocr.retryInverted = preprocessing.retryInverted
        var settings = ScanSettings(ocr: ocr, maxMegapixels: maxMegapixels, quality: quality,
                                    qualityThresholds: qualityThresholds.thresholds,
                                    preprocess: preprocessing.settings)
        settings.menu = !noMenu
        settings.recoverLines = !noRecover
        if let recoveryGiveUp { settings.recoveryGiveUp = max(0, recoveryGiveUp) }
        if let osdMaxMegapixels { settings.preprocess.osdMaxMegapixels = max(0, osdMaxMegapixels) }
        if let langReread { settings.languageReread = langReread }
        settings.readingOrder = !noReadingOrder
        settings.allergenProfile = profile
        settings.maxPDFPages = maxPdfPages
        let shard = try resolveShard()
        guard settings.ocr.resolveTessdata() != nil else {
            let e = MenuScanError.modelUnavailable.with(detail: "no \(lang) model in \(settings.ocr.tessdataCandidates().joined(separator: ", "))")
            logger.critical("\(e.title): \(e.message) \(e.recovery)", metadata: ["code": "\(e.code)", "detail": "\(e.detail ?? "")"])
            throw ExitCode(ExitCodes.environment)
        }

        let discovery = InputDiscovery.discoverCompact(paths, maxPDFPages: maxPdfPages)
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
        // Names come from the whole input set, so every shard names a photo as an unsharded run would.
        let photos = shard.map { s in discovery.photos.filter { s.contains(relativePath: $0.relativePath) } } ?? discovery.photos

        let outURL = URL(fileURLWithPath: out, isDirectory: true)
        let journal: Journal
        do {
            journal = try Journal(outputDirectory: outURL, shard: shard)
        } catch {
            logger.critical("\(error.title): \(error.message) \(error.recovery)", metadata: ["code": "\(error.code)", "detail": "\(error.detail ?? "")"])
            throw ExitCode(ExitCodes.cannotWrite)
        }
        guard journal.tryLock() else {
            logger.critical("another run is writing to \(outURL.path)", metadata: ["journal": "\(journal.url.lastPathComponent)"])
            throw ExitCode(ExitCodes.busy)
        }
        var options = BatchOptions(settings: settings, outputDirectory: outURL, jobs: jobs, overlay: overlay, journal: journal)
        options.mode = force ? .force : (retryFailed ? .retryFailed : .resume)
        options.shard = shard
        if !inProcess {
            // TEST ONLY fault hooks (MENUSCAN_TEST_CRASH_ON / _TRAP_ON / _HANG_ON / _KILL_ON), carried out by the workers.
            options.isolation = IsolationOptions(timeoutSeconds: timeout, maximumPhotos: workerPhotos,
                                                 maximumRSSBytes: workerMaxRss << 20,
                                                 hooks: WorkerTestHooks.fromEnvironment(ProcessInfo.processInfo.environment))
        }

        // A file-size limit (ulimit -f) on an output is a storage error of its
        // own (EFBIG → MSG-STORAGE-001, exit 73), not a SIGXFSZ that kills the run.
        signal(SIGXFSZ, SIG_IGN)
        let bar = ProgressLine(enabled: !quiet && isatty(STDERR_FILENO) != 0)
        var started: Logger.Metadata = ["photos": "\(photos.count)", "jobs": "\(options.jobs)", "lang": "\(lang)",
                                        "psm": "\(psm)", "mode": "\(options.mode.rawValue)"]
        if let shard { started["shard"] = "\(shard)" }
        logger.notice("scan started", metadata: started)
        let runner = BatchRunner(photos: photos, options: options, logger: logger, progress: { bar.update($0) })
        let signals = StopSignals(first: { sig in
            logger.warning("stopping: no new photos; the ones in flight finish (signal again to abandon them)", metadata: ["signal": "\(sig)"])
            runner.requestStop()
        }, second: { sig in
            runner.requestStop()
            WorkerRegistry.shared.killAll()
            bar.finish()
            logger.warning("abandoning the photos in flight; they are redone by the next run", metadata: ["signal": "\(sig)"])
            var snapshot = runner.snapshot()
            snapshot.summary.interrupted = true
            try? snapshot.summary.write(to: outURL, shard: shard)
            _exit(ExitCodes.interrupted)
        })
        let outcome = runner.run()
        bar.finish()

        let summary = outcome.summary
        do {
            try summary.write(to: outURL, shard: shard)
        } catch {
            logger.error("summary not written", metadata: ["code": "\(error.code)", "detail": "\(error.detail ?? "")"])
        }
        for warning in summary.warnings {
            logger.warning("\(warning.title)", metadata: ["code": "\(warning.code)", "detail": "\(warning.detail ?? "")"])
        }
        let counts = PhotoStatus.allCases.map { "\($0.rawValue)=\(summary.counts[$0.rawValue] ?? 0)" }.joined(separator: " ")
        logger.notice("scan finished", metadata: [
            "photos": "\(summary.processed)/\(summary.photos)", "counts": "\(counts)", "kept": "\(summary.reused ?? 0)",
            "seconds": "\(String(format: "%.2f", summary.wallSeconds))",
            "photosPerSecond": "\(String(format: "%.2f", summary.photosPerSecond))",
            "meanConfidence": "\(summary.meanConfidence.map { String(format: "%.3f", $0) } ?? "n/a")",
            "peakRSSBytes": "\(summary.peakRSSBytes ?? 0)",
            "out": "\(outURL.path)",
        ])

        if let fatal = outcome.fatal {
            logger.critical("\(fatal.title): \(fatal.message) \(fatal.recovery)", metadata: ["code": "\(fatal.code)", "detail": "\(fatal.detail ?? "")"])
            throw ExitCode(fatal.code == MenuScanError.storageFull.code ? ExitCodes.cannotWrite : ExitCodes.environment)
        }
        if signals.received {
            logger.warning("interrupted; run the same command again to resume", metadata: ["done": "\(summary.processed)/\(summary.photos)"])
            throw ExitCode(ExitCodes.interrupted)
        }
        let notOK = summary.processed - (summary.counts[PhotoStatus.ok.rawValue] ?? 0) - (summary.counts[PhotoStatus.partial.rawValue] ?? 0)
        if notOK > 0 || !discovery.missing.isEmpty { throw ExitCode(ExitCodes.somePhotosNotOK) }
    }
}
