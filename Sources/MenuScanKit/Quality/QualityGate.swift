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
}

/// R2: measures a photo and names its defects. Cheap: everything runs on a
/// grayscale copy whose long side is at most 1600 px.
public struct QualityGate: Sendable {
    public var thresholds: QualityThresholds

    public init(thresholds: QualityThresholds = QualityThresholds()) {
        self.thresholds = thresholds
    }

    /// `analysis`: the photo's analysis copy and its scale when already made
    /// (`analysisCopy(of:)`), so one gray copy serves every stage.
    public func assess(_ image: Bitmap, analysis shared: (GrayImage, Double)? = nil) -> QualityReport? {
        let clock = ContinuousClock(), start = clock.now
        guard let (analysis, scale) = shared ?? Self.analysisCopy(of: image) else { return nil }
        let metrics = QualityAnalysis.measure(analysis: analysis, analysisScale: scale) { image.grayImage(scale: $0) }
        var report = judge(metrics)
        report.seconds = (clock.now - start).seconds
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
