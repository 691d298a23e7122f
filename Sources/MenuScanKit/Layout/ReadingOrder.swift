/// Puts a page Tesseract read into reading order, column by column.
///
/// Tesseract's layout analysis often reads straight across columns that a
/// ruling line or a narrow gutter separates (a two-column menu, the four
/// panels of a deposition page, two tables side by side): one "line" then
/// holds the ends of two unrelated lines. This stage cuts the page
/// recursively, like a recursive XY cut, with the photo's ruling lines (at
/// least `ruleMinimumHeights` word heights long) as walls:
///
/// 1. a horizontal ruling line across the region (`ruleCover` of its width)
///    that no line crosses cuts it into top and bottom;
/// 2. so does a horizontal gap of `sectionGap` median word heights;
/// 3. vertical ruling lines over `ruleCover` of the region's height that no
///    word with letters or digits crosses cut it into columns;
/// 4. so do whitespace gutters (`gutterWidth` word heights wide) between two
///    columns of prose: at least `columnWordsPerLine` words a line, at least
///    `columnWidth` word heights wide, and at least `columnLetterShare` of the
///    words with two letters. Price and number columns do not count, so an
///    item's price stays on its line and tables of figures keep their rows.
///    Lines crossing the gutter (a centred title, a page number; at most
///    `spanningShare` of the lines) cut the region into bands first;
/// 5. what cannot be cut keeps Tesseract's order.
///
/// The stage never overrides Tesseract without evidence: a vertical cut
/// (3, 4) is made only where Tesseract's own lines demonstrably cross it (at
/// least `minimumCrossingLines` lines have words on both sides: it read across
/// the columns); a horizontal cut (1, 2) is kept only when it does not change
/// Tesseract's order or a region below it was cut vertically on that evidence.
/// Otherwise the region keeps Tesseract's order, which on a page it already
/// read column by column is the right one.
///
/// Lines are split where a cut passes between their words. Measured on
/// ../shared/eval (docs/preprocessing.md, reading order).
public struct ReadingOrder: Sendable, Equatable {
    public var gutterWidth = 1.2
    public var columnWordsPerLine = 2.0
    public var columnWidth = 6.0
    public var columnLetterShare = 0.5
    public var spanningShare = 0.1
    public var sectionGap = 3.0
    public var ruleCover = 0.8
    /// A ruling line shorter than this many median word heights is ignored
    /// (texture and picture edges on photos make short straight marks).
    public var ruleMinimumHeights = 4.0
    /// A vertical cut needs this many of Tesseract's lines with words on both sides of it.
    public var minimumCrossingLines = 2
    /// A column between whitespace gutters (each strip of a gutter cut) holds at least
    /// this many text rows: two rows side by side ("01/03/18 19:14   Slip No.: 0010" over
    /// "WONG PEI YI   Trans: 114793") are a form's or a receipt's rows, which Tesseract
    /// reads across as they should be read, not two columns. (A ruling line between them
    /// is evidence of its own and still cuts.)
    public var minimumColumnRows = 3

    public init() {}

    /// What the stage did on one photo, as written into its JSON.
    public struct Record: Codable, Equatable, Sendable {
        /// Ruling lines on the photo long enough to be walls (at least
        /// `ruleMinimumHeights` word heights).
        public var ruleLines: Int
        /// Regions the page was cut into (each becomes at least one block).
        public var regions: Int
        /// Lines split because a cut passed between their words.
        public var splitLines: Int
    }

    /// One line, or the part of a line on one side of a cut.
    struct Fragment {
        /// The line's index on the page and its block's.
        var index: Int
        var block: Int
        var words: [OCRWord]
        var top: Int, bottom: Int, left: Int, right: Int

        init(index: Int, block: Int, words: [OCRWord]) {
            self.index = index
            self.block = block
            self.words = words
            top = words.map(\.box.y).min() ?? 0
            bottom = words.map(\.box.maxY).max() ?? 0
            left = words.map(\.box.x).min() ?? 0
            right = words.map(\.box.maxX).max() ?? 0
        }
    }

    /// The page in reading order, and what was done. `rules` are the photo's
    /// ruling lines in the page's pixels.
    public func apply(to page: OCRPage, rules: [RuleLine]) -> (page: OCRPage, record: Record) {
        var fragments: [Fragment] = []
        for (b, block) in page.blocks.enumerated() {
            for line in block.lines where !line.words.isEmpty {
                fragments.append(Fragment(index: fragments.count, block: b, words: line.words))
            }
        }
        let heights = fragments.flatMap { $0.words.map(\.box.height) }.sorted()
        let h = Double(max(1, heights.isEmpty ? 1 : heights[heights.count / 2]))
        let walls = heights.isEmpty ? [] : rules.filter { Double($0.length) >= ruleMinimumHeights * h }
        guard fragments.count > 1 else {
            return (page, Record(ruleLines: walls.count, regions: fragments.count, splitLines: 0))
        }
        let regions = order(fragments, h: h, rules: walls).regions

        var blocks: [OCRBlock] = []
        var parts: [Int: Int] = [:]
        for (r, region) in regions.enumerated() {
            var previousBlock: Int?
            for f in region {
                parts[f.index, default: 0] += 1
                let box = f.words.dropFirst().reduce(f.words[0].box) { $0.union($1.box) }
                let line = OCRLine(box: box, words: f.words)
                if f.block == previousBlock, let last = blocks.indices.last {
                    blocks[last].lines.append(line)
                    blocks[last].box = blocks[last].box.union(box)
                } else {
                    blocks.append(OCRBlock(box: box, lines: [line], region: r))
                }
                previousBlock = f.block
            }
        }
        let split = parts.values.filter { $0 > 1 }.count
        return (OCRPage(blocks: blocks, turnedCharacters: page.turnedCharacters),
                Record(ruleLines: walls.count, regions: regions.count, splitLines: split))
    }

    /// The fragments as regions in reading order, each region in Tesseract's
    /// order, and whether a vertical cut (on evidence) was made anywhere.
    func order(_ frags: [Fragment], h: Double, rules: [RuleLine]) -> (regions: [[Fragment]], cutVertically: Bool) {
        guard frags.count > 1 else { return (frags.isEmpty ? [] : [frags], false) }
        let top = frags.map(\.top).min()!, bottom = frags.map(\.bottom).max()!
        let left = frags.map(\.left).min()!, right = frags.map(\.right).max()!
        let tesseract = [frags.sorted { $0.index < $1.index }]
        func valid(_ parts: [[Fragment]]) -> Bool {
            // Every part must be smaller than the region, or the cut did nothing.
            let words = frags.reduce(0) { $0 + $1.words.count }
            return parts.count > 1 && parts.allSatisfy({ !$0.isEmpty && $0.reduce(0) { $0 + $1.words.count } < words })
        }
        /// A horizontal cut: kept when it leaves Tesseract's order as it was or a part was cut vertically.
        func horizontal(_ parts: [[Fragment]]) -> (regions: [[Fragment]], cutVertically: Bool)? {
            guard valid(parts) else { return nil }
            let subs = parts.map { order($0, h: h, rules: rules) }
            let regions = subs.flatMap(\.regions)
            if subs.contains(where: \.cutVertically) { return (regions, true) }
            let sequence = regions.flatMap { $0.map(\.index) }
            if sequence == sequence.sorted() { return (regions, false) }
            return (tesseract, false)
        }
        /// A vertical cut at `xs`: only where Tesseract's lines cross it and, for
        /// ruling lines, only between columns of text (a table's cells, one or two
        /// words a row, are read across by Tesseract as they should be).
        func vertical(_ xs: [Int], prose: Bool) -> (regions: [[Fragment]], cutVertically: Bool)? {
            let crossing = frags.filter { f in
                xs.contains { x in f.words.contains { $0.box.x + $0.box.width / 2 < x } && f.words.contains { $0.box.x + $0.box.width / 2 >= x } }
            }.count
            guard crossing >= minimumCrossingLines else { return nil }
            let parts = split(frags, at: xs)
            guard valid(parts) else { return nil }
            if prose {
                for part in parts {
                    let words = part.flatMap(\.words)
                    let l = part.map(\.left).min() ?? 0, r = part.map(\.right).max() ?? 0
                    guard Double(words.count) / Double(Self.rowCount(words)) >= columnWordsPerLine,
                          Double(r - l) >= columnWidth * h else { return nil }
                }
            }
            return (parts.flatMap { order($0, h: h, rules: rules).regions }, true)
        }

        // 1. A horizontal ruling line across the region, between its lines.
        let across = rules.filter { r in
            r.axis == .horizontal && r.position > top && r.position < bottom
                && Double(min(r.end, right) - max(r.start, left)) >= ruleCover * Double(right - left)
                && !frags.contains { $0.top < r.position && r.position < $0.bottom }
        }.map(\.position).sorted()
        if let y = across.first, let out = horizontal(cut(frags, atY: y)) { return out }

        // 2. A wide horizontal gap.
        if let gap = widestGap(frags), Double(gap.size) >= sectionGap * h, let out = horizontal(cut(frags, atY: gap.middle)) {
            return out
        }

        // 3. Vertical ruling lines down the region that no word crosses.
        let walls = rules.filter { r in
            r.axis == .vertical && r.position > left && r.position < right
                && Double(min(r.end, bottom) - max(r.start, top)) >= ruleCover * Double(bottom - top)
                && !frags.contains { f in
                    f.words.contains { w in w.box.x < r.position && r.position < w.box.maxX && w.text.contains { $0.isLetter || $0.isNumber } }
                }
        }.map(\.position).sorted()
        if !walls.isEmpty, let out = vertical(walls, prose: true) { return out }

        // 4. Gutters between columns of prose.
        let (cuts, spanning) = gutters(frags, h: h, left: left, right: right)
        if !cuts.isEmpty {
            if spanning.isEmpty {
                if let out = vertical(cuts.map { ($0.lowerBound + $0.upperBound) / 2 }, prose: false) { return out }
            } else {
                // Bands between the lines that cross a gutter; those lines
                // are regions of their own.
                var parts: [[Fragment]] = []
                var band: [Fragment] = [], crossing: [Fragment] = []
                for f in frags.sorted(by: { ($0.top, $0.index) < ($1.top, $1.index) }) {
                    if spanning.contains(f.index) {
                        if !band.isEmpty { parts.append(band); band = [] }
                        crossing.append(f)
                    } else {
                        if !crossing.isEmpty { parts.append(crossing); crossing = [] }
                        band.append(f)
                    }
                }
                if !band.isEmpty { parts.append(band) }
                if !crossing.isEmpty { parts.append(crossing) }
                if let out = horizontal(parts) { return out }
            }
        }
        // 5. Tesseract's order.
        return (tesseract, false)
    }

    /// Top and bottom of `y` (by each fragment's top).
    func cut(_ frags: [Fragment], atY y: Int) -> [[Fragment]] {
        [frags.filter { $0.top < y }, frags.filter { $0.top >= y }]
    }

    /// The widest vertical gap between the fragments' rows, and its middle.
    func widestGap(_ frags: [Fragment]) -> (size: Int, middle: Int)? {
        let rows = frags.map { ($0.top, $0.bottom) }.sorted { $0.0 < $1.0 }
        var end = rows[0].1
        var best: (size: Int, middle: Int)?
        for (a, b) in rows.dropFirst() {
            if a > end, a - end > (best?.size ?? 0) { best = (a - end, (a + end) / 2) }
            end = max(end, b)
        }
        return best
    }

    /// The fragments split into columns at the x positions `xs` (sorted); a
    /// word goes to the side its centre is on.
    func split(_ frags: [Fragment], at xs: [Int]) -> [[Fragment]] {
        var columns = Array(repeating: [Fragment](), count: xs.count + 1)
        for f in frags {
            var parts = Array(repeating: [OCRWord](), count: xs.count + 1)
            for w in f.words {
                let centre = w.box.x + w.box.width / 2
                parts[xs.firstIndex { centre < $0 } ?? xs.count].append(w)
            }
            for (c, words) in parts.enumerated() where !words.isEmpty {
                columns[c].append(Fragment(index: f.index, block: f.block, words: words))
            }
        }
        return columns.filter { !$0.isEmpty }
    }

    /// Gutters between columns of prose (x ranges), and the fragments that
    /// cross one.
    func gutters(_ frags: [Fragment], h: Double, left: Int, right: Int) -> (cuts: [Range<Int>], spanning: Set<Int>) {
        let width = right - left
        guard width > 0 else { return ([], []) }
        // How many words cover each x.
        var delta = Array(repeating: 0, count: width + 1)
        for f in frags {
            for w in f.words {
                // Clamped: a negative-width box (x past maxX) or one outside
                // left…right must not index outside the profile.
                let from = min(width, max(0, w.box.x - left))
                delta[from] += 1
                delta[min(width, max(from, w.box.maxX - left))] -= 1
            }
        }
        var cover = Array(repeating: 0, count: width)
        var running = 0
        for x in 0..<width { running += delta[x]; cover[x] = running }
        let allowed = Int(spanningShare * Double(frags.count))
        func crossing(_ r: Range<Int>) -> Set<Int> {
            Set(frags.filter { f in f.words.contains { $0.box.x < r.upperBound && $0.box.maxX > r.lowerBound } }.map(\.index))
        }

        // Candidate bands: runs of low cover with words on both sides; in each,
        // the widest stretch at its lowest cover (a body line reaching into the
        // gutter must not count as crossing it). Accepting wider stretches at
        // a higher cover found false gutters on ../shared/eval documents.
        let minimumWidth = gutterWidth * h
        var bands: [(range: Range<Int>, crossing: Set<Int>)] = []
        var x = 0
        while x < width {
            guard cover[x] <= allowed else { x += 1; continue }
            let start = x
            while x < width && cover[x] <= allowed { x += 1 }
            guard start > 0, x < width else { continue }
            let lowest = cover[start..<x].min()!
            var best: Range<Int>?
            var s = start
            while s < x {
                guard cover[s] == lowest else { s += 1; continue }
                var e = s
                while e < x && cover[e] == lowest { e += 1 }
                if e - s > (best?.count ?? 0) { best = s..<e }
                s = e
            }
            if let best, Double(best.count) >= minimumWidth {
                let band = (best.lowerBound + left)..<(best.upperBound + left)
                let crossed = crossing(band)
                if crossed.count <= allowed { bands.append((band, crossed)) }
            }
        }
        guard !bands.isEmpty else { return ([], []) }

        // Strips between bands; strips that are not columns of prose join the
        // nearer neighbour.
        let spanningAll = bands.reduce(into: Set<Int>()) { $0.formUnion($1.crossing) }
        let words = frags.filter { !spanningAll.contains($0.index) }.flatMap(\.words)
        struct Strip { var lower: Int, upper: Int, words: [OCRWord], prose: Bool }
        func strip(_ lower: Int, _ upper: Int, _ words: [OCRWord]) -> Strip {
            let lettered = words.filter { $0.text.filter(\.isLetter).count >= 2 }.count
            let prose = !words.isEmpty
                && Double(words.count) / Double(Self.rowCount(words)) >= columnWordsPerLine
                && Self.rowCount(words) >= minimumColumnRows
                && Double(upper - lower) >= columnWidth * h
                && Double(lettered) >= columnLetterShare * Double(words.count)
            return Strip(lower: lower, upper: upper, words: words, prose: prose)
        }
        let edges = [left] + bands.flatMap { [$0.range.lowerBound, $0.range.upperBound] } + [right]
        var strips = (0...bands.count).map { i -> Strip in
            let lo = edges[2 * i], hi = edges[2 * i + 1]
            return strip(lo, hi, words.filter { let c = $0.box.x + $0.box.width / 2; return c >= lo && c <= hi })
        }
        while strips.count > 1, let i = strips.firstIndex(where: { !$0.prose }) {
            let leftGap = i > 0 ? strips[i].lower - strips[i - 1].upper : Int.max
            let rightGap = i + 1 < strips.count ? strips[i + 1].lower - strips[i].upper : Int.max
            let j = leftGap <= rightGap ? i - 1 : i + 1
            let lo = min(i, j)
            let merged = strip(strips[lo].lower, strips[lo + 1].upper, strips[lo].words + strips[lo + 1].words)
            strips.replaceSubrange(lo...(lo + 1), with: [merged])
        }
        guard strips.count > 1 else { return ([], []) }
        // The gaps left between strips are bands; their crossing lines were found above.
        let kept = bands.filter { band in strips.contains { $0.upper == band.range.lowerBound } }
        return (kept.map(\.range), kept.reduce(into: Set<Int>()) { $0.formUnion($1.crossing) })
    }

    /// Text rows among these words (words whose heights overlap by more than
    /// 30 % of the lower one share a row).
    static func rowCount(_ words: [OCRWord]) -> Int {
        var rows = 0
        var end = Int.min
        for w in words.sorted(by: { $0.box.y < $1.box.y }) {
            if Double(w.box.y) >= Double(end) - 0.3 * Double(w.box.height) {
                rows += 1
                end = w.box.maxY
            } else {
                end = max(end, w.box.maxY)
            }
        }
        return max(1, rows)
    }
}
