import Foundation
import Testing
@testable import MenuScanKit

/// Words of a made-up page: `texts` laid out left to right from `x` on a row
/// at `y`, each word 10 px a character wide and 20 px tall, 10 px apart.
private func row(_ texts: [String], x: Int, y: Int) -> [OCRWord] {
    var words: [OCRWord] = []
    var left = x
    for t in texts {
        let w = max(10, t.count * 10)
        words.append(OCRWord(text: t, confidence: 0.9, box: Box(x: left, y: y, width: w, height: 20)))
        left += w + 10
    }
    return words
}

private func line(_ words: [OCRWord]) -> OCRLine {
    OCRLine(box: words.dropFirst().reduce(words[0].box) { $0.union($1.box) }, words: words)
}

private func page(_ lines: [OCRLine]) -> OCRPage {
    OCRPage(blocks: [OCRBlock(box: lines.dropFirst().reduce(lines[0].box) { $0.union($1.box) }, lines: lines)])
}

/// Prose made of four-letter words.
private func prose(_ n: Int, tag: String) -> [String] { (0..<n).map { "\(tag)\($0 % 10)ab" } }

@Suite("Layout: reading order")
struct ReadingOrderTests {
    /// Two columns of prose 20 px apart (narrower than a gutter), read by
    /// Tesseract as rows straight across both.
    func acrossColumns(rows: Int = 8) -> OCRPage {
        page((0..<rows).map { r in
            line(row(prose(5, tag: "L"), x: 100, y: 100 + r * 30) + row(prose(5, tag: "R"), x: 360, y: 100 + r * 30))
        })
    }

    @Test("a vertical ruling line between columns makes them read one after the other")
    func wallSplitsColumns() {
        let wall = RuleLine(axis: .vertical, position: 350, start: 80, end: 360)
        let (ordered, record) = ReadingOrder().apply(to: acrossColumns(), rules: [wall])
        let lines = ordered.lines.map(\.text)
        #expect(lines.count == 16)
        #expect(lines.prefix(8).allSatisfy { $0.hasPrefix("L") && !$0.contains("R") })
        #expect(lines.suffix(8).allSatisfy { $0.hasPrefix("R") && !$0.contains("L") })
        #expect(record.splitLines == 8 && record.regions == 2 && record.ruleLines == 1)
        // Every word is kept, once.
        #expect(ordered.words.count == acrossColumns().words.count)
    }

    @Test("a ruling line shorter than four word heights is not a wall, even over a small region")
    func shortRuleIgnored() {
        // Two lines (60 px tall in all): a 70 px mark covers them but is only
        // 3.5 word heights long: texture on a photo, not a divider.
        let two = page([line(row(prose(5, tag: "L"), x: 100, y: 100) + row(prose(5, tag: "R"), x: 360, y: 100)),
                        line(row(prose(5, tag: "L"), x: 100, y: 130) + row(prose(5, tag: "R"), x: 360, y: 130))])
        let mark = RuleLine(axis: .vertical, position: 350, start: 90, end: 160)
        let result = ReadingOrder().apply(to: two, rules: [mark])
        #expect(result.page.lines.map(\.text) == two.lines.map(\.text))
        #expect(result.record.ruleLines == 0)
        let divider = RuleLine(axis: .vertical, position: 350, start: 60, end: 160)
        #expect(ReadingOrder().apply(to: two, rules: [divider]).page.lines.count == 4)
    }

    @Test("without a ruling line a narrow gap is not a column gutter; a short rule does not cut either")
    func noWallNoCut() {
        let original = acrossColumns()
        #expect(ReadingOrder().apply(to: original, rules: []).page.lines.map(\.text) == original.lines.map(\.text))
        let short = RuleLine(axis: .vertical, position: 350, start: 80, end: 150)
        #expect(ReadingOrder().apply(to: original, rules: [short]).page.lines.map(\.text) == original.lines.map(\.text))
    }

    @Test("a ruling line that a word crosses is not a wall")
    func crossedRule() {
        var lines = acrossColumns().lines
        lines.append(line(row(["Headlineacrossboth"], x: 300, y: 340)))
        let original = page(lines)
        let wall = RuleLine(axis: .vertical, position: 350, start: 80, end: 370)
        #expect(ReadingOrder().apply(to: original, rules: [wall]).page.lines.map(\.text) == original.lines.map(\.text))
    }

    @Test("a wide whitespace gutter between prose columns splits them; a centred title over both stays first")
    func gutter() {
        var lines = [line(row(["Titleoverbothcolumns"], x: 280, y: 40))]
        lines += (0..<10).map { r in
            line(row(prose(5, tag: "L"), x: 100, y: 100 + r * 30) + row(prose(5, tag: "R"), x: 420, y: 100 + r * 30))
        }
        let ordered = ReadingOrder().apply(to: page(lines), rules: []).page.lines.map(\.text)
        #expect(ordered.first == "Titleoverbothcolumns")
        #expect(ordered.count == 21)
        #expect(ordered[1...10].allSatisfy { $0.hasPrefix("L") })
        #expect(ordered[11...].allSatisfy { $0.hasPrefix("R") })
    }

    @Test("columns Tesseract already read one after the other keep its order, gutter, gap and wall or not")
    func tesseractOrderKeptWithoutCrossingLines() {
        // Left column (two sections with a wide gap between them) read first, then the
        // right one: no line crosses the gutter or the wall, so nothing is reordered.
        let ys = [100, 130, 160, 400, 430, 460]
        let left = ys.map { line(row(prose(5, tag: "L"), x: 100, y: $0)) }
        let right = ys.map { line(row(prose(5, tag: "R"), x: 420, y: $0)) }
        let original = page(left + right)
        let wall = RuleLine(axis: .vertical, position: 390, start: 80, end: 500)
        for rules in [[], [wall]] {
            let out = ReadingOrder().apply(to: original, rules: rules).page.lines.map(\.text)
            #expect(out == original.lines.map(\.text))
        }
        // The same columns read across (one line per row) are split: band by band (the
        // wide gap cuts first), column by column within each band.
        let across = page(ys.map { line(row(prose(5, tag: "L"), x: 100, y: $0) + row(prose(5, tag: "R"), x: 420, y: $0)) })
        let split = ReadingOrder().apply(to: across, rules: [wall]).page.lines.map { String($0.text.prefix(1)) }
        #expect(split == ["L", "L", "L", "R", "R", "R", "L", "L", "L", "R", "R", "R"])
    }

    @Test("two rows side by side across a whitespace gutter are a form's rows, not two columns")
    func twoRowsAreNoColumns() {
        // "01/03/18 19:14   Slip No.: 0010104733" over "WONG PEI YI   Trans: 114793".
        let two = page([line(row(prose(4, tag: "L"), x: 100, y: 100) + row(prose(4, tag: "R"), x: 500, y: 100)),
                        line(row(prose(4, tag: "L"), x: 100, y: 130) + row(prose(4, tag: "R"), x: 500, y: 130))])
        #expect(ReadingOrder().apply(to: two, rules: []).page.lines.map(\.text) == two.lines.map(\.text))
        // Three such rows are columns: read one after the other.
        let three = page((0..<3).map { r in line(row(prose(4, tag: "L"), x: 100, y: 100 + 30 * r) + row(prose(4, tag: "R"), x: 500, y: 100 + 30 * r)) })
        let out = ReadingOrder().apply(to: three, rules: []).page.lines.map { String($0.text.prefix(1)) }
        #expect(out == ["L", "L", "L", "R", "R", "R"])
    }

    @Test("a column of prices is not a column of prose: item and price stay on one line")
    func pricesStay() {
        let lines = (0..<10).map { r in
            line(row(["Soup", "of", "the", "day", "with", "bread"], x: 100, y: 100 + r * 30) + row(["5.50"], x: 600, y: 100 + r * 30))
        }
        let original = page(lines)
        #expect(ReadingOrder().apply(to: original, rules: []).page.lines.map(\.text) == original.lines.map(\.text))
    }

    @Test("a horizontal ruling line across the page separates what is above from what is below")
    func horizontalRule() {
        // Two panels of two columns each: the rule between them makes the
        // top panel's columns read before the bottom panel's.
        let top = (0..<6).map { r in line(row(prose(5, tag: "A"), x: 100, y: 100 + r * 30) + row(prose(5, tag: "B"), x: 360, y: 100 + r * 30)) }
        let bottom = (0..<6).map { r in line(row(prose(5, tag: "C"), x: 100, y: 300 + r * 30) + row(prose(5, tag: "D"), x: 360, y: 300 + r * 30)) }
        let rules = [RuleLine(axis: .horizontal, position: 285, start: 90, end: 640),
                     RuleLine(axis: .vertical, position: 350, start: 90, end: 280),
                     RuleLine(axis: .vertical, position: 350, start: 290, end: 480)]
        let ordered = ReadingOrder().apply(to: page(top + bottom), rules: rules).page.lines.map { String($0.text.prefix(1)) }
        #expect(ordered == Array(repeating: "A", count: 6) + Array(repeating: "B", count: 6)
            + Array(repeating: "C", count: 6) + Array(repeating: "D", count: 6))
    }

    @Test("a wide empty band between sections cuts the page before columns are looked for")
    func sectionGap() {
        let top = (0..<4).map { r in line(row(prose(5, tag: "T"), x: 100, y: 100 + r * 30)) }
        let bottom = (0..<4).map { r in line(row(prose(5, tag: "L"), x: 100, y: 400 + r * 30) + row(prose(5, tag: "R"), x: 420, y: 400 + r * 30)) }
        let ordered = ReadingOrder().apply(to: page(top + bottom), rules: []).page.lines.map { String($0.text.prefix(1)) }
        #expect(ordered == ["T", "T", "T", "T", "L", "L", "L", "L", "R", "R", "R", "R"])
    }

    @Test("blocks carry their region in JSON, so a re-read page structures as the scan did; no region, no key")
    func regionInJSON() throws {
        let wall = RuleLine(axis: .vertical, position: 350, start: 80, end: 360)
        let ordered = ReadingOrder().apply(to: acrossColumns(), rules: [wall]).page
        #expect(ordered.blocks.map(\.region) == [0, 1])
        let data = try JSONEncoder().encode(ordered)
        #expect(try JSONDecoder().decode(OCRPage.self, from: data) == ordered)
        let plain = try JSONEncoder().encode(acrossColumns())
        #expect(!String(decoding: plain, as: UTF8.self).contains("region"))
    }

    @Test("lines of one original block stay in one block; an empty or one-line page is returned as it is")
    func blocks() {
        let wall = RuleLine(axis: .vertical, position: 350, start: 80, end: 360)
        let ordered = ReadingOrder().apply(to: acrossColumns(), rules: [wall]).page
        #expect(ordered.blocks.count == 2)
        let empty = OCRPage(blocks: [])
        #expect(ReadingOrder().apply(to: empty, rules: [wall]).page == empty)
        let one = page([line(row(["Only", "line"], x: 10, y: 10))])
        let result = ReadingOrder().apply(to: one, rules: [wall])
        #expect(result.page == one)
        #expect(result.record.regions == 1 && result.record.ruleLines == 1)
    }
}

@Suite("Layout: ruling lines")
struct RuleLineTests {
    @Test("a divider, a frame line and a line beside a dark banner are found; text is not a line")
    func findsRules() throws {
        let pix = try #require(Bitmap.filled(width: 800, height: 600, r: 250, g: 250, b: 245))
        // Text-like marks on both sides.
        for r in 0..<12 {
            for c in 0..<20 {
                pix.fill(Box(x: 60 + c * 16, y: 80 + r * 36, width: 9, height: 14 + (c % 3)), r: 30, g: 30, b: 30)
                pix.fill(Box(x: 440 + c * 16, y: 80 + r * 36, width: 9, height: 14 + (c % 3)), r: 30, g: 30, b: 30)
            }
        }
        pix.fill(Box(x: 399, y: 60, width: 2, height: 480), r: 20, g: 20, b: 20)     // column divider
        pix.fill(Box(x: 40, y: 560, width: 720, height: 2), r: 20, g: 20, b: 20)     // rule at the foot
        pix.fill(Box(x: 760, y: 20, width: 30, height: 300), r: 60, g: 60, b: 60)    // dark banner…
        pix.fill(Box(x: 757, y: 20, width: 2, height: 560), r: 10, g: 10, b: 10)    // …with a line along its edge
        let map = try #require(TextRegionAnalyzer().inkMap(of: pix, findRules: true))
        #expect(TextRegionAnalyzer().inkMap(of: pix)?.rules.isEmpty == true)  // only when asked for
        let vertical = map.rules.filter { $0.axis == .vertical }
        let horizontal = map.rules.filter { $0.axis == .horizontal }
        #expect(vertical.contains { abs($0.position - 400) <= 2 && abs($0.start - 60) <= 4 && abs($0.end - 540) <= 4 })
        #expect(vertical.contains { abs($0.position - 758) <= 2 && $0.end - $0.start >= 500 })
        #expect(horizontal.contains { abs($0.position - 561) <= 2 && abs($0.start - 40) <= 4 && abs($0.end - 760) <= 4 })
        // Nothing else: no line in the text or along the banner's own edges.
        #expect(vertical.count == 2)
        #expect(horizontal.count == 1)
    }

    @Test("collinear pieces with a short break join; offset or far pieces do not")
    func join() {
        let pieces = [RuleLine(axis: .vertical, position: 100, start: 0, end: 200),
                      RuleLine(axis: .vertical, position: 101, start: 210, end: 400),
                      RuleLine(axis: .vertical, position: 100, start: 600, end: 700),
                      RuleLine(axis: .vertical, position: 140, start: 0, end: 400)]
        let joined = RuleLineFinder.join(pieces, maximumOffset: 3, maximumBreak: 20)
        #expect(joined.count == 3)
        #expect(joined.contains { $0.start == 0 && $0.end == 400 && abs($0.position - 100) <= 1 })
    }
}
