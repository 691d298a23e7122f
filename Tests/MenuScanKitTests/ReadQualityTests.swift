import Testing
import Foundation
@testable import MenuScanKit

/// Synthetic pages for the read-quality stage: paper with rows of dark
/// "characters" (8×14 px, 12 px apart), optionally a grey block over them.
private enum ReadPage {
    static func make(width: Int = 800, height: Int = 600, rows: [(x: Int, y: Int, count: Int)],
                     cover: Box? = nil) -> Bitmap? {
        guard let pix = Bitmap.filled(width: width, height: height, r: 250, g: 250, b: 245) else { return nil }
        for r in rows {
            for c in 0..<r.count {
                let x = r.x + c * 12 + (c / 5) * 10
                guard x < width else { break }
                pix.fill(Box(x: x, y: r.y, width: min(8, width - x), height: 14), r: 30, g: 30, b: 30)  // cut at the edge
            }
        }
        if let cover { pix.fill(cover, r: 150, g: 110, b: 90) }
        return pix
    }

    static func page(words: [(String, Double)]) -> OCRPage {
        let ws = words.enumerated().map { i, w in
            OCRWord(text: w.0, confidence: w.1, box: Box(x: 10 + (i % 8) * 60, y: 10 + (i / 8) * 20, width: 50, height: 14))
        }
        return OCRPage(blocks: [OCRBlock(box: Box(x: 0, y: 0, width: 800, height: 600), lines: [OCRLine(box: Box(x: 0, y: 0, width: 800, height: 600), words: ws)])])
    }
}

@Suite("Read quality: lexicon, cut-off, covered text and readConfidence")
struct ReadQualityTests {
    let words = WordList(words: ["grilled", "salmon", "with", "lemon", "butter", "soup", "of", "the", "day"])

    @Test func knownTokensCountWordsNumbersAndPrices() {
        #expect(words.isKnown("Grilled") == true)
        #expect(words.isKnown("salmon,") == true)
        #expect(words.isKnown("12.50") == true)
        #expect(words.isKnown("€9,95") == true)
        #expect(words.isKnown("Gri1led") == false)
        #expect(words.isKnown("~=|") == false)
        #expect(words.isKnown("x") == nil)
        #expect(words.isKnown("lemon-butter") == true)
        let share = words.knownShare(["Grilled", "Salmon", "12.50", "Sa1mon", "w1th", "•"])
        #expect(share.counted == 5)
        #expect(abs(share.share - 0.6) < 1e-9)
    }

    @Test func wordListParsesCommentsAndLines() {
        let list = WordList(text: "# header\nsoup\n\nsalad\n")
        #expect(list.count == 2)
        #expect(list.contains("soup") && list.contains("Salad") && !list.contains("sou") && !list.contains("soups"))
    }

    @Test func wordListReadsFrontCodingAndFoldsAccents() {
        // sorted by bytes, front-coded as build_wordlist.py writes it; a bad prefix count is skipped
        let list = WordList(text: "# c\nkalb\n2se\n2tze\n99x\nsalmon\n")
        #expect(list.count == 4)
        #expect(list.contains("kase") && list.contains("katze") && list.contains("kalb") && list.contains("salmon"))
        #expect(list.contains("Käse"))  // folded: the English model often drops the umlaut, the German one keeps it
        #expect(!list.contains("kat") && !list.contains("x") && !list.contains("kax"))
        #expect(WordList.fold("Grüße Œuf Crème") == "grusse oeuf creme")
    }

    @Test func wordListByteParserHandlesUntidyInput() {
        // CRLF, padding, an unsorted list (sorted and deduplicated after), a plain non-ASCII word
        // (folded), capitals, and a prefix count too large for any word (skipped, never a trap).
        let list = WordList(text: "zebra \r\n  Äpfel\r\napfel\nBROT\n\u{0B}brot\n99999999999999999999999x\n2e\n")
        #expect(list.count == 4)  // zebra, apfel, brot, bre
        #expect(list.contains("Zebra") && list.contains("Äpfel") && list.contains("brot") && list.contains("bre"))
        #expect(!list.contains("x") && !list.contains("br"))
    }

    @Test func shippedWordListCoversTheLanguagesWeRead() throws {
        let list = try #require(WordList.shared)
        for word in ["chicken", "Rindfleisch", "Schweinebraten", "Käse", "fromage", "pommes", "formaggio", "pollo",
                     "cebolla", "bruschetta", "spätzle", "Grüße"] {
            #expect(list.contains(word), "\(word)")
        }
        for garbage in ["rlndfieisch", "tnmato", "chlcken"] { #expect(!list.contains(garbage), "\(garbage)") }
    }

    @Test func shippedWordListAndModelLoad() {
        // models/ is found from the package root (tests run there).
        #expect(WordList.shared?.contains("chicken") == true)
        #expect(ReadConfidenceModel.shared != nil)
    }

    @Test func textRunningOffTheRightEdgeIsCutOff() throws {
        let rows = (0..<8).map { (x: 47, y: 40 + $0 * 40, count: 80) }  // the 55th character is cut at x = 800
        let cut = try #require(ReadPage.make(rows: rows))
        let inside = try #require(ReadPage.make(rows: rows.map { ($0.x, $0.y, 40) }))
        let analyzer = TextRegionAnalyzer()
        let cutMap = try #require(analyzer.inkMap(of: cut))
        let insideMap = try #require(analyzer.inkMap(of: inside))
        // OCR read each row up to the edge (the cut word's box ends at x = 800)
        let words = rows.map { Box(x: 700, y: $0.y, width: 100, height: 14) }
        let a = ReadQualityStage.cutOff(cutMap, words: words), b = ReadQualityStage.cutOff(insideMap, words: words)
        let unread = ReadQualityStage.cutOff(cutMap, words: [])  // ink at the edge, no word there: a border, not text
        #expect(unread.lines == 0, "\(unread)")
        #expect(a.lines >= 6, "\(a)")
        #expect(a.regions.allSatisfy { $0.reason == .cutOff && $0.box.maxX >= 790 })
        #expect(b.lines == 0 && b.regions.isEmpty)
    }

    @Test func aBlockWithTextOnBothSidesIsCovered() throws {
        let rows = (0..<12).map { (x: 40, y: 40 + $0 * 40, count: 55) }
        let block = Box(x: 250, y: 150, width: 250, height: 220)
        let covered = try #require(ReadPage.make(rows: rows, cover: block))
        let clean = try #require(ReadPage.make(rows: rows))
        let analyzer = TextRegionAnalyzer()
        for (image, expectCovered) in [(covered, true), (clean, false)] {
            let map = try #require(analyzer.inkMap(of: image))
            let gray = try #require(image.grayImage(scale: 0.5))
            let c = ReadQualityStage.covered(map, gray: gray)
            if expectCovered {
                #expect(c.share > 0.05, "\(c)")
                let r = try #require(c.region)
                #expect(r.reason == .covered)
                #expect(r.box.iou(block) > 0.5, "\(r.box)")
            } else {
                #expect(c.share == 0 && c.region == nil, "\(c)")
            }
        }
    }

    @Test func coveredAndCutOffMakePartialNonWordsMakeLowConfidence() throws {
        let stage = ReadQualityStage(words: words, model: ReadConfidenceModel(intercept: -4, weights: ["meanConfidence": 6, "lexiconShare": 2]))
        // rows ending 70 px before the right edge: no text at an open edge
        let rows = (0..<12).map { (x: 40, y: 40 + $0 * 40, count: 50) }
        let image = try #require(ReadPage.make(rows: rows, cover: Box(x: 250, y: 150, width: 250, height: 220)))
        let map = TextRegionAnalyzer().inkMap(of: image)
        let good = ReadPage.page(words: Array(repeating: ("salmon", 0.95), count: 12))
        let a = stage.assess(page: good, image: image, inkMap: map, coverage: nil)
        #expect(a.partial && a.quality.findings.contains("covered"))
        #expect(!a.lowConfidence)
        #expect((a.quality.readConfidence ?? 0) > 0.85)

        let clean = try #require(ReadPage.make(rows: rows))
        let junk = ReadPage.page(words: Array(repeating: ("Sa1m0n", 0.75), count: 8) + Array(repeating: ("soup", 0.75), count: 4))
        let b = stage.assess(page: junk, image: clean, inkMap: TextRegionAnalyzer().inkMap(of: clean), coverage: nil)
        #expect(!b.partial)
        #expect(b.lowConfidence && b.quality.findings.contains("non_words"), "\(b.quality)")
        // about half the words outside the list (names, brands) read at high confidence: not junk
        let german = ReadPage.page(words: Array(repeating: ("Schweinebraten", 0.92), count: 6) + Array(repeating: ("soup", 0.92), count: 6))
        let g = stage.assess(page: german, image: clean, inkMap: TextRegionAnalyzer().inkMap(of: clean), coverage: nil)
        #expect(!g.quality.findings.contains("non_words"), "\(g.quality)")
        // almost nothing known: non-words whatever the confidence
        let noise = ReadPage.page(words: Array(repeating: ("Sa1m0n", 0.95), count: 12))
        let n = stage.assess(page: noise, image: clean, inkMap: TextRegionAnalyzer().inkMap(of: clean), coverage: nil)
        #expect(n.quality.findings.contains("non_words"), "\(n.quality)")

        let weak = ReadPage.page(words: Array(repeating: ("soup", 0.3), count: 12))
        let c = stage.assess(page: weak, image: clean, inkMap: TextRegionAnalyzer().inkMap(of: clean), coverage: nil)
        #expect(c.lowConfidence && c.quality.findings == ["low_read_confidence"], "\(c.quality)")
        #expect(c.quality.level == .low)
    }

    @Test func readConfidenceIsZeroWithoutWordsAndMonotoneInItsWeights() {
        let model = ReadConfidenceModel(intercept: -1, weights: ["meanConfidence": 3, "unreadShare": -4])
        var f = ReadQualityFeatures(meanConfidence: 0.9, lowConfidenceShare: 0, confidenceSpread: 0, lexiconShare: 1,
                                    lexiconTokens: 30, unreadShare: 0, cutOffLines: 0, coveredShare: 0, words: 30)
        let base = model.predict(f)
        #expect(abs(base - 1 / (1 + exp(-(-1 + 3 * 0.9)))) < 1e-9)
        f.unreadShare = 0.5
        #expect(model.predict(f) < base)
        f.words = 0
        #expect(model.predict(f) == 0)
    }
}

@Suite("Read quality: edge margin")
struct ReadQualityEdgeMarginTests {
    @Test func marginIsInWordHeightsAndCapped() {
        let boxes = [Box(x: 100, y: 100, width: 50, height: 20), Box(x: 100, y: 300, width: 50, height: 20)]
        #expect(ReadQualityStage.edgeMargin(boxes, width: 1000, height: 1000) == 3)  // 100 px = 5 heights → capped
        let near = boxes + [Box(x: 970, y: 500, width: 20, height: 20)]  // 10 px from the right edge
        #expect(abs(ReadQualityStage.edgeMargin(near, width: 1000, height: 1000) - 0.5) < 1e-9)
        #expect(ReadQualityStage.edgeMargin([], width: 1000, height: 1000) == 3)
    }
}

@Suite("Read quality: a dark panel of light text is not a cover")
struct ReadQualityPanelTests {
    @Test func lightTextOnADarkPanelIsNotCovered() throws {
        let rows = (0..<12).map { (x: 40, y: 40 + $0 * 40, count: 55) }
        let panel = Box(x: 250, y: 150, width: 250, height: 220)
        let image = try #require(Bitmap.filled(width: 800, height: 600, r: 250, g: 250, b: 245))
        for r in rows {
            for c in 0..<r.count {
                let x = r.x + c * 12 + (c / 5) * 10
                guard x + 8 <= 800 else { break }
                image.fill(Box(x: x, y: r.y, width: 8, height: 14), r: 30, g: 30, b: 30)
            }
        }
        image.fill(panel, r: 40, g: 40, b: 40)
        // light "characters" on the panel, 2 px strokes
        for y in stride(from: panel.y + 8, to: panel.maxY - 14, by: 20) {
            for x in stride(from: panel.x + 6, to: panel.maxX - 8, by: 10) {
                image.fill(Box(x: x, y: y, width: 2, height: 12), r: 240, g: 240, b: 240)
            }
        }
        let map = try #require(TextRegionAnalyzer().inkMap(of: image))
        let gray = try #require(image.grayImage(scale: 0.5))
        let c = ReadQualityStage.covered(map, gray: gray)
        #expect(c.region == nil, "\(c)")
    }
}

@Suite("Read quality: small text and glare")
struct ReadQualitySmallTextGlareTests {
    @Test func smallTextIsFlaggedNotPartial() throws {
        let stage = ReadQualityStage(words: WordList(words: ["soup"]), model: nil)
        let image = try #require(Bitmap.filled(width: 400, height: 300, r: 250, g: 250, b: 245))
        let page = OCRPage(blocks: [OCRBlock(box: Box(x: 0, y: 0, width: 400, height: 300), lines: [
            OCRLine(box: Box(x: 10, y: 10, width: 300, height: 8), words: (0..<10).map {
                OCRWord(text: "soup", confidence: 0.95, box: Box(x: 10 + $0 * 30, y: 10, width: 25, height: 8))
            })])])
        let small = stage.assess(page: page, image: image, inkMap: nil, coverage: nil, textHeight: 7)
        #expect(small.lowConfidence && small.quality.findings == ["small_text"] && !small.partial)
        let fine = stage.assess(page: page, image: image, inkMap: nil, coverage: nil, textHeight: 12)
        #expect(!fine.lowConfidence && fine.quality.findings.isEmpty)
    }

    @Test func aBlownOutPatchOnGreyishPaperWithTextAroundIsCovered() throws {
        // paper at 225 (not clipped), text rows, and a clipped-white patch over the middle
        let image = try #require(Bitmap.filled(width: 800, height: 600, r: 225, g: 225, b: 222))
        for row in 0..<12 {
            for c in 0..<55 {
                let x = 40 + c * 12 + (c / 5) * 10
                guard x + 8 <= 800 else { break }
                image.fill(Box(x: x, y: 40 + row * 40, width: 8, height: 14), r: 30, g: 30, b: 30)
            }
        }
        let patch = Box(x: 250, y: 150, width: 250, height: 220)
        image.fill(patch, r: 255, g: 255, b: 255)
        let map = try #require(TextRegionAnalyzer().inkMap(of: image))
        let gray = try #require(image.grayImage(scale: 0.5))
        let c = ReadQualityStage.covered(map, gray: gray)
        #expect(c.share > 0.05, "\(c)")
        #expect((c.region?.box.iou(patch) ?? 0) > 0.5, "\(c)")
        // the same page on white (scanned) paper: blank paper is not glare
        let white = try #require(Bitmap.filled(width: 800, height: 600, r: 255, g: 255, b: 255))
        for row in 0..<12 { white.fill(Box(x: 40, y: 40 + row * 40, width: 8, height: 14), r: 30, g: 30, b: 30) }
        for row in 0..<12 { for c in 1..<55 where !(c > 17 && c < 38 && row > 2 && row < 9) {
            white.fill(Box(x: 40 + c * 12 + (c / 5) * 10, y: 40 + row * 40, width: 8, height: 14), r: 30, g: 30, b: 30) } }
        let w = ReadQualityStage.covered(try #require(TextRegionAnalyzer().inkMap(of: white)), gray: try #require(white.grayImage(scale: 0.5)))
        #expect(w.region == nil, "\(w)")
    }
}

@Suite("Read quality: text running to an open edge")
struct OpenEdgeTests {
    @Test func textNearAnEdgeWhereThePaperGoesOnIsOpen() throws {
        let analyzer = TextRegionAnalyzer()
        // rows from y = 4: the top row lies right under the photo's top edge, on paper
        let rows = (0..<10).map { (x: 40, y: 4 + $0 * 40, count: 50) }
        let cut = try #require(ReadPage.make(rows: rows))
        // the same rows with a margin of paper above them
        let whole = try #require(ReadPage.make(rows: rows.map { ($0.x, $0.y + 60, $0.count) }))
        // the rows at the top again, but the photo shows the table above the page
        let onTable = try #require(ReadPage.make(rows: rows.map { ($0.x, $0.y + 14, $0.count) }))
        _ = onTable.fill(Box(x: 0, y: 0, width: 800, height: 12), r: 90, g: 80, b: 70)
        _ = onTable.fill(Box(x: 0, y: 0, width: 12, height: 600), r: 90, g: 80, b: 70)
        for (image, expected) in [(cut, 1), (whole, 0), (onTable, 0)] {
            let map = try #require(analyzer.inkMap(of: image))
            let gray = try #require(image.grayImage(scale: 0.5))
            #expect(ReadQualityStage.openEdges(map, gray: gray) == expected)
        }
        // the stage says so and never calls such a read complete with high confidence
        let stage = ReadQualityStage(words: WordList(words: ["salmon"]), model: ReadConfidenceModel(intercept: 5, weights: [:]))
        let page = ReadPage.page(words: Array(repeating: ("salmon", 0.95), count: 24))
        let a = stage.assess(page: page, image: cut, inkMap: analyzer.inkMap(of: cut), coverage: nil)
        #expect(a.quality.findings.contains("text_at_open_edge") && a.quality.features.openEdges == 1)
        #expect(a.quality.readConfidence == ConfidenceLevel.highAbove && a.quality.level == .medium)
        let b = stage.assess(page: page, image: whole, inkMap: analyzer.inkMap(of: whole), coverage: nil)
        #expect(!b.quality.findings.contains("text_at_open_edge") && (b.quality.readConfidence ?? 0) > 0.99)
    }
}
