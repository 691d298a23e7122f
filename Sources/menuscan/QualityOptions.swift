import ArgumentParser
import MenuScanKit

/// Quality-gate thresholds, overridable on `scan` and `check` (defaults in QualityThresholds).
struct QualityOptions: ParsableArguments {
    @Option(name: .long, help: "blurry below this edge sharpness (default \(QualityThresholds().minSharpness)).")
    var minSharpness: Double?
    @Option(name: .long, help: "too_dark when the paper level (p95 luminance) is below this (default \(QualityThresholds().minPaperLevel)).")
    var minPaperLevel: Double?
    @Option(name: .long, help: "overexposed when the ink level (p1 luminance) is above this (default \(QualityThresholds().maxInkLevel)).")
    var maxInkLevel: Double?
    @Option(name: .long, help: "glare when more than this share of the photo is glare patches (default \(QualityThresholds().maxGlareShare)).")
    var maxGlare: Double?
    @Option(name: .long, help: "low_contrast when p99 − p1 luminance is below this (default \(QualityThresholds().minContrast)).")
    var minContrast: Double?
    @Option(name: .long, help: "low_resolution when the median text height in px is below this (default \(QualityThresholds().minTextHeight)).")
    var minTextHeight: Double?

    var thresholds: QualityThresholds {
        var t = QualityThresholds()
        if let minSharpness { t.minSharpness = minSharpness }
        if let minPaperLevel { t.minPaperLevel = minPaperLevel }
        if let maxInkLevel { t.maxInkLevel = maxInkLevel }
        if let maxGlare { t.maxGlareShare = maxGlare }
        if let minContrast { t.minContrast = minContrast }
        if let minTextHeight { t.minTextHeight = minTextHeight }
        return t
    }
}

extension QualityMode: ExpressibleByArgument {}
