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
}
