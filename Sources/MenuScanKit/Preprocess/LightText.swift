import CTesseract

/// Finds light text on a dark background (white or coloured text on a black
/// menu, chalk on a board, a dark panel on a light page) from the image, so
/// the OCR copy can carry those regions inverted: Tesseract reads dark text on
/// light paper, and its own per-line retry of inverted text
/// (`tessedit_do_invert`) then has nothing left to find (issue 16).
///
/// On a gray working copy cut into square tiles (`tileShare` of the long
/// side), a tile is *light text* when
/// - it has contrast: 97th − 3rd percentile luminance ≥ `minimumContrast`
///   (text strokes cover little of a tile, so the extremes, not the deciles);
/// - its minority pixels are the light ones: the median lies nearer the 3rd
///   percentile than the 97th by a factor `polarity` (the background is the
///   majority; on paper the median is near the paper, the light end);
/// - its light pixels form strokes, not an edge: rows of the tile cross the
///   mid level at least `minimumCrossings` times on average (a tile on the
///   border of a light page on a dark table crosses once a row).
/// Light-text tiles that touch (8-neighbours, one tile of gap closed) form a
/// region; a region needs `minimumTiles` tiles, and its bounding box must pass
/// the same polarity test as a whole. Exposure does not matter: a dark photo
/// of a light page keeps paper as its majority and is never taken for
/// light text.
public struct LightTextFinder: Sendable, Equatable {
    public var tileShare = 1.0 / 40
    public var minimumTileSide = 12
    public var minimumContrast = 48
    public var polarity = 2.0
    public var minimumCrossings = 2.5
    public var minimumTiles = 3

    public init() {}

    /// Regions of `image`'s pixels holding light text on a dark background,
    /// top to bottom.
    public func regions(in image: GrayImage) -> [Box] {
        let w = image.width, h = image.height
        let side = max(minimumTileSide, Int(Double(max(w, h)) * tileShare))
        let cols = w / side, rows = h / side
        guard cols >= 2, rows >= 2 else { return [] }
        var light = [Bool](repeating: false, count: cols * rows)
        var histogram = [Int](repeating: 0, count: 256)
        for ty in 0..<rows {
            for tx in 0..<cols {
                let box = Box(x: tx * side, y: ty * side, width: side, height: side)
                light[ty * cols + tx] = isLightText(image, box, histogram: &histogram, checkStrokes: true)
            }
        }
        // Components of light tiles, one tile of gap bridged.
        var label = [Int](repeating: -1, count: cols * rows)
        var boxes: [Box] = []
        for start in light.indices where light[start] && label[start] < 0 {
            var stack = [start], members: [Int] = []
            label[start] = boxes.count
            while let i = stack.popLast() {
                members.append(i)
                let x = i % cols, y = i / cols
                for dy in -2...2 {
                    for dx in -2...2 {
                        let nx = x + dx, ny = y + dy
                        guard nx >= 0, ny >= 0, nx < cols, ny < rows else { continue }
                        let j = ny * cols + nx
                        if light[j], label[j] < 0 { label[j] = boxes.count; stack.append(j) }
                    }
                }
            }
            guard members.count >= minimumTiles else { boxes.append(Box(x: 0, y: 0, width: 0, height: 0)); continue }
            let xs = members.map { $0 % cols }, ys = members.map { $0 / cols }
            guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max() else { continue }
            // half a tile of margin, within the image
            let pad = side / 2
            let left = max(0, x0 * side - pad), top = max(0, y0 * side - pad)
            let right = min(w, (x1 + 1) * side + pad), bottom = min(h, (y1 + 1) * side + pad)
            boxes.append(Box(left: left, top: top, right: right, bottom: bottom))
        }
        return boxes.filter { $0.width > 0 && $0.height > 0 && isLightText(image, $0, histogram: &histogram, checkStrokes: false) }
            .sorted { ($0.y, $0.x) < ($1.y, $1.x) }
    }

    /// The tile (or region) test; `histogram` is scratch space (256 counts).
    func isLightText(_ image: GrayImage, _ box: Box, histogram: inout [Int], checkStrokes: Bool) -> Bool {
        let x0 = max(0, box.x), y0 = max(0, box.y), x1 = min(image.width, box.maxX), y1 = min(image.height, box.maxY)
        guard x1 > x0, y1 > y0, histogram.count == 256 else { return false }
        for i in 0..<256 { histogram[i] = 0 }
        let w = image.width
        image.pixels.withUnsafeBufferPointer { px in
            for y in y0..<y1 {
                let row = y * w
                for x in x0..<x1 { histogram[Int(px[row + x])] += 1 }
            }
        }
        let n = (x1 - x0) * (y1 - y0)
        func percentile(_ q: Double) -> Int {
            let target = Int(Double(n) * q)
            var seen = 0
            for v in 0..<256 {
                seen += histogram[v]
                if seen > target { return v }
            }
            return 255
        }
        let p10 = percentile(0.03), p50 = percentile(0.50), p90 = percentile(0.97)
        guard p90 - p10 >= minimumContrast, Double(p90 - p50) >= polarity * Double(max(1, p50 - p10)) else { return false }
        guard checkStrokes else { return true }
        let mid = UInt8((p10 + p90) / 2)
        var crossings = 0, rowsWithInk = 0
        image.pixels.withUnsafeBufferPointer { px in
            for y in y0..<y1 {
                let row = y * w
                var above = px[row + x0] > mid, count = 0
                for x in (x0 + 1)..<max(x0 + 1, x1) {
                    let now = px[row + x] > mid
                    if now != above { count += 1; above = now }
                }
                if count > 0 { crossings += count; rowsWithInk += 1 }
            }
        }
        return rowsWithInk > 0 && Double(crossings) / Double(rowsWithInk) >= minimumCrossings
    }
}

extension Bitmap {
    /// A copy with every box's pixels inverted (any depth; RGB inverts each
    /// channel). Boxes are clipped to the image; nil when leptonica fails.
    func invertingRegions(_ boxes: [Box]) -> Bitmap? {
        guard let copy = derive({ pixCopy(nil, $0) }) else { return nil }
        let bounds = Box(x: 0, y: 0, width: width, height: height)
        let ok = copy.withUnsafePointer { p -> Bool in
            let depth = pixGetDepth(p)
            for box in boxes {
                guard let b = box.intersection(bounds), b.width > 0, b.height > 0 else { continue }
                if depth == 32 {
                    // Red, green and blue only: Tesseract's Otsu thresholds every
                    // byte of a 32 bpp pixel as a channel, the spare one too, and an
                    // inverted spare byte splits the page along the region's edge.
                    guard let data = pixGetData(p) else { return false }
                    let wpl = Int(pixGetWpl(p))
                    for y in b.y..<b.maxY {
                        let row = data + y * wpl
                        for x in b.x..<b.maxX { row[x] ^= 0xffff_ff00 }
                    }
                } else {
                    // PIX_NOT(PIX_DST): leptonica's op codes are 4 bits, NOT is XOR with PIX_SET
                    _ = pixRasterop(p, l_int32(b.x), l_int32(b.y), l_int32(b.width), l_int32(b.height),
                                    l_int32(PIX_DST ^ PIX_SET), nil, 0, 0)
                }
            }
            return true
        }
        return ok ? copy : nil
    }
}
