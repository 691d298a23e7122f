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
/// region, together with the flat dark tiles between and around them (the
/// background of the page or panel); a region needs `minimumTiles` light-text
/// tiles, overlapping regions merge, and each bounding box must pass the
/// same polarity test as a whole. Exposure does not matter: a dark photo
/// of a light page keeps paper as its majority and is never taken for
/// light text.
public struct LightTextFinder: Sendable, Equatable {
    public var tileShare = 1.0 / 40
    public var minimumTileSide = 12
    public var minimumContrast = 48
    public var polarity = 2.0
    public var minimumCrossings = 2.5
    public var minimumTiles = 3
    /// Flat tiles up to this much lighter than the light text's background join its region.
    public var flatMargin = 30

    public init() {}

    /// Regions of `image`'s pixels holding light text on a dark background,
    /// top to bottom.
    public func regions(in image: GrayImage) -> [Box] {
        let w = image.width, h = image.height
        let side = max(minimumTileSide, Int(Double(max(w, h)) * tileShare))
        let cols = w / side, rows = h / side
        guard cols >= 2, rows >= 2 else { return [] }
        var light = [Bool](repeating: false, count: cols * rows)
        var median = [Int](repeating: 255, count: cols * rows)
        var flat = [Bool](repeating: false, count: cols * rows)
        var histogram = [Int](repeating: 0, count: 256)
        for ty in 0..<rows {
            for tx in 0..<cols {
                let box = Box(x: tx * side, y: ty * side, width: side, height: side)
                let t = tileTest(image, box, histogram: &histogram, checkStrokes: true)
                light[ty * cols + tx] = t.light
                median[ty * cols + tx] = t.median
                flat[ty * cols + tx] = t.contrast < minimumContrast
            }
        }
        // The dark background around and between the lines: flat tiles no
        // lighter than the light-text tiles' background (plus `flatMargin`)
        // join a region, so a dark page is one region, not strips cut
        // through its words.
        let seeds = light.indices.filter { light[$0] }
        guard seeds.count >= minimumTiles else { return [] }
        let background = seeds.map { median[$0] }.sorted()[seeds.count / 2]
        let member = light.indices.map { light[$0] || (flat[$0] && median[$0] <= background + flatMargin) }
        // Components of member tiles (one tile of gap bridged) holding enough light-text tiles.
        var label = [Int](repeating: -1, count: cols * rows)
        var boxes: [Box] = []
        var next = 0
        for start in seeds where label[start] < 0 {
            var stack = [start], members: [Int] = []
            label[start] = next
            while let i = stack.popLast() {
                members.append(i)
                let x = i % cols, y = i / cols
                for dy in -2...2 {
                    for dx in -2...2 {
                        let nx = x + dx, ny = y + dy
                        guard nx >= 0, ny >= 0, nx < cols, ny < rows else { continue }
                        let j = ny * cols + nx
                        if member[j], label[j] < 0 { label[j] = next; stack.append(j) }
                    }
                }
            }
            next += 1
            guard members.filter({ light[$0] }).count >= minimumTiles else { continue }
            let xs = members.map { $0 % cols }, ys = members.map { $0 / cols }
            guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max() else { continue }
            // half a tile of margin, within the image
            let pad = side / 2
            let left = max(0, x0 * side - pad), top = max(0, y0 * side - pad)
            let right = min(w, (x1 + 1) * side + pad), bottom = min(h, (y1 + 1) * side + pad)
            boxes.append(Box(left: left, top: top, right: right, bottom: bottom))
        }
        // Overlapping boxes merge (a region is inverted once).
        var merged = true
        while merged {
            merged = false
            outer: for i in boxes.indices {
                for j in boxes.indices where j > i && boxes[i].intersection(boxes[j]) != nil {
                    boxes[i] = boxes[i].union(boxes[j])
                    boxes.remove(at: j)
                    merged = true
                    break outer
                }
            }
        }
        return boxes.filter { tileTest(image, $0, histogram: &histogram, checkStrokes: false).light }
            .sorted { ($0.y, $0.x) < ($1.y, $1.x) }
    }

    /// The tile (or region) test, with the tile's median and contrast;
    /// `histogram` is scratch space (256 counts).
    func tileTest(_ image: GrayImage, _ box: Box, histogram: inout [Int],
                  checkStrokes: Bool) -> (light: Bool, median: Int, contrast: Int) {
        let x0 = max(0, box.x), y0 = max(0, box.y), x1 = min(image.width, box.maxX), y1 = min(image.height, box.maxY)
        guard x1 > x0, y1 > y0, histogram.count == 256 else { return (false, 255, 0) }
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
        guard p90 - p10 >= minimumContrast, Double(p90 - p50) >= polarity * Double(max(1, p50 - p10)) else {
            return (false, p50, p90 - p10)
        }
        guard checkStrokes else { return (true, p50, p90 - p10) }
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
        return (rowsWithInk > 0 && Double(crossings) / Double(rowsWithInk) >= minimumCrossings, p50, p90 - p10)
    }
}

extension GrayImage {
    /// A copy with every box's pixels inverted (boxes clipped to the image).
    func invertingRegions(_ boxes: [Box]) -> GrayImage {
        var copy = self
        let bounds = Box(x: 0, y: 0, width: width, height: height)
        copy.pixels.withUnsafeMutableBufferPointer { px in
            for box in boxes {
                guard let b = box.intersection(bounds), b.width > 0, b.height > 0 else { continue }
                for y in b.y..<b.maxY {
                    let row = y * width
                    for x in b.x..<b.maxX { px[row + x] = 255 - px[row + x] }
                }
            }
        }
        return copy
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
