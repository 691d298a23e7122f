import Foundation
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
}
