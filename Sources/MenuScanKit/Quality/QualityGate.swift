import Foundation

/// A named photo defect (R2).
public enum DefectKind: String, Codable, Sendable, CaseIterable {
    case blurry
    case tooDark = "too_dark"
    case overexposed
    case glare
    case lowContrast = "low_contrast"
    case lowResolution = "low_resolution"
}

public struct QualityDefect: Codable, Sendable, Equatable {
    public var kind: DefectKind
    public var value: Double
    public var threshold: Double
    /// What was measured: nil = the photo; "ocrCopyStrokeWidth" /
    /// "ocrCopyContrast" = the OCR copy after rescaling (issue 17).
    public var measure: String? = nil
}

/// The quality gate's thresholds: the one place they live. The defaults were
/// calibrated with `Benchmarks/quality_calibration.py` (see docs/quality-gate.md,
/// "Quality gate (R2)"); every one can be overridden on the command line.
public struct QualityThresholds: Codable, Sendable, Hashable {
    /// blurry: sharpness below this.
    public var minSharpness = 0.30
    /// too_dark: the paper level (95th percentile luminance) below this.
    public var minPaperLevel = 70.0
    /// overexposed: the ink level (luminance of the text's pixels) above this.
    public var maxInkLevel = 150.0
    /// glare: share of the photo in glare patches above this.
    public var maxGlareShare = 0.15
    /// low_contrast: paper level − ink level below this.
    public var minContrast = 60.0
    /// low_resolution: median text height (px, upright photo) below this.
    /// Text from 6 px up to `ReadQualityStage.smallTextHeight` is read, and
    /// the result flagged (lowConfidenceResults): a gate at 8.5 px rejected 2
    /// of 11 real menus of the check part that read well (docs/read-quality.md).
    public var minTextHeight = 6.0
    /// On the OCR copy (after rescaling, `QualityAnalysis.ocrCopy`; issue 17).
    /// low_resolution: text strokes thinner than this (px of the copy):
    /// hairlines. Real tune photos: 1.79 px or more (docs/read-quality.md).
    public var minCopyStrokeWidth = 1.5
    /// low_resolution: an enlarged copy (scale > 1) whose ink lies less than
    /// this below its paper: the enlargement smeared the strokes into the
    /// paper. Real tune photos enlarged: 151 or more.
    public var minEnlargedCopyContrast = 130.0
    /// overexposed (bright paper) or low_contrast: ink less than this below
    /// the paper on the copy, whatever its scale (as `minContrast` on the photo).
    public var minCopyContrast = 60.0

    public init() {}
}

/// The gate's verdict on one photo, as written into the JSON's `quality`.
public struct QualityReport: Codable, Sendable, Equatable {
    public enum Verdict: String, Codable, Sendable { case ok, rejected }
    public var verdict: Verdict
    public var defects: [QualityDefect]
    public var metrics: QualityMetrics
    /// Seconds the measurement took.
    public var seconds: Double
    /// The OCR copy's measurements, when `assessOCRCopy` ran (`menuscan check`;
    /// a scan records them in `preprocessing.ocrCopy`).
    public var ocrCopy: OCRCopyMetrics? = nil
}

/// R2: measures a photo and names its defects. Cheap: everything runs on a
/// grayscale copy whose long side is at most 1600 px.
public struct QualityGate: Sendable {
    public var thresholds: QualityThresholds

    public init(thresholds: QualityThresholds = QualityThresholds()) {
        self.thresholds = thresholds
    }

    /// `analysis`: the photo's analysis copy and its scale when already made
    /// (`analysisCopy(of:)`), so one gray copy serves every stage; `text`:
    /// that copy's text components when already measured.
    public func assess(_ image: Bitmap, analysis shared: (GrayImage, Double)? = nil,
                       text: QualityAnalysis.TextComponents? = nil) -> QualityReport? {
        let clock = ContinuousClock(), start = clock.now
        guard let (analysis, scale) = shared ?? Self.analysisCopy(of: image) else { return nil }
        let metrics = QualityAnalysis.measure(analysis: analysis, analysisScale: scale, text: shared == nil ? nil : text) { image.grayImage(scale: $0) }
        var report = judge(metrics)
        report.seconds = (clock.now - start).seconds
        return report
    }

    /// `report` with the OCR copy judged too (issue 17): the copy a scan
    /// would make with `preprocess` (scaled by the text height), measured
    /// and judged as in the pipeline. For `menuscan check`, which runs no OCR.
    public func assessOCRCopy(of image: Bitmap, report: QualityReport, preprocess: PreprocessSettings) -> QualityReport {
        var report = report
        let factor = preprocess.scaleFactor(textHeight: report.metrics.textHeight, width: image.width, height: image.height)
        guard let copy = factor == 1 ? image : image.scaled(by: factor),
              let gray = copy.centralWindow(maxSide: QualityAnalysis.ocrCopyWindow)?.grayImage() else { return report }
        let metrics = QualityAnalysis.ocrCopy(gray, scale: factor, copyPixels: copy.width * copy.height)
        report.ocrCopy = metrics
        let fresh = judgeOCRCopy(metrics).filter { d in !report.defects.contains { $0.kind == d.kind } }
        if !fresh.isEmpty {
            report.defects += fresh
            report.verdict = .rejected
        }
        return report
    }

    /// The text height alone (px of `image`), without the other metrics: what
    /// rescaling needs when the gate is off.
    public static func textHeight(of image: Bitmap, analysis shared: (GrayImage, Double)? = nil) -> Double? {
        guard let (analysis, scale) = shared ?? analysisCopy(of: image) else { return nil }
        return QualityAnalysis.textComponents(analysis).medianHeight().map { $0 / scale }
    }

    /// The grayscale copy every measurement runs on, and its scale.
    public static func analysisCopy(of image: Bitmap) -> (GrayImage, Double)? {
        let longSide = Double(max(image.width, image.height))
        let scale = min(1, QualityAnalysis.analysisLongSide / max(1, longSide))
        return image.grayImage(scale: scale).map { ($0, scale) }
    }

    /// Defects of the OCR copy (issue 17): what Tesseract will actually see.
    /// Judged only with enough text-like components (15) to measure.
    public func judgeOCRCopy(_ m: OCRCopyMetrics) -> [QualityDefect] {
        let t = thresholds
        guard m.textComponents >= 15 else { return [] }
        var defects: [QualityDefect] = []
        if let w = m.strokeWidth, w < t.minCopyStrokeWidth {
            defects.append(QualityDefect(kind: .lowResolution, value: w, threshold: t.minCopyStrokeWidth, measure: "ocrCopyStrokeWidth"))
        }
        if m.contrast < t.minCopyContrast {
            defects.append(QualityDefect(kind: m.paperLevel >= 150 ? .overexposed : .lowContrast, value: m.contrast,
                                         threshold: t.minCopyContrast, measure: "ocrCopyContrast"))
        } else if m.scale > 1, m.contrast < t.minEnlargedCopyContrast {
            defects.append(QualityDefect(kind: .lowResolution, value: m.contrast, threshold: t.minEnlargedCopyContrast,
                                         measure: "ocrCopyContrast"))
        }
        return defects
    }

    /// The verdict for measured metrics.
    public func judge(_ m: QualityMetrics) -> QualityReport {
        let t = thresholds
        var defects: [QualityDefect] = []
        if m.p95 < t.minPaperLevel { defects.append(QualityDefect(kind: .tooDark, value: m.p95, threshold: t.minPaperLevel)) }
        // A featureless bright page (nothing but paper) is not a photo defect:
        // OCR finds no text and R4 says so (MSG-OCR-001).
        let featureless = m.p99 - m.p1 < 12
        if !featureless, m.inkLevel > t.maxInkLevel { defects.append(QualityDefect(kind: .overexposed, value: m.inkLevel, threshold: t.maxInkLevel)) }
        if !featureless, m.contrast < t.minContrast { defects.append(QualityDefect(kind: .lowContrast, value: m.contrast, threshold: t.minContrast)) }
        if m.glareShare > t.maxGlareShare { defects.append(QualityDefect(kind: .glare, value: m.glareShare, threshold: t.maxGlareShare)) }
        // Sharpness and resolution speak of text; a photo too dark or washed
        // out to show edges is already named above.
        if !featureless, m.p95 >= t.minPaperLevel, m.sharpness < t.minSharpness {
            defects.append(QualityDefect(kind: .blurry, value: m.sharpness, threshold: t.minSharpness))
        }
        if let h = m.textHeight, h < t.minTextHeight {
            defects.append(QualityDefect(kind: .lowResolution, value: h, threshold: t.minTextHeight))
        }
        return QualityReport(verdict: defects.isEmpty ? .ok : .rejected, defects: defects, metrics: m, seconds: 0)
    }
}
