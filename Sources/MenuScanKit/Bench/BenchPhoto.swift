/// One recognised word as the bench sees it.
public struct BenchWord: Codable, Sendable, Equatable {
    public var text: String
    /// 0…1, nil when the engine gave none.
    public var confidence: Double?

    public init(text: String, confidence: Double?) {
        self.text = text
        self.confidence = confidence
    }
}

/// One photo's outcome as the bench sees it (filled from the pipeline or from
/// an earlier scan's JSON by `ScanOutputReader`).
public struct BenchPhoto: Codable, Sendable, Equatable {
    /// The statuses a photo can have; reports always list these, with zero counts.
    public static let knownStatuses = ["ok", "partial", "failed", "rejected", "error"]

    /// Relative path of the photo.
    public var path: String
    /// "ok" | "partial" | "failed" | "rejected" | "error".
    public var status: String
    /// Message codes reported for the photo, e.g. ["MSG-OCR-001"].
    public var messageCodes: [String]
    /// Recognised words in reading order.
    public var words: [BenchWord]
    /// The recognised plain text (lines separated by \n).
    public var text: String
    /// Contents of NAME.gt.txt beside the photo, when present.
    public var groundTruth: String?
    /// Seconds per stage, e.g. "decode", "quality", "ocr", "classify", "output".
    public var stageSeconds: [String: Double]
    /// The photo's calibrated read confidence (`readQuality.readConfidence`), when reported.
    public var readConfidence: Double? = nil

    public init(path: String, status: String, messageCodes: [String] = [], words: [BenchWord] = [],
                text: String = "", groundTruth: String? = nil, stageSeconds: [String: Double] = [:]) {
        self.path = path
        self.status = status
        self.messageCodes = messageCodes
        self.words = words
        self.text = text
        self.groundTruth = groundTruth
        self.stageSeconds = stageSeconds
    }

    /// The same photo from an OCR result: its words and plain text.
    public init(path: String, status: String, messageCodes: [String] = [], page: OCRPage?,
                groundTruth: String? = nil, stageSeconds: [String: Double] = [:]) {
        self.init(path: path, status: status, messageCodes: messageCodes,
                  words: page?.words.map { BenchWord(text: $0.text, confidence: $0.confidence) } ?? [],
                  text: page.map(ReadableText.text(of:)) ?? "", groundTruth: groundTruth, stageSeconds: stageSeconds)
    }
}
