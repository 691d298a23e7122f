import CTesseract

/// An 8-bit grayscale image as plain Swift values: the analysis stages
/// (quality, layout statistics) work on this, so they are testable without C.
public struct GrayImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// Row-major luminance, 0 = black.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height, "pixel count must be width × height")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    public init(width: Int, height: Int, fill: UInt8) {
        self.init(width: width, height: height, pixels: [UInt8](repeating: fill, count: width * height))
    }

    /// The central window of at most `maxSide` × `maxSide` pixels (the
    /// whole image when it is smaller).
    public func centralWindow(maxSide: Int) -> GrayImage {
        let side = max(1, maxSide)
        guard width > side || height > side else { return self }
        let ww = min(width, side), wh = min(height, side)
        let x0 = (width - ww) / 2, y0 = (height - wh) / 2
        var out = [UInt8](repeating: 0, count: ww * wh)
        for y in 0..<wh {
            let src = (y0 + y) * width + x0
            out.replaceSubrange((y * ww)..<((y + 1) * ww), with: pixels[src..<(src + ww)])
        }
        return GrayImage(width: ww, height: wh, pixels: out)
    }

    @inline(__always) public subscript(x: Int, y: Int) -> UInt8 {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }
}

extension Bitmap {
    /// The central window of at most `maxSide` × `maxSide` pixels as a new
    /// Bitmap (self when the image is no larger), so a measurement of a
    /// large image converts only that window.
    public func centralWindow(maxSide: Int) -> Bitmap? {
        let w = width, h = height, side = max(1, maxSide)
        guard w > side || h > side else { return self }
        let ww = min(w, side), wh = min(h, side)
        var box = boxCreate(l_int32((w - ww) / 2), l_int32((h - wh) / 2), l_int32(ww), l_int32(wh))
        guard let b = box else { return nil }
        defer { boxDestroy(&box) }
        return derive { pixClipRectangle($0, b, nil) }
    }

    /// A grayscale copy, scaled (area-averaged when shrinking) by `scale`.
    /// Returns the image and the scale actually applied.
    public func grayImage(scale: Double = 1) -> GrayImage? {
        let gray: Bitmap?
        switch depth {
        case 32: gray = derive { pixConvertRGBToLuminance($0) }
        case 8: gray = self
        default: gray = derive { pixConvertTo8($0, 0) }
        }
        guard let gray else { return nil }
        let scaled: Bitmap?
        if abs(scale - 1) < 1e-9 {
            scaled = gray
        } else if scale < 1 {
            scaled = gray.derive { pixScaleAreaMap($0, l_float32(scale), l_float32(scale)) }
        } else {
            scaled = gray.derive { pixScaleGrayLI($0, l_float32(scale), l_float32(scale)) }
        }
        guard let scaled else { return nil }
        return scaled.withUnsafePointer { p -> GrayImage? in
            guard pixGetDepth(p) == 8, let data = pixGetData(p) else { return nil }
            let w = Int(pixGetWidth(p)), h = Int(pixGetHeight(p)), wpl = Int(pixGetWpl(p))
            var out = [UInt8](repeating: 0, count: w * h)
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    let line = data + y * wpl
                    for x in 0..<w {
                        // leptonica packs bytes big-endian within each 32-bit word.
                        dst[y * w + x] = UInt8((line[x >> 2] >> (24 - 8 * UInt32(x & 3))) & 0xff)
                    }
                }
            }
            return GrayImage(width: w, height: h, pixels: out)
        }
    }

    /// An 8 bpp Bitmap from a GrayImage (for tests and for feeding generated images to OCR).
    public static func from(_ gray: GrayImage) -> Bitmap? {
        guard let pix = Bitmap.blank(width: gray.width, height: gray.height, depth: 8) else { return nil }
        pix.withUnsafePointer { p in
            guard let data = pixGetData(p) else { return }
            let wpl = Int(pixGetWpl(p))
            for y in 0..<gray.height {
                let line = data + y * wpl
                for x in 0..<gray.width {
                    let shift = 24 - 8 * UInt32(x & 3)
                    line[x >> 2] = (line[x >> 2] & ~(0xff << shift)) | (UInt32(gray[x, y]) << shift)
                }
            }
        }
        return pix
    }

    /// A copy scaled by `factor` (area-averaged when shrinking, linear when enlarging).
    public func scaled(by factor: Double) -> Bitmap? {
        if abs(factor - 1) < 1e-9 { return self }
        if factor < 1 { return derive { pixScaleAreaMap($0, l_float32(factor), l_float32(factor)) } }
        return derive { pixScale($0, l_float32(factor), l_float32(factor)) }
    }

    /// A copy rotated by a multiple of 90° clockwise.
    public func rotated(quarterTurns: Int) -> Bitmap? {
        let q = ((quarterTurns % 4) + 4) % 4
        return q == 0 ? self : derive { pixRotateOrth($0, l_int32(q)) }
    }
}
