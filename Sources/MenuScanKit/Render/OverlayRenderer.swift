/// How overlays look. Colours are shared with the HTML report.
public struct OverlayStyle: Sendable, Equatable {
    /// The overlay's long side in pixels, legend strip excluded (photos are never enlarged).
    public var maxLongSide: Int

    public init(maxLongSide: Int = 2000) {
        self.maxLongSide = maxLongSide
    }

    /// VegyScan OCR scenario 2: recognised text gets a blue outline.
    public static let recognized = RGB(0, 90, 255)
    /// Read with low confidence (R6 level low): a lighter blue.
    public static let lowConfidence = RGB(130, 180, 255)
    /// Safety against the user's allergen profile (when classification ran).
    public static let unsafe = RGB(220, 30, 30)
    public static let caution = RGB(255, 170, 0)
    public static let safe = RGB(20, 160, 60)
    /// Unrecognised regions: a subtle grey fill.
    public static let unrecognized = RGB(128, 128, 128)
    public static let unrecognizedFraction = 0.45

    /// The outline colour of a hotspot: its safety when known, else its state.
    public static func color(of hotspot: Hotspot) -> RGB {
        switch hotspot.safety {
        case "unsafe": unsafe
        case "caution": caution
        case "safe": safe
        default: hotspot.state == .recognized ? recognized : lowConfidence
        }
    }
}

/// Draws NAME.overlay.png: the upright photo scaled to fit `maxLongSide`,
/// grey fill over unrecognised regions, hotspot outlines, and a legend strip
/// below the photo (swatches with labels in leptonica's built-in bitmap font).
public struct OverlayRenderer {
    public var style: OverlayStyle

    public init(style: OverlayStyle = OverlayStyle()) {
        self.style = style
    }

    /// The overlay as PNG bytes; nil when it cannot be drawn.
    public func render(image: Bitmap, result: PhotoResult) -> [UInt8]? {
        draw(image: image, hotspots: result.hotspots ?? [], regions: result.unrecognizedRegions ?? [],
             status: result.status)?.pngData()
    }

    /// The scale applied to upright photo coordinates for an image of this size.
    public func scale(width: Int, height: Int) -> Double {
        min(1.0, Double(style.maxLongSide) / Double(max(1, max(width, height))))
    }

    /// Height of the legend strip for a drawn photo of this width.
    public static func legendHeight(forWidth width: Int) -> Int { width >= 900 ? 40 : 28 }

    public func draw(image: Bitmap, hotspots: [Hotspot], regions: [UnrecognizedRegion], status: PhotoStatus) -> Bitmap? {
        guard let rgb = image.rgb32() else { return nil }
        let f = scale(width: rgb.width, height: rgb.height)
        guard let canvas = f < 1 ? rgb.scaled(by: f) : rgb else { return nil }
        let w = canvas.width, h = canvas.height
        for region in regions {
            canvas.blendBox(region.box.scaled(by: f), color: OverlayStyle.unrecognized,
                            fraction: OverlayStyle.unrecognizedFraction)
        }
        let stroke = max(2, max(w, h) / 700)
        for spot in hotspots {
            let b = spot.box.scaled(by: f)
            // grow by the stroke so the outline sits around the text, not on it
            let grown = Box(x: b.x - stroke, y: b.y - stroke, width: b.width + 2 * stroke, height: b.height + 2 * stroke)
            canvas.strokeBox(TextRegionAnalyzer.clamp(grown, width: w, height: h),
                             width: spot.state == .recognized || spot.safety != nil ? stroke : max(1, stroke / 2),
                             color: OverlayStyle.color(of: spot))
        }
        let strip = Self.legendHeight(forWidth: w)
        guard let out = canvas.addingStrip(bottom: strip, color: RGB(255, 255, 255)) else { return nil }
        drawLegend(on: out, top: h, height: strip, hotspots: hotspots, status: status)
        return out
    }

    private func drawLegend(on pix: Bitmap, top: Int, height: Int, hotspots: [Hotspot], status: PhotoStatus) {
        var entries: [(String, RGB, Bool)] = [
            ("recognized", OverlayStyle.recognized, false),
            ("low confidence", OverlayStyle.lowConfidence, false),
            ("unrecognized", OverlayStyle.unrecognized, true),
        ]
        if hotspots.contains(where: { $0.safety != nil }) {
            entries = [("unsafe", OverlayStyle.unsafe, false), ("caution", OverlayStyle.caution, false),
                       ("safe", OverlayStyle.safe, false)] + entries
        }
        let font = BitmapFont(size: height >= 40 ? 6 : 4)
        let swatch = height / 2
        let y = top + (height - swatch) / 2
        var x = 8
        for (label, color, filled) in entries {
            let box = Box(x: x, y: y, width: swatch, height: swatch)
            if filled {
                pix.blendBox(box, color: color, fraction: 0.8)
            } else {
                pix.strokeBox(box, width: max(2, swatch / 6), color: color)
            }
            x += swatch + 6
            if let font, let drawn = pix.drawText(label, font: font, x: x, baseline: y + swatch - 1, color: RGB(30, 30, 30)) {
                x += drawn
            }
            x += 18
        }
        if let font {
            pix.drawText("status: \(status.rawValue)", font: font, x: x + 12, baseline: y + swatch - 1, color: RGB(30, 30, 30))
        }
    }
}
