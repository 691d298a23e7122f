import CTesseract

/// An RGB colour for drawing on 32 bpp bitmaps.
public struct RGB: Equatable, Hashable, Sendable {
    public var r: UInt8, g: UInt8, b: UInt8
    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8) { self.r = r; self.g = g; self.b = b }
    /// Leptonica's 32 bpp pixel value (0xRRGGBB00).
    var pixel: l_uint32 { (l_uint32(r) << 24) | (l_uint32(g) << 16) | (l_uint32(b) << 8) }
    /// `#rrggbb` for HTML and SVG.
    public var hex: String {
        func h(_ v: UInt8) -> String { let s = String(v, radix: 16); return s.count == 1 ? "0" + s : s }
        return "#" + h(r) + h(g) + h(b)
    }
}

/// One of leptonica's bitmap fonts, generated from the strings compiled into
/// the library (no font files needed). `bmfDestroy` runs exactly once, in deinit.
public final class BitmapFont {
    private var raw: UnsafeMutablePointer<L_BMF>?

    /// `size` is one of leptonica's 4, 6, 8, …, 20; nil when the library cannot make it.
    public init?(size: Int) {
        LeptonicaQuiet.ensure()
        guard (4...20).contains(size), size % 2 == 0, let bmf = bmfCreate(nil, l_int32(size)) else { return nil }
        raw = bmf
    }

    deinit {
        if raw != nil { bmfDestroy(&raw) }
    }

    fileprivate func withUnsafePointer<R>(_ body: (UnsafeMutablePointer<L_BMF>) -> R) -> R {
        guard let raw else { preconditionFailure("BitmapFont used after destruction") }
        return body(raw)
    }

    /// Height of a text line in pixels.
    public var lineHeight: Int { withUnsafePointer { Int($0.pointee.lineheight) } }
}

/// Drawing on 32 bpp bitmaps with leptonica (overlays). Every BOX made here is
/// destroyed exactly once.
extension Bitmap {
    /// Outlines `box` with lines `width` pixels thick, drawn inside the box edge.
    @discardableResult
    public func strokeBox(_ box: Box, width: Int, color: RGB) -> Bool {
        withBox(box) { p, b in pixRenderBoxArb(p, b, l_int32(max(1, width)), color.r, color.g, color.b) == 0 }
    }

    /// Blends `color` over `box` with weight `fraction` (0…1).
    @discardableResult
    public func blendBox(_ box: Box, color: RGB, fraction: Double) -> Bool {
        withBox(box) { p, b in pixBlendInRect(p, b, color.pixel, l_float32(fraction)) == 0 }
    }

    /// A copy with `bottom` rows of `color` added below.
    public func addingStrip(bottom: Int, color: RGB) -> Bitmap? {
        derive { pixAddBorderGeneral($0, 0, 0, 0, l_int32(bottom), color.pixel) }
    }

    /// Draws `text` with its baseline at (x, baseline); returns the width drawn,
    /// or nil when nothing could be drawn (text must be ASCII for leptonica's fonts).
    @discardableResult
    public func drawText(_ text: String, font: BitmapFont, x: Int, baseline: Int, color: RGB) -> Int? {
        withUnsafePointer { p -> Int? in
            guard pixGetDepth(p) == 32 else { return nil }
            var width: l_int32 = 0, overflow: l_int32 = 0
            let ok = font.withUnsafePointer { bmf in
                pixSetTextline(p, bmf, text, color.pixel, l_int32(x), l_int32(baseline), &width, &overflow) == 0
            }
            return ok ? Int(width) : nil
        }
    }

    private func withBox(_ box: Box, _ body: (UnsafeMutablePointer<PIX>, UnsafeMutablePointer<BOX>) -> Bool) -> Bool {
        withUnsafePointer { p in
            guard pixGetDepth(p) == 32, box.width > 0, box.height > 0 else { return false }
            var b = boxCreate(l_int32(box.x), l_int32(box.y), l_int32(box.width), l_int32(box.height))
            guard let bp = b else { return false }
            defer { boxDestroy(&b) }
            return body(p, bp)
        }
    }
}
