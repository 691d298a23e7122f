import Foundation
import PropertyBased
import Testing
@testable import MenuScanKit

// Property-based tests of every geometry/text routine that indexes arrays or
// ranges (issue 14): random pages with random word boxes, empty lines,
// zero-size, negative and overlapping boxes, one word, ten thousand words and
// unicode text. A Swift trap in any of them would end a worker, so the first
// property is always "returns at all". Deterministic: the generators of
// `x-sheep/swift-property-based` run on a fixed Xoshiro seed per test, a fixed
// number of times (a failure names the iteration; rerun with that seed).

/// Runs `body` on `count` values of `gen` drawn from a fixed seed.
private func forEachDrawn<T>(_ count: Int, seed: UInt64, _ gen: Generator<T, some Sequence>,
                             _ body: (Int, T) -> Void) {
    var rng = Xoshiro(seed: (seed, 0x9E37_79B9_7F4A_7C15, seed &* 31 &+ 7, 0xD1B5_4A32_D192_ED03))
    for i in 0..<count { body(i, gen.run(using: &rng)) }
}

/// Word texts: menu words, prices, codes, capitals, empty strings, unicode
/// (combining marks, emoji, right-to-left, CJK, NUL) and random Latin-1.
private let tokens = [
    "Soup", "SALADS", "Pesto", "pasta", "5.50", "€12", "$4.5", "3,20", "12.50 €", "1/2", "8oz", "……",
    "........", "A", "1", "(+ $2)", "", " ", "-", "e\u{301}", "🍕", "שלום", "寿司", "\u{0}", "ﬁsh", "Ⅻ",
    "MAY CONTAIN NUTS", "gluten", "1,2,14", "ccoo", "3.25 #", "9.", ".99", "¥800", "45 TL", "24,925",
]
private let textGen = zip(Gen.element(of: tokens), Gen.latin1.string(of: 0...6), Gen.int(in: 0...3))
    .map { token, random, pick -> String in pick == 0 ? random : (token ?? "") }

/// One word: its block and line (small numbers, so words share lines), box
/// (negative, zero-size and overlapping boxes included), confidence and text.
private struct RawWord { var block: Int, line: Int, box: Box, confidence: Double?, text: String }
private let wordGen = zip(
    zip(Gen.int(in: 0...3), Gen.int(in: 0...6)),
    zip(Gen.int(in: -40...2400), Gen.int(in: -40...3200), Gen.int(in: -15...600), Gen.int(in: -6...90)),
    zip(Gen.int(in: -1...100), textGen)
).map { bl, box, ct -> RawWord in
    RawWord(block: bl.0, line: bl.1, box: Box(x: box.0, y: box.1, width: box.2, height: box.3),
            confidence: ct.0 < 0 ? nil : Double(ct.0) / 100, text: ct.1)
}

/// A page of the words grouped into blocks and lines by their numbers; some
/// lines are left empty, and blocks carry a reading-order region or not.
private func page(_ words: [RawWord], emptyLines: Bool = true) -> OCRPage {
    var blocks: [OCRBlock] = []
    for b in 0...3 {
        var lines: [OCRLine] = []
        for l in 0...6 {
            let ws = words.filter { $0.block == b && $0.line == l }
                .map { OCRWord(text: $0.text, confidence: $0.confidence, box: $0.box) }
            if ws.isEmpty {
                if emptyLines && (b + l) % 3 == 0 { lines.append(OCRLine(box: Box(x: 0, y: 0, width: 0, height: 0), words: [])) }
                continue
            }
            lines.append(OCRLine(box: ws.dropFirst().reduce(ws[0].box) { $0.union($1.box) }, words: ws))
        }
        guard !lines.isEmpty else { continue }
        blocks.append(OCRBlock(box: lines.dropFirst().reduce(lines[0].box) { $0.union($1.box) }, lines: lines,
                               region: b % 2 == 0 ? b / 2 : nil))
    }
    return OCRPage(blocks: blocks)
}

private let pageGen = wordGen.array(of: 0...60).map { page($0) }
private let oneWordPageGen = wordGen.array(of: 1...1).map { page($0) }

/// Every segment index appears exactly once in the runs (no item is lost or doubled).
private func checkRuns(_ p: OCRPage, _ i: Int) {
    let segs = PageLayout.segments(of: p)
    let runs = PageLayout.runs(segs)
    let flat = runs.flatMap { $0 }.sorted()
    #expect(flat == Array(segs.indices), "iteration \(i): runs \(runs) over \(segs.count) segments")
}

@Suite struct GeometryPropertyTests {
    /// `--lang auto`'s line merge on two random pages (negative, empty and
    /// overlapping boxes): it returns, keeps every line of the second read,
    /// and each line it returns is a line of one of the two reads.
    @Test func languageMergeKeepsLinesOfEitherRead() {
        forEachDrawn(300, seed: 16, zip(pageGen, pageGen)) { i, pair in
            let (second, english) = pair
            let merged = LanguageMerge.merge(second: second, english: english) { $0.words.count > $1.words.count }
            let lines = merged.page.lines
            #expect(lines.count >= second.lines.count, "iteration \(i)")
            #expect(merged.englishLines >= 0 && merged.englishLines <= lines.count + english.lines.count, "iteration \(i)")
            let known = Set((second.lines + english.lines).flatMap(\.words).map { "\($0.text)|\($0.box)" })
            #expect(lines.flatMap(\.words).allSatisfy { known.contains("\($0.text)|\($0.box)") }, "iteration \(i)")
            // The lines read again: valid indices, non-empty boxes within the image.
            let bounds = Box(x: 0, y: 0, width: 1 + i * 7 % 2400, height: 1 + i * 13 % 3200)
            let targets = LanguageMerge.rereadBoxes(english, bounds: bounds) { $0.words.count % 2 == 1 }
            #expect(targets.allSatisfy { $0.line >= 0 && $0.line < english.lines.count && $0.box.width > 0 && $0.box.height > 0
                && $0.box.intersection(bounds) == $0.box }, "iteration \(i)")
            let replaced = LanguageMerge.replacing(english, Dictionary(targets.map { ($0.line, second.words) }) { a, _ in a })
            #expect(replaced.lines.count == english.lines.count, "iteration \(i)")
        }
    }

    @Test func pageLayoutRunsCoverEverySegmentOnce() {
        forEachDrawn(400, seed: 14, pageGen) { i, p in checkRuns(p, i) }
        forEachDrawn(50, seed: 15, oneWordPageGen) { i, p in checkRuns(p, i) }
    }

    /// The reported trap: zero-width and negative-width segments in a page of
    /// several columns made `bin(x)...bin(maxX - 1)` an empty closed range.
    @Test func pageLayoutRunsWithZeroAndNegativeWidths() {
        func seg(_ x: Int, _ y: Int, _ w: Int, _ text: String = "word") -> PageLayout.Segment {
            PageLayout.Segment(words: [OCRWord(text: text, confidence: 0.9, box: Box(x: x, y: y, width: w, height: 20))],
                               box: Box(x: x, y: y, width: w, height: 20))
        }
        var segs: [PageLayout.Segment] = []
        for r in 0..<6 {
            segs.append(seg(0, r * 30, 300))
            segs.append(seg(700, r * 30, 300))
        }
        segs.append(seg(515, 40, 0))    // zero width in the gutter, at a bin edge (515 → bin 103, 514 → 102)
        segs.append(seg(400, 90, -30))  // negative width
        let runs = PageLayout.runs(within: segs)
        #expect(runs.flatMap { $0 }.sorted() == Array(segs.indices))
    }

    /// Spanning lines of different heights: a tall centred title above a
    /// short one used to make overlapping bands, so lines came out twice.
    @Test func pageLayoutBandsDoNotOverlap() {
        func seg(_ x: Int, _ y: Int, _ w: Int, _ h: Int) -> PageLayout.Segment {
            PageLayout.Segment(words: [OCRWord(text: "word", confidence: 0.9, box: Box(x: x, y: y, width: w, height: h))],
                               box: Box(x: x, y: y, width: w, height: h))
        }
        var segs: [PageLayout.Segment] = [seg(0, 0, 1000, 200), seg(0, 10, 1000, 4)]
        for r in 0..<6 {
            segs.append(seg(0, 20 + r * 30, 300, 20))
            segs.append(seg(700, 20 + r * 30, 300, 20))
        }
        let runs = PageLayout.runs(within: segs)
        #expect(runs.flatMap { $0 }.sorted() == Array(segs.indices))
    }

    @Test func tenThousandWords() {
        forEachDrawn(1, seed: 10_000, wordGen.array(of: 10_000...10_000)) { i, words in
            let p = page(words)
            checkRuns(p, i)
            let ordered = ReadingOrder().apply(to: p, rules: []).page
            #expect(ordered.words.count == p.words.count)
            _ = HotspotBuilder().build(page: p)
        }
    }

    /// A negative-width word (x past its maxX) at the region's left edge
    /// indexed the gutter profile at -1; one past `right` beyond its end.
    @Test func readingOrderWithNegativeWidthWords() {
        var words: [OCRWord] = []
        for r in 0..<8 {
            words.append(OCRWord(text: "Pesto pasta", confidence: 0.9, box: Box(x: 100, y: r * 30, width: 300, height: 20)))
            words.append(OCRWord(text: "Green salad", confidence: 0.9, box: Box(x: 700, y: r * 30, width: 300, height: 20)))
        }
        words.append(OCRWord(text: "x", confidence: 0.9, box: Box(x: 100, y: 300, width: -40, height: 20)))
        words.append(OCRWord(text: "y", confidence: 0.9, box: Box(x: 1030, y: 330, width: -40, height: 20)))
        let p = OCRPage(blocks: words.map { OCRBlock(box: $0.box, lines: [OCRLine(box: $0.box, words: [$0])]) })
        #expect(ReadingOrder().apply(to: p, rules: []).page.words.count == words.count)
    }

    @Test func readingOrderKeepsEveryWord() {
        let ruleGen = zip(Gen.int(in: 0...1), Gen.int(in: -50...3000), Gen.int(in: -50...3000), Gen.int(in: -50...3000))
            .map { a, p, s, e in RuleLine(axis: a == 0 ? .horizontal : .vertical, position: p, start: s, end: e) }
        forEachDrawn(300, seed: 21, zip(pageGen, ruleGen.array(of: 0...4))) { i, input in
            let (p, rules) = input
            let (out, record) = ReadingOrder().apply(to: p, rules: rules)
            let key: (OCRWord) -> String = { "\($0.text)|\($0.box.x),\($0.box.y),\($0.box.width),\($0.box.height)" }
            #expect(out.words.map(key).sorted() == p.words.map(key).sorted(), "iteration \(i)")
            #expect(record.regions >= 0 && record.splitLines >= 0)
        }
    }

    /// Recovered lines (margin columns included) are placed without losing or doubling a word.
    @Test func insertingKeepsEveryWord() {
        let lineGen = wordGen.array(of: 0...12).map { raw in
            raw.map { w in OCRLine(box: w.box, words: [OCRWord(text: w.text, confidence: w.confidence, box: w.box)]) }
        }
        forEachDrawn(300, seed: 27, zip(pageGen, lineGen)) { i, input in
            let (p, extra) = input
            let out = p.inserting(extra)
            let key: (OCRWord) -> String = { "\($0.text)|\($0.box.x),\($0.box.y),\($0.box.width),\($0.box.height)" }
            #expect(out.words.map(key).sorted() == (p.words + extra.flatMap(\.words)).map(key).sorted(), "iteration \(i)")
        }
        // A margin column of many lines beside a page of one line per row.
        let rows = (0..<40).map { r in OCRLine(box: Box(x: 400, y: r * 30, width: 300, height: 20),
                                                 words: [OCRWord(text: "text", confidence: 0.9, box: Box(x: 400, y: r * 30, width: 300, height: 20))]) }
        let p = OCRPage(blocks: [OCRBlock(box: Box(x: 400, y: 0, width: 300, height: 1200), lines: rows)])
        let numbers = (0..<40).map { r in OCRLine(box: Box(x: 300, y: r * 30, width: 16, height: 20),
                                                    words: [OCRWord(text: "\(r)", confidence: 0.9, box: Box(x: 300, y: r * 30, width: 16, height: 20))]) }
        let out = p.inserting(numbers)
        #expect(out.blocks.count == 2 && out.blocks[0].lines.count == 40 && out.words.count == 80)
    }

    /// A panel's lines merged into random pages (`PanelMerge`): it returns, every page word is kept
    /// or replaced, and the words it adds are the panel's confident ones, each once.
    @Test func panelMergeKeepsOrReplacesEveryWord() {
        let lineGen = wordGen.array(of: 0...8).map { raw in
            raw.isEmpty ? [] : [OCRLine(box: raw.dropFirst().reduce(raw[0].box) { $0.union($1.box) },
                                        words: raw.map { OCRWord(text: $0.text, confidence: $0.confidence, box: $0.box) })]
        }
        let key: (OCRWord) -> String = { "\($0.text)|\($0.box.x),\($0.box.y),\($0.box.width),\($0.box.height)" }
        forEachDrawn(300, seed: 29, zip(pageGen, lineGen.array(of: 0...3))) { i, input in
            let (p, panel) = (input.0, input.1.flatMap { $0 })
            let out = PanelMerge.merge(p, panel: panel)
            let added = out.page.words.filter { $0.recovered == true }
            #expect(out.page.words.count == p.words.count - out.replaced + added.count, "iteration \(i)")
            #expect(added.allSatisfy { ($0.confidence ?? 0) >= PanelMerge.minimumConfidence }, "iteration \(i)")
            let kept = Set(out.page.words.filter { $0.recovered != true }.map(key))
            #expect(kept.isSubset(of: Set(p.words.map(key))), "iteration \(i)")
        }
    }

    /// The role structurer on random roles, boxes and runs (runs that skip lines, repeat them or
    /// name lines the page lacks), with the texts its round-17 and round-27 rules key on: joining
    /// words at either end, "each" lists, beside dashes, lone and supplement prices, dishes set
    /// apart over lines, headings in capitals. It returns, and every
    /// line index it hands back is one of the page's.
    @Test func roleStructurerOnRandomRolesAndRuns() {
        let texts = ["CLUB SANDWICH ON TOMATO WITH", "WITH GINGER $18", "Bianca in Chickpeas Sauce with", "Yoghurt 16€",
                     "CHOCOLATE BARS £10 each", "All £5 any", "GALAXY", "Lentil Soup – spring onion and parmesan $12.00",
                     "11,00", "+2", "Bacon +2", "Add Cheese and", "Earl Grey — capers, sesame", "£19.00", "", "and",
                     "Leek and Potato Soup in", "Black Beans Sauce 6€", "Apple Strudel with Werther's Original", "Menu A",
                     "4 halbe Eier mit Frankfurter Soße", "und Bratkartoffeln € 7,50", "PIES & ROLLS", "Four'N Twenty Meat Pie",
                     "BIDUS", "Suppen:"]
        let roles = LineRole.allCases
        let rowGen = zip(Gen.int(in: 0..<texts.count), Gen.int(in: 0..<roles.count), Gen.int(in: -50...800),
                         Gen.int(in: -50...1600), Gen.int(in: 0...60))
        let runGen = Gen.int(in: -2...30).array(of: 0...30).array(of: 0...4)
        forEachDrawn(300, seed: 71, zip(rowGen.array(of: 0...24), runGen)) { _, drawn in
            let (rows, runs) = drawn
            let lines = rows.map { t, _, x, y, h in
                StructLine(text: texts[t], words: [], ocrWords: texts[t].isEmpty ? [] : tline(texts[t], x: x, y: y, h: max(h, 1)).words)
            }
            let out = RoleStructurer(lines: lines, runs: runs, legendLines: [], roles: rows.map { roles[$0.1] },
                                     nameProbability: rows.map { _ in 0.6 }, headingsInCapitals: rows.count % 2 == 0).run()
            #expect(out.items.allSatisfy { $0.lines.allSatisfy { lines.indices.contains($0) } })
            #expect(out.looseLines.allSatisfy { lines.indices.contains($0) })
        }
    }

    @Test func menuAnalysisOnRandomPagesAndText() {
        let analyzer = AllergenFixtures.analyzer
        let profile = AllergenProfile(allergens: [.peanuts, .milk])
        forEachDrawn(40, seed: 31, pageGen) { _, p in
            let a = analyzer.analyze(page: p, profile: profile)
            #expect(a.items.count <= max(1, p.lines.count) * 2)
        }
        let textGen = zip(textGen, Gen.int(in: 0...4)).map { t, sep in t + ["\n", " ", "\n\n", "\r\n", "\t"][sep] }
            .array(of: 0...40).map { $0.joined() }
        forEachDrawn(40, seed: 32, textGen) { _, text in
            _ = analyzer.analyze(text: text, perLine: false, profile: profile)
            _ = analyzer.analyze(text: text, perLine: true, profile: nil)
        }
    }

    /// NAME.txt's text: never traps; leaves out characters only (every kept character in order,
    /// no new ones but the spaces where a leader was), and a page of confident words without a
    /// run of six dots is its plain text.
    @Test func readableTextOnRandomPages() {
        let leaderish = zip(Gen.element(of: [".", "c", "o", "0", "S", "e", ",", "s"]).array(of: 0...30), Gen.int(in: 0...2))
            .map { cs, c -> OCRWord in
                OCRWord(text: cs.compactMap { $0 }.joined(), confidence: [0, 0.2, 0.9][c],
                        box: Box(x: 0, y: 0, width: 1, height: 1))
            }
        forEachDrawn(400, seed: 61, zip(pageGen, leaderish)) { i, input in
            let (p, w) = input
            let text = ReadableText.text(of: p)
            let cleaned = ReadableText.cleaned(w)
            var rest = Substring(w.text)
            for c in cleaned where c != " " {
                guard let k = rest.firstIndex(of: c) else { Issue.record("iteration \(i): \(w.text) -> \(cleaned)"); break }
                rest = rest[rest.index(after: k)...]
            }
            let confident = p.blocks.allSatisfy { $0.lines.allSatisfy { $0.words.allSatisfy { w in
                (w.confidence ?? 1) >= ReadableText.doubtedConfidence && !w.text.contains("......")
            } } }
            if confident && p.blocks.allSatisfy({ !$0.lines.isEmpty && $0.lines.allSatisfy { !$0.text.isEmpty } }) {
                #expect(text == p.text, "iteration \(i)")
            }
        }
    }

    @Test func priceParserOnRandomText() {
        forEachDrawn(2000, seed: 41, textGen.array(of: 0...6).map { $0.joined(separator: " ") }) { i, s in
            for plain in [false, true] {
                guard let f = PriceParser.find(in: s, allowPlain: plain) else { continue }
                let hasDigit = f.price.contains { $0.isNumber }
                #expect(hasDigit, "iteration \(i)")
            }
            _ = MenuStructurer.stripCodes(s)
            _ = MenuStructurer.isHeaderLike(s)
            if let head = MenuStructurer.annotatedHead(s) { #expect(s.contains(head) && head.count < s.count, "iteration \(i)") }
            _ = MenuStructurer.nameScore(s)
        }
    }

    /// The page-level price repairs on random price lists (digits with and without separators,
    /// currency signs, letters, unicode, nils): the same number of prices, nils kept, and a
    /// repaired price differs from its reading only by separators and signs.
    @Test func priceRepairsOnRandomPriceLists() {
        let priceGen = zip(Gen.element(of: ["4.5", "6,5", "45", "950", "9.50", "$8", "S95", "£1200", "12", "7,40 940", "¥800",
                                            "6.5 45", "", "½", "٣.٥", "4.5€", ".5", "5.", "00", "1.2.3"]),
                           Gen.int(in: 0...4), textGen)
            .map { pick, mode, random -> String? in mode == 0 ? nil : mode == 1 ? random : (pick ?? "") }
        forEachDrawn(1000, seed: 61, priceGen.array(of: 0...12)) { i, prices in
            let out = PriceSignRepair.repair(PriceSeparatorRepair.repair(prices))
            #expect(out.count == prices.count, "iteration \(i)")
            for (a, b) in zip(prices, out) {
                #expect((a == nil) == (b == nil), "iteration \(i)")
                if let a, let b, a != b {
                    func digits(_ s: String) -> String { String(s.filter { $0.isNumber && $0.isASCII }) }
                    #expect(digits(a) == digits(b) || digits(a).dropFirst() == Substring(digits(b)), "iteration \(i): \(a) → \(b)")
                }
            }
        }
    }

    @Test func hotspotsAndUnionArea() {
        let boxGen = zip(Gen.int(in: -100...2000), Gen.int(in: -100...2000), Gen.int(in: -20...500), Gen.int(in: -20...500))
            .map { Box(x: $0, y: $1, width: $2, height: $3) }
        forEachDrawn(300, seed: 51, zip(pageGen, boxGen.array(of: 0...40))) { i, input in
            let (p, boxes) = input
            let hotspots = HotspotBuilder().build(page: p)
            #expect(hotspots.allSatisfy { $0.confidence == nil || $0.confidence! >= 0.3 })
            let area = Box.unionArea(boxes)
            let sum = boxes.filter { $0.width > 0 && $0.height > 0 }.reduce(0) { $0 + $1.area }
            #expect(area >= 0 && area <= sum, "iteration \(i)")
            let items = boxes.enumerated().map { HotspotItem(box: $1, text: $0 % 3 == 0 ? "" : "Item \($0)", confidence: Double($0 % 10) / 9) }
            _ = HotspotBuilder().build(page: p, items: items)
        }
    }

    @Test func regionAnalysisOnRandomInkMaps() {
        let boxGen = zip(Gen.int(in: -20...700), Gen.int(in: -20...700), Gen.int(in: -5...80), Gen.int(in: -5...40))
            .map { Box(x: $0, y: $1, width: $2, height: $3) }
        let mapGen = zip(Gen.int(in: 1...1400), Gen.int(in: 1...1400), Gen.int(in: 10...100), boxGen.array(of: 0...120))
            .map { w, h, f, chars -> TextRegionAnalyzer.InkMap in
                let factor = Double(f) / 100
                return TextRegionAnalyzer.InkMap(width: w, height: h, workWidth: max(1, Int(Double(w) * factor)),
                                                 workHeight: max(1, Int(Double(h) * factor)), factor: factor, characters: chars)
            }
        forEachDrawn(150, seed: 61, zip(mapGen, boxGen.array(of: 0...10), boxGen.array(of: 0...5))) { _, input in
            let (map, read, low) = input
            let a = TextRegionAnalyzer().analyze(map, hotspotBoxes: read, lowConfidenceBoxes: low)
            for r in a.regions {
                #expect(r.box.x >= 0 && r.box.y >= 0 && r.box.maxX <= map.width && r.box.maxY <= map.height)
            }
        }
    }

    @Test("a line's band: never thicker than its box, at least its tallest character; its pieces inside its box")
    func bandThicknessBounds() {
        let boxGen = zip(Gen.int(in: -50...900), Gen.int(in: -50...900), Gen.int(in: -3...60), Gen.int(in: -3...40))
            .map { Box(x: $0, y: $1, width: $2, height: $3) }
        forEachDrawn(400, seed: 62, boxGen.array(of: 0...40)) { i, chars in
            let t = TextRegionAnalyzer.band(chars).thickness
            let box = chars.dropFirst().reduce(chars.first ?? Box(x: 0, y: 0, width: 0, height: 0)) { $0.union($1) }
            #expect(t <= box.height, "iteration \(i)")
            if chars.count >= 3 { #expect(t >= chars.map { max(0, $0.height) }.max() ?? 0, "iteration \(i)") }
            // The band's pieces (the unread text area of a slanted line) stay inside its box.
            let pieces = TextRegionAnalyzer.pieces(of: box, along: TextRegionAnalyzer.band(chars))
            #expect(!pieces.isEmpty, "iteration \(i)")
            if box.width > 0 && box.height > 0 { #expect(pieces.allSatisfy { box.intersection($0) == $0 }, "iteration \(i)") }
            #expect(Box.unionArea(pieces) <= max(0, box.width) * max(0, box.height), "iteration \(i)")
        }
    }

    /// Light-text regions (round 28): any boxes, negative, empty, outside or larger than the image,
    /// invert exactly the pixels inside them (twice where two overlap), and the dark-page share
    /// never traps.
    @Test func invertingRegionsFlipsExactlyTheirPixels() {
        let boxGen = zip(Gen.int(in: -30...90), Gen.int(in: -30...90), Gen.int(in: -20...120), Gen.int(in: -20...120))
            .map { x, y, w, h in Box(x: x, y: y, width: w, height: h) }
        forEachDrawn(300, seed: 28, zip(Gen.int(in: 0...60), Gen.int(in: 0...60), boxGen.array(of: 0...5))) { i, input in
            let (w, h, boxes) = input
            let image = GrayImage(width: w, height: h, pixels: (0..<(w * h)).map { UInt8(truncatingIfNeeded: $0 &* 37) })
            let out = image.invertingRegions(boxes)
            var flipsWanted = 0
            for y in 0..<h {
                for x in 0..<w {
                    let covering = boxes.filter { $0.width > 0 && $0.height > 0 && x >= $0.x && x < $0.maxX && y >= $0.y && y < $0.maxY }.count
                    let want = covering % 2 == 1 ? 255 - image[x, y] : image[x, y]
                    if out[x, y] != want { flipsWanted += 1 }
                }
            }
            #expect(flipsWanted == 0, "iteration \(i)")
            _ = PreprocessSettings().invertsOCRCopy(regions: boxes, width: w, height: h)
        }
    }
}
