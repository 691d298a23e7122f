import Foundation

/// summary.json: the run as a whole. Metadata only (R12).
public struct RunSummary: Codable, Sendable {
    public var schemaVersion = 1
    public var photos: Int
    public var processed: Int
    public var counts: [String: Int]
    public var wallSeconds: Double
    public var photosPerSecond: Double
    /// Mean of the per-photo mean word confidences, over photos that were OCR'd.
    public var meanConfidence: Double?
    public var warnings: [ResultMessage]
    public var fatal: ResultMessage?
    public var settings: ScanSettings
    public var jobs: Int
    public var engine: String
    public var files: [PhotoRecord]

    /// R14: a run whose mean OCR confidence is below this gets a warning.
    public static let lowConfidenceWarningThreshold = 0.5

    public init(records: [PhotoRecord], total: Int, wallSeconds: Double, settings: ScanSettings,
                jobs: Int, fatal: MenuScanError?) {
        photos = total
        processed = records.count
        var counts: [String: Int] = [:]
        for status in PhotoStatus.allCases { counts[status.rawValue] = 0 }
        for r in records { counts[r.status.rawValue, default: 0] += 1 }
        self.counts = counts
        self.wallSeconds = wallSeconds
        photosPerSecond = wallSeconds > 0 ? Double(records.count) / wallSeconds : 0
        let confidences = records.compactMap(\.meanConfidence)
        meanConfidence = confidences.isEmpty ? nil : confidences.reduce(0, +) / Double(confidences.count)
        warnings = []
        if let m = meanConfidence, m < Self.lowConfidenceWarningThreshold {
            warnings.append(ResultMessage(MenuScanError.lowConfidenceResults.with(
                detail: String(format: "run mean OCR confidence %.3f is below %.1f", m, Self.lowConfidenceWarningThreshold))))
        }
        self.fatal = fatal.map(ResultMessage.init)
        self.settings = settings
        self.jobs = jobs
        engine = "tesseract \(TesseractEngine.version)"
        files = records
    }
}

extension RunSummary {
    /// Writes `summary.json` (files sorted by path) atomically into `directory`.
    public func write(to directory: URL) throws(MenuScanError) {
        var sorted = self
        sorted.files.sort { $0.path < $1.path }
        try AtomicWriter.write(try ResultJSON.encode(sorted, pretty: true), to: directory.appendingPathComponent("summary.json"))
    }
}
