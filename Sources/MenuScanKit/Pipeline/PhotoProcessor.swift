import Foundation

/// Settings of a scan that change its results (hashable, so a run can tell
/// whether an earlier output was made with the same settings).
public struct ScanSettings: Sendable, Hashable, Codable {
    public var ocr: OCRSettings
    public var maxMegapixels: Double
    public var rules: ThresholdRulesSettings
    public var quality: QualityMode
    public var qualityThresholds: QualityThresholds
    public var preprocess: PreprocessSettings

    public init(ocr: OCRSettings = OCRSettings(), maxMegapixels: Double = 100,
                rules: ThresholdRulesSettings = ThresholdRulesSettings(),
                quality: QualityMode = .enforce, qualityThresholds: QualityThresholds = QualityThresholds(),
                preprocess: PreprocessSettings = PreprocessSettings()) {
        self.ocr = ocr
        self.maxMegapixels = maxMegapixels
        self.rules = rules
        self.quality = quality
        self.qualityThresholds = qualityThresholds
        self.preprocess = preprocess
    }
}

/// What the quality gate does (R2): `enforce` rejects defective photos before
/// OCR; `warn` is the seed's "Use Anyway" (OCR runs, defects stay as
/// warnings); `off` skips the measurement.
public enum QualityMode: String, Codable, Sendable, CaseIterable {
    case enforce, warn, off
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
    /// Orientation detection: its own engine on osd.traineddata, loaded once.
    private let osd: TesseractEngine?
    private let engineName: String
    /// When set, `process` also draws the overlay PNG into `overlayPNG`.
    public var overlay: OverlayStyle?
    /// The last processed photo's overlay PNG (nil when off or not drawable).
    public private(set) var overlayPNG: [UInt8]?

    public init(settings: ScanSettings) throws(MenuScanError) {
        self.settings = settings
        decoder = ImageDecoder(maxMegapixels: settings.maxMegapixels)
        engine = try TesseractEngine(settings: settings.ocr)
        if settings.preprocess.rotate {
            var osdSettings = settings.ocr
            osdSettings.language = "osd"
            osd = try TesseractEngine(settings: osdSettings)
        } else {
            osd = nil
        }
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

        var quality: QualityReport?
        var messages: [ResultMessage] = []
        if settings.quality != .off {
            let qualityStart = clock.now
            quality = QualityGate(thresholds: settings.qualityThresholds).assess(image.pix)
            lap("quality", since: qualityStart)
            if let q = quality, q.verdict == .rejected {
                let detail = q.defects.map { "\($0.kind.rawValue) \(Self.short($0.value)) (threshold \(Self.short($0.threshold)))" }
                    .joined(separator: ", ")
                let message = ResultMessage(MenuScanError.qualityTooLow.with(detail: detail))
                if settings.quality == .enforce {
                    timings["total"] = (clock.now - start).seconds
                    var result = PhotoResult(source: source, status: .rejected, messages: [message], timings: timings)
                    result.quality = q
                    return result
                }
                var warning = message
                warning.severity = .low
                messages.append(warning)
            }
        }

        // Text height: from the gate when it ran, else measured for rescaling.
        var textHeight = quality?.metrics.textHeight
        if textHeight == nil, settings.preprocess.rescale, quality == nil {
            let preStart = clock.now
            textHeight = QualityGate().assess(image.pix)?.metrics.textHeight
            lap("measure", since: preStart)
        }
        let preStart = clock.now
        let prepared = prepare(image.pix, textHeight: textHeight)
        lap("preprocess", since: preStart)
        source.width = prepared.upright.width
        source.height = prepared.upright.height

        let ocrStart = clock.now
        var page: OCRPage
        do {
            page = try engine.recognize(prepared.ocrCopy)
        } catch {
            lap("ocr", since: ocrStart)
            timings["total"] = (clock.now - start).seconds
            return PhotoResult(source: source, status: .error, messages: [ResultMessage(error)], timings: timings)
        }
        lap("ocr", since: ocrStart)
        if prepared.record.scale != 1 {
            page = page.mapped(by: 1 / prepared.record.scale, within: Box(x: 0, y: 0, width: prepared.upright.width, height: prepared.upright.height))
        }

        let rulesStart = clock.now
        let verdict = settings.rules.rules.evaluate(page)
        lap("rules", since: rulesStart)

        // Hotspots, unrecognised regions and the partial rule (R5, R6) need the upright image.
        let hotspotStart = clock.now
        let spots = HotspotStage().run(page: page, image: prepared.upright, status: verdict.status)
        lap("hotspots", since: hotspotStart)

        timings["total"] = (clock.now - start).seconds
        var result = PhotoResult(source: source, status: spots.status,
                                 messages: ((verdict.message ?? spots.message).map { [ResultMessage($0)] } ?? []) + messages,
                                 ocr: OCRResult(page: page, engine: engineName, settings: settings.ocr),
                                 timings: timings)
        result.quality = quality
        result.preprocessing = prepared.record
        result.hotspots = spots.hotspots
        result.unrecognizedRegions = spots.unrecognizedRegions
        result.textCoverage = spots.coverage
        if let overlay {
            overlayPNG = OverlayRenderer(style: overlay).render(image: prepared.upright, result: result)
        }
        return result
    }

    /// Orientation (OSD) then scale. `upright` is the photo in the frame every
    /// box is written in; `ocrCopy` is what Tesseract reads.
    func prepare(_ photo: Bitmap, textHeight: Double?) -> (upright: Bitmap, ocrCopy: Bitmap, record: PreprocessRecord) {
        let p = settings.preprocess
        var upright = photo
        var record = PreprocessRecord(rotated: 0, osdRotation: nil, osdConfidence: nil, scale: 1,
                                      textHeight: textHeight, thresholding: settings.ocr.thresholding.rawValue)
        if let osd {
            // OSD reads a copy with text about 28 px tall (fast, and where it is reliable).
            let osdScale = textHeight.map { min(1, max(0.25, 28 / $0)) } ?? min(1, 2000 / Double(max(photo.width, photo.height)))
            if let copy = photo.scaled(by: osdScale), let answer = osd.detectOrientation(copy) {
                record.osdRotation = answer.rotateClockwise
                record.osdConfidence = (answer.confidence * 100).rounded() / 100
                if answer.rotateClockwise != 0, answer.confidence >= p.rotateConfidence,
                   let turned = photo.rotated(quarterTurns: answer.rotateClockwise / 90) {
                    upright = turned
                    record.rotated = answer.rotateClockwise
                }
            }
        }
        let factor = p.scaleFactor(textHeight: textHeight, width: upright.width, height: upright.height)
        if factor != 1, let scaled = upright.scaled(by: factor) {
            record.scale = (factor * 10_000).rounded() / 10_000
            return (upright, scaled, record)
        }
        return (upright, upright, record)
    }

    static func short(_ v: Double) -> String { String(format: "%.3g", v) }
}

extension Duration {
    /// The duration in seconds as a Double.
    public var seconds: Double {
        let (s, attos) = components
        return Double(s) + Double(attos) / 1e18
    }
}
