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

/// Preprocessing switches, shared by `scan` (and mirrored by `bench --config` keys).
struct PreprocessOptions: ParsableArguments {
    @Flag(name: .long, help: "Do not detect and correct 90/180/270° rotation with Tesseract's OSD.")
    var noRotate = false

    @Flag(name: .long, help: "Do not rescale photos so their text reaches the OCR's best size.")
    var noRescale = false

    @Option(name: .long, help: "Text height (px) small text is enlarged to (default \(PreprocessSettings().targetTextHeight); text under \(PreprocessSettings().tinyTextHeight) px to \(PreprocessSettings().tinyTextTarget)); this option sets both.")
    var textHeight: Double?

    @Option(name: .long, help: "Minimum OSD confidence to rotate (default \(PreprocessSettings().rotateConfidence)).")
    var rotateConfidence: Double?

    @Option(name: .long, help: "Tesseract binarisation: otsu, adaptive or sauvola.")
    var thresholding: OCRSettings.Thresholding = .otsu

    @Flag(name: .long, help: "Look for light text on a dark background and invert it before OCR (faster on dark menus, more words found; see docs/performance.md).")
    var invertLightText = false

    @Flag(inversion: .prefixedNo, help: "Look for light text on a dark background and read the lines Tesseract's page pass missed there inverted (see docs/performance.md, Round 28).")
    var recoverLightText = PreprocessSettings().recoverLightText

    @Flag(inversion: .prefixedNo, help: "With --recover-light-text, also read each dark panel of a light page inverted as a page of its own, kept where it reads better; costs about a page read per panel (see docs/performance.md, Round 29).")
    var readPanels = PreprocessSettings().readPanels

    @Flag(inversion: .prefixedNo, help: "Let Tesseract retry each low-confidence line inverted (its tessedit_do_invert).")
    var retryInverted = OCRSettings().retryInverted

    @Flag(inversion: .prefixedNo, help: "Give Tesseract the photo's grayscale copy instead of the colour photo (see docs/performance.md, Rounds 4 and 5).")
    var readGray = PreprocessSettings().readGray

    var settings: PreprocessSettings {
        var p = PreprocessSettings()
        p.rotate = !noRotate
        p.rescale = !noRescale
        p.invertLightText = invertLightText
        p.recoverLightText = recoverLightText
        p.readPanels = readPanels
        p.readGray = readGray
        if let textHeight { p.enlargeSmallText(to: textHeight) }
        if let rotateConfidence { p.rotateConfidence = rotateConfidence }
        return p
    }
}

extension OCRSettings.Thresholding: ExpressibleByArgument {}
