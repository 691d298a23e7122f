import Foundation

/// Orders an OCR page's lines into runs for the structurer: lines are split at
/// wide gaps (a row that Tesseract read across two columns), columns are found
/// from the empty vertical gutters between them, and lines spanning several
/// columns (titles, section bands) cut the page into horizontal bands. Reading
/// order: band by band, column by column, top to bottom. Items are built within
/// a run, so two columns never merge.
enum PageLayout {
    struct Segment {
        var words: [OCRWord]
        var box: Box
        /// The reading-order region of the segment's line (0 when the page
        /// was not put into reading order).
        var region = 0
    }

    static func segments(of page: OCRPage) -> [Segment] {
        var out: [Segment] = []
        var slopes: [SlopeField.Sample] = []
        var top = Double.infinity, bottom = -Double.infinity
        let pageWidth = max(1, page.words.map(\.box.maxX).max() ?? 1)
        for block in page.blocks {
            for line in block.lines where !line.words.isEmpty {
                let words = line.words.sorted { $0.box.x < $1.box.x }
                let heights = words.map(\.box.height).sorted()
                let h = max(1, heights[heights.count / 2])
                let threshold = max(3 * h, pageWidth / 25)
                var current: [OCRWord] = [words[0]]
                var parts: [[OCRWord]] = []
                for w in words.dropFirst() {
                    let gap = w.box.x - current.last!.box.maxX
                    if gap > threshold { parts.append(current); current = [w] } else { current.append(w) }
                }
                parts.append(current)
                for p in parts { if let sample = SlopeField.Sample(words: p) { slopes.append(sample) } }
                top = min(top, Double(line.box.y)); bottom = max(bottom, Double(line.box.maxY))
                // A price far to the right stays with its name ("Soup        5.50").
                var merged: [[OCRWord]] = []
                for p in parts.flatMap(splitLeadingPrice) {
                    let text = p.map(\.text).joined(separator: " ")
                    if let last = merged.last, isLonePriceOrCalories(text),
                       !last.isEmpty, PriceParser.find(in: last.map(\.text).joined(separator: " "), allowPlain: false) == nil {
                        merged[merged.count - 1] += p
                    } else {
                        merged.append(p)
                    }
                }
                for p in merged.flatMap(splitAtSecondDish) {
                    let box = p.dropFirst().reduce(p[0].box) { $0.union($1.box) }
                    out.append(Segment(words: p, box: box, region: block.region ?? 0))
                }
            }
        }
        return attachLonePrices(out, slope: SlopeField(samples: slopes, top: top, bottom: bottom))
    }

    /// A line Tesseract read straight across two columns whose gutter leader dots fill
    /// (no gap to split it at): cut after a price or a run of leaders that is followed by
    /// the start of another dish — a capitalised word of 4+ letters and one more word
    /// ("Gulaschsuppe …… 5,80 | Gebackener Kibbeling mit"). The left part must hold a
    /// word; cut as often as the line allows (three columns).
    static func splitAtSecondDish(_ words: [OCRWord]) -> [[OCRWord]] {
        let cuts = secondDishCuts(words.map(\.text), gaps: gaps(words))
        guard !cuts.isEmpty else { return [words] }
        var parts: [[OCRWord]] = []
        var start = 0
        for c in cuts where c > start && c < words.count {
            parts.append(Array(words[start..<c]))
            start = c
        }
        parts.append(Array(words[start...]))
        return parts
    }

    /// A part of a line that starts with the price of the dish on its left (whose leader dots
    /// were not read, so a wide gap split them) and goes on, past a gutter, with the next
    /// column's dish ("Gulaschsuppe      5,80 | Gebackener Kibbeling mit"): the price is cut
    /// off, to join its name.
    static func splitLeadingPrice(_ words: [OCRWord]) -> [[OCRWord]] {
        guard words.count >= 3, endsAnItem(words[0].text), !isLeaders(words[0].text), startsADish(words[1].text),
              words[2].text.filter(\.isLetter).count >= 2 else { return [words] }
        let g = gaps(words)
        guard g.count > 1, g[1] >= gutterGap else { return [words] }
        return [[words[0]], Array(words[1...])]
    }

    /// A gutter between two columns is wider than a word space: after a price (not after
    /// leaders, which fill the gutter) the next dish starts at least this many of the
    /// line's word heights further right ("Fish 12.50 Served with chips" is one dish with
    /// a price inside its line: ordinary word spacing, about a third of a height).
    static let gutterGap = 0.8

    /// The horizontal gap before each word in the line's median word height (0 before the
    /// first; boxes as read, so overlapping words give negative gaps).
    static func gaps(_ words: [OCRWord]) -> [Double] {
        guard !words.isEmpty else { return [] }
        let heights = words.map(\.box.height).sorted()
        let h = Double(max(1, heights[heights.count / 2]))
        return words.indices.map { k in k == 0 ? 0 : Double(words[k].box.x - words[k - 1].box.maxX) / h }
    }

    /// Where `splitAtSecondDish` cuts a line of these words (indices of the words that start
    /// a second dish); empty for almost every line. `gaps` (from `gaps(_:)`, one per word)
    /// when the words have boxes: a cut after a price then also needs a gutter before it.
    static func secondDishCuts(_ words: [String], gaps: [Double]? = nil) -> [Int] {
        guard words.count >= 4 else { return [] }
        // Cheap byte tests first (this runs on every line): a price has an ASCII digit,
        // leaders a dot, underscore or a non-ASCII dot; a dish starts with a capital.
        func mayEnd(_ w: String) -> Bool { w.utf8.contains { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x5F || $0 >= 0x80 } }
        func mayStart(_ w: String) -> Bool { w.utf8.first.map { ($0 >= 0x41 && $0 <= 0x5A) || $0 >= 0x80 } ?? false }
        var cuts: [Int] = []
        var start = 0
        var k = 2
        while k < words.count - 1 {
            if mayStart(words[k]), mayEnd(words[k - 1]), startsADish(words[k]), endsAnItem(words[k - 1]), words[k + 1].filter(\.isLetter).count >= 2,
               words[start..<k].contains(where: { $0.filter(\.isLetter).count >= 3 }),
               isLeaders(words[k - 1]) || gaps.map({ k < $0.count && $0[k] >= gutterGap }) ?? true {
                cuts.append(k)
                start = k
                k += 2
            } else {
                k += 1
            }
        }
        return cuts
    }

    /// The characters of leader dots (also ItemName's and PriceRecovery's).
    static let leaderChars: Set<Character> = [".", "·", "…", "_"]

    /// A strong price (currency or decimals; leaders glued before it allowed) or leaders.
    /// Scanned by hand: this runs on many words of every line.
    /// A run of leader dots (at least 3, at least half the word).
    static func isLeaders(_ w: String) -> Bool {
        let leaders = w.filter { leaderChars.contains($0) }.count
        return leaders >= 3 && leaders * 2 >= w.count
    }

    static func endsAnItem(_ w: String) -> Bool {
        if isLeaders(w) { return true }
        var t = Array(w.drop { leaderChars.contains($0) })
        let currency: Set<Character> = ["$", "€", "£", "¥", "₪", "₹", "₩", "฿", "₫", "₽", "₴", "₺", "₸", "₼", "₾", "₦", "₵", "₱", "円", "元"]
        var prefix = false, suffix = false
        if let f = t.first, currency.contains(f) { prefix = true; t.removeFirst() }
        if let l = t.last, currency.contains(l) { suffix = true; t.removeLast() }
        // digits{1,4} ([.,] digits{1,2})?
        var i = 0
        while i < t.count, t[i].isASCII, t[i].isNumber { i += 1 }
        let whole = i
        guard whole >= 1, whole <= 4 else { return false }
        var decimals = 0
        if i < t.count, t[i] == "." || t[i] == "," {
            i += 1
            while i < t.count, t[i].isASCII, t[i].isNumber { i += 1; decimals += 1 }
            guard decimals >= 1, decimals <= 2 else { return false }
        }
        guard i == t.count else { return false }
        return decimals == 2 || ((prefix || suffix) && !(prefix && suffix))
    }

    /// A capitalised word of at least four letters (hyphens and a trailing comma allowed).
    static func startsADish(_ w: String) -> Bool {
        guard let first = w.first, first.isUppercase, first.isLetter else { return false }
        let body = w.trimmingCharacters(in: CharacterSet(charactersIn: ",.;:"))
        return body.count >= 4 && body.allSatisfy { $0.isLetter || $0 == "-" }
    }

    /// A lone price, with or without its calorie count ("15  650 Cal"): what a layout
    /// prints in a column right of the names, on the name's row.
    static func isLonePriceOrCalories(_ text: String) -> Bool {
        guard text.utf8.contains(where: { $0 >= 0x30 && $0 <= 0x39 }) else { return false }
        let (rest, _) = RoleStructurer.splitCalories(text)
        guard let f = PriceParser.find(in: rest, allowPlain: true) else { return false }
        return isLonePrice(f)
    }

    /// A price alone, or with a scrap of misread leader dots before it ("eo 3.00").
    static func isLonePrice(_ f: PriceParser.Found) -> Bool {
        f.before.filter(\.isLetter).count <= 3 && f.before.split(separator: " ").count <= 1
    }

    /// The page's text slope (dy/dx, y down) from the words of its lines: the
    /// median over lines of at least three words of the least-squares slope of
    /// word centres, limited to ±0.1 (about 6°). A photo taken at a slight
    /// angle puts a price a line higher or lower than its item's name.
    static func slope(of page: OCRPage) -> Double {
        var slopes = page.lines.compactMap { SlopeField.Sample(words: $0.words)?.slope }
        guard !slopes.isEmpty else { return 0 }
        slopes.sort()
        return min(0.1, max(-0.1, slopes[slopes.count / 2]))
    }

    /// The page's text slope as it changes down the page. A photo taken from below or above
    /// the page's centre (keystone) tilts its top rows one way and its bottom rows less or
    /// the other way, so one slope for the whole page puts a far-right price of the top rows a
    /// row off. Read from runs of text (a line's words between wide gaps, at least three
    /// words): a line Tesseract read across to a price of the row above or below would
    /// give the slope of the misreading, not of the page. Fitted by weighted least squares,
    /// slope = a + b·(y − y0), each run weighted by its spread of word centres (Σ(x − x̄)²:
    /// a long run is a precise slope), over the runs within 2 × `outlierSlope` of the runs'
    /// median slope, and once more without the runs that fit misses by more than
    /// `outlierSlope`. With fewer than `minimumRuns` such runs, or runs spanning less
    /// than a third of the text's height, b is 0 and a is the runs' median slope. Any
    /// value is limited to ±0.1 (about 6°).
    struct SlopeField: Equatable {
        var a: Double
        var b: Double = 0
        var y0: Double = 0

        static let minimumRuns = 4
        static let outlierSlope = 0.02

        /// One run of words: its least-squares slope of word centres, its mean centre height
        /// and its weight (Σ(x − x̄)²). Nil for fewer than three words or no spread.
        struct Sample: Equatable {
            var slope: Double, y: Double, weight: Double
            init(slope: Double, y: Double, weight: Double) { self.slope = slope; self.y = y; self.weight = weight }
            init?(words: [OCRWord]) {
                guard words.count >= 3 else { return nil }
                let xs = words.map { Double($0.box.x) + Double($0.box.width) / 2 }
                let ys = words.map { Double($0.box.y) + Double($0.box.height) / 2 }
                let mx = xs.reduce(0, +) / Double(xs.count), my = ys.reduce(0, +) / Double(ys.count)
                let sxx = xs.reduce(0) { $0 + ($1 - mx) * ($1 - mx) }
                guard sxx > 0 else { return nil }
                let sxy = zip(xs, ys).reduce(0) { $0 + ($1.0 - mx) * ($1.1 - my) }
                self.init(slope: sxy / sxx, y: my, weight: sxx)
            }
        }

        init(a: Double, b: Double = 0, y0: Double = 0) { self.a = a; self.b = b; self.y0 = y0 }

        /// `top`, `bottom`: the text's extent on the page.
        init(samples: [Sample], top: Double, bottom: Double) {
            let sorted = samples.map(\.slope).filter(\.isFinite).sorted()
            let median = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
            self.init(a: median)
            // Runs far from the median slope first (a heavy stray run would pull a first fit
            // away from every other run), then the runs the fit misses.
            let near = samples.filter { abs($0.slope - median) <= 2 * Self.outlierSlope }
            guard near.count >= Self.minimumRuns, bottom > top,
                  let lo = near.map(\.y).min(), let hi = near.map(\.y).max(),
                  (hi - lo) * 3 >= bottom - top,
                  var fit = Self.fit(near) else { return }
            let kept = near.filter { abs($0.slope - fit.value($0.y)) <= Self.outlierSlope }
            if kept.count >= Self.minimumRuns, let again = Self.fit(kept) { fit = again }
            guard fit.a.isFinite, fit.b.isFinite, fit.y0.isFinite else { return }
            self = fit
        }

        /// Weighted least squares of slope on y; nil when the weights or the y's give no line.
        static func fit(_ s: [Sample]) -> SlopeField? {
            let w = s.reduce(0) { $0 + $1.weight }
            guard w > 0, w.isFinite else { return nil }
            let my = s.reduce(0) { $0 + $1.weight * $1.y } / w
            let ms = s.reduce(0) { $0 + $1.weight * $1.slope } / w
            let syy = s.reduce(0) { $0 + $1.weight * ($1.y - my) * ($1.y - my) }
            guard syy > 0 else { return nil }
            let sys = s.reduce(0) { $0 + $1.weight * ($1.y - my) * ($1.slope - ms) }
            return SlopeField(a: ms, b: sys / syy, y0: my)
        }

        /// The slope (dy/dx, y down) of the row at height y.
        func value(_ y: Double) -> Double {
            let v = a + b * (y - y0)
            return v.isFinite ? min(0.1, max(-0.1, v)) : 0
        }
    }

    /// `price` starts where the line `text` above it starts (its own height, 6 px at least, either
    /// way) and at most three of its heights below: printed under that line, in its column.
    static func startsUnder(_ price: Box, _ text: Box) -> Bool {
        let h = max(1, price.height)
        return abs(text.x - price.x) <= max(h, 6) && text.maxY <= price.y + h / 2 && price.y - text.maxY <= 3 * h
    }

    /// A price Tesseract read as a line of its own joins the nearest text on
    /// its left in the same row ("Pesto pasta ……… 9.00"). The row follows the
    /// page's slope at the price's height: on a tilted photo the price sits higher or lower. A price
    /// left-aligned under a line of text (within three line heights) is printed
    /// under its dish and stays in its column.
    static func attachLonePrices(_ segs: [Segment], slope field: SlopeField = SlopeField(a: 0)) -> [Segment] {
        var segs = segs
        var removed = Set<Int>()
        func text(_ s: Segment) -> String { s.words.map(\.text).joined(separator: " ") }
        let lone = segs.map { isLonePriceOrCalories(text($0)) }
        for (i, s) in segs.enumerated() {
            // A price printed under its dish, at the start of the dish's own lines, is that
            // dish's: the text beside it on the left is the column before ("Soße nach Wahl … |
            // 18 €" under "Linsensuppe" in the next column).
            guard lone[i], !segs.indices.contains(where: { k in
                k != i && !lone[k] && !removed.contains(k) && startsUnder(s.box, segs[k].box) }) else { continue }
            let slope = field.value(Double(s.box.y) + Double(s.box.height) / 2)
            var best: Int? = nil
            for (j, t) in segs.enumerated() where j != i && !removed.contains(j) && t.box.maxX <= s.box.x {
                // Where t's row is at the price's x.
                let shift = Int((slope * Double((s.box.x + s.box.width / 2) - (t.box.x + t.box.width / 2))).rounded())
                let overlap = min(s.box.maxY, t.box.maxY + shift) - max(s.box.y, t.box.y + shift)
                guard Double(overlap) >= 0.5 * Double(min(s.box.height, t.box.height)) else { continue }
                guard PriceParser.find(in: text(t), allowPlain: false) == nil else { continue }
                if best.map({ t.box.maxX > segs[$0].box.maxX }) ?? true { best = j }
            }
            if let j = best {
                segs[j].words += s.words
                segs[j].box = segs[j].box.union(s.box)
                removed.insert(i)
            }
        }
        return segs.enumerated().filter { !removed.contains($0.offset) }.map(\.element)
    }

    /// Runs of segment indices in reading order: the reading-order regions in
    /// their order, and within each its columns and bands.
    static func runs(_ segs: [Segment]) -> [[Int]] {
        var regions: [Int] = []
        var members: [Int: [Int]] = [:]
        for (i, s) in segs.enumerated() {
            if members[s.region] == nil { regions.append(s.region) }
            members[s.region, default: []].append(i)
        }
        return regions.flatMap { r -> [[Int]] in
            let ids = members[r] ?? []
            return runs(within: ids.map { segs[$0] }).map { run in run.map { ids[$0] } }
        }
    }

    /// Whether two of the columns (each its lines' boxes) hold lines side by side: one line of
    /// one and one of another sharing at least half the smaller one's height.
    static func sideBySide(_ columns: [[Box]]) -> Bool {
        for c in columns.indices {
            for d in columns.indices where d > c {
                for a in columns[c] {
                    for b in columns[d] {
                        let shared = min(a.maxY, b.maxY) - max(a.y, b.y)
                        if shared > 0 && 2 * shared >= min(a.height, b.height) { return true }
                    }
                }
            }
        }
        return false
    }

    /// A line more than this many times the page's median text height is a title.
    static let titleHeightFactor = 2.5

    /// Runs of indices into `segs` (one region) in reading order.
    static func runs(within segs: [Segment]) -> [[Int]] {
        guard !segs.isEmpty else { return [] }
        let minX = segs.map(\.box.x).min()!, maxX = segs.map(\.box.maxX).max()!
        let width = max(1, maxX - minX)
        let byY: ([Int]) -> [Int] = { ids in ids.sorted { (segs[$0].box.y, segs[$0].box.x) < (segs[$1].box.y, segs[$1].box.x) } }
        // Coverage of narrow segments along x.
        let bins = 200
        var cover = Array(repeating: 0, count: bins)
        func bin(_ x: Int) -> Int { min(bins - 1, max(0, (x - minX) * bins / width)) }
        // A segment's bins: a zero-width or negative-width box (OCR noise)
        // covers the one bin at its x, never an inverted range.
        func binRange(of s: Segment) -> ClosedRange<Int> {
            let lo = bin(s.box.x)
            return lo...max(lo, bin(s.box.maxX - 1))
        }
        // Headers in capitals are often centred across columns: they do not define columns;
        // nor does a title set in more than 2.5 times the page's median text height ("Maple & Rye"
        // over a two-column drinks list bridged its gutter). A line in capitals whose left edge
        // two other lines share (within its text height) is a column's dish name, and does.
        let heights = segs.map { LineFeatures.height($0.words) }
        let titleHeight = LineFeatures.medianHeight(heights).map { titleHeightFactor * $0 } ?? .infinity
        func alignedLeft(_ i: Int) -> Bool {
            let tolerance = max(2, Int(heights[i]))
            var shared = 0
            for (j, t) in segs.enumerated() where j != i && abs(t.box.x - segs[i].box.x) <= tolerance {
                shared += 1
                if shared >= 2 { return true }
            }
            return false
        }
        for (i, s) in segs.enumerated() where Double(s.box.width) < 0.55 * Double(width) && heights[i] <= titleHeight
            && (!MenuStructurer.isAllCapsHeader(s.words.map(\.text).joined(separator: " ")) || alignedLeft(i)) {
            for b in binRange(of: s) { cover[b] += 1 }
        }
        // Gutters: stretches of at least 2% of the width between covered areas that are
        // (nearly) empty: centred headers may cross a gutter, body lines do not.
        let covered = cover.filter { $0 > 0 }.sorted()
        let reference = covered.isEmpty ? 0 : covered[covered.count * 3 / 4]
        let emptyAtMost = reference / 4
        var columns: [(Int, Int)] = []
        var start: Int? = nil
        var lastCovered = -1
        for b in 0..<bins {
            if cover[b] > emptyAtMost {
                if start == nil { start = b }
                else if b - lastCovered - 1 >= 4 { columns.append((start!, lastCovered)); start = b }
                lastCovered = b
            }
        }
        if let s = start { columns.append((s, lastCovered)) }
        if columns.count <= 1 { return [byY(Array(segs.indices))] }
        func columnsOf(_ s: Segment) -> [Int] {
            let r = binRange(of: s)
            let lo = r.lowerBound, hi = r.upperBound
            return columns.indices.filter { c in
                let ov = min(hi, columns[c].1) - max(lo, columns[c].0) + 1
                return ov > 0 && Double(ov) >= 0.2 * Double(hi - lo + 1) || (lo >= columns[c].0 && hi <= columns[c].1)
            }
        }
        var spanning: [Int] = []
        var inColumn: [[Int]] = Array(repeating: [], count: columns.count)
        for (i, s) in segs.enumerated() {
            let cs = columnsOf(s)
            if cs.count == 1 { inColumn[cs[0]].append(i) }
            else if cs.isEmpty {
                // in a gutter: nearest column by centre
                let c = (s.box.x + s.box.width / 2 - minX) * bins / width
                let nearest = columns.indices.min { abs((columns[$0].0 + columns[$0].1) / 2 - c) < abs((columns[$1].0 + columns[$1].1) / 2 - c) }!
                inColumn[nearest].append(i)
            } else { spanning.append(i) }
        }
        // Columns stand side by side: lines stacked one under another that only alternate from
        // left to right (a centred title, its tagline and a short heading) make none.
        guard Self.sideBySide(inColumn.map { $0.map { segs[$0].box } }) else { return [byY(Array(segs.indices))] }
        // Bands are cut at the spanning lines' centres, in the order of those
        // centres (sorted by top, a tall title above a short one would give
        // overlapping bands and lines in both).
        spanning.sort { (segs[$0].box.y + segs[$0].box.height / 2, segs[$0].box.x) < (segs[$1].box.y + segs[$1].box.height / 2, segs[$1].box.x) }
        var runs: [[Int]] = []
        var bandTop = Int.min
        for sp in spanning + [-1] {
            let bandBottom = sp >= 0 ? segs[sp].box.y + segs[sp].box.height / 2 : Int.max
            for c in columns.indices {
                let ids = inColumn[c].filter {
                    let cy = segs[$0].box.y + segs[$0].box.height / 2
                    return cy >= bandTop && cy < bandBottom
                }
                if !ids.isEmpty { runs.append(byY(ids)) }
            }
            if sp >= 0 {
                runs.append([sp])
                bandTop = segs[sp].box.y + segs[sp].box.height / 2
            }
        }
        return runs
    }
}
