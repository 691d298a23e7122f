/// What happened to one photo.
public enum PhotoStatus: String, Codable, Sendable, CaseIterable {
    /// Read; results usable.
    case ok
    /// Part read, part not (R5).
    case partial
    /// OCR ran but the threshold rules failed it (R4, MSG-OCR-001).
    case failed
    /// The quality gate refused it before OCR (R2, MSG-QUALITY-001).
    case rejected
    /// It could not be processed at all (unreadable file, engine failure).
    case error
}

/// The verdict of the threshold rules on one page.
public struct RuleVerdict: Equatable, Sendable {
    public let status: PhotoStatus
    public let message: MenuScanError?
    /// Which rule failed, for logs and JSON ("characters", "confidence"); nil when passed.
    public let failedRule: String?
}

/// R4 (VegyScan OCR scenario 1): fewer than `minimumCharacters` recognised
/// characters (whitespace not counted), or every word's confidence below
/// `minimumConfidence`, means the photo failed. A word without a confidence
/// cannot vouch for the page, so it counts as below the threshold.
///
/// "Recognised" characters are those of words read with at least
/// `minimumConfidence`: Tesseract turns texture in food photos into a few
/// low-confidence "words", and counting those would let a photo with no menu
/// text pass on noise. (Measured on ../shared/eval/menus: one negative photo
/// passed with 12 characters, 6 of them in words below 0.3.)
public struct ThresholdRules: Sendable, Equatable {
    public var minimumCharacters: Int
    public var minimumConfidence: Double

    public init(minimumCharacters: Int = 10, minimumConfidence: Double = 0.3) {
        self.minimumCharacters = minimumCharacters
        self.minimumConfidence = minimumConfidence
    }

    public func evaluate(_ page: OCRPage) -> RuleVerdict {
        let words = page.words
        let confident = words.filter { ($0.confidence ?? 0) >= minimumConfidence }
        if !words.isEmpty, confident.isEmpty {
            return RuleVerdict(status: .failed,
                               message: MenuScanError.ocrFailed.with(detail: "every word's confidence is below \(minimumConfidence)"),
                               failedRule: "confidence")
        }
        let characters = OCRPage.characterCount(of: confident)
        if characters < minimumCharacters {
            return RuleVerdict(status: .failed,
                               message: MenuScanError.ocrFailed.with(
                                   detail: "\(characters) characters recognised with confidence ≥ \(minimumConfidence), fewer than \(minimumCharacters)"),
                               failedRule: "characters")
        }
        return RuleVerdict(status: .ok, message: nil, failedRule: nil)
    }
}
