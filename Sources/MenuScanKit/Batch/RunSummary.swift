import Foundation

/// summary.json: the run as a whole. Metadata only (R12).
public struct RunSummary: Codable, Sendable {
    public var schemaVersion = 1
    /// Photos this run was given (after `--shard`).
    public var photos: Int
    /// Photos with a result: done by this run or kept from an earlier one.
    public var processed: Int
    /// Of `processed`, results kept from earlier runs (same content and settings).
    public var reused: Int?
    public var counts: [String: Int]
    public var wallSeconds: Double
    /// Photos done by this run per wall second (kept results not counted).
    public var photosPerSecond: Double
    /// Mean of the per-photo mean word confidences, over photos that were OCR'd.
    public var meanConfidence: Double?
    public var warnings: [ResultMessage]
    public var fatal: ResultMessage?
    /// The run was stopped by SIGINT/SIGTERM before every photo was done.
    public var interrupted: Bool?
    /// "K/N" when this is one shard's summary.
    public var shard: String?
    /// Peak resident memory of the process (VmHWM) when the summary was made.
    public var peakRSSBytes: Int?
    public var settings: ScanSettings
    public var jobs: Int
    public var engine: String
    public var files: [PhotoRecord]

    /// R14: a run whose mean OCR confidence is below this gets a warning.
    public static let lowConfidenceWarningThreshold = 0.5

    public init(records: [PhotoRecord], total: Int, wallSeconds: Double, settings: ScanSettings,
                jobs: Int, fatal: MenuScanError?, reused: Int = 0, interrupted: Bool = false,
                shard: Shard? = nil, peakRSSBytes: Int? = ProcessMemory.peakRSSBytes()) {
        self.init(records: records, total: total, wallSeconds: wallSeconds, settings: settings, jobs: jobs,
                  fatal: fatal.map(ResultMessage.init), reused: reused, interrupted: interrupted,
                  shard: shard?.description, peakRSSBytes: peakRSSBytes)
    }

    init(records: [PhotoRecord], total: Int, wallSeconds: Double, settings: ScanSettings, jobs: Int,
         fatal: ResultMessage?, reused: Int, interrupted: Bool, shard: String?, peakRSSBytes: Int?) {
        photos = total
        processed = records.count
        self.reused = reused
        var counts: [String: Int] = [:]
        for status in PhotoStatus.allCases { counts[status.rawValue] = 0 }
        for r in records { counts[r.status.rawValue, default: 0] += 1 }
        self.counts = counts
        self.wallSeconds = wallSeconds
        photosPerSecond = wallSeconds > 0 ? Double(records.count - reused) / wallSeconds : 0
        let confidences = records.compactMap(\.meanConfidence)
        meanConfidence = confidences.isEmpty ? nil : confidences.reduce(0, +) / Double(confidences.count)
        warnings = []
        if let m = meanConfidence, m < Self.lowConfidenceWarningThreshold {
            warnings.append(ResultMessage(MenuScanError.lowConfidenceResults.with(
                detail: String(format: "run mean OCR confidence %.3f is below %.1f", m, Self.lowConfidenceWarningThreshold))))
        }
        self.fatal = fatal
        self.interrupted = interrupted ? true : nil
        self.shard = shard
        self.peakRSSBytes = peakRSSBytes
        self.settings = settings
        self.jobs = jobs
        engine = "tesseract \(TesseractEngine.version)"
        files = records
    }
}

extension RunSummary {
    /// Writes `summary.json` and `summary.csv` (files sorted by path)
    /// atomically into `directory`; a shard's summary goes to
    /// `.menuscan/summary-shard-K-of-N.json` instead, for `menuscan merge`.
    public func write(to directory: URL, shard: Shard? = nil) throws(MenuScanError) {
        var sorted = self
        sorted.files.sort { $0.path < $1.path }
        let json = try ResultJSON.encode(sorted, pretty: true)
        if let shard {
            try AtomicWriter.write(json, to: Journal.folder(in: directory).appendingPathComponent("summary-\(shard.label).json"))
            return
        }
        try AtomicWriter.write(Array(SummaryCSV.render(sorted.files).utf8), to: directory.appendingPathComponent("summary.csv"))
        try AtomicWriter.write(json, to: directory.appendingPathComponent("summary.json"))
    }
}
