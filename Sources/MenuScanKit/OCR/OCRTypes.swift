/// An axis-aligned rectangle in pixels of the upright photo. Encoded in JSON as
/// `[x, y, width, height]`.
public struct Box: Equatable, Hashable, Sendable, Codable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// From Tesseract's (left, top, right, bottom) with exclusive right/bottom.
    public init(left: Int, top: Int, right: Int, bottom: Int) {
        self.init(x: left, y: top, width: max(0, right - left), height: max(0, bottom - top))
    }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var area: Int { width * height }

    /// The smallest box holding both.
    public func union(_ other: Box) -> Box {
        Box(left: min(x, other.x), top: min(y, other.y),
            right: max(maxX, other.maxX), bottom: max(maxY, other.maxY))
    }

    /// The overlap, or nil when the boxes do not overlap.
    public func intersection(_ other: Box) -> Box? {
        let l = max(x, other.x), t = max(y, other.y)
        let r = min(maxX, other.maxX), b = min(maxY, other.maxY)
        return (r > l && b > t) ? Box(left: l, top: t, right: r, bottom: b) : nil
    }

    /// Intersection over union, 0…1.
    public func iou(_ other: Box) -> Double {
        guard let i = intersection(other) else { return 0 }
        let u = area + other.area - i.area
        return u > 0 ? Double(i.area) / Double(u) : 0
    }

    /// The box scaled by `factor` about the origin (to map between a working
    /// copy of the photo and the upright original).
    public func scaled(by factor: Double) -> Box {
        let l = Int((Double(x) * factor).rounded()), t = Int((Double(y) * factor).rounded())
        let r = Int((Double(maxX) * factor).rounded()), b = Int((Double(maxY) * factor).rounded())
        return Box(left: l, top: t, right: r, bottom: b)
    }

    public init(from decoder: Decoder) throws {
        var c = try decoder.unkeyedContainer()
        self.init(x: try c.decode(Int.self), y: try c.decode(Int.self),
                  width: try c.decode(Int.self), height: try c.decode(Int.self))
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.unkeyedContainer()
        try c.encode(x); try c.encode(y); try c.encode(width); try c.encode(height)
    }
}

/// One recognised word (SPEC R3). `confidence` is Tesseract's 0…100 divided by
/// 100; nil where Tesseract gave none (never a made-up value).
public struct OCRWord: Equatable, Sendable, Codable {
    public var text: String
    public var confidence: Double?
    public var box: Box
    /// True for a word the second pass (line recovery) read on a line the
    /// page layout missed; absent for words of the page pass.
    public var recovered: Bool?

    public init(text: String, confidence: Double?, box: Box, recovered: Bool? = nil) {
        self.text = text
        self.confidence = confidence
        self.box = box
        self.recovered = recovered
    }
}

/// A text line: its words in reading order.
public struct OCRLine: Equatable, Sendable, Codable {
    public var box: Box
    public var words: [OCRWord]
    public init(box: Box, words: [OCRWord]) {
        self.box = box
        self.words = words
    }

    /// Mean of the words' confidences (words without one left out).
    public var meanConfidence: Double? {
        let c = words.compactMap(\.confidence)
        return c.isEmpty ? nil : c.reduce(0, +) / Double(c.count)
    }

    /// The line's words joined by single spaces.
    public var text: String { words.map(\.text).joined(separator: " ") }
}

/// A block of lines as Tesseract's layout analysis found it.
public struct OCRBlock: Equatable, Sendable, Codable {
    public var box: Box
    public var lines: [OCRLine]
    /// The reading-order region (a column of a band, numbered in reading
    /// order) the block lies in, when the reading-order stage ran; absent
    /// otherwise. The menu structure finds its columns within each region, so
    /// `classify --page` on a scan's blocks structures the menu as the scan did.
    public var region: Int?

    public init(box: Box, lines: [OCRLine], region: Int? = nil) {
        self.box = box
        self.lines = lines
        self.region = region
    }
}

/// Everything the OCR stage read on one photo.
public struct OCRPage: Equatable, Sendable, Codable {
    public var blocks: [OCRBlock]
    /// Characters in blocks whose text Tesseract's layout found turned
    /// (sideways or upside down) rather than upright. Not written to JSON:
    /// the pipeline uses it to decide whether orientation detection must run.
    public var turnedCharacters = 0

    private enum CodingKeys: String, CodingKey { case blocks }

    public init(blocks: [OCRBlock], turnedCharacters: Int = 0) {
        self.blocks = blocks
        self.turnedCharacters = turnedCharacters
    }

    public var lines: [OCRLine] { blocks.flatMap(\.lines) }
    public var words: [OCRWord] { blocks.flatMap { $0.lines.flatMap(\.words) } }

    /// Recognised characters, not counting whitespace (R4).
    public var characterCount: Int { Self.characterCount(of: words) }

    /// Characters of these words, not counting whitespace.
    public static func characterCount(of words: [OCRWord]) -> Int {
        words.reduce(0) { $0 + characterCount(of: $1.text) }
    }

    /// Characters of a text, not counting whitespace.
    public static func characterCount(of text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + ($1.properties.isWhitespace ? 0 : 1) }
    }

    /// Mean of the words' confidences (words without one are left out), or nil.
    public var meanConfidence: Double? {
        let c = words.compactMap(\.confidence)
        return c.isEmpty ? nil : c.reduce(0, +) / Double(c.count)
    }

    public var minConfidence: Double? { words.compactMap(\.confidence).min() }

    /// The same page with every box scaled by `factor` and clipped to `bounds`
    /// (to map boxes from a rescaled OCR copy back to the photo).
    public func mapped(by factor: Double, within bounds: Box) -> OCRPage {
        func map(_ b: Box) -> Box {
            let s = b.scaled(by: factor)
            return s.intersection(bounds) ?? Box(x: min(max(s.x, 0), bounds.maxX), y: min(max(s.y, 0), bounds.maxY), width: 0, height: 0)
        }
        return OCRPage(blocks: blocks.map { block in
            OCRBlock(box: map(block.box), lines: block.lines.map { line in
                OCRLine(box: map(line.box), words: line.words.map {
                    OCRWord(text: $0.text, confidence: $0.confidence, box: map($0.box), recovered: $0.recovered)
                })
            })
        }, turnedCharacters: turnedCharacters)
    }

    /// The page with extra lines (from a second pass) placed in reading order.
    /// A line on the same visual row as a line of the page (its middle within
    /// that line's height) joins the nearest such line that starts left of it
    /// (else the nearest on its right), its words merged left to right: an
    /// item's price read on the second pass ends up on the item's line. The others are grouped into blocks (lines stacked with
    /// overlapping columns) placed before the first block that starts below
    /// them in the same columns, else at the end. Measured on
    /// ../shared/eval/documents: appending them at the end, or inserting them as
    /// lines of their own between the row's lines, cost more CER than leaving
    /// them out; this placement costs about as much as leaving them out while
    /// keeping their words (docs/preprocessing.md). A column of them in the left
    /// margin (`marginColumn`: line numbers) is one block of its own, placed before
    /// the first block it sits beside, not merged into the rows (docs/menu-structure.md,
    /// round 7).
    public func inserting(_ extra: [OCRLine]) -> OCRPage {
        var blocks = self.blocks
        var leftover: [OCRLine] = []
        typealias Row = (block: Int, line: Int, left: Bool, gap: Int)
        let sorted = extra.sorted(by: { ($0.box.y, $0.box.x) < ($1.box.y, $1.box.x) })
        let rows: [Row?] = sorted.map { line in
            let cy = line.box.y + line.box.height / 2
            // The nearest line of the row on its left (a price follows its
            // name; in a two-column menu the next column's line may be
            // nearer), else the nearest on its right.
            var best: Row?
            for (b, block) in self.blocks.enumerated() {
                for (l, other) in block.lines.enumerated() where cy >= other.box.y && cy < other.box.maxY {
                    let gap = max(line.box.x - other.box.maxX, other.box.x - line.box.maxX, 0)
                    let left = other.box.x < line.box.x
                    if let current = best, !(left && !current.left), !(left == current.left && gap < current.gap) { continue }
                    best = (b, l, left, gap)
                }
            }
            return best
        }
        let margin = Self.marginColumn(sorted, rows: rows.map { r in
            r.map { (left: $0.left, gap: $0.gap, height: self.blocks[$0.block].lines[$0.line].box.height) }
        })
        for (i, line) in sorted.enumerated() where !margin.contains(i) {
            guard let best = rows[i] else { leftover.append(line); continue }
            var row = blocks[best.block].lines[best.line]
            row.words = (row.words + line.words).sorted { $0.box.x < $1.box.x }
            row.box = row.box.union(line.box)
            blocks[best.block].lines[best.line] = row
            blocks[best.block].box = blocks[best.block].box.union(line.box)
        }
        // A margin column: one block before the earliest block holding a line it sits beside.
        if !margin.isEmpty {
            let lines = margin.sorted().map { sorted[$0] }
            let box = lines.dropFirst().reduce(lines[0].box) { $0.union($1.box) }
            let at = margin.compactMap { rows[$0]?.block }.min() ?? blocks.count
            blocks.insert(OCRBlock(box: box, lines: lines), at: min(max(0, at), blocks.count))
        }
        // Leftovers (already top to bottom) stacked into blocks.
        var groups: [OCRBlock] = []
        for line in leftover {
            if let g = groups.lastIndex(where: { group in
                guard let last = group.lines.last else { return false }
                let overlaps = line.box.x < last.box.maxX && last.box.x < line.box.maxX
                return overlaps && line.box.y - last.box.maxY < max(line.box.height, last.box.height) * 3 / 2
            }) {
                groups[g].lines.append(line)
                groups[g].box = groups[g].box.union(line.box)
            } else {
                groups.append(OCRBlock(box: line.box, lines: [line]))
            }
        }
        for group in groups {
            let at = blocks.firstIndex { $0.box.y >= group.box.maxY && $0.box.x < group.box.maxX && group.box.x < $0.box.maxX } ?? blocks.count
            blocks.insert(group, at: at)
        }
        return OCRPage(blocks: blocks, turnedCharacters: turnedCharacters)
    }

    /// Lines of a second pass that form a column in the page's left margin: each is one
    /// short word (`marginMarkLength`), has nothing on its left in its row and a gutter (at least `marginGapHeights` line
    /// heights) before the row's nearest line on its right, and at least
    /// `marginColumnLines` of them line up (left or right edges within a line height).
    /// Such a column (a deposition's or a contract's line numbers, which Tesseract's
    /// layout drops as it drops a menu's price column) is text of its own, not the start
    /// of each row's line: merged into the rows, its words interleave with the text.
    /// `rows[i]`: line i's nearest row line (on its left or not, the gap, its height).
    /// Returns indices into `lines`.
    static func marginColumn(_ lines: [OCRLine], rows: [(left: Bool, gap: Int, height: Int)?]) -> Set<Int> {
        let candidates = lines.indices.filter { i in
            // A margin mark is one short word ("12", "a)", "§3"): a column of words is a
            // table's row labels, which belong to their rows.
            guard i < rows.count, let r = rows[i], !r.left, lines[i].words.count == 1,
                  lines[i].words[0].text.count <= marginMarkLength else { return false }
            let h = max(1, lines[i].box.height, r.height)
            return Double(r.gap) >= marginGapHeights * Double(h)
        }
        guard candidates.count >= marginColumnLines else { return [] }
        var out = Set<Int>()
        for i in candidates {
            let a = lines[i].box
            let aligned = candidates.filter { j in
                let b = lines[j].box
                let h = max(1, a.height, b.height)
                return abs(a.x - b.x) <= h || abs(a.maxX - b.maxX) <= h
            }
            if aligned.count >= marginColumnLines { out.insert(i) }
        }
        return out
    }

    /// A margin mark's most characters.
    static let marginMarkLength = 4
    /// A margin column's gutter, in line heights, and its least number of lines.
    static let marginGapHeights = 2.0
    static let marginColumnLines = 3

    /// Plain text: one line per line, a blank line between blocks.
    public var text: String {
        blocks.map { $0.lines.map(\.text).joined(separator: "\n") }.joined(separator: "\n\n")
    }
}
