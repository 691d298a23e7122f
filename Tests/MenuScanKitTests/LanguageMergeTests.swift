import Foundation
import Testing
@testable import MenuScanKit

@Suite("--lang auto: the second language's read merged with the English read line by line")
struct LanguageMergeTests {
    static func line(_ text: String, y: Int, confidence: Double, x: Int = 10) -> OCRLine {
        var words: [OCRWord] = []
        var left = x
        for w in text.split(separator: " ") {
            words.append(OCRWord(text: String(w), confidence: confidence, box: Box(x: left, y: y, width: 12 * w.count, height: 20)))
            left += 12 * w.count + 8
        }
        return OCRLine(box: words.dropFirst().reduce(words[0].box) { $0.union($1.box) }, words: words)
    }

    /// A rule for the merge's mechanics (the pipeline's rule is the detector's).
    static func moreConfident(_ english: OCRLine, _ second: OCRLine) -> Bool {
        (english.meanConfidence ?? 0) > (second.meanConfidence ?? 0)
    }

    static func page(_ lines: [OCRLine]) -> OCRPage {
        OCRPage(blocks: [OCRBlock(box: lines.dropFirst().reduce(lines[0].box) { $0.union($1.box) }, lines: lines)])
    }

    @Test("each line keeps the read the rule prefers; the second read's layout stays")
    func perLine() {
        let german = Self.page([Self.line("Käsespätzle mit Röstzwiebeln", y: 10, confidence: 0.91),
                                Self.line("Fish and Chips", y: 50, confidence: 0.62),
                                Self.line("12,50", y: 90, confidence: 0.90)])
        let english = Self.page([Self.line("Kasespatzle mit Rostzwiebeln", y: 10, confidence: 0.74),
                                 Self.line("Fish and Chips", y: 50, confidence: 0.95),
                                 Self.line("12,50", y: 90, confidence: 0.90)])
        let merged = LanguageMerge.merge(second: german, english: english, prefersEnglish: Self.moreConfident)
        #expect(merged.page.lines.map(\.text) == ["Käsespätzle mit Röstzwiebeln", "Fish and Chips", "12,50"])
        #expect(merged.page.lines[1].words == english.lines[1].words)
        #expect(merged.page.lines[0].words == german.lines[0].words)
        // A tie keeps the second read.
        #expect(merged.page.lines[2].words == german.lines[2].words)
        #expect(merged.englishLines == 1)
        #expect(merged.page.blocks.count == 1 && merged.page.blocks[0].box == german.blocks[0].box)
    }

    @Test("an English line the second read has nothing on is added; one in another place is not matched")
    func missingAndShifted() {
        let german = Self.page([Self.line("Vorspeisen", y: 10, confidence: 0.8)])
        let english = Self.page([Self.line("Vorspeisen", y: 10, confidence: 0.5),
                                 Self.line("Daily specials", y: 200, confidence: 0.9)])
        let merged = LanguageMerge.merge(second: german, english: english, prefersEnglish: Self.moreConfident)
        #expect(merged.page.lines.map(\.text).sorted() == ["Daily specials", "Vorspeisen"])
        #expect(merged.page.lines.first { $0.text == "Vorspeisen" }?.words.first?.confidence == 0.8)
        #expect(merged.englishLines == 1)
        // Half a line's height apart and shorter: under the overlap needed, and overlapping,
        // so it is neither swapped in nor added.
        let shifted = Self.page([Self.line("Vorspeisen", y: 22, confidence: 0.99, x: 60)])
        let kept = LanguageMerge.merge(second: german, english: shifted, prefersEnglish: Self.moreConfident)
        #expect(kept.page == german && kept.englishLines == 0)
    }

    @Test("empty reads")
    func empty() {
        let german = Self.page([Self.line("Suppe", y: 10, confidence: 0.8)])
        #expect(LanguageMerge.merge(second: german, english: OCRPage(blocks: []), prefersEnglish: Self.moreConfident).page == german)
        let fromEnglish = LanguageMerge.merge(second: OCRPage(blocks: []), english: german, prefersEnglish: Self.moreConfident)
        #expect(fromEnglish.page.lines.map(\.text) == ["Suppe"] && fromEnglish.englishLines == 1)
    }

    @Test("the pipeline's rule: a line keeps its English read only with more English than German evidence")
    func detectorRule() {
        let detector = LanguageDetectorTests.detector
        func prefers(_ english: String, _ german: String) -> Bool {
            detector.prefersEnglish(Self.line(english, y: 10, confidence: 0.9), over: Self.line(german, y: 10, confidence: 0.8),
                                    language: "deu")
        }
        // The English model misreads a German line into an English word: German stays.
        #expect(!prefers("m Currysauce mit Mangochutney, grinem Pfeffer and Ananas",
                         "m Currysauce mit Mangochutney, grünem Pfeffer und Ananas"))
        #expect(!prefers("Kasespatzle mit Rostzwiebeln", "Käsespätzle mit Röstzwiebeln"))
        // An English line on a German menu keeps the English read.
        #expect(prefers("Fish and Chips with peas", "Fish and Chips with peas"))
        #expect(prefers("Chicken Wings with fries and dip", "Chicken Wings mit fries and dip"))
        // No evidence either way (a name, a price): the second read stays.
        #expect(!prefers("Pfannkuchen Hawaii", "Pfannkuchen Hawaii"))
        #expect(!prefers("12,50", "12,50"))
    }

    @Test("the lines read again: lines with letters the rule flags, boxes padded within the image; reads replace their words")
    func rereadLines() {
        let page = Self.page([Self.line("Käsespätzle mit Röstzwiebeln", y: 2, confidence: 0.9),
                              Self.line("12,50", y: 50, confidence: 0.9),
                              Self.line("Fish and Chips", y: 90, confidence: 0.9)])
        let bounds = Box(x: 0, y: 0, width: 300, height: 105)
        let targets = LanguageMerge.rereadBoxes(page, bounds: bounds) { !$0.text.contains("and") }
        #expect(targets.map(\.line) == [0])
        // 20 px high: padded by 5, cut at the image's top and right.
        #expect(targets.first?.box == Box(left: 5, top: 0, right: 300, bottom: 27))
        let read = [OCRWord(text: "Käsespätzle", confidence: 0.95, box: Box(x: 10, y: 2, width: 130, height: 20))]
        let replaced = LanguageMerge.replacing(page, [0: read, 2: []])
        #expect(replaced.lines.map(\.text) == ["Käsespätzle", "12,50", "Fish and Chips"])
        #expect(replaced.blocks[0].box == page.blocks[0].box)
        #expect(LanguageMerge.replacing(page, [7: read]) == page)
    }

    @Test("the default second read leaves the settings' JSON (the resume hash) as before; a chosen one is in it")
    func settingsJSON() throws {
        let plain = String(decoding: try JSONEncoder().encode(ScanSettings()), as: UTF8.self)
        #expect(!plain.contains("languageReread"))
        var chosen = ScanSettings()
        chosen.languageReread = .lines
        #expect(String(decoding: try JSONEncoder().encode(chosen), as: UTF8.self).contains("\"languageReread\":\"lines\""))
        #expect(BatchHashing.settingsHash(chosen) != BatchHashing.settingsHash(ScanSettings()))
    }
}
