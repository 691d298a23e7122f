/// Measurements of one photo, computed on a size-normalised grayscale copy.
/// Pure functions of a `GrayImage`, so they are testable on generated images.
public struct QualityMetrics: Codable, Sendable, Equatable {
    /// Mean luminance 0…255.
    public var meanLuminance: Double
    /// Luminance of the ink: the 10th percentile of the pixels that form
    /// text-like components (the 1st percentile of the photo when none were found).
    public var inkLevel: Double
    /// Luminance percentiles (95th ≈ paper level).
    public var p1: Double
    public var p50: Double
    public var p95: Double
    public var p99: Double
    /// Share of pixels at or below 16 (clipped dark) and at or above 250 (clipped bright).
    public var clippedDarkShare: Double
    public var clippedBrightShare: Double
    /// p95 − ink level: the spread between paper and ink.
    public var contrast: Double
    /// Edge sharpness: mean of the strongest 0.5 % Laplacian responses over the
    /// contrast, measured where text is about `sharpnessTextHeight` px tall
    /// (≈ 1 for crisp edges, falling with blur).
    public var sharpness: Double
    /// Share of the photo in glare patches: tiles mostly clipped white on a page
    /// whose typical tile is clearly darker.
    public var glareShare: Double
    /// Median height of text-like connected components, weighted by their
    /// pixel count (so specks do not dominate), in pixels of the upright
    /// photo; nil when too few were found to say.
    public var textHeight: Double?
    /// How many text-like components were found (on the analysis copy).
    public var textComponents: Int
    /// Scale of the analysis copy relative to the photo.
    public var analysisScale: Double
}

/// What the OCR copy (the image Tesseract reads, after rescaling) shows of
/// its text (issue 17): enlarging a small photo adds pixels, not detail, so
/// text size and ink contrast are measured where OCR sees them.
public struct OCRCopyMetrics: Codable, Sendable, Equatable {
    /// Median text-like component height, px of the OCR copy.
    public var textHeight: Double?
    /// Mean stroke width of the text (the shorter ink run through each ink
    /// pixel), px of the OCR copy.
    public var strokeWidth: Double?
    /// `strokeWidth` over the copy's scale: the stroke width in the photo's
    /// own pixels, i.e. how much detail the strokes carry.
    public var sourceStrokeWidth: Double?
    /// Ink (10th percentile of the text's pixels) and paper (95th
    /// percentile) levels on the copy, and their difference.
    public var inkLevel: Double
    public var paperLevel: Double
    public var contrast: Double
    public var textComponents: Int
    /// The copy's scale relative to the photo, and the share of the copy measured.
    public var scale: Double
    public var measuredShare: Double
}

public enum QualityAnalysis {
    /// Longest side of the window of the OCR copy that `ocrCopy` measures.
    public static let ocrCopyWindow = 2048

    /// Text size, stroke width and ink contrast on the OCR copy `g` (scaled
    /// by `scale` from the photo). At most the central `ocrCopyWindow`²
    /// pixels are measured (text sits mostly in the middle of a menu photo;
    /// keeps the cost bounded on a 40 MP copy).
    /// `copyPixels`: the whole copy's pixel count when `g` is already its
    /// central window (`Bitmap.centralWindow`), for `measuredShare`.
    /// `text`: the window's text components with stroke widths when already
    /// measured (`textComponents(_:strokes: true)` of the same pixels).
    public static func ocrCopy(_ g: GrayImage, scale: Double, copyPixels: Int? = nil, text measured: TextComponents? = nil) -> OCRCopyMetrics {
        let window = g.centralWindow(maxSide: ocrCopyWindow)
        let lum = luminance(window)
        let text = measured ?? textComponents(window, strokes: true)
        let inkPixels = text.inkHistogram.reduce(0, +)
        let inkLevel = inkPixels >= 200 ? percentile(text.inkHistogram, inkPixels, 10) : lum.p1
        let stroke = text.meanStrokeWidth()
        return OCRCopyMetrics(
            textHeight: text.medianHeight(), strokeWidth: stroke.map { ($0 * 100).rounded() / 100 },
            sourceStrokeWidth: stroke.map { ($0 / max(1e-6, scale) * 100).rounded() / 100 },
            inkLevel: inkLevel, paperLevel: lum.p95, contrast: max(0, lum.p95 - inkLevel),
            textComponents: text.components.count, scale: scale,
            measuredShare: (Double(window.width * window.height) / Double(max(1, copyPixels ?? g.width * g.height)) * 1000).rounded() / 1000)
    }

    /// Longest side of the analysis copy.
    public static let analysisLongSide = 1600.0
    /// Text height at which sharpness is measured: about where OCR runs after rescaling.
    public static let sharpnessTextHeight = 14.0

    /// Percentile (0…100) of a 256-bin histogram, by nearest rank.
    static func percentile(_ histogram: [Int], _ total: Int, _ p: Double) -> Double {
        guard total > 0 else { return 0 }
        let rank = max(1, Int((p / 100 * Double(total)).rounded(.up)))
        var seen = 0
        for (value, count) in histogram.enumerated() {
            seen += count
            if seen >= rank { return Double(value) }
        }
        return 255
    }

    /// Luminance statistics of an image.
    static func luminance(_ g: GrayImage) -> (mean: Double, p1: Double, p50: Double, p95: Double, p99: Double, dark: Double, bright: Double) {
        var histogram = [Int](repeating: 0, count: 256)
        var sum = 0
        for v in g.pixels {
            histogram[Int(v)] += 1
            sum += Int(v)
        }
        let n = g.pixels.count
        let dark = histogram[0...16].reduce(0, +), bright = histogram[250...255].reduce(0, +)
        return (n > 0 ? Double(sum) / Double(n) : 0,
                percentile(histogram, n, 1), percentile(histogram, n, 50),
                percentile(histogram, n, 95), percentile(histogram, n, 99),
                n > 0 ? Double(dark) / Double(n) : 0, n > 0 ? Double(bright) / Double(n) : 0)
    }

    /// What the component analysis found.
    public struct TextComponents: Sendable {
        /// (height, pixel count) of every character-shaped component.
        public var components: [(height: Int, pixels: Int)]
        /// Histogram of the luminance of their pixels.
        public var inkHistogram: [Int]
        /// Histogram (0…63) of the stroke width at each of their pixels:
        /// the shorter of the horizontal and vertical ink runs through it.
        /// Empty unless asked for (`textComponents(_:strokes:)`).
        public var strokeHistogram: [Int] = []

        /// Stroke width (px): the mean over the thinner 60 % of the text's
        /// pixels (where strokes join or turn, both runs are long: those
        /// pixels are left out). Nil without strokes measured.
        public func meanStrokeWidth(minimum: Int = 15) -> Double? {
            guard components.count >= minimum else { return nil }
            let n = strokeHistogram.reduce(0, +)
            guard n > 0 else { return nil }
            let take = max(1, n * 6 / 10)
            var taken = 0, sum = 0
            for (width, count) in strokeHistogram.enumerated() where taken < take {
                let k = min(count, take - taken)
                taken += k
                sum += k * width
            }
            return Double(sum) / Double(taken)
        }

        /// Pixel-weighted median height, or nil with fewer than `minimum` components.
        public func medianHeight(minimum: Int = 15) -> Double? {
            guard components.count >= minimum else { return nil }
            let sorted = components.sorted { $0.height < $1.height }
            let total = sorted.reduce(0) { $0 + $1.pixels }
            var seen = 0
            for c in sorted {
                seen += c.pixels
                if seen * 2 >= total { return Double(c.height) }
            }
            return sorted.last.map { Double($0.height) }
        }
    }

    /// Text-like connected components of locally dark ink (adaptive mean
    /// threshold over an integral image, then 8-connected labelling), kept
    /// when shaped like characters.
    public static func textComponents(_ g: GrayImage, strokes: Bool = false) -> TextComponents {
        let w = g.width, h = g.height
        var result = TextComponents(components: [], inkHistogram: [Int](repeating: 0, count: 256),
                                    strokeHistogram: strokes ? [Int](repeating: 0, count: 64) : [])
        guard w >= 8, h >= 8 else { return result }
        // The ink mask has a one-pixel border of 0 (padded width `pw`), so
        // the labelling below looks at all 8 neighbours without range checks.
        let pw = w + 2
        var mask = [UInt8](repeating: 0, count: pw * (h + 2))
        var stroke = [UInt8](repeating: 0, count: strokes ? w * h : 0)
        g.pixels.withUnsafeBufferPointer { px in
            mask.withUnsafeMutableBufferPointer { m in
                // Integral image for local means.
                var integral = [Int](repeating: 0, count: (w + 1) * (h + 1))
                integral.withUnsafeMutableBufferPointer { ii in
                    for y in 0..<h {
                        var row = 0
                        let src = y * w, below = (y + 1) * (w + 1) + 1, above = y * (w + 1) + 1
                        for x in 0..<w {
                            row += Int(px[src + x])
                            ii[below + x] = ii[above + x] + row
                        }
                    }
                    let r = max(7, min(w, h) / 24)
                    for y in 0..<h {
                        let y0 = max(0, y - r), y1 = min(h, y + r + 1)
                        let top = y0 * (w + 1), bottom = y1 * (w + 1)
                        let src = y * w, dst = (y + 1) * pw + 1
                        for x in 0..<w {
                            let x0 = max(0, x - r), x1 = min(w, x + r + 1)
                            let area = (x1 - x0) * (y1 - y0)
                            let s = ii[bottom + x1] - ii[top + x1] - ii[bottom + x0] + ii[top + x0]
                            let mean = Double(s) / Double(area)
                            let v = Double(px[src + x])
                            m[dst + x] = v < mean * 0.85 && mean - v > 12 ? 1 : 0
                        }
                    }
                }
                // Stroke width at each ink pixel: the shorter of its horizontal and
                // vertical runs (capped at 63), before labelling clears the mask.
                if strokes {
                    stroke.withUnsafeMutableBufferPointer { st in
                        for y in 0..<h {
                            let row = (y + 1) * pw + 1
                            var x = 0
                            while x < w {
                                guard m[row + x] != 0 else { x += 1; continue }
                                var end = x
                                while end < w, m[row + end] != 0 { end += 1 }
                                let run = UInt8(min(63, end - x))
                                for i in x..<end { st[y * w + i] = run }
                                x = end
                            }
                        }
                        // Vertical runs row by row: `down[x]` counts the ink
                        // run of column x so far; when the run ends its length
                        // is written back over the run's pixels.
                        var down = [Int](repeating: 0, count: w)
                        down.withUnsafeMutableBufferPointer { d in
                            for y in 0...h {
                                let row = (y + 1) * pw + 1
                                for x in 0..<w {
                                    if y < h, m[row + x] != 0 {
                                        d[x] += 1
                                    } else if d[x] > 0 {
                                        let run = UInt8(min(63, d[x]))
                                        for i in (y - d[x])..<y where st[i * w + x] > run { st[i * w + x] = run }
                                        d[x] = 0
                                    }
                                }
                            }
                        }
                    }
                }
                // 8-connected labelling; components are listed in the raster
                // order of their first pixel.
                var stack: [Int] = []
                var members: [Int] = []
                let neighbours = [-pw - 1, -pw, -pw + 1, -1, 1, pw - 1, pw, pw + 1]
                for y in 0..<h {
                    for x in 0..<w {
                        let start = (y + 1) * pw + x + 1
                        guard m[start] != 0 else { continue }
                        m[start] = 0
                        stack.append(start)
                        members.removeAll(keepingCapacity: true)
                        var minX = w, maxX = 0, minY = h, maxY = 0, count = 0
                        while let p = stack.popLast() {
                            let py = p / pw - 1, pxx = p - (py + 1) * pw - 1
                            count += 1
                            members.append(py * w + pxx)
                            if pxx < minX { minX = pxx }
                            if pxx > maxX { maxX = pxx }
                            if py < minY { minY = py }
                            if py > maxY { maxY = py }
                            for o in neighbours {
                                let q = p + o
                                if m[q] != 0 { m[q] = 0; stack.append(q) }
                            }
                        }
                        let cw = maxX - minX + 1, ch = maxY - minY + 1
                        let fill = Double(count) / Double(cw * ch)
                        if ch >= 3, ch <= h / 6, cw <= ch * 3, cw * 6 >= ch, fill >= 0.15, count >= 5 {
                            result.components.append((ch, count))
                            for i in members { result.inkHistogram[Int(px[i])] += 1 }
                            if strokes { for i in members { result.strokeHistogram[Int(stroke[i])] += 1 } }
                        }
                    }
                }
            }
        }
        return result
    }

    /// Edge sharpness: for each axis, the mean of the strongest 0.5 % absolute
    /// second differences (2p − left − right, 2p − up − down) over the
    /// contrast (p99 − p1); the lower of the two, so blur along one direction
    /// (camera shake) counts too.
    public static func sharpness(_ g: GrayImage) -> Double {
        let w = g.width, h = g.height
        guard w >= 3, h >= 3 else { return 0 }
        var hx = [Int](repeating: 0, count: 511), hy = [Int](repeating: 0, count: 511)  // |d2| ≤ 2·255
        var count = 0
        g.pixels.withUnsafeBufferPointer { p in
            for y in 1..<(h - 1) {
                for x in 1..<(w - 1) {
                    let i = y * w + x
                    let c = 2 * Int(p[i])
                    hx[abs(c - Int(p[i - 1]) - Int(p[i + 1]))] += 1
                    hy[abs(c - Int(p[i - w]) - Int(p[i + w]))] += 1
                    count += 1
                }
            }
        }
        func topMean(_ histogram: [Int]) -> Double {
            let top = max(1, count / 200)
            var taken = 0, sum = 0
            for value in stride(from: histogram.count - 1, through: 0, by: -1) where taken < top {
                let n = min(histogram[value], top - taken)
                taken += n
                sum += n * value
            }
            return Double(sum) / Double(taken)
        }
        let lum = luminance(g)
        let contrast = max(1, lum.p99 - lum.p1)
        return min(topMean(hx), topMean(hy)) / contrast
    }

    /// Share of 32×32 tiles that are (≥ 90 %) clipped white while the page's
    /// median tile is clearly darker (flash glare on paper).
    public static func glareShare(_ g: GrayImage, tile: Int = 32) -> Double {
        let cols = g.width / tile, rows = g.height / tile
        guard cols > 0, rows > 0 else { return 0 }
        var means: [Double] = [], clipped: [Double] = []
        for ty in 0..<rows {
            for tx in 0..<cols {
                var s = 0, c = 0
                for y in (ty * tile)..<((ty + 1) * tile) {
                    for x in (tx * tile)..<((tx + 1) * tile) {
                        let v = Int(g.pixels[y * g.width + x])
                        s += v
                        if v >= 250 { c += 1 }
                    }
                }
                means.append(Double(s) / Double(tile * tile))
                clipped.append(Double(c) / Double(tile * tile))
            }
        }
        let median = means.sorted()[means.count / 2]
        guard median <= 215 else { return 0 }
        return Double(clipped.filter { $0 >= 0.9 }.count) / Double(means.count)
    }

    /// All metrics for a photo. `analysis` is the photo scaled by
    /// `analysisScale`; `rescale` returns the photo at another scale (for the
    /// sharpness copy at text height).
    /// `text`: the analysis copy's text components when already measured.
    public static func measure(analysis: GrayImage, analysisScale: Double, text measured: TextComponents? = nil,
                               rescale: (Double) -> GrayImage?) -> QualityMetrics {
        let lum = luminance(analysis)
        let text = measured ?? textComponents(analysis)
        let medianHeight = text.medianHeight()
        let inkPixels = text.inkHistogram.reduce(0, +)
        let inkLevel = inkPixels >= 200 ? percentile(text.inkHistogram, inkPixels, 10) : lum.p1
        // Sharpness where text is about sharpnessTextHeight px tall (shrink only).
        var sharpCopy = analysis
        if let hgt = medianHeight, hgt > sharpnessTextHeight * 1.2,
           let smaller = rescale(analysisScale * sharpnessTextHeight / hgt) {
            sharpCopy = smaller
        }
        return QualityMetrics(
            meanLuminance: lum.mean, inkLevel: inkLevel, p1: lum.p1, p50: lum.p50, p95: lum.p95, p99: lum.p99,
            clippedDarkShare: lum.dark, clippedBrightShare: lum.bright, contrast: max(0, lum.p95 - inkLevel),
            sharpness: sharpness(sharpCopy), glareShare: glareShare(analysis),
            textHeight: medianHeight.map { $0 / analysisScale }, textComponents: text.components.count,
            analysisScale: analysisScale)
    }
}
