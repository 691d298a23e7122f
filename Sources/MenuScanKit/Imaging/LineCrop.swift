import CTesseract
import Foundation

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
    /// A slanted line's crop was turned level: by `turn` radians (counter-clockwise as seen) about
    /// the clip's centre, then cut to the rows from `bandTop` on. 0 and 0 for a level crop.
    public let turn: Double
    public let bandTop: Int

    /// `box` of `source`, clipped to it; nil when nothing is left, its 1st and
    /// 99th percentile differ by less than `minimumContrast`, or leptonica fails.
    /// - The 1st and 99th percentile gray levels become black and white.
    /// - A crop whose median lies nearer the dark end is inverted: its
    ///   background is dark (light text on a dark panel).
    /// - With a `slant` (the line's rise per pixel across, a page photographed in perspective), the
    ///   crop is turned level and cut to the band of the line, `bandHeight` source pixels tall
    ///   around its middle (the straight line of that slant `through` a point, source pixels): the
    ///   parts of the lines above and below that the slanted box also holds are left out.
    public init?(_ source: Bitmap, box: Box, scale: Double, border: Int, minimumContrast: Int = 16,
                 slant: Double = 0, through point: (x: Double, y: Double) = (0, 0), bandHeight: Double = 0) {
        let bounds = Box(x: 0, y: 0, width: source.width, height: source.height)
        guard let clip = box.intersection(bounds), clip.width > 0, clip.height > 0, scale > 0, border >= 0 else { return nil }
        guard let (gray, lo, mid, hi) = source.grayLevels(in: clip), Int(hi) - Int(lo) >= max(1, minimumContrast) else { return nil }
        guard let stretched = gray.derive({ pixGammaTRC(nil, $0, 1.0, l_int32(lo), l_int32(hi)) }),
              let upright = mid - lo < hi - mid ? stretched.derive({ pixInvert(nil, $0) }) : stretched else { return nil }
        var level = upright, turn = 0.0, bandTop = 0
        if slant != 0, slant.isFinite, abs(slant) < 1, bandHeight >= 1 {
            turn = atan(slant)
            // leptonica turns clockwise for a positive angle; a line falling to the right is levelled
            // by turning it back (counter-clockwise).
            guard let turned = upright.derive({ pixRotate($0, Float(-turn), l_int32(L_ROTATE_AREA_MAP), l_int32(L_BRING_IN_WHITE), 0, 0) })
            else { return nil }
            let cy = Double(clip.height) / 2
            // the band's middle at the clip's centre column, which the turn keeps in that column
            let middle = point.y + slant * (Double(clip.x) + Double(clip.width) / 2 - point.x)
            let row = cy + (middle - Double(clip.y) - cy) * cos(turn)
            // (A point far off the photo gives no band, never a number too large for an Int.)
            guard row.isFinite, abs(row) < 1e7 else { return nil }
            let top = max(0, Int((row - bandHeight / 2).rounded(.down)))
            let bottom = min(turned.height, Int((row + bandHeight / 2).rounded(.up)))
            guard bottom - top >= 2, let band = turned.cropped(Box(x: 0, y: top, width: turned.width, height: bottom - top))
            else { return nil }
            level = band; bandTop = top
        }
        guard let enlarged = level.scaled(by: scale),
              let framed = enlarged.derive({ pixAddBorder($0, l_int32(border), 255) }) else { return nil }
        image = framed
        origin = clip
        self.scale = scale
        self.border = border
        self.turn = turn
        self.bandTop = bandTop
    }

    /// A box in the crop's pixels as source pixels, within `origin` (a turned crop's box is turned
    /// back: the source box holds its four corners).
    public func toSource(_ b: Box) -> Box {
        let left = Double(b.x - border) / scale, right = Double(b.maxX - border) / scale
        let top = Double(b.y - border) / scale + Double(bandTop), bottom = Double(b.maxY - border) / scale + Double(bandTop)
        var xs = [left, right], ys = [top, bottom]
        if turn != 0 {
            let cx = Double(origin.width) / 2, cy = Double(origin.height) / 2
            let c = cos(turn), s = sin(turn)
            let corners = [(left, top), (right, top), (left, bottom), (right, bottom)].map { x, y -> (Double, Double) in
                // the inverse of the levelling turn
                let dx = x - cx, dy = y - cy
                return (cx + dx * c - dy * s, cy + dx * s + dy * c)
            }
            xs = corners.map { $0.0 }; ys = corners.map { $0.1 }
        }
        let l = origin.x + Int((xs.min() ?? 0).rounded(.down)), t = origin.y + Int((ys.min() ?? 0).rounded(.down))
        let r = origin.x + Int((xs.max() ?? 0).rounded(.up)), bt = origin.y + Int((ys.max() ?? 0).rounded(.up))
        let mapped = Box(left: l, top: t, right: max(l + 1, r), bottom: max(t + 1, bt))
        return mapped.intersection(origin) ?? Box(x: origin.x, y: origin.y, width: 1, height: 1)
    }
}

extension Bitmap {
    /// `box` of the image (clipped by leptonica); nil when nothing is left.
    func cropped(_ box: Box) -> Bitmap? {
        guard box.width > 0, box.height > 0 else { return nil }
        var lbox = boxCreate(l_int32(box.x), l_int32(box.y), l_int32(box.width), l_int32(box.height))
        guard let b = lbox else { return nil }
        defer { boxDestroy(&lbox) }
        return derive { pixClipRectangle($0, b, nil) }
    }

    /// `box` (within the image) as an 8 bpp gray crop with its 1st, 50th and 99th
    /// percentile levels; nil when leptonica fails.
    func grayLevels(in box: Box) -> (crop: Bitmap, low: UInt32, median: UInt32, high: UInt32)? {
        guard let cut = cropped(box),
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
