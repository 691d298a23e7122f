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
    /// Both are streamed one photo row at a time, so a 10,000-photo summary
    /// does not need a second copy of itself in memory.
    public func write(to directory: URL, shard: Shard? = nil) throws(MenuScanError) {
        // Usually sorted already (the runner sorts): then no copy is made.
        let inOrder = zip(self.files, self.files.dropFirst()).allSatisfy { $0.path <= $1.path }
        let files = inOrder ? self.files : self.files.sorted { $0.path < $1.path }
        if let shard {
            try writeJSON(files, to: Journal.folder(in: directory).appendingPathComponent("summary-\(shard.label).json"))
            return
        }
        try AtomicWriter.stream(to: directory.appendingPathComponent("summary.csv")) { (emit) throws(IOFailure) in
            try emit(Array(SummaryCSV.header.utf8))
            for r in files { try emit(Array(SummaryCSV.row(r).utf8)) }
        }
        try ItemsCSV.write(records: files, to: directory)
        try writeJSON(files, to: directory.appendingPathComponent("summary.json"))
    }

    /// The summary's JSON (sorted keys) with one `files` row per line.
    private func writeJSON(_ files: [PhotoRecord], to url: URL) throws(MenuScanError) {
        var head = self
        head.files = []
        let encoded = try ResultJSON.encode(head)
        let marker = Array(#""files":[]"#.utf8)
        guard let at = encoded.firstRange(of: marker) else {
            throw MenuScanError.processing.with(detail: "summary JSON has no files array")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var rowFailure: MenuScanError?
        try AtomicWriter.stream(to: url) { (emit) throws(IOFailure) in
            try emit(Array(encoded[..<at.lowerBound]) + Array(#""files":["#.utf8))
            for (i, r) in files.enumerated() {
                guard let row = try? encoder.encode(r) else {
                    rowFailure = MenuScanError.processing.with(detail: "summary row for \(r.output) could not be encoded")
                    throw IOFailure(code: EINVAL, what: "encoding summary")
                }
                try emit((i == 0 ? [0x0A] : [0x2C, 0x0A]) + Array(row))
            }
            try emit((files.isEmpty ? [] : [0x0A]) + Array(encoded[at.lowerBound.advanced(by: marker.count - 1)...]))
        }
        if let rowFailure { throw rowFailure }
    }
}
