import CTesseract

/// File formats leptonica can write (used by renderers and tests).
public enum ImageFormat: Sendable, CaseIterable {
    case png, jpeg, tiff, bmp, gif, webp

    var iff: l_int32 {
        switch self {
        case .png: l_int32(IFF_PNG)
        case .jpeg: l_int32(IFF_JFIF_JPEG)
        case .tiff: l_int32(IFF_TIFF_ZIP)
        case .bmp: l_int32(IFF_BMP)
        case .gif: l_int32(IFF_GIF)
        case .webp: l_int32(IFF_WEBP)
        }
    }
}

/// Owns one leptonica `PIX`. `pixDestroy` runs exactly once, in deinit; the
/// pointer never escapes except through `withUnsafePointer`, which keeps the
/// owner alive for the call. Not Sendable: a Pix stays on the thread that made it.
public final class Bitmap {
    private var raw: UnsafeMutablePointer<PIX>?

    /// Takes ownership of a PIX returned by leptonica; nil in, nil out.
    init?(owning pointer: UnsafeMutablePointer<PIX>?) {
        guard let pointer else { return nil }
        raw = pointer
    }

    deinit {
        if raw != nil { pixDestroy(&raw) }
    }

    /// Runs `body` with the underlying pointer. Never store the pointer.
    func withUnsafePointer<R>(_ body: (UnsafeMutablePointer<PIX>) throws -> R) rethrows -> R {
        // `raw` is non-nil for the object's whole life (init checks it).
        guard let raw else { preconditionFailure("Bitmap used after destruction") }
        return try body(raw)
    }

    public var width: Int { withUnsafePointer { Int(pixGetWidth($0)) } }
    public var height: Int { withUnsafePointer { Int(pixGetHeight($0)) } }
    public var depth: Int { withUnsafePointer { Int(pixGetDepth($0)) } }
    /// Horizontal resolution in pixels per inch from the file (0 = unknown).
    /// Tesseract's layout analysis uses it.
    public var resolution: Int { withUnsafePointer { Int(pixGetXRes($0)) } }

    /// A new Bitmap from a leptonica call that returns a fresh PIX.
    func derive(_ body: (UnsafeMutablePointer<PIX>) -> UnsafeMutablePointer<PIX>?) -> Bitmap? {
        Bitmap(owning: withUnsafePointer(body))
    }

    /// 32 bpp RGB value at (x, y) as (r, g, b), or the gray value repeated for 8 bpp.
    public func rgb(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8)? {
        withUnsafePointer { p in
            var value: l_uint32 = 0
            guard pixGetPixel(p, l_int32(x), l_int32(y), &value) == 0 else { return nil }
            switch pixGetDepth(p) {
            case 32:
                return (UInt8((value >> 24) & 0xff), UInt8((value >> 16) & 0xff), UInt8((value >> 8) & 0xff))
            case 8:
                let v = UInt8(value & 0xff)
                return (v, v, v)
            default:
                return nil
            }
        }
    }

    /// Samples per pixel (4 when a 32 bpp image carries alpha).
    public var samplesPerPixel: Int { withUnsafePointer { Int(pixGetSpp($0)) } }

    /// A new blank image: 8 bpp gray (black) or 32 bpp RGB (black, 3 or 4 samples per pixel).
    public static func blank(width: Int, height: Int, depth: Int, alpha: Bool = false) -> Bitmap? {
        guard [8, 32].contains(depth), let pix = Bitmap(owning: pixCreate(l_int32(width), l_int32(height), l_int32(depth))) else { return nil }
        if alpha, depth == 32 { _ = pix.withUnsafePointer { pixSetSpp($0, 4) } }
        return pix
    }

    /// Sets one 8 bpp gray value.
    public func setGray(x: Int, y: Int, _ value: UInt8) {
        withUnsafePointer { p in
            guard pixGetDepth(p) == 8 else { return }
            _ = pixSetPixel(p, l_int32(x), l_int32(y), l_uint32(value))
        }
    }

    /// Encodes in any format leptonica writes.
    public func encoded(as format: ImageFormat) -> [UInt8]? {
        withUnsafePointer { p in
            var data: UnsafeMutablePointer<l_uint8>?
            var size: Int = 0
            guard pixWriteMem(&data, &size, p, format.iff) == 0, let data else { return nil }
            defer { free(data) }
            return Array(UnsafeBufferPointer(start: data, count: size))
        }
    }

    /// Encodes as PNG.
    public func pngData() -> [UInt8]? {
        withUnsafePointer { p in
            var data: UnsafeMutablePointer<l_uint8>?
            var size: Int = 0
            guard pixWriteMemPng(&data, &size, p, 0) == 0, let data else { return nil }
            defer { free(data) }
            return Array(UnsafeBufferPointer(start: data, count: size))
        }
    }

    /// Encodes as JPEG (quality 1…100).
    public func jpegData(quality: Int = 90) -> [UInt8]? {
        withUnsafePointer { p in
            var data: UnsafeMutablePointer<l_uint8>?
            var size: Int = 0
            guard pixWriteMemJpeg(&data, &size, p, l_int32(quality), 0) == 0, let data else { return nil }
            defer { free(data) }
            return Array(UnsafeBufferPointer(start: data, count: size))
        }
    }

    /// A new 32 bpp image filled with one colour (used by tests and renderers).
    public static func filled(width: Int, height: Int, r: UInt8, g: UInt8, b: UInt8) -> Bitmap? {
        guard let pix = Bitmap(owning: pixCreate(l_int32(width), l_int32(height), 32)) else { return nil }
        let value = (l_uint32(r) << 24) | (l_uint32(g) << 16) | (l_uint32(b) << 8)
        _ = pix.withUnsafePointer { pixSetAllArbitrary($0, value) }
        return pix
    }

    /// Fills a rectangle with a colour (32 bpp only).
    @discardableResult
    public func fill(_ box: Box, r: UInt8, g: UInt8, b: UInt8) -> Bool {
        withUnsafePointer { p in
            guard pixGetDepth(p) == 32 else { return false }
            let value = (l_uint32(r) << 24) | (l_uint32(g) << 16) | (l_uint32(b) << 8)
            let x0 = max(0, box.x), y0 = max(0, box.y)
            let x1 = min(Int(pixGetWidth(p)), box.maxX), y1 = min(Int(pixGetHeight(p)), box.maxY)
            guard x1 > x0, y1 > y0 else { return true }
            for y in y0..<y1 {
                for x in x0..<x1 { pixSetPixel(p, l_int32(x), l_int32(y), value) }
            }
            return true
        }
    }
}
