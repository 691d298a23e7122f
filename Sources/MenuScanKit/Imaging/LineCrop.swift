import CTesseract

/// A short stretch of a photo cut out to be read on its own as one text line
/// (a price Tesseract's page pass dropped): gray, its contrast stretched, dark
/// text on light, enlarged, and framed in white. Tesseract reads a tiny
/// blurred "22" as "2" or nothing when it is a rectangle of the whole page, and
/// as "22" from such a crop (the page's thresholding and the missing margin are
/// what fail). `toSource` maps boxes read in the crop back to the photo.
public struct LineCrop {
    public let image: Bitmap
    /// The part of the source image the crop shows (source pixels).
    public let origin: Box
    public let scale: Double
    public let border: Int

    /// `box` of `source`, clipped to it; nil when nothing is left, its 1st and
    /// 99th percentile differ by less than `minimumContrast`, or leptonica fails.
    /// - The 1st and 99th percentile gray levels become black and white.
    /// - A crop whose median lies nearer the dark end is inverted: its
    ///   background is dark (light text on a dark panel).
    public init?(_ source: Bitmap, box: Box, scale: Double, border: Int, minimumContrast: Int = 16) {
        let bounds = Box(x: 0, y: 0, width: source.width, height: source.height)
        guard let clip = box.intersection(bounds), clip.width > 0, clip.height > 0, scale > 0, border >= 0 else { return nil }
        guard let (gray, lo, mid, hi) = source.grayLevels(in: clip), Int(hi) - Int(lo) >= max(1, minimumContrast) else { return nil }
        guard let stretched = gray.derive({ pixGammaTRC(nil, $0, 1.0, l_int32(lo), l_int32(hi)) }),
              let upright = mid - lo < hi - mid ? stretched.derive({ pixInvert(nil, $0) }) : stretched,
              let enlarged = upright.scaled(by: scale),
              let framed = enlarged.derive({ pixAddBorder($0, l_int32(border), 255) }) else { return nil }
        image = framed
        origin = clip
        self.scale = scale
        self.border = border
    }

    /// A box in the crop's pixels as source pixels, within `origin`.
    public func toSource(_ b: Box) -> Box {
        let left = origin.x + Int((Double(b.x - border) / scale).rounded(.down))
        let top = origin.y + Int((Double(b.y - border) / scale).rounded(.down))
        let right = origin.x + Int((Double(b.maxX - border) / scale).rounded(.up))
        let bottom = origin.y + Int((Double(b.maxY - border) / scale).rounded(.up))
        let mapped = Box(left: left, top: top, right: max(left + 1, right), bottom: max(top + 1, bottom))
        return mapped.intersection(origin) ?? Box(x: origin.x, y: origin.y, width: 1, height: 1)
    }
}

extension Bitmap {
    /// `box` (within the image) as an 8 bpp gray crop with its 1st, 50th and 99th
    /// percentile levels; nil when leptonica fails.
    func grayLevels(in box: Box) -> (crop: Bitmap, low: UInt32, median: UInt32, high: UInt32)? {
        var lbox = boxCreate(l_int32(box.x), l_int32(box.y), l_int32(box.width), l_int32(box.height))
        guard let b = lbox else { return nil }
        defer { boxDestroy(&lbox) }
        guard let cut = derive({ pixClipRectangle($0, b, nil) }),
              let gray = cut.depth == 8 && cut.withUnsafePointer({ pixGetColormap($0) == nil }) ? cut
                : cut.derive({ pixConvertTo8($0, 0) }) else { return nil }
        var lo: l_uint32 = 0, mid: l_uint32 = 0, hi: l_uint32 = 0
        let ranked = gray.withUnsafePointer { p in
            pixGetRankValue(p, 1, 0.01, &lo) == 0 && pixGetRankValue(p, 1, 0.5, &mid) == 0
                && pixGetRankValue(p, 1, 0.99, &hi) == 0
        }
        return ranked ? (gray, lo, mid, hi) : nil
    }
}
