import Foundation

/// Settings of a scan that change its results (hashable, so a run can tell
/// whether an earlier output was made with the same settings).
public struct ScanSettings: Sendable, Hashable, Codable {
    public var ocr: OCRSettings
    public var maxMegapixels: Double
    public var rules: ThresholdRulesSettings

    public init(ocr: OCRSettings = OCRSettings(), maxMegapixels: Double = 100,
                rules: ThresholdRulesSettings = ThresholdRulesSettings()) {
        self.ocr = ocr
        self.maxMegapixels = maxMegapixels
        self.rules = rules
    }
}

/// Codable mirror of `ThresholdRules`.
public struct ThresholdRulesSettings: Sendable, Hashable, Codable {
    public var minimumCharacters = 10
    public var minimumConfidence = 0.3
    public init() {}
    var rules: ThresholdRules { ThresholdRules(minimumCharacters: minimumCharacters, minimumConfidence: minimumConfidence) }
}

/// Runs the per-photo stages: decode → OCR → threshold rules. One per worker
/// thread: it owns that worker's Tesseract engine, loaded once and reused.
public final class PhotoProcessor {
    public let settings: ScanSettings
    private let decoder: ImageDecoder
    private let engine: TesseractEngine
    private let engineName: String
    /// When set, `process` also draws the overlay PNG into `overlayPNG`.
    public var overlay: OverlayStyle?
    /// The last processed photo's overlay PNG (nil when off or not drawable).
    public private(set) var overlayPNG: [UInt8]?

    public init(settings: ScanSettings) throws(MenuScanError) {
        self.settings = settings
        decoder = ImageDecoder(maxMegapixels: settings.maxMegapixels)
        engine = try TesseractEngine(settings: settings.ocr)
        engineName = "tesseract \(TesseractEngine.version)"
    }

    /// Processes one photo. Never throws: every problem becomes the photo's
    /// status and message (R11).
    public func process(fileAt url: URL, displayPath: String) -> PhotoResult {
        var timings: [String: Double] = [:]
        var source = SourceInfo(path: displayPath)
        let clock = ContinuousClock()
        let start = clock.now
        func lap(_ stage: String, since: ContinuousClock.Instant) {
            timings[stage] = (clock.now - since).seconds
        }

        overlayPNG = nil
        let decodeStart = clock.now
        let image: DecodedImage
        do {
            image = try decoder.decode(fileAt: url)
        } catch {
            lap("decode", since: decodeStart)
            timings["total"] = (clock.now - start).seconds
            return PhotoResult(source: source, status: .error, messages: [ResultMessage(error)], timings: timings)
        }
        lap("decode", since: decodeStart)
        source.sha256 = image.sha256
        source.bytes = image.byteCount
        source.format = image.format
        source.width = image.width
        source.height = image.height
        source.orientation = image.orientation

        let ocrStart = clock.now
        let page: OCRPage
        do {
            page = try engine.recognize(image.pix)
        } catch {
            lap("ocr", since: ocrStart)
            timings["total"] = (clock.now - start).seconds
            return PhotoResult(source: source, status: .error, messages: [ResultMessage(error)], timings: timings)
        }
        lap("ocr", since: ocrStart)

        let rulesStart = clock.now
        let verdict = settings.rules.rules.evaluate(page)
        lap("rules", since: rulesStart)

        // Hotspots, unrecognised regions and the partial rule (R5, R6) need the upright image.
        let hotspotStart = clock.now
        let spots = HotspotStage().run(page: page, image: image.pix, status: verdict.status)
        lap("hotspots", since: hotspotStart)

        timings["total"] = (clock.now - start).seconds
        var result = PhotoResult(source: source, status: spots.status,
                                 messages: (verdict.message ?? spots.message).map { [ResultMessage($0)] } ?? [],
                                 ocr: OCRResult(page: page, engine: engineName, settings: settings.ocr),
                                 timings: timings)
        result.hotspots = spots.hotspots
        result.unrecognizedRegions = spots.unrecognizedRegions
        result.textCoverage = spots.coverage
        if let overlay {
            overlayPNG = OverlayRenderer(style: overlay).render(image: image.pix, result: result)
        }
        return result
    }
}

extension Duration {
    /// The duration in seconds as a Double.
    public var seconds: Double {
        let (s, attos) = components
        return Double(s) + Double(attos) / 1e18
    }
}
