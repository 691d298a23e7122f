import CTesseract
import Foundation

/// Settings of one OCR engine. Equal settings give equal results.
public struct OCRSettings: Sendable, Hashable, Codable {
    /// Tesseract language(s), e.g. "eng" or "eng+deu", or "auto" (`--lang
    /// auto`: read with eng, again with another installed language when the
    /// text scores as that language; see `LanguageDetector`).
    public var language: String
    /// Page segmentation mode (Tesseract's PSM numbering, 0…13).
    public var pageSegmentationMode: Int
    /// A folder holding LANG.traineddata, tried before all others.
    public var tessdataDirectory: String?
    /// Stop recognising a photo after this many seconds (`--timeout`); nil = no limit.
    public var timeLimitSeconds: Double?
    /// Tesseract's binarisation (its `thresholding_method` variable).
    public var thresholding: Thresholding = .otsu
    /// Tesseract retries every line it reads with low confidence inverted
    /// (`tessedit_do_invert`, its default). Light text on a dark background
    /// is inverted before OCR instead (`LightTextFinder`).
    public var retryInverted = true

    /// Tesseract 5's thresholding methods.
    public enum Thresholding: String, Codable, Sendable, CaseIterable {
        /// Global Otsu (Tesseract's default).
        case otsu
        /// Leptonica's tiled adaptive Otsu.
        case adaptive
        /// Sauvola local thresholding.
        case sauvola

        var tesseractValue: String {
            switch self {
            case .otsu: "0"
            case .adaptive: "1"
            case .sauvola: "2"
            }
        }
    }

    /// PSM 3 (fully automatic layout, as the tesseract CLI) is the measured default for menus: see docs/ocr.md.
    public static let defaultPageSegmentationMode = 3

    public init(language: String = "eng", pageSegmentationMode: Int = OCRSettings.defaultPageSegmentationMode,
                tessdataDirectory: String? = nil, timeLimitSeconds: Double? = nil) {
        self.language = language
        self.pageSegmentationMode = pageSegmentationMode
        self.tessdataDirectory = tessdataDirectory
        self.timeLimitSeconds = timeLimitSeconds
    }

    /// Where Tesseract models are looked for, in order.
    public func tessdataCandidates(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        var dirs: [String] = []
        if let tessdataDirectory { dirs.append(tessdataDirectory) }
        if let models = ModelLocator.modelsDirectory(environment: environment) {
            dirs.append(models.appendingPathComponent("tessdata").path)
        }
        if let prefix = environment["TESSDATA_PREFIX"], !prefix.isEmpty {
            dirs.append(prefix)
            dirs.append((prefix as NSString).appendingPathComponent("tessdata"))
        }
        dirs += ["/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata",
                 "/usr/share/tessdata", "/usr/local/share/tessdata"]
        return dirs
    }

    public static let auto = "auto"
    public var isAuto: Bool { language == Self.auto }
    /// The model(s) the first read loads: eng for auto.
    public var modelLanguage: String { isAuto ? "eng" : language }

    /// The first folder that holds every requested language, or nil.
    public func resolveTessdata() -> String? {
        let langs = modelLanguage.split(separator: "+").map(String.init)
        return tessdataCandidates().first { dir in
            langs.allSatisfy { FileManager.default.fileExists(atPath: "\(dir)/\($0).traineddata") }
        }
    }
}

/// Owns one `TessBaseAPI` for its whole life: initialised once, reused for
/// every photo, `End` + `Delete` exactly once in deinit. Not Sendable: one
/// engine per worker thread, never shared.
public final class TesseractEngine {
    private let api: OpaquePointer
    public let settings: OCRSettings
    /// The folder the model was loaded from.
    public let tessdata: String

    public static var version: String { String(cString: TessVersion()) }

    public init(settings: OCRSettings) throws(MenuScanError) {
        let osdOnly = settings.language == "osd"
        guard (0...13).contains(settings.pageSegmentationMode), settings.pageSegmentationMode != 0 || osdOnly else {
            throw MenuScanError.processing.with(detail: "page segmentation mode \(settings.pageSegmentationMode) is not one that recognises text (1…13)")
        }
        guard let tessdata = settings.resolveTessdata() else {
            throw MenuScanError.modelUnavailable.with(
                detail: "no \(settings.modelLanguage.split(separator: "+").map { "\($0).traineddata" }.joined(separator: ", ")) in \(settings.tessdataCandidates().joined(separator: ", "))")
        }
        guard let api = TessBaseAPICreate() else {
            throw MenuScanError.processing.with(detail: "TessBaseAPICreate returned no engine")
        }
        LeptonicaQuiet.ensure()
        // Tesseract's own messages (tprintf) go to debug_file; we report through MenuScanError.
        _ = TessBaseAPISetVariable(api, "debug_file", "/dev/null")
        guard TessBaseAPIInit3(api, tessdata, settings.modelLanguage) == 0 else {
            TessBaseAPIEnd(api)
            TessBaseAPIDelete(api)
            throw MenuScanError.modelUnavailable.with(detail: "Tesseract could not load \(settings.modelLanguage) from \(tessdata)")
        }
        TessBaseAPISetPageSegMode(api, TessPageSegMode(UInt32(osdOnly ? 0 : settings.pageSegmentationMode)))
        _ = TessBaseAPISetVariable(api, "thresholding_method", settings.thresholding.tesseractValue)
        _ = TessBaseAPISetVariable(api, "tessedit_do_invert", settings.retryInverted ? "1" : "0")
        self.api = api
        self.settings = settings
        self.tessdata = tessdata
    }

    deinit {
        TessBaseAPIEnd(api)
        TessBaseAPIDelete(api)
    }

    /// Orientation and script detection (an engine made with language "osd"):
    /// how many degrees clockwise the image must turn to be upright, and
    /// Tesseract's confidence in it; nil when OSD found too little text.
    public func detectOrientation(_ image: Bitmap) -> (rotateClockwise: Int, confidence: Double)? {
        defer { TessBaseAPIClear(api) }
        image.withUnsafePointer { TessBaseAPISetImage2(api, $0) }
        var degrees: Int32 = 0
        var confidence: Float = 0
        var script: UnsafePointer<CChar>?
        var scriptConfidence: Float = 0
        guard TessBaseAPIDetectOrientationScript(api, &degrees, &confidence, &script, &scriptConfidence) != 0 else { return nil }
        // Tesseract reports the text's orientation (counter-clockwise); turning
        // the image by the same amount clockwise makes it upright.
        return ((360 - Int(degrees)) % 360, Double(confidence))
    }

    /// Reads each box of `image` as a single text line (PSM 7), for lines the
    /// page layout pass left unread. Returns one line per box that yielded
    /// words (in image pixels), in the order given.
    /// `proceed`: asked after each box with the line read there (nil when
    /// nothing was read); returning false stops before the next box.
    public func recognizeLines(_ image: Bitmap, boxes: [Box], proceed: ((OCRLine?) -> Bool)? = nil) -> [OCRLine] {
        guard !boxes.isEmpty else { return [] }
        defer {
            TessBaseAPIClear(api)
            TessBaseAPISetPageSegMode(api, TessPageSegMode(UInt32(settings.pageSegmentationMode)))
        }
        image.withUnsafePointer { TessBaseAPISetImage2(api, $0) }
        TessBaseAPISetPageSegMode(api, PSM_SINGLE_LINE)
        var lines: [OCRLine] = []
        for box in boxes where box.width > 0 && box.height > 0 {
            TessBaseAPISetRectangle(api, Int32(box.x), Int32(box.y), Int32(box.width), Int32(box.height))
            let line = recognizedLine()
            if let line { lines.append(line) }
            if let proceed, !proceed(line) { break }
        }
        return lines
    }

    /// Reads each crop as a single text line (PSM 7); word boxes in the crops'
    /// source pixels. One line per crop that yielded words, in the order given.
    public func recognizeLines(_ crops: [LineCrop]) -> [OCRLine] {
        guard !crops.isEmpty else { return [] }
        defer {
            TessBaseAPIClear(api)
            TessBaseAPISetPageSegMode(api, TessPageSegMode(UInt32(settings.pageSegmentationMode)))
        }
        TessBaseAPISetPageSegMode(api, PSM_SINGLE_LINE)
        var lines: [OCRLine] = []
        for crop in crops {
            crop.image.withUnsafePointer { TessBaseAPISetImage2(api, $0) }
            if let line = recognizedLine(mapping: crop.toSource) { lines.append(line) }
        }
        return lines
    }

    /// Recognises the image (or rectangle) set on the engine as one line: its words, boxes
    /// mapped by `mapping`; nil when recognition fails or reads nothing.
    private func recognizedLine(mapping: (Box) -> Box = { $0 }) -> OCRLine? {
        guard TessBaseAPIRecognize(api, nil) == 0, let iterator = ResultIterator(api: api) else { return nil }
        let words = iterator.page().words.map { w in
            OCRWord(text: w.text, confidence: w.confidence, box: mapping(w.box), recovered: w.recovered)
        }
        guard let first = words.first else { return nil }
        return OCRLine(box: words.dropFirst().reduce(first.box) { $0.union($1.box) }, words: words)
    }

    /// Why recognition returned an error: the time limit only when it was
    /// reached (a 1×40000 image fails at once, and must not read as a timeout).
    static func failureDetail(seconds: Double, limit: Double?, width: Int, height: Int) -> String {
        if let limit, seconds >= limit * 0.95 {
            return "Tesseract recognition was stopped at the --timeout of \(limit) s"
        }
        return String(format: "Tesseract recognition failed after %.2f s on the %d×%d image (not at the time limit)", seconds, width, height)
    }

    /// Recognises one image, or with `rectangle` only that part of it, laid out as a page of its
    /// own (a dark panel read inverted, `PhotoProcessor.readPanels`). Boxes are in the image's pixels.
    public func recognize(_ image: Bitmap, rectangle: Box? = nil) throws(MenuScanError) -> OCRPage {
        defer { TessBaseAPIClear(api) }
        image.withUnsafePointer { TessBaseAPISetImage2(api, $0) }
        if let r = rectangle?.intersection(Box(x: 0, y: 0, width: image.width, height: image.height)), r.width > 0, r.height > 0 {
            TessBaseAPISetRectangle(api, Int32(r.x), Int32(r.y), Int32(r.width), Int32(r.height))
        }
        // --timeout: Tesseract's progress monitor stops recognition at the deadline.
        let monitor = settings.timeLimitSeconds != nil ? TessMonitorCreate() : nil
        defer { if let monitor { TessMonitorDelete(monitor) } }
        if let monitor, let limit = settings.timeLimitSeconds {
            TessMonitorSetDeadlineMSecs(monitor, Int32(clamping: Int((limit * 1000).rounded(.up))))
        }
        let started = ContinuousClock.now
        guard TessBaseAPIRecognize(api, monitor) == 0 else {
            let seconds = (ContinuousClock.now - started).seconds
            throw MenuScanError.processing.with(detail: Self.failureDetail(seconds: seconds, limit: settings.timeLimitSeconds,
                                                                           width: image.width, height: image.height))
        }
        guard let iterator = ResultIterator(api: api) else { return OCRPage(blocks: []) }
        return iterator.page()
    }
}

/// Owns a `TessResultIterator` (deleted exactly once) and reads the page
/// structure out of it.
private final class ResultIterator {
    private let raw: OpaquePointer

    init?(api: OpaquePointer) {
        guard let raw = TessBaseAPIGetIterator(api) else { return nil }
        self.raw = raw
    }

    deinit { TessResultIteratorDelete(raw) }

    func page() -> OCRPage {
        // The page iterator view belongs to the result iterator: never deleted here.
        guard let pageView = TessResultIteratorGetPageIteratorConst(raw) else { return OCRPage(blocks: []) }
        var blocks: [OCRBlock] = []
        var lines: [OCRLine] = []
        var words: [OCRWord] = []
        var blockBox: Box?
        var lineBox: Box?
        var blockTurned = false
        var turnedCharacters = 0

        func closeLine() {
            if let lineBox, !words.isEmpty { lines.append(OCRLine(box: lineBox, words: words)) }
            words = []
        }
        func closeBlock() {
            closeLine()
            if let blockBox, !lines.isEmpty { blocks.append(OCRBlock(box: blockBox, lines: lines)) }
            lines = []
        }

        repeat {
            if TessPageIteratorIsAtBeginningOf(pageView, RIL_BLOCK) != 0 {
                closeBlock()
                blockBox = Self.box(pageView, RIL_BLOCK)
                // Tesseract's layout turns sideways text blocks itself; a
                // block not "page up" means the photo is not upright.
                var orientation = ORIENTATION_PAGE_UP
                var direction = WRITING_DIRECTION_LEFT_TO_RIGHT
                var order = TEXTLINE_ORDER_TOP_TO_BOTTOM
                var deskew: Float = 0
                TessPageIteratorOrientation(pageView, &orientation, &direction, &order, &deskew)
                blockTurned = orientation != ORIENTATION_PAGE_UP
            }
            if TessPageIteratorIsAtBeginningOf(pageView, RIL_TEXTLINE) != 0 {
                closeLine()
                lineBox = Self.box(pageView, RIL_TEXTLINE)
            }
            guard let box = Self.box(pageView, RIL_WORD), let cText = TessResultIteratorGetUTF8Text(raw, RIL_WORD) else { continue }
            let text = String(cString: cText)
            TessDeleteText(cText)
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { continue }
            // Tesseract's 0…100, as 0…1 to four decimals; negative means "none".
            let score = TessResultIteratorConfidence(raw, RIL_WORD)
            let confidence: Double? = score >= 0 ? (min(100, Double(score)) * 100).rounded() / 10_000 : nil
            words.append(OCRWord(text: trimmed, confidence: confidence, box: box))
            if blockTurned { turnedCharacters += OCRPage.characterCount(of: trimmed) }
        } while TessResultIteratorNext(raw, RIL_WORD) != 0
        closeBlock()
        return OCRPage(blocks: blocks, turnedCharacters: turnedCharacters)
    }

    private static func box(_ it: OpaquePointer, _ level: TessPageIteratorLevel) -> Box? {
        var l: Int32 = 0, t: Int32 = 0, r: Int32 = 0, b: Int32 = 0
        guard TessPageIteratorBoundingBox(it, level, &l, &t, &r, &b) != 0 else { return nil }
        return Box(left: Int(l), top: Int(t), right: Int(r), bottom: Int(b))
    }
}
