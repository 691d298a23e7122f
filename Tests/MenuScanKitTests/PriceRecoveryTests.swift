import Foundation
import PropertyBased
import Testing
@testable import MenuScanKit

/// Price recovery (Layout/PriceRecovery): candidates from a made-up ink map, acceptance of readings.
@Suite struct PriceRecoveryTests {
    /// A read line of `n` letters at (x, y), 12 px a letter, 20 px tall.
    private func readLine(_ text: String, x: Int, y: Int) -> OCRLine {
        let box = Box(x: x, y: y, width: text.count * 12, height: 20)
        return OCRLine(box: box, words: [OCRWord(text: text, confidence: 0.9, box: box)])
    }

    /// Ink components of the characters of `text` at (x, y) (12 px apart, 10 × 18 px each).
    private func ink(_ count: Int, x: Int, y: Int) -> [Box] {
        (0..<count).map { Box(x: x + $0 * 12, y: y + 1, width: 10, height: 18) }
    }

    private func map(_ chars: [Box]) -> TextRegionAnalyzer.InkMap {
        TextRegionAnalyzer.InkMap(width: 600, height: 400, workWidth: 600, workHeight: 400, factor: 1, characters: chars)
    }

    @Test("unread short ink beside a read line is a candidate; ink of read words, long runs and ink on no row are not")
    func candidates() {
        let page = OCRPage(blocks: [OCRBlock(box: Box(x: 0, y: 0, width: 600, height: 400),
                                             lines: [readLine("Minestrone", x: 20, y: 40), readLine("Pea Soup", x: 20, y: 80),
                                                     readLine("Salad", x: 20, y: 120)])])
        let chars = ink(10, x: 20, y: 40)          // the read name itself
            + ink(2, x: 400, y: 40)                 // "12" on the name's row
            + ink(4, x: 400, y: 80)                 // "9.50" on the next row
            + ink(30, x: 120, y: 120)               // a long unread run beside "Salad" (not a price)
            + ink(2, x: 400, y: 300)                // on no read line's row
        let found = PriceRecovery().candidates(page: page, ink: map(chars))
        #expect(found.count == 2)
        #expect(found.allSatisfy { $0.x >= 390 && $0.x < 410 })
        #expect(found.map(\.y).sorted() == found.map(\.y))
        #expect(found.first.map { $0.y < 45 } == true)
    }

    @Test("a price on a line of its own under the start of a read line is a candidate; indented or far below is not")
    func under() {
        let page = OCRPage(blocks: [OCRBlock(box: Box(x: 0, y: 0, width: 600, height: 400),
                                             lines: [readLine("Onion Rings", x: 20, y: 40), readLine("Salad", x: 20, y: 200)])])
        let chars = ink(5, x: 22, y: 64)            // "18,00" under "Onion Rings"
            + ink(2, x: 120, y: 224)                // indented far under "Salad"
            + ink(2, x: 20, y: 300)                 // far below "Salad"
        let found = PriceRecovery().candidates(page: page, ink: map(chars))
        #expect(found.count == 1)
        #expect(found.first.map { $0.y > 55 && $0.y < 70 && $0.x < 25 } == true)
    }

    @Test("readings are kept only when they are one confident price aligned in a column with another price")
    func acceptance() {
        let page = OCRPage(blocks: [OCRBlock(box: Box(x: 0, y: 0, width: 600, height: 400),
                                             lines: [readLine("Minestrone", x: 20, y: 40)])])
        func reading(_ t: String, x: Int, y: Int, c: Double = 0.95) -> OCRLine {
            let b = Box(x: x, y: y, width: t.count * 12, height: 20)
            return OCRLine(box: b, words: [OCRWord(text: t, confidence: c, box: b)])
        }
        let r = PriceRecovery()
        let kept = r.accepts([reading("12", x: 400, y: 40), reading("9.50", x: 400, y: 80),
                              reading("a2", x: 400, y: 120), reading("7", x: 400, y: 160, c: 0.3),
                              reading("8", x: 100, y: 200)], page: page)
        #expect(kept.map(\.text) == ["12", "9.50"])
        // A lone price with nothing to line up with is not kept.
        #expect(r.accepts([reading("12", x: 400, y: 40)], page: page).isEmpty)
    }

    @Test("what counts as one price")
    func priceText() {
        for t in ["12", "9.50", "12,50 €", "€7", "$4.5", "12/18", "+3", "£2.50"] { #expect(PriceRecovery.isPrice(t), "\(t)") }
        for t in ["a2", "Soup", "12 Soup", "", "1234567", "9.50.", "450 Cal"] { #expect(!PriceRecovery.isPrice(t), "\(t)") }
    }
}

extension PriceRecoveryTests {
    /// A centred menu: "LINGUINE", its description, and its price "5" centred under the
    /// description, which the page pass read as "2)"; another item's price "7" read right.
    private func centredPage() -> OCRPage {
        func word(_ t: String, _ b: Box, _ c: Double) -> OCRLine { OCRLine(box: b, words: [OCRWord(text: t, confidence: c, box: b)]) }
        return OCRPage(blocks: [OCRBlock(box: Box(x: 0, y: 0, width: 600, height: 400), lines: [
            word("LINGUINE", Box(x: 240, y: 20, width: 120, height: 24), 0.95),
            word("Mustard and celeriac purée", Box(x: 160, y: 50, width: 280, height: 20), 0.95),
            word("2)", Box(x: 295, y: 76, width: 10, height: 18), 0.81),
            word("LASAGNE", Box(x: 245, y: 110, width: 110, height: 24), 0.95),
            word("Potatoes and mustard", Box(x: 190, y: 140, width: 220, height: 20), 0.95),
            word("7", Box(x: 295, y: 166, width: 10, height: 18), 0.93),
        ])])
    }

    @Test("a short misread token centred under a line is re-read; a confident word or a price is not")
    func misreadTokensAreCandidates() {
        let page = centredPage()
        let r = PriceRecovery()
        #expect(r.misreadTokens(page).map(\.text) == ["2)"])
        let found = r.candidates(page: page, ink: map([]))
        #expect(found.count == 1)
        #expect(found.first.map { $0.x <= 295 && $0.maxX >= 305 && $0.y <= 76 } == true)
    }

    @Test("an accepted re-read replaces its misread token in place; an unaligned or wordy one does not")
    func rereadReplacesTheToken() {
        let page = centredPage()
        let b = Box(x: 294, y: 76, width: 11, height: 18)
        let reading = OCRLine(box: b, words: [OCRWord(text: "5.", confidence: 0.9, box: b)])
        let (out, n) = PriceRecovery().merge([reading], into: page)
        #expect(n == 1)
        #expect(out.lines.map(\.text) == ["LINGUINE", "Mustard and celeriac purée", "5", "LASAGNE", "Potatoes and mustard", "7"])
        #expect(out.lines[2].words.first?.recovered == true)
        // A reading that is no price changes nothing.
        let word = OCRLine(box: b, words: [OCRWord(text: "it", confidence: 0.9, box: b)])
        #expect(PriceRecovery().merge([word], into: page).page == page)
        // Without another price in its column, nothing is kept.
        let lone = OCRPage(blocks: [OCRBlock(box: page.blocks[0].box, lines: Array(page.blocks[0].lines.prefix(3)))])
        #expect(PriceRecovery().merge([reading], into: lone).count == 0)
    }
}

extension PriceRecoveryTests {
    /// Three-word lines whose words rise 5 px every 100 px (a photo tilted about 3°).
    private func tiltedLine(_ words: [String], x: Int, y: Int, rise: Int) -> OCRLine {
        let ws = words.enumerated().map { k, t in
            OCRWord(text: t, confidence: 0.95, box: Box(x: x + 100 * k, y: y - rise * k, width: 80, height: 20))
        }
        return OCRLine(box: ws.dropFirst().reduce(ws[0].box) { $0.union($1.box) }, words: ws)
    }

    @Test("on a tilted photo a price far right of its name is on the name's sloped row, not its box's")
    func tiltedRows() {
        func page(rise: Int) -> OCRPage {
            OCRPage(blocks: [OCRBlock(box: Box(x: 0, y: 0, width: 700, height: 300), lines: [
                tiltedLine(["Grilled", "Salmon", "Fillet"], x: 20, y: 100, rise: rise),
                tiltedLine(["Lemon", "Tart", "Slice"], x: 20, y: 200, rise: rise),
            ])])
        }
        // "12" at x 600: 23 px above the first line's box on a page rising 5 px per 100 px.
        let chars = ink(2, x: 600, y: 70)
        #expect(PriceRecovery().candidates(page: page(rise: 5), ink: map(chars)).count == 1)
        // The same ink beside level lines is on no row.
        #expect(PriceRecovery().candidates(page: page(rise: 0), ink: map(chars)).isEmpty)
        // Kept prices of a tilted page stay lines of their own (the structure joins them along
        // the slope); on a level page they go into their rows.
        func reading(_ t: String, y: Int) -> OCRLine {
            let b = Box(x: 600, y: y, width: 12 * t.count, height: 20)
            return OCRLine(box: b, words: [OCRWord(text: t, confidence: 0.9, box: b)])
        }
        let tilted = PriceRecovery().merge([reading("12", y: 70), reading("9.50", y: 170)], into: page(rise: 5))
        #expect(tilted.count == 2)
        let newBlocks = tilted.page.blocks.dropFirst().map(\.lines.count)
        #expect(newBlocks == [1, 1])
        let level = PriceRecovery().merge([reading("12", y: 100), reading("9.50", y: 200)], into: page(rise: 0))
        #expect(level.page.lines.map(\.text) == ["Grilled Salmon Fillet 12", "Lemon Tart Slice 9.50"])
    }
}

@Suite struct PriceSignRepairTests {
    @Test("a misread sign or a sign read as a digit is repaired on a page of one currency")
    func repairs() {
        let out = PriceSignRepair.repair(["£13", "£11.00", "$3", "26.5", "£18.00", nil, "£6.00", "12"])
        #expect(out == ["£13", "£11.00", "£3", "£6.5", "£18.00", nil, "£6.00", "12"])
        // "$4" read "54" among dollar prices up to 26.
        #expect(PriceSignRepair.repair(["$12", "$9.50", "54", "$26", "$4"]) == ["$12", "$9.50", "$4", "$26", "$4"])
    }

    @Test("prices that fit the page, pages of mixed or no signs: nothing changes")
    func leavesAlone() {
        // 24 lies within the page's prices: kept.
        #expect(PriceSignRepair.repair(["£13", "£11.00", "24", "£28.00"]) == ["£13", "£11.00", "24", "£28.00"])
        // Too few signed prices.
        #expect(PriceSignRepair.repair(["£13", "26.5", "9", "7", "£6"]) == ["£13", "26.5", "9", "7", "£6"])
        // Two currencies in even measure: no page currency.
        #expect(PriceSignRepair.repair(["£13", "$11", "£4", "$5", "26"]) == ["£13", "$11", "£4", "$5", "26"])
        // Unsigned pages (separator repair's work) are untouched.
        #expect(PriceSignRepair.repair(["12", "9.50", "26.5"]) == ["12", "9.50", "26.5"])
    }
}

@Suite struct PriceTokenTests {
    @Test("OCR confusions in a price's place are put back; words and prices stay")
    func examples() {
        let fixed = ["l2": "12", "5.5O": "5.50", "S8": "$8", "7.": "7", "12,-": "12", "I4.50": "14.50", "9,5O €": "9,50 €"]
        for (read, price) in fixed { #expect(PriceToken.normalised(read) == price, "\(read)") }
        for t in ["12", "9.50", "€7", "12/18", "+3"] { #expect(PriceToken.normalised(t) == t, "\(t)") }
        for t in ["Soup", "it", "@", "2)", "On", "12oz", "Bowl", "SOS", "450 Cal", "|2"] { #expect(PriceToken.normalised(t) == t, "\(t)") }
    }

    @Test("property: idempotent, a change always gives a price, no digit means no change")
    func properties() {
        let pieces = ["1", "2", "5", "12", ".", ",", "O", "o", "l", "I", "S", "s", "B", "Z", "€", "$", "£", "/", "-", " ", "a", "e", "x", ":", "'"]
        let gen = Gen.element(of: pieces).array(of: 0...7).map { $0.compactMap { $0 }.joined() }
        var rng = Xoshiro(seed: (61, 0x9E37_79B9_7F4A_7C15, 61 &* 31 &+ 7, 0xD1B5_4A32_D192_ED03))
        for i in 0..<3000 {
            let t = gen.run(using: &rng)
            let n = PriceToken.normalised(t)
            #expect(PriceToken.normalised(n) == n, "iteration \(i): \(t)")
            if n != t && n != t.trimmingCharacters(in: .whitespaces) { #expect(PriceRecovery.isPrice(n), "iteration \(i): \(t)") }
            if !t.contains(where: { $0.isASCII && $0.isNumber }) { #expect(n == t, "iteration \(i): \(t)") }
        }
    }
}

@Suite struct PriceSeparatorRepairTests {
    @Test("a 3-digit price on a page of two-decimal prices gets the page's separator back")
    func repairs() {
        let out = PriceSeparatorRepair.repair(["7,40 940", "6,90 8,30", "740 9,40", nil, "7,80 9,80"])
        #expect(out == ["7,40 9,40", "6,90 8,30", "7,40 9,40", nil, "7,80 9,80"])
        let points = PriceSeparatorRepair.repair(["4.00", "5.50", "400", "2.95", "550"])
        #expect(points == ["4.00", "5.50", "4.00", "2.95", "5.50"])
    }

    @Test("pages without a two-decimal majority, and values outside the page's range, are untouched")
    func leavesAlone() {
        let yen = ["¥800", "¥1200", "¥950", "1.50"]
        #expect(PriceSeparatorRepair.repair(yen) == yen)
        let outOfRange = ["4.00", "5.50", "2.95", "120"]        // 1.20 is below every price on the page
        #expect(PriceSeparatorRepair.repair(outOfRange) == outOfRange)
        let few = ["4.00", "400"]                                 // one decimal price is no evidence
        #expect(PriceSeparatorRepair.repair(few) == few)
    }

    @Test("without a two-decimal majority only a number far beyond every decimal price is repaired")
    func implausibleWithoutMajority() {
        // A price column whose re-read lost most points: £1200 is 75 × the highest decimal price.
        let lost = ["£16.00", "£5.00", "£3.50", "£1200", "£300", "£8", "£9", "£12", "£6", "£16"]
        #expect(PriceSeparatorRepair.repair(lost) == ["£16.00", "£5.00", "£3.50", "£12.00", "£3.00", "£8", "£9", "£12", "£6", "£16"])
        // 120 is not 4 × 16.00: as read it may be a price of its own.
        let plausible = ["£16.00", "£5.00", "£3.50", "£8", "£9", "£12", "£6", "£16", "£120"]
        #expect(PriceSeparatorRepair.repair(plausible) == plausible)
    }

    @Test("on a page of one-decimal prices a plain number far beyond them gets its point back (round 14)")
    func oneDecimalPages() {
        // "$4.5" read "S45" on a food truck's board: 45 is over 4 × the page's median price.
        #expect(PriceSeparatorRepair.repair(["$4.5", "$6.5", "$9.5", "$7.5", nil, "$45", "$8"])
                == ["$4.5", "$6.5", "$9.5", "$7.5", nil, "$4.5", "$8"])
        #expect(PriceSeparatorRepair.repair(["4,5", "6,5", "9,5", "7,5", "65"]) == ["4,5", "6,5", "9,5", "7,5", "6,5"])
        // Left as read: a price of several numbers (a glass and a bottle), a number whose
        // tenth is beyond the page's range, a page without three one-decimal prices, a page
        // of two-decimal prices.
        let bottle = ["6.5", "7.5", "8.5", "5.5", "6.5 45"]
        #expect(PriceSeparatorRepair.repair(bottle) == bottle)
        let big = ["4.5", "6.5", "9.5", "7.5", "120"]
        #expect(PriceSeparatorRepair.repair(big) == big)
        let few = ["4.5", "6.5", "45", "8", "9"]
        #expect(PriceSeparatorRepair.repair(few) == few)
        let cents = ["4.50", "6.50", "9.50", "7.5", "45"]
        #expect(PriceSeparatorRepair.repair(cents) == cents)
    }
}

extension PriceRecoveryTests {
    @Test("a row Tesseract read across a gutter is cut there: a price printed in the gutter is beside its name")
    func rowsAreCutAtGutters() {
        // "WAFFLES ......" (leaders read as a word of garbage) and the next column's dish as one line.
        let words = [OCRWord(text: "WAFFLES", confidence: 0.9, box: Box(x: 20, y: 40, width: 84, height: 20)),
                     OCRWord(text: ".....ccscsc", confidence: 0, box: Box(x: 110, y: 54, width: 200, height: 5)),
                     OCRWord(text: "Tiramisu", confidence: 0.9, box: Box(x: 460, y: 40, width: 96, height: 20))]
        let line = OCRLine(box: Box(x: 20, y: 40, width: 536, height: 20), words: words)
        let other = readLine("Pancakes", x: 20, y: 80)
        let page = OCRPage(blocks: [OCRBlock(box: Box(x: 0, y: 0, width: 600, height: 400), lines: [line, other])])
        // "£5" in the gutter, at the end of the leaders.
        let found = PriceRecovery().candidates(page: page, ink: map(ink(2, x: 330, y: 40)))
        #expect(found.count == 1)
        #expect(found.first.map { $0.x < 330 && $0.maxX > 350 } == true)
    }

    @Test("leaders glued to their price are read at their right end; a long component inside a read word is not")
    func gluedLeaders() {
        let page = OCRPage(blocks: [OCRBlock(box: Box(x: 0, y: 0, width: 600, height: 400),
                                             lines: [readLine("Lasagne", x: 20, y: 40), readLine("Risotto", x: 20, y: 80)])])
        // Leaders from x 120 to the price's end at 420, one component of the price's height.
        var m = map([])
        m.longCharacters = [Box(x: 120, y: 41, width: 300, height: 18), Box(x: 22, y: 81, width: 80, height: 2)]
        let found = PriceRecovery().candidates(page: page, ink: m)
        #expect(found.count == 1)
        // The tail: at most 6 heights wide (plus padding), ending at the price's end.
        #expect(found.first.map { $0.maxX >= 420 && $0.maxX <= 430 && $0.width <= 6 * 18 + 12 && $0.y < 41 } == true)
        // A glued run that ends inside a read word (the name itself) is no candidate.
        m.longCharacters = [Box(x: 20, y: 41, width: 80, height: 18)]
        #expect(PriceRecovery().candidates(page: page, ink: m).isEmpty)
    }

    @Test("a reading's leader dots are trimmed before its price; words and other readings stay")
    func trimmingLeaders() {
        func words(_ t: [String]) -> [OCRWord] {
            t.enumerated().map { OCRWord(text: $1, confidence: 0.9, box: Box(x: 20 * $0, y: 0, width: 18, height: 20)) }
        }
        #expect(PriceRecovery.trimmingLeaders(words(["....", "22"])).map(\.text) == ["22"])
        #expect(PriceRecovery.trimmingLeaders(words(["...22"])).map(\.text) == ["22"])
        #expect(PriceRecovery.trimmingLeaders(words([".", "-", "£9.50"])).map(\.text) == ["£9.50"])
        #expect(PriceRecovery.trimmingLeaders(words(["Soup", "12"])).map(\.text) == ["Soup", "12"])
        #expect(PriceRecovery.trimmingLeaders(words(["....."])).isEmpty)
        // The trimmed reading is a price and keeps the price's box.
        let line = OCRLine(box: Box(x: 0, y: 0, width: 38, height: 20), words: words(["....", "22"]))
        let clean = PriceRecovery.cleaned(line)
        #expect(clean?.text == "22")
        #expect(clean?.box == Box(x: 20, y: 0, width: 18, height: 20))
        #expect(clean.map { PriceRecovery().isConfidentPrice($0) } == true)
        // Garbage read from leaders is no read word that hides a price.
        #expect(PriceRecovery.isLeaderGarbage(OCRWord(text: ".....ccscsc", confidence: 0, box: line.box)))
        #expect(!PriceRecovery.isLeaderGarbage(OCRWord(text: "........", confidence: 0.8, box: line.box)))
        #expect(!PriceRecovery.isLeaderGarbage(OCRWord(text: "Soup", confidence: 0.1, box: line.box)))
    }

    @Test("property: candidates on random pages and ink maps, long components included, lie within the photo")
    func randomCandidates() {
        let boxGen = zip(Gen.int(in: -20...700), Gen.int(in: -20...500), Gen.int(in: -5...400), Gen.int(in: -5...40))
            .map { Box(x: $0, y: $1, width: $2, height: $3) }
        let wordGen = zip(boxGen, Gen.element(of: ["Soup", "12", "....", ".....ccsc", "", "£9.50", "2)", "a"]), Gen.int(in: 0...100))
            .map { b, t, c in OCRWord(text: t ?? "", confidence: Double(c) / 100, box: b) }
        let pageGen = wordGen.array(of: 0...6).array(of: 0...8).map { lines in
            OCRPage(blocks: [OCRBlock(box: Box(x: 0, y: 0, width: 600, height: 400), lines: lines.compactMap { ws in
                guard let first = ws.first else { return nil }
                return OCRLine(box: ws.dropFirst().reduce(first.box) { $0.union($1.box) }, words: ws)
            })])
        }
        var rng = Xoshiro(seed: (67, 0x9E37_79B9_7F4A_7C15, 67 &* 31 &+ 7, 0xD1B5_4A32_D192_ED03))
        let gen = zip(pageGen, boxGen.array(of: 0...40), boxGen.array(of: 0...6), Gen.int(in: 20...100))
        for i in 0..<300 {
            let (page, chars, long, f) = gen.run(using: &rng)
            let factor = Double(f) / 100
            var m = TextRegionAnalyzer.InkMap(width: 600, height: 400, workWidth: Int(600 * factor), workHeight: Int(400 * factor),
                                              factor: factor, characters: chars)
            m.longCharacters = long
            let found = PriceRecovery().candidates(page: page, ink: m)
            #expect(found.count <= PriceRecovery().maximumCandidates + page.lines.count, "iteration \(i)")
            #expect(found.allSatisfy { $0.x >= 0 && $0.y >= 0 && $0.maxX <= 600 && $0.maxY <= 400 && $0.width > 0 }, "iteration \(i)")
        }
    }
}

@Suite struct LineCropTests {
    /// A dark panel (gray 30) with a light bar (220) in it: light text on dark.
    private func panel(background: UInt8, ink: UInt8) -> Bitmap? {
        var g = GrayImage(width: 80, height: 40, fill: background)
        for y in 15..<25 { for x in 30..<50 { g[x, y] = ink } }
        return Bitmap.from(g)
    }

    @Test("light text on a dark panel comes out dark on white, stretched, enlarged and framed")
    func invertsAndFrames() throws {
        let light = try #require(panel(background: 30, ink: 220))
        let crop = try #require(LineCrop(light, box: Box(x: 20, y: 10, width: 40, height: 20), scale: 2, border: 10))
        let g = try #require(crop.image.grayImage())
        #expect(g.width == 40 * 2 + 20 && g.height == 20 * 2 + 20)
        #expect(g[2, 2] == 255)                       // the white frame
        #expect(g[15, 15] > 200)                      // the dark panel became paper
        #expect(g[50, 30] < 60)                       // the light bar became ink
        // Dark on light stays the right way round.
        let dark = try #require(panel(background: 230, ink: 20))
        let same = try #require(LineCrop(dark, box: Box(x: 20, y: 10, width: 40, height: 20), scale: 1, border: 4))
        let d = try #require(same.image.grayImage())
        #expect(d[8, 8] > 200 && d[24, 14] < 60)
        // A flat crop (no ink) or a box outside the image gives no crop.
        #expect(LineCrop(light, box: Box(x: 0, y: 0, width: 10, height: 10), scale: 2, border: 4) == nil)
        #expect(LineCrop(light, box: Box(x: 200, y: 0, width: 10, height: 10), scale: 2, border: 4) == nil)
    }

    @Test("property: boxes read in a crop map back inside the crop's part of the photo")
    func mapsBack() throws {
        let light = try #require(panel(background: 30, ink: 220))
        let gen = zip(zip(Gen.int(in: -30...200), Gen.int(in: -30...120)), zip(Gen.int(in: -5...200), Gen.int(in: -5...120)), Gen.int(in: 1...4))
            .map { ($0.0, $0.1, $1.0, $1.1, $2) }
        var rng = Xoshiro(seed: (71, 0x9E37_79B9_7F4A_7C15, 71 &* 31 &+ 7, 0xD1B5_4A32_D192_ED03))
        for i in 0..<500 {
            let (x, y, w, h, s) = gen.run(using: &rng)
            guard let crop = LineCrop(light, box: Box(x: 20, y: 8, width: 44, height: 24), scale: Double(s), border: 3 * s) else {
                Issue.record("iteration \(i): no crop"); continue
            }
            let b = crop.toSource(Box(x: x, y: y, width: w, height: h))
            #expect(b.x >= crop.origin.x && b.y >= crop.origin.y && b.maxX <= crop.origin.maxX && b.maxY <= crop.origin.maxY, "iteration \(i)")
            #expect(b.width > 0 && b.height > 0, "iteration \(i)")
        }
    }

    @Test("a line photographed at a slant reads from a crop turned level and cut to its band")
    func turnedLevel() throws {
        // Three lines 18 pt apart, the middle one rising 6° to the right (rendered at 200 dpi).
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanup(dir) }
        let text = "Grilled salmon with lemon butter and dill potatoes"
        let page = TestPDF.Page(lines: [TestPDF.Line(text: "Tomato soup with basil and cream", x: 72, y: 700),
                                        TestPDF.Line(text: text, x: 72, y: 660, angle: 6),
                                        TestPDF.Line(text: "Garlic bread with butter and parsley", x: 72, y: 600)])
        let pdf = dir.appendingPathComponent("slant.pdf")
        try Data(TestPDF(pages: [page]).bytes()).write(to: pdf)
        let photo = try #require(try PDFDocument(fileAt: pdf).page(1)?.render(dpi: 200))
        // The slanted line's ink, as the region analysis finds it: band and slant from its characters.
        let analysis = TextRegionAnalyzer().analyze(photo, hotspotBoxes: [], lowConfidenceBoxes: [])
        let k = try #require(analysis.candidateBands.indices.first { abs(analysis.candidateBands[$0].slant) > 0.05 })
        let band = analysis.candidateBands[k], box = analysis.candidateLines[k]
        #expect(abs(band.slant + tan(6 * Double.pi / 180)) < 0.02, "\(band)")   // rising: y falls to the right
        #expect(band.thickness * 2 < box.height)
        let engine = try TesseractEngine(settings: OCRSettings())
        let grown = Box(x: box.x - 6, y: box.y - 6, width: box.width + 12, height: box.height + 12)
        let crop = try #require(LineCrop(photo, box: grown, scale: 1, border: 10, slant: band.slant, through: band.through,
                                         bandHeight: Double(band.thickness) + 12))
        let line = try #require(engine.recognizeLines([crop]).first)
        #expect(line.text == text, "\(line.text)")
        #expect((line.meanConfidence ?? 0) > 0.8)
        // Its words map back onto the slanted line: inside the box, in reading order.
        #expect(line.words.allSatisfy { grown.intersection($0.box) == $0.box })
        #expect(zip(line.words, line.words.dropFirst()).allSatisfy { $0.box.x < $1.box.x && $0.box.y >= $1.box.y - 2 })
    }

    @Test("property: boxes read in a turned crop map back inside the crop's part of the photo")
    func turnedMapsBack() throws {
        let light = try #require(panel(background: 30, ink: 220))
        var rng = Xoshiro(seed: (72, 0x9E37_79B9_7F4A_7C15, 72 &* 31 &+ 7, 0xD1B5_4A32_D192_ED03))
        let gen = zip(zip(Gen.int(in: -30...200), Gen.int(in: -30...120)), zip(Gen.int(in: -5...200), Gen.int(in: -5...120)),
                      zip(Gen.int(in: -27...27), Gen.int(in: 1...40)))
        for i in 0..<500 {
            let ((x, y), (w, h), (slant, band)) = gen.run(using: &rng)
            guard let crop = LineCrop(light, box: Box(x: 20, y: 8, width: 44, height: 24), scale: 2, border: 6,
                                      slant: Double(slant) / 100, through: (40, 20), bandHeight: Double(band)) else { continue }
            let b = crop.toSource(Box(x: x, y: y, width: w, height: h))
            #expect(b.x >= crop.origin.x && b.y >= crop.origin.y && b.maxX <= crop.origin.maxX && b.maxY <= crop.origin.maxY, "iteration \(i)")
            #expect(b.width > 0 && b.height > 0, "iteration \(i)")
        }
        // Points far off the photo, or not numbers, give no crop and never trap.
        for point in [(1e300, 1e300), (-1e300, 5), (Double.nan, 5), (40, Double.infinity)] {
            #expect(LineCrop(light, box: Box(x: 20, y: 8, width: 44, height: 24), scale: 2, border: 6,
                             slant: 0.1, through: point, bandHeight: 10) == nil)
        }
    }
}
