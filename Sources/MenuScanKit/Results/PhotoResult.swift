/// A message as written into the JSON (R9).
public struct ResultMessage: Codable, Equatable, Sendable {
    public var code: String
    public var title: String
    public var message: String
    public var recovery: String
    public var severity: Severity
    public var recoverable: Bool
    public var detail: String?

    public init(_ error: MenuScanError) {
        code = error.code
        title = error.title
        message = error.message
        recovery = error.recovery
        severity = error.severity
        recoverable = error.recoverable
        detail = error.detail
    }
}

/// The photo as read: where it came from and its upright size.
public struct SourceInfo: Codable, Equatable, Sendable {
    /// Path as given on the command line (joined with the folder's relative path).
    public var path: String
    public var sha256: String?
    public var bytes: Int?
    /// Detected content format.
    public var format: String?
    /// Upright width and height in pixels (after EXIF orientation).
    public var width: Int?
    public var height: Int?
    /// EXIF/TIFF orientation applied (1 = none).
    public var orientation: Int?
    /// PDF inputs: this result's page (1-based) and the document's page count.
    public var page: Int?
    public var pages: Int?
    /// PDF pages: the resolution the page was rendered at (its pixel frame).
    public var dpi: Double?
    /// PDF pages: the text layer's measures and whether it replaced OCR.
    public var textLayer: TextLayerReport?
}

/// OCR results of one photo.
public struct OCRResult: Codable, Equatable, Sendable {
    public var engine: String
    public var language: String
    public var pageSegmentationMode: Int
    public var meanConfidence: Double?
    public var minConfidence: Double?
    public var characters: Int
    public var wordCount: Int
    /// Lines the second pass read that the layout pass had left unread (nil when off).
    public var recoveredLines: Int?
    /// What the reading-order stage did (nil when off).
    public var readingOrder: ReadingOrder.Record?
    /// `--lang auto`: the first read's language scores and the choice (nil otherwise).
    public var languageDetection: LanguageChoice?
    public var blocks: [OCRBlock]

    public init(page: OCRPage, engine: String, settings: OCRSettings) {
        self.engine = engine
        language = settings.language
        pageSegmentationMode = settings.pageSegmentationMode
        meanConfidence = page.meanConfidence
        minConfidence = page.minConfidence
        characters = page.characterCount
        wordCount = page.words.count
        blocks = page.blocks
    }

    public var page: OCRPage { OCRPage(blocks: blocks) }

    enum CodingKeys: String, CodingKey {
        case engine, language, meanConfidence, minConfidence, characters, blocks, recoveredLines, readingOrder, languageDetection
        case pageSegmentationMode = "psm"
        case wordCount = "words"
    }
}

/// Everything written to NAME.json for one photo. `schemaVersion` changes
/// whenever a key changes meaning or goes away (additions keep it).
public struct PhotoResult: Codable, Equatable, Sendable {
    public static let currentSchemaVersion = 1

    public var schemaVersion: Int = PhotoResult.currentSchemaVersion
    public var source: SourceInfo
    public var status: PhotoStatus
    public var messages: [ResultMessage]
    public var ocr: OCRResult?
    /// The quality gate's verdict, defects and metrics (absent with --quality off).
    public var quality: QualityReport?
    /// Menu items with allergens, diet and safety (absent when not OCR'd or failed).
    public var menu: MenuAnalysis?
    /// What preprocessing did (rotation, scale, thresholding).
    public var preprocessing: PreprocessRecord?
    /// Seconds per stage ("decode", "quality", "preprocess", "ocr", "rules", "hotspots", "output", "total").
    public var timings: [String: Double]
    /// Tappable regions on what was read (R5, R6), in reading order; absent
    /// when the photo was never OCR'd.
    public var hotspots: [Hotspot]?
    /// Areas with text-like content but no confidently read words (R5).
    public var unrecognizedRegions: [UnrecognizedRegion]?
    /// The areas behind the partial rule (see `HotspotStage`).
    public var textCoverage: TextCoverage?
    /// How well the photo was read, compared with what it holds: features and
    /// the calibrated `readConfidence` (issue 17, `ReadQualityStage`).
    public var readQuality: ReadQuality?

    public init(source: SourceInfo, status: PhotoStatus, messages: [ResultMessage] = [],
                ocr: OCRResult? = nil, timings: [String: Double] = [:]) {
        self.source = source
        self.status = status
        self.messages = messages
        self.ocr = ocr
        self.timings = timings
    }

    /// The first message's code, if any (for summaries and logs).
    public var primaryCode: String? { messages.first?.code }
}
