import Foundation
import Logging

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
}

/// Progress of a run, reported after each photo.
public struct BatchProgress: Sendable {
    public var done: Int
    public var total: Int
    public var counts: [PhotoStatus: Int]
    public var elapsed: Double
}

/// Options of one batch run.
public struct BatchOptions: Sendable {
    public var settings: ScanSettings
    public var outputDirectory: URL
    public var jobs: Int
    /// Also write NAME.overlay.png (hotspots and unrecognised regions on the photo).
    public var overlay: Bool

    public init(settings: ScanSettings, outputDirectory: URL, jobs: Int, overlay: Bool = false) {
        self.settings = settings
        self.outputDirectory = outputDirectory
        self.jobs = max(1, jobs)
        self.overlay = overlay
    }
}

/// How a run ended.
public struct BatchOutcome: Sendable {
    public var records: [PhotoRecord]
    public var summary: RunSummary
    /// A problem that stopped the run early (model missing, storage full).
    public var fatal: MenuScanError?
}

/// Runs the pipeline over many photos on `jobs` dedicated threads, one
/// Tesseract engine per thread (recognition blocks for about a second, so it
/// stays off Swift's cooperative pool). Each photo's outputs are written
/// atomically as soon as it is done.
public final class BatchRunner: @unchecked Sendable {
    // @unchecked: every mutable field below is guarded by `lock`.
    private let lock = NSLock()
    private var next = 0
    private var records: [PhotoRecord?]
    private var counts: [PhotoStatus: Int] = [:]
    private var done = 0
    private var fatal: MenuScanError?

    private let photos: [InputPhoto]
    private let options: BatchOptions
    private let logger: Logger
    private let progress: (@Sendable (BatchProgress) -> Void)?
    private let observer: (@Sendable (InputPhoto, PhotoResult) -> Void)?
    private let started = ContinuousClock.now

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
        records = Array(repeating: nil, count: photos.count)
    }

    public func run() -> BatchOutcome {
        let workers = min(options.jobs, max(1, photos.count))
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

        let wall = (ContinuousClock.now - started).seconds
        let kept = records.compactMap { $0 }
        let summary = RunSummary(records: kept, total: photos.count, wallSeconds: wall,
                                 settings: options.settings, jobs: workers, fatal: fatal)
        return BatchOutcome(records: kept, summary: summary, fatal: fatal)
    }

    private func takeNext() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard fatal == nil, next < photos.count else { return nil }
        defer { next += 1 }
        return next
    }

    private func stop(_ error: MenuScanError) {
        lock.lock()
        if fatal == nil { fatal = error }
        lock.unlock()
    }

    private func worker(_ index: Int) {
        let processor: PhotoProcessor
        do {
            processor = try PhotoProcessor(settings: options.settings)
        } catch {
            logger.critical("engine could not start", metadata: ["code": "\(error.code)", "detail": "\(error.detail ?? "")"])
            stop(error)
            return
        }
        if options.overlay { processor.overlay = OverlayStyle() }
        while let i = takeNext() {
            let photo = photos[i]
            let result = processor.process(fileAt: photo.url, displayPath: photo.displayPath)
            let record: PhotoRecord
            var written = result
            do {
                record = try write(&written, overlayPNG: processor.overlayPNG, for: photo)
            } catch {
                logger.error("output not written", metadata: ["file": "\(photo.displayPath)", "code": "\(error.code)", "detail": "\(error.detail ?? "")"])
                stop(error)
                return
            }
            var meta: Logger.Metadata = [
                "file": "\(photo.displayPath)", "status": "\(result.status.rawValue)",
                "seconds": "\(String(format: "%.3f", record.seconds))",
            ]
            if let code = result.primaryCode { meta["code"] = "\(code)" }
            if let c = result.ocr?.meanConfidence { meta["confidence"] = "\(String(format: "%.3f", c))" }
            if let detail = result.messages.first?.detail { meta["detail"] = "\(detail)" }
            logger.info("photo done", metadata: meta)
            observer?(photo, written)

            lock.lock()
            records[i] = record
            counts[result.status, default: 0] += 1
            done += 1
            let snapshot = BatchProgress(done: done, total: photos.count, counts: counts,
                                         elapsed: (ContinuousClock.now - started).seconds)
            lock.unlock()
            progress?(snapshot)
        }
    }

    /// Writes NAME.json and NAME.txt atomically and returns the record kept in memory.
    private func write(_ result: inout PhotoResult, overlayPNG: [UInt8]? = nil, for photo: InputPhoto) throws(MenuScanError) -> PhotoRecord {
        let clock = ContinuousClock()
        let start = clock.now
        let jsonURL = options.outputDirectory.appendingPathComponent(photo.outputBase + ".json")
        let textURL = options.outputDirectory.appendingPathComponent(photo.outputBase + ".txt")
        if let ocr = result.ocr {
            try AtomicWriter.write(ocr.page.text + "\n", to: textURL)
        } else {
            try? FileManager.default.removeItem(at: textURL)  // no stale text from an earlier run
        }
        if options.overlay {
            let overlayURL = options.outputDirectory.appendingPathComponent(photo.outputBase + ".overlay.png")
            if let overlayPNG {
                try AtomicWriter.write(overlayPNG, to: overlayURL)
            } else {
                try? FileManager.default.removeItem(at: overlayURL)  // no stale overlay of an earlier run
            }
        }
        result.timings["output"] = (clock.now - start).seconds
        try AtomicWriter.write(try ResultJSON.encode(result), to: jsonURL)
        return PhotoRecord(path: photo.displayPath, output: photo.outputBase + ".json", status: result.status,
                           codes: result.messages.map(\.code), meanConfidence: result.ocr?.meanConfidence,
                           characters: result.ocr?.characters, seconds: result.timings["total"] ?? 0)
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
