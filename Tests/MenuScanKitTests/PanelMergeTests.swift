import Foundation
import Testing
@testable import MenuScanKit

/// A dark panel read as a page of its own, merged into the page pass (round 29).
@Suite struct PanelMergeTests {
    static func word(_ text: String, _ x: Int, _ y: Int, _ w: Int = 60, confidence: Double) -> OCRWord {
        OCRWord(text: text, confidence: confidence, box: Box(x: x, y: y, width: w, height: 20))
    }
    static func line(_ words: [OCRWord]) -> OCRLine {
        OCRLine(box: words.dropFirst().reduce(words[0].box) { $0.union($1.box) }, words: words)
    }

    @Test("a price the page pass left unread is added to its row; a well-read name is kept")
    func addsWhatThePageMissed() {
        let name = Self.line([Self.word("Nasi", 100, 100, confidence: 0.96), Self.word("Goreng", 170, 100, confidence: 0.95)])
        let page = OCRPage(blocks: [OCRBlock(box: name.box, lines: [name])])
        // the panel read: the same name, a little less sure, and its price
        let panel = [Self.line([Self.word("Nasi", 101, 101, confidence: 0.9), Self.word("Goreng", 171, 99, confidence: 0.9),
                                Self.word("6.5", 600, 100, 40, confidence: 0.93)])]
        let out = PanelMerge.merge(page, panel: panel)
        #expect(out.replaced == 0 && out.lines == 1)
        #expect(out.page.lines.count == 1)
        #expect(out.page.lines[0].text == "Nasi Goreng 6.5")
        #expect(out.page.words.filter { $0.recovered == true }.map(\.text) == ["6.5"])
    }

    @Test("garbage the page pass read on the panel is replaced by the panel's confident reading")
    func replacesWeakReads() {
        let garbage = Self.line([Self.word("SoX-rVOL", 100, 300, 200, confidence: 0.07)])
        let good = Self.line([Self.word("Dessert", 100, 100, confidence: 0.9)])
        let page = OCRPage(blocks: [OCRBlock(box: good.box.union(garbage.box), lines: [good, garbage])])
        let panel = [Self.line([Self.word("Chocolate", 100, 300, 100, confidence: 0.88), Self.word("cake", 210, 300, confidence: 0.9)]),
                     Self.line([Self.word("Desert", 100, 100, confidence: 0.8)]),   // no better than the page's: not taken
                     Self.line([Self.word("~", 400, 500, confidence: 0.95), Self.word("ab", 500, 500, confidence: 0.4)])]
        let out = PanelMerge.merge(page, panel: panel)
        #expect(out.replaced == 1 && out.lines == 1)
        #expect(out.page.words.map(\.text) == ["Dessert", "Chocolate", "cake"])
    }

    @Test("nothing confident on the panel: the page is returned as it was")
    func keepsThePage() {
        let l = Self.line([Self.word("Soup", 10, 10, confidence: 0.5)])
        let page = OCRPage(blocks: [OCRBlock(box: l.box, lines: [l])])
        let out = PanelMerge.merge(page, panel: [Self.line([Self.word("Soap", 10, 10, confidence: 0.55)])])
        #expect(out.page == page && out.lines == 0 && out.replaced == 0)
    }
}
