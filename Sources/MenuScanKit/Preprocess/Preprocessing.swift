/// Photo-aware preprocessing before OCR (issue: orientation, scale). Each
/// step can be switched off and records what it did.
public struct PreprocessSettings: Codable, Sendable, Hashable {
    /// Detect 90/180/270° rotation with Tesseract's OSD and turn the photo upright.
    public var rotate = true
    /// Minimum OSD confidence to rotate. OCRmyPDF uses 14; on ../shared/eval
    /// the truly rotated pages scored 9.3–11.0 and the highest wrong answer
    /// on an upright page 8.2 (docs/preprocessing.md).
    public var rotateConfidence = 9.0
    /// OSD runs only when the first read is not confidently upright: fewer
    /// than 20 characters, text in blocks Tesseract found turned, or a mean
    /// word confidence below this. OSD costs about 0.3 s a photo.
    public var osdSkipConfidence = 0.6
    /// The OSD copy's size cap in megapixels (0: none, the default). OSD
    /// reads a copy with text about `osdTextHeight` px tall; on a large photo
    /// that copy stays large (a 15.7 MP menu is checked at 8.6 MP). A 4 MP cap
    /// cut one OSD call there from 7.4 G to 4.3 G instructions, but on turned
    /// tune documents OSD's confidence fell under `rotateConfidence` on 4 of
    /// 56 copies (48 → 44 upright): off (issue 16, round 6; docs/performance.md).
    public var osdMaxMegapixels = 0.0
    /// Find light text on a dark background and invert those regions in the
    /// OCR copy (`LightTextFinder`, issue 16). Off by default: on generated
    /// dark menus it finds more words (recall +0.03 to +0.06) in 17 % less CPU
    /// than Tesseract's own inverted retry, but CER was 0.02 worse
    /// (docs/performance.md, "Profile, round 3").
    public var invertLightText = false
    /// Find light text on a dark background, but leave the OCR copy as it is:
    /// Tesseract's page pass keeps its layout (an inverted panel had merged
    /// the columns around it), the ink map sees the light text as ink, and
    /// line recovery reads the lines the page pass missed there from a copy
    /// with those regions inverted (issue 16, round 28). The quality gate
    /// judges the photo with the light text made dark, so a dark menu is not
    /// rejected as a dark photo (rescaling takes the smaller of the text
    /// heights measured that way and as photographed).
    /// On by default (docs/performance.md, "Round 28"). Used when
    /// `invertLightText` is off; see `darkPageShare`.
    public var recoverLightText = true
    /// With `recoverLightText`: when light text covers at least this share of
    /// the photo, the page itself is dark (a chalkboard, a black menu) and the
    /// OCR copy is inverted as a whole, as with `invertLightText` (there is no
    /// light page around it whose layout the inversion could merge). Tune
    /// photos: dark menus 0.80–1.0 of the page, a real one 0.99; light pages
    /// with a dark panel 0.18–0.61 (docs/performance.md, "Round 28").
    public var darkPageShare = 0.7
    /// With `recoverLightText`, on a light page: each dark panel is also read inverted as a page of
    /// its own and merged where it reads better than the page pass (`PanelMerge`; round 29). Off by
    /// default: on the real tune menus it read nothing better (speisen_09 0.588 → 0.593) for about
    /// 0.8 s more CPU a menu photo; on generated dark panels (tune seed) CER 0.0704 → 0.0682 over the
    /// 20 dark menus (docs/performance.md, "Round 29").
    public var readPanels = false
    /// Panels narrower or lower than this (OCR-copy pixels) are not read as pages.
    public var minimumPanelSide = 48
    /// Whether panels are read as pages of their own.
    public var readsPanels: Bool { recoverLightText && readPanels }
    /// Whether the light-text finder runs at all.
    public var findsLightText: Bool { invertLightText || recoverLightText }

    /// Whether the OCR copy of a `width` × `height` photo is read with the
    /// light-text `regions` (photo pixels, not overlapping) inverted.
    public func invertsOCRCopy(regions: [Box], width: Int, height: Int) -> Bool {
        guard !regions.isEmpty else { return false }
        if invertLightText { return true }
        guard recoverLightText, width > 0, height > 0 else { return false }
        let covered = regions.reduce(0.0) { $0 + Double($1.width) * Double($1.height) }
        return covered >= darkPageShare * Double(width) * Double(height)
    }
    /// Give Tesseract the photo's 8 bpp grayscale copy (the one the other
    /// stages read) instead of the colour photo (issue 16, round 4): 13 %
    /// fewer OCR instructions on receipts, CER better on the tune parts of
    /// receipts, menus and dark menus, documents equal within 0.001; on by
    /// default since round 5 (docs/performance.md).
    public var readGray = true
    /// Rescale photos whose text is outside [minTextHeight, maxTextHeight].
    public var rescale = true
    /// Median text-component height (px) small text is enlarged to. Measured
    /// on ../shared/eval (Benchmarks/preprocess.sh): 20 read receipts and
    /// documents better than 28 (receipts CER 0.362 against 0.367).
    public var targetTextHeight = 20.0
    /// Text smaller than this is enlarged to `targetTextHeight`; text within
    /// the band is left alone (rescaling text Tesseract already reads well
    /// changes its layout analysis and cost accuracy on documents and receipts).
    public var minTextHeight = 16.0
    /// Text smaller than `tinyTextHeight` is enlarged further, to
    /// `tinyTextTarget`: the one real menu with 6 px text read at CER 0.49 when
    /// enlarged to 28 px and 0.67 when enlarged to 20 px.
    public var tinyTextHeight = 8.0
    public var tinyTextTarget = 28.0
    /// Text larger than this is shrunk to `largeTextTarget` (speed on big photos).
    public var maxTextHeight = 64.0
    public var largeTextTarget = 40.0
    /// Bounds of the factor, and of the OCR copy's size.
    public var minScale = 0.25
    public var maxScale = 4.0
    public var maxMegapixels = 40.0

    public init() {}

    /// Enlarges all small text, tiny or not, to `height` px (`--text-height`).
    public mutating func enlargeSmallText(to height: Double) {
        targetTextHeight = height
        tinyTextTarget = height
    }

    /// All steps off.
    public static var none: PreprocessSettings {
        var s = PreprocessSettings()
        s.rotate = false
        s.rescale = false
        s.invertLightText = false
        s.recoverLightText = false
        return s
    }

    /// Text height (px) OSD's copy is scaled to; never enlarged, at most
    /// shrunk 4×. Without a text height the copy's long side is 2000 px.
    public static let osdTextHeight = 28.0

    /// The factor OSD's copy of a `width` × `height` photo is scaled by:
    /// text to `osdTextHeight` (never enlarged, at least 0.25), then shrunk
    /// further so the copy holds at most `osdMaxMegapixels`.
    public func osdScale(textHeight: Double?, width: Int, height: Int) -> Double {
        let longSide = Double(max(1, max(width, height)))
        var factor = textHeight.map { min(1, max(0.25, Self.osdTextHeight / $0)) } ?? min(1, 2000 / longSide)
        if !factor.isFinite || factor <= 0 { factor = 1 }
        let megapixels = Double(max(0, width)) * Double(max(0, height)) * factor * factor / 1_000_000
        if osdMaxMegapixels > 0, megapixels > osdMaxMegapixels {
            factor *= (osdMaxMegapixels / megapixels).squareRoot()
        }
        return factor
    }

    /// The scale factor for a photo whose text is `textHeight` px tall, or 1.
    public func scaleFactor(textHeight: Double?, width: Int, height: Int) -> Double {
        guard rescale, let textHeight, textHeight > 0 else { return 1 }
        let target: Double
        if textHeight < tinyTextHeight { target = max(tinyTextTarget, targetTextHeight) } else if textHeight < minTextHeight { target = targetTextHeight } else if textHeight > maxTextHeight { target = largeTextTarget } else { return 1 }
        var factor = min(maxScale, max(minScale, target / textHeight))
        let megapixels = Double(width * height) * factor * factor / 1_000_000
        if factor > 1, megapixels > maxMegapixels { factor = max(1, factor * (maxMegapixels / megapixels).squareRoot()) }
        return factor
    }
}

/// What preprocessing did to one photo, as written into its JSON.
public struct PreprocessRecord: Codable, Sendable, Equatable {
    /// Degrees clockwise the photo was turned after EXIF (0, 90, 180, 270).
    public var rotated: Int
    /// OSD's answer and confidence, when it ran.
    public var osdRotation: Int?
    public var osdConfidence: Double?
    /// True when OSD did not run because the first read was confidently upright.
    public var osdSkipped: Bool?
    /// The factor the OCR copy was scaled by (1 = not scaled). Boxes are mapped back.
    public var scale: Double
    /// Median text height (px) the scale was chosen from.
    public var textHeight: Double?
    /// Tesseract's thresholding method.
    public var thresholding: String
    /// Text size, stroke width and ink contrast measured on the OCR copy
    /// (issue 17), when the quality gate ran.
    public var ocrCopy: OCRCopyMetrics? = nil
    /// Regions of light text on a dark background inverted in the OCR copy
    /// (upright pixels); absent when none were found.
    public var invertedRegions: [Box]?
    /// Regions of light text on a dark background that line recovery read
    /// inverted (`recoverLightText`; upright pixels); absent when none were found.
    public var lightTextRegions: [Box]? = nil
    /// The `scale` the text height asked for, when the read of that shrunk copy showed
    /// words far too small and the photo was read unscaled instead
    /// (`PhotoProcessor.shrankTooFar`); absent otherwise.
    public var shrinkUndone: Double? = nil
}
