import Foundation
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// What the batch keeps of each photo once its outputs are written: metadata
/// only, never recognised text (R12), so memory stays flat as folders grow.
public struct PhotoRecord: Codable, Sendable, Equatable {
    public var path: String
    public var output: String
    public var status: PhotoStatus
    public var codes: [String]
    public var meanConfidence: Double?
    public var characters: Int?
    public var seconds: Double
    /// Seconds of the main stages (the photo's JSON has every stage).
    public var timings: StageTimings? = nil
    /// Menu items and allergens found, where the result carries them.
    public var items: Int? = nil
    public var allergens: Int? = nil
}

/// Decode, OCR and output seconds of one photo, stored inline (no
/// per-photo dictionary: the run keeps one of these per photo). Encodes as
/// `{"decode": …, "ocr": …, "output": …}`.
public struct StageTimings: Codable, Sendable, Equatable, ExpressibleByDictionaryLiteral {
    public var decode: Double?
    public var ocr: Double?
    public var output: Double?

    public init(_ timings: [String: Double]) {
        decode = timings["decode"]
        ocr = timings["ocr"]
        output = timings["output"]
    }

    public init(dictionaryLiteral elements: (String, Double)...) {
        self.init(Dictionary(elements, uniquingKeysWith: { $1 }))
    }

    public subscript(stage: String) -> Double? {
        switch stage {
        case "decode": decode
        case "ocr": ocr
        case "output": output
        default: nil
        }
    }
}

/// Progress of a run, reported after each photo.
public struct BatchProgress: Sendable {
    public var done: Int
    public var total: Int
    public var counts: [PhotoStatus: Int]
    public var elapsed: Double
    /// Of `done`, results kept from an earlier run.
    public var reused: Int = 0
}

/// Writes one output file; the default is `AtomicWriter` (temp + fsync + rename).
/// Injectable so tests can make storage fail.
public struct OutputWriter: Sendable {
    public var write: @Sendable ([UInt8], URL) throws(IOFailure) -> Void

    public init(write: @escaping @Sendable ([UInt8], URL) throws(IOFailure) -> Void) {
        self.write = write
    }

    public static let atomic = OutputWriter { (bytes, url) throws(IOFailure) in try AtomicWriter.writeOnce(bytes, to: url) }
}

/// Options of one batch run.
public struct BatchOptions: Sendable {
    public var settings: ScanSettings
    public var outputDirectory: URL
    public var jobs: Int
    /// The run journal: with one, photos already done are skipped and
    /// worker crashes are recorded (see `Journal`). Without, every photo is done.
    public var journal: Journal?
    public var mode: RerunMode = .resume
    public var shard: Shard?
    public var retry: RetryPolicy = .standard
    public var writer: OutputWriter = .atomic
    /// Process isolation: each photo runs in a worker process, so a crash,
    /// trap or hang costs that photo only (`scan` sets it; nil runs the
    /// pipeline in this process, as `bench` and unit tests do).
    public var isolation: IsolationOptions?
    /// Also write NAME.overlay.png (hotspots and unrecognised regions on the photo).
    public var overlay: Bool

    public init(settings: ScanSettings, outputDirectory: URL, jobs: Int, overlay: Bool = false, journal: Journal? = nil) {
        self.settings = settings
        self.outputDirectory = outputDirectory
        self.jobs = max(1, jobs)
        self.overlay = overlay
        self.journal = journal
    }
}

/// How a run ended.
public struct BatchOutcome: Sendable {
    public var records: [PhotoRecord]
    public var summary: RunSummary
    /// A problem that stopped the run early (model missing, storage full).
    public var fatal: MenuScanError?
    /// Stopped by `requestStop()` (SIGINT/SIGTERM) before every photo was taken.
    public var interrupted = false
}

/// Runs the pipeline over many photos on `jobs` dedicated threads, one
/// Tesseract engine per thread (recognition blocks for about a second, so it
/// stays off Swift's cooperative pool). Each photo's outputs are written
/// atomically as soon as it is done, then the journal records it.
public final class BatchRunner: @unchecked Sendable {
    // @unchecked: every mutable field below is guarded by `lock`, except
    // `state`, written before the workers start and only read after.
    private let lock = NSLock()
    private var next = 0
    private var records: [PhotoRecord?]
    private var counts: [PhotoStatus: Int] = [:]
    private var done = 0
    private var reused = 0
    private var fatal: MenuScanError?
    private var stopRequested = false
    private var untaken = 0
    private var state = JournalState()
    /// Isolated runs: peak resident memory of supervisor + workers.
    private var peakTotalRSS = 0

    private let photos: [InputPhoto]
    private let options: BatchOptions
    private let settingsHash: String
    private let logger: Logger
    private let progress: (@Sendable (BatchProgress) -> Void)?
    private let observer: (@Sendable (InputPhoto, PhotoResult) -> Void)?
    private let started = ContinuousClock.now
    private var workerCount = 1

    /// `observer` sees every photo's full result once its outputs are written
    /// (on the worker's thread; it must be thread-safe and keep little).
    public init(photos: [InputPhoto], options: BatchOptions, logger: Logger,
                progress: (@Sendable (BatchProgress) -> Void)? = nil,
                observer: (@Sendable (InputPhoto, PhotoResult) -> Void)? = nil) {
        self.photos = photos
        self.options = options
        self.logger = logger
        self.progress = progress
        self.observer = observer
        settingsHash = BatchHashing.settingsHash(options.settings)
        records = Array(repeating: nil, count: photos.count)
    }

    public func run() -> BatchOutcome {
        let workers = min(options.jobs, max(1, photos.count))
        workerCount = workers
        if let journal = options.journal {
            state = Journal.load(outputDirectory: options.outputDirectory)
            if state.unreadableLines > 0 {
                logger.notice("journal lines skipped (torn by an earlier kill)", metadata: ["count": "\(state.unreadableLines)"])
            }
            sweepTemporaryFiles()
            _ = journal
        }
        if options.isolation != nil {
            // A worker that dies mid-job must not take the supervisor with it.
            signal(SIGPIPE, SIG_IGN)
        }
        // Give back what discovery and journal loading freed before the
        // engines load (glibc keeps freed heap resident otherwise).
        MemoryTrim.trim()
        let finished = DispatchSemaphore(value: 0)
        for index in 0..<workers {
            let thread = Thread { [self] in
                worker(index)
                finished.signal()
            }
            thread.name = "menuscan-ocr-\(index)"
            thread.stackSize = 16 << 20
            thread.start()
        }
        for _ in 0..<workers { finished.wait() }
        return snapshot(final: true)
    }

    /// Stop taking new photos; those in flight finish (SIGINT/SIGTERM).
    public func requestStop() {
        lock.lock()
        stopRequested = true
        lock.unlock()
    }

    /// The outcome so far (also usable while workers still run, e.g. when a
    /// second signal abandons the photos in flight).
    public func snapshot() -> BatchOutcome { snapshot(final: false) }

    /// `final`: the workers are done, so the per-photo slots are handed over
    /// (not copied) and sorted in place: one array of records, not three.
    private func snapshot(final: Bool) -> BatchOutcome {
        lock.lock()
        defer { lock.unlock() }
        let wall = (ContinuousClock.now - started).seconds
        var kept = records.compactMap { $0 }
        if final { records = [] }
        kept.sort { $0.path < $1.path }
        let interrupted = stopRequested && kept.count < photos.count
        var summary = RunSummary(records: kept, total: photos.count, wallSeconds: wall,
                                 settings: options.settings, jobs: workerCount, fatal: fatal,
                                 reused: reused, interrupted: interrupted, shard: options.shard)
        if options.isolation != nil, peakTotalRSS > 0 {
            // Supervisor and workers together (the workers hold the engines).
            summary.peakRSSBytes = max(summary.peakRSSBytes ?? 0, peakTotalRSS)
        }
        return BatchOutcome(records: kept, summary: summary, fatal: fatal, interrupted: interrupted)
    }

    private func takeNext() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard fatal == nil, !stopRequested, next < photos.count else { return nil }
        defer { next += 1 }
        return next
    }

    private func stop(_ error: MenuScanError) {
        lock.lock()
        if fatal == nil { fatal = error }
        lock.unlock()
    }

    /// One slot: in-process, this thread runs the pipeline; isolated, it
    /// feeds one worker process at a time.
    private func worker(_ index: Int) {
        // The engine (or worker process) starts on the first photo that needs
        // OCR, so a re-run that keeps every result starts none.
        var slot = Slot()
        defer { slot.process?.retire() }
        var handled = 0
        while let i = takeNext() {
            guard handle(i, slot: &slot) else { return }
            handled += 1
            // Free pages left between Tesseract's per-photo allocations go back
            // to the system now and then, so fragmentation cannot grow with the folder.
            if handled % 128 == 0 { MemoryTrim.trim() }
        }
    }

    private struct Slot {
        var processor: PhotoProcessor?
        var process: WorkerProcess?
    }

    /// One photo: keep its earlier result, or process it and record it.
    /// Returns false when the run must stop.
    private func handle(_ i: Int, slot: inout Slot) -> Bool {
        let photo = photos[i]
        let clock = ContinuousClock()
        let start = clock.now
        let sha: String?
        do {
            sha = try options.retry.run(path: photo.url.path, onRetry: { self.logRetry(photo, $0, $1, $2) }) { () throws(IOFailure) in
                try BatchHashing.contentHash(of: photo.url)
            }
        } catch {
            sha = nil  // the decoder reports why the file cannot be read
        }

        if let kept = keptRecord(photo, sha: sha) {
            logger.info("photo unchanged, result kept", metadata: ["file": "\(photo.displayPath)", "status": "\(kept.status.rawValue)"])
            finish(i, kept, reused: true)
            return true
        }

        let journal = options.journal
        var result: PhotoResult
        var overlayPNG: [UInt8]?
        if state.crashes(key: photo.outputBase, sha256: sha, settings: settingsHash) >= 2 {
            // The engine died twice on this photo in runs that were then killed; record it instead of a third try.
            result = PhotoResult(source: SourceInfo(path: photo.displayPath, sha256: sha), status: .error,
                                 messages: [ResultMessage(MenuScanError.processing.with(
                                     detail: "the OCR engine crashed on this photo in two runs; not tried again (re-run with --retry-failed to try)"))],
                                 timings: ["total": (clock.now - start).seconds])
            logger.warning("photo crashed the engine twice; recorded as an error", metadata: ["file": "\(photo.displayPath)", "code": "MSG-PROC-001"])
        } else {
            if let journal {
                do {
                    try journal.append(JournalEntry(event: .start, key: photo.outputBase, sha256: sha, settings: settingsHash, pid: getpid()))
                } catch {
                    logger.error("journal not written", metadata: ["file": "\(photo.displayPath)", "code": "\(error.code)", "detail": "\(error.detail ?? "")"])
                    stop(error)
                    return false
                }
            }
            if let unreadable = Self.unreadableName(photo) {
                // Never sent to a worker: no path in this process can open it.
                result = PhotoResult(source: SourceInfo(path: photo.displayPath, sha256: sha), status: .error,
                                     messages: [ResultMessage(unreadable)], timings: ["total": (clock.now - start).seconds])
            } else if let isolation = options.isolation {
                switch runIsolated(photo, isolation, process: &slot.process, sha: sha) {
                case .done(let r, let png):
                    result = r
                    overlayPNG = png
                case .stop:
                    return false
                }
            } else {
                if slot.processor == nil {
                    do {
                        slot.processor = try PhotoProcessor(settings: options.settings)
                        if options.overlay { slot.processor?.overlay = OverlayStyle() }
                    } catch {
                        logger.critical("engine could not start", metadata: ["code": "\(error.code)", "detail": "\(error.detail ?? "")"])
                        stop(error)
                        return false
                    }
                }
                guard let engine = slot.processor else { return false }
                result = engine.process(fileAt: photo.url, displayPath: photo.displayPath, page: photo.page)
                overlayPNG = engine.overlayPNG
            }
        }

        let record: PhotoRecord
        do {
            record = try write(&result, overlayPNG: overlayPNG, for: photo)
        } catch {
            logger.error("output not written", metadata: ["file": "\(photo.displayPath)", "code": "\(error.code)", "detail": "\(error.detail ?? "")"])
            stop(error)
            return false
        }
        if let journal {
            let outputs = [record.output] + (result.ocr != nil ? [photo.outputBase + ".txt"] : [])
                + (options.overlay && overlayPNG != nil ? [photo.outputBase + ".overlay.png"] : [])
            do {
                try journal.append(JournalEntry(event: .done, key: photo.outputBase, sha256: sha ?? result.source.sha256,
                                                settings: settingsHash, record: record, outputs: outputs, pid: getpid()))
            } catch {
                logger.error("journal not written", metadata: ["file": "\(photo.displayPath)", "code": "\(error.code)", "detail": "\(error.detail ?? "")"])
                stop(error)
                return false
            }
        }
        var meta: Logger.Metadata = [
            "file": "\(photo.displayPath)", "status": "\(result.status.rawValue)",
            "seconds": "\(String(format: "%.3f", record.seconds))",
            "timings": .dictionary(result.timings.mapValues { .string(String(format: "%.4f", $0)) }),
        ]
        if let m = result.messages.first {
            meta["code"] = "\(m.code)"
            meta["severity"] = "\(m.severity.rawValue)"
            if let detail = m.detail { meta["detail"] = "\(detail)" }
        }
        if let c = result.ocr?.meanConfidence { meta["confidence"] = "\(String(format: "%.3f", c))" }
        logger.info("photo done", metadata: meta)
        observer?(photo, result)
        finish(i, record, reused: false)
        return true
    }

    private enum Isolated {
        case done(PhotoResult, [UInt8]?)
        case stop
    }

    /// Seconds a worker gets past `--timeout` before it is killed: the OCR
    /// engine's own limit stops recognition at `--timeout` and reports it.
    static func grace(_ timeout: Double) -> Double { min(5, max(0.5, timeout / 4)) }

    /// How long a new worker may take to load its engines.
    static let engineLoadSeconds: Int64 = 300

    /// One photo in a worker process. A worker that dies (signal, trap,
    /// abort, OOM kill) or runs past the timeout is replaced; the photo keeps
    /// the OCR result the worker handed back before, else it is tried once
    /// more in a fresh worker and then recorded as `error` MSG-PROC-001.
    private func runIsolated(_ photo: InputPhoto, _ iso: IsolationOptions, process: inout WorkerProcess?, sha: String?) -> Isolated {
        let clock = ContinuousClock()
        let start = clock.now
        let decoder = JSONDecoder()
        var failures: [String] = []
        for attempt in 1...2 {
            if process == nil {
                guard let started = WorkerProcess(isolation: iso, config: WorkerConfig(settings: options.settings, overlay: options.overlay, hooks: iso.hooks)) else {
                    let e = MenuScanError.processing.with(detail: "a worker process could not be started: \(String(cString: strerror(errno)))")
                    logger.critical("\(e.title): \(e.message)", metadata: ["code": "\(e.code)", "detail": "\(e.detail ?? "")"])
                    stop(e)
                    return .stop
                }
                // Wait for its engines (not counted against the photo's --timeout).
                switch started.replies.next(deadline: clock.now + .seconds(Self.engineLoadSeconds)) {
                case .frame(let data):
                    guard let (kind, json) = Frames.split(data), let reply = try? decoder.decode(WorkerReply.self, from: json) else {
                        let e = MenuScanError.processing.with(detail: "a worker process sent an unreadable first reply")
                        logger.critical("\(e.title): \(e.message)", metadata: ["code": "\(e.code)", "detail": "\(e.detail ?? "")"])
                        _ = started.terminate()
                        stop(e)
                        return .stop
                    }
                    if kind == .fatal {
                        let e = reply.error ?? MenuScanError.processing
                        logger.critical("engine could not start", metadata: ["code": "\(e.code)", "detail": "\(e.detail ?? "")"])
                        _ = started.finish()
                        stop(e)
                        return .stop
                    }
                case .closed, .timedOut:
                    // Died or hung while loading: a worker problem, not the photo's; counts as an attempt.
                    let ending = started.terminate()
                    failures.append("a worker could not load its engines (\(ending.description))")
                    logger.warning("worker lost while loading its engines", metadata: ["detail": "\(ending.description)"])
                    continue
                }
                process = started
            }
            guard let w = process else { return .stop }
            var stage = "read"
            var checkpoint: Data?
            var ending: WorkerProcess.Ending?
            var timedOut = false
            if w.send(WorkerJob(photo: photo)) {
                let deadline = clock.now + .milliseconds(Int((iso.timeoutSeconds + Self.grace(iso.timeoutSeconds)) * 1000))
                receive: while true {
                    switch w.replies.next(deadline: deadline) {
                    case .frame(let data):
                        guard let (kind, json) = Frames.split(data) else {
                            ending = w.terminate()
                            break receive
                        }
                        // Kept as bytes: decoded only if the worker dies.
                        if kind == .checkpoint {
                            checkpoint = json
                            continue
                        }
                        guard let reply = try? decoder.decode(WorkerReply.self, from: json) else {
                            ending = w.terminate()
                            break receive
                        }
                        switch reply.kind {
                        case .stage:
                            stage = reply.stage ?? stage
                        case .checkpoint:
                            break
                        case .result:
                            guard let result = reply.result else {
                                ending = w.terminate()
                                break receive
                            }
                            w.countPhoto()
                            samplePeakMemory()
                            if w.photosDone >= iso.maximumPhotos || (w.residentBytes ?? 0) > iso.maximumRSSBytes {
                                logger.info("worker recycled", metadata: ["photos": "\(w.photosDone)", "rssBytes": "\(w.residentBytes ?? 0)"])
                                w.retire()
                                process = nil
                            }
                            return .done(result, reply.overlayPNG.map { Array($0) })
                        case .fatal:
                            break  // only sent at start-up
                        }
                    case .closed:
                        ending = w.finish()
                        break receive
                    case .timedOut:
                        timedOut = true
                        ending = w.terminate()
                        break receive
                    }
                }
            } else {
                ending = w.terminate()
            }
            process = nil
            let reason = timedOut
                ? "over the --timeout of \(String(format: "%g", iso.timeoutSeconds)) s in stage \(stage); the worker was killed"
                : "\(ending?.description ?? "the worker ended") in stage \(stage)"
            if !timedOut, let journal = options.journal {
                // Pinned on the photo, should this run be killed before it records the photo.
                try? journal.append(JournalEntry(event: .crash, key: photo.outputBase, sha256: sha, settings: settingsHash, pid: w.pid))
            }
            if let checkpoint, var kept = (try? decoder.decode(WorkerReply.self, from: checkpoint))?.result {
                // A stage after OCR failed: the OCR result stands (R4 status), the stage is named.
                var message = ResultMessage(MenuScanError.processing.with(detail: stage))
                message.severity = .medium
                kept.messages.append(message)
                kept.timings["total"] = (clock.now - start).seconds
                logger.warning("a stage after OCR failed; the OCR result is kept", metadata: [
                    "file": "\(photo.displayPath)", "code": "MSG-PROC-001", "stage": "\(stage)", "detail": "\(reason)"])
                return .done(kept, nil)
            }
            failures.append(reason)
            if attempt == 1 {
                logger.warning("worker lost on a photo; trying it once more in a fresh worker", metadata: [
                    "file": "\(photo.displayPath)", "detail": "\(reason)"])
            }
        }
        let detail = failures.count == 2 && failures[0] == failures[1] ? "\(failures[0]) (twice)" : failures.joined(separator: "; retried: ")
        logger.error("photo lost its worker twice; recorded as an error", metadata: ["file": "\(photo.displayPath)", "code": "MSG-PROC-001", "detail": "\(detail)"])
        return .done(PhotoResult(source: SourceInfo(path: photo.displayPath, sha256: sha), status: .error,
                                 messages: [ResultMessage(MenuScanError.processing.with(detail: detail))],
                                 timings: ["total": (clock.now - start).seconds]), nil)
    }

    /// A file whose name is not valid UTF-8 (e.g. Latin-1 bytes from an old
    /// camera or a zip) is listed with U+FFFD in place of those bytes, and that
    /// name does not exist: say so, instead of "No such file or directory".
    static func unreadableName(_ photo: InputPhoto) -> MenuScanError? {
        guard photo.path.unicodeScalars.contains("\u{FFFD}") else { return nil }
        var st = stat()
        guard lstat(photo.path, &st) != 0, errno == ENOENT else { return nil }
        return MenuScanError.fileAccess.with(
            detail: "\((photo.path as NSString).lastPathComponent): the file name is not valid UTF-8 (its bytes are shown as \u{FFFD}); rename the file and run the same command again")
    }

    /// Peak of supervisor + workers' resident memory, sampled after each photo.
    private func samplePeakMemory() {
        let total = (ProcessMemory.currentRSSBytes() ?? 0) + WorkerRegistry.shared.residentBytes()
        lock.lock()
        peakTotalRSS = max(peakTotalRSS, total)
        lock.unlock()
    }

    /// The journal's record when the photo is done with the same content and
    /// settings and its outputs are still there (and the mode keeps it).
    private func keptRecord(_ photo: InputPhoto, sha: String?) -> PhotoRecord? {
        guard options.journal != nil, options.mode != .force, let sha,
              let done = state.photos[photo.outputBase]?.done,
              done.sha256 == sha, done.settings == settingsHash, var record = done.record else { return nil }
        if options.mode == .retryFailed, record.status != .ok, record.status != .partial { return nil }
        let fm = FileManager.default
        for output in done.outputs ?? [record.output] {
            guard fm.fileExists(atPath: options.outputDirectory.appendingPathComponent(output).path) else { return nil }
        }
        record.path = photo.displayPath
        return record
    }

    private func finish(_ i: Int, _ record: PhotoRecord, reused wasKept: Bool) {
        lock.lock()
        records[i] = record
        counts[record.status, default: 0] += 1
        done += 1
        if wasKept { reused += 1 }
        let snapshot = BatchProgress(done: done, total: photos.count, counts: counts,
                                     elapsed: (ContinuousClock.now - started).seconds, reused: reused)
        lock.unlock()
        progress?(snapshot)
    }

    private func logRetry(_ photo: InputPhoto, _ failure: IOFailure, _ attempt: Int, _ wait: Double) {
        logger.warning("transient I/O error, retrying", metadata: [
            "file": "\(photo.displayPath)", "detail": "\(failure)", "attempt": "\(attempt)", "wait": "\(wait)",
        ])
    }

    /// Writes NAME.txt then NAME.json (each atomically, transient errors
    /// retried) and returns the record kept in memory. If either cannot be
    /// written, both are removed: a photo has both outputs or none.
    private func write(_ result: inout PhotoResult, overlayPNG: [UInt8]? = nil, for photo: InputPhoto) throws(MenuScanError) -> PhotoRecord {
        let clock = ContinuousClock()
        let start = clock.now
        let jsonURL = options.outputDirectory.appendingPathComponent(photo.outputBase + ".json")
        let textURL = options.outputDirectory.appendingPathComponent(photo.outputBase + ".txt")
        let overlayURL = options.outputDirectory.appendingPathComponent(photo.outputBase + ".overlay.png")
        let writer = options.writer
        func put(_ bytes: [UInt8], _ url: URL) throws(IOFailure) {
            try options.retry.run(path: url.path, onRetry: { self.logRetry(photo, $0, $1, $2) }) { () throws(IOFailure) in
                try writer.write(bytes, url)
            }
        }
        var json: [UInt8] = []
        do {
            if let ocr = result.ocr {
                try put(Array((ReadableText.text(of: ocr.page) + "\n").utf8), textURL)
            } else {
                unlink(textURL.path)  // no stale text from an earlier run
            }
            if options.overlay {
                if let overlayPNG {
                    try put(overlayPNG, overlayURL)
                } else {
                    unlink(overlayURL.path)  // no stale overlay of an earlier run
                }
            }
            result.timings["output"] = (clock.now - start).seconds
            json = try ResultJSON.encode(result)
            try put(json, jsonURL)
        } catch let failure as IOFailure {
            unlink(textURL.path)
            unlink(jsonURL.path)
            if options.overlay { unlink(overlayURL.path) }
            throw failure.storageError
        } catch {
            unlink(textURL.path)
            unlink(jsonURL.path)
            if options.overlay { unlink(overlayURL.path) }
            throw (error as? MenuScanError) ?? MenuScanError.processing.with(detail: "\(error)")
        }
        return PhotoRecord(path: photo.displayPath, output: photo.outputBase + ".json", status: result.status,
                           codes: result.messages.map(\.code), meanConfidence: result.ocr?.meanConfidence,
                           characters: result.ocr?.characters, seconds: result.timings["total"] ?? 0,
                           timings: StageTimings(result.timings), items: result.menu?.items.count,
                           allergens: result.menu.map { $0.items.reduce(0) { $0 + $1.allergens.count } })
    }

    /// Removes temporary files a killed run left for this run's outputs
    /// (only its own: shards sharing the folder keep theirs).
    private func sweepTemporaryFiles() {
        var targets = Set<String>()
        for p in photos {
            targets.insert(p.outputBase + ".json")
            targets.insert(p.outputBase + ".txt")
            targets.insert(p.outputBase + ".overlay.png")
        }
        let root = options.outputDirectory
        let meta = Journal.folderName + "/summary-" + (options.shard?.label ?? "") + ".json"
        targets.formUnion(["summary.json", "summary.csv", "items.csv", meta])
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return }
        var removed = 0
        while let relative = walker.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            guard let target = AtomicWriter.temporaryTarget(ofName: name) else { continue }
            let dir = (relative as NSString).deletingLastPathComponent
            let targetPath = dir.isEmpty ? target : dir + "/" + target
            if targets.contains(targetPath), unlink(root.appendingPathComponent(relative).path) == 0 { removed += 1 }
        }
        if removed > 0 { logger.notice("removed temporary files left by an interrupted run", metadata: ["count": "\(removed)"]) }
    }
}

/// JSON encoding shared by every output: sorted keys, pretty, no escaped slashes.
public enum ResultJSON {
    public static func encode<T: Encodable>(_ value: T, pretty: Bool = false) throws(MenuScanError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        do {
            return Array(try encoder.encode(value)) + [0x0A]
        } catch {
            throw MenuScanError.processing.with(detail: "JSON encoding failed: \(error)")
        }
    }
}

/// glibc's `malloc_trim(0)`: returns free heap pages of every arena to the
/// system. Looked up at run time (not in Swift's Glibc module); a no-op where missing.
enum MemoryTrim {
    private typealias Trim = @convention(c) (Int) -> Int32
    private static let function: Trim? = dlsym(nil, "malloc_trim").map { unsafeBitCast($0, to: Trim.self) }

    static func trim() {
        _ = function?(0)
    }
}
