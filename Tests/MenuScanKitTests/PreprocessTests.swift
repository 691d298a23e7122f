import Foundation
import PropertyBased
import Testing
@testable import MenuScanKit

@Suite("Preprocessing: orientation and scale")
struct PreprocessTests {
    @Test("small text is enlarged to the target, large text shrunk, text in the band left alone")
    func scaleFactor() {
        let p = PreprocessSettings()  // band 16…64 px, small → 20, under 8 → 28, large → 40, 0.25…4, 40 MP
        #expect(p.scaleFactor(textHeight: 10, width: 1000, height: 1000) == 2)
        #expect(p.scaleFactor(textHeight: 15.9, width: 1000, height: 1000) > 1.25)
        #expect(p.scaleFactor(textHeight: 8, width: 1000, height: 1000) == 2.5)
        #expect(p.scaleFactor(textHeight: 7.9, width: 1000, height: 1000) > 3.5)     // tiny text → 28 px
        #expect(p.scaleFactor(textHeight: 16, width: 1000, height: 1000) == 1)
        #expect(p.scaleFactor(textHeight: 64, width: 1000, height: 1000) == 1)
        #expect(p.scaleFactor(textHeight: 80, width: 4000, height: 3000) == 0.5)
        #expect(p.scaleFactor(textHeight: 400, width: 4000, height: 3000) == 0.25)   // clamped
        #expect(p.scaleFactor(textHeight: 2, width: 100, height: 100) == 4)          // clamped
        #expect(p.scaleFactor(textHeight: nil, width: 1000, height: 1000) == 1)      // no text found
        let capped = p.scaleFactor(textHeight: 7, width: 4000, height: 3000)         // 4× would be 192 MP
        #expect(abs(Double(4000 * 3000) * capped * capped / 1e6 - 40) < 0.01)
        #expect(PreprocessSettings.none.scaleFactor(textHeight: 7, width: 100, height: 100) == 1)
    }

    @Test("boxes from a scaled OCR copy map back to the photo and stay inside it")
    func mapping() {
        let word = OCRWord(text: "Soup", confidence: 0.9, box: Box(x: 20, y: 40, width: 60, height: 20))
        let edge = OCRWord(text: "6.50", confidence: 0.9, box: Box(x: 190, y: 40, width: 20, height: 20))
        let line = OCRLine(box: Box(x: 20, y: 40, width: 190, height: 20), words: [word, edge])
        let page = OCRPage(blocks: [OCRBlock(box: line.box, lines: [line])])
        let mapped = page.mapped(by: 0.5, within: Box(x: 0, y: 0, width: 100, height: 100))
        #expect(mapped.words[0].box == Box(x: 10, y: 20, width: 30, height: 10))
        #expect(mapped.words[1].box == Box(x: 95, y: 20, width: 5, height: 10))   // clipped at the edge
        #expect(mapped.words.map(\.text) == ["Soup", "6.50"])
    }

    static func process(_ bitmap: Bitmap, settings: ScanSettings = ScanSettings()) throws -> PhotoResult {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanup(dir) }
        let url = dir.appendingPathComponent("photo.png")
        try Data(try #require(bitmap.encoded(as: .png))).write(to: url)
        return try PhotoProcessor(settings: settings).process(fileAt: url, displayPath: "photo.png")
    }

    @Test("a page stored sideways without EXIF is turned upright by OSD", arguments: [1, 2, 3])
    func osd(quarterTurns: Int) throws {
        let clean = try ImageDecoder().decode(fileAt: TestSupport.samples.appendingPathComponent("menu-clean.png")).pix
        let turned = try #require(clean.rotated(quarterTurns: quarterTurns))
        let result = try Self.process(turned)
        let record = try #require(result.preprocessing)
        #expect(record.rotated == (360 - quarterTurns * 90) % 360)
        #expect(result.source.width == clean.width && result.source.height == clean.height)
        #expect(result.status == .ok)
        let words = result.ocr?.page.words.map(\.text) ?? []
        #expect(words.contains("Salmon") && words.contains("Risotto"))
        for w in result.ocr?.page.words ?? [] {
            #expect(w.box.maxX <= clean.width && w.box.maxY <= clean.height)
        }
    }

    @Test("OSD's copy: text to 28 px, never enlarged, and at most osdMaxMegapixels")
    func osdScale() {
        var p = PreprocessSettings()
        p.osdMaxMegapixels = 4
        #expect(p.osdScale(textHeight: 20, width: 1200, height: 1600) == 1)              // small text: never enlarged
        #expect(p.osdScale(textHeight: 56, width: 1200, height: 1600) == 0.5)            // 28 px, 0.48 MP: under the cap
        #expect(p.osdScale(textHeight: 400, width: 1000, height: 1000) == 0.25)          // at most 4× smaller
        #expect(p.osdScale(textHeight: nil, width: 4000, height: 1000) == 0.5)           // no text height: long side 2000
        // A 15.7 MP menu with 35 px text: 28 px would leave 10 MP; the cap makes it 4.
        let capped = p.osdScale(textHeight: 35, width: 3369, height: 4667)
        #expect(capped < 0.8 && abs(3369.0 * 4667 * capped * capped / 1e6 - 4) < 1e-6)
        p.osdMaxMegapixels = 0                                                             // no cap
        #expect(p.osdScale(textHeight: 35, width: 3369, height: 4667) == 0.8)
    }

    @Test("OSD's copy scale is positive, at most 1 and within the cap for any size and text height")
    func osdScaleProperty() {
        var rng = Xoshiro(seed: (61, 0x9E37_79B9_7F4A_7C15, 1_897, 0xD1B5_4A32_D192_ED03))
        let gen = zip(Gen.int(in: -5...20_000), Gen.int(in: -5...20_000), Gen.int(in: -2...400), Gen.int(in: 0...80))
        for i in 0..<2_000 {
            let (w, h, t, cap) = gen.run(using: &rng)
            var p = PreprocessSettings()
            p.osdMaxMegapixels = Double(cap) / 10
            let textHeight: Double? = t < 0 ? nil : Double(t)
            let f = p.osdScale(textHeight: textHeight, width: w, height: h)
            #expect(f.isFinite && f > 0 && f <= 1, "iteration \(i): \(w)×\(h), text \(t), cap \(cap): \(f)")
            if cap > 0 {
                #expect(Double(max(0, w)) * Double(max(0, h)) * f * f / 1e6 <= p.osdMaxMegapixels * (1 + 1e-9), "iteration \(i)")
            }
        }
    }

    @Test("a large sideways page is still turned upright when OSD reads a capped copy", arguments: [1, 3])
    func osdCapped(quarterTurns: Int) throws {
        let clean = try ImageDecoder().decode(fileAt: TestSupport.samples.appendingPathComponent("menu-clean.png")).pix
        let turned = try #require(clean.rotated(quarterTurns: quarterTurns))
        var settings = ScanSettings()
        settings.preprocess.osdMaxMegapixels = 0.8    // menu-clean is 1.43 MP: OSD reads a 0.8 MP copy
        let result = try Self.process(turned, settings: settings)
        let record = try #require(result.preprocessing)
        #expect(record.osdRotation != nil)
        #expect(record.rotated == (360 - quarterTurns * 90) % 360)
        #expect(result.ocr?.page.words.contains { $0.text == "Salmon" } == true)
    }

    @Test("OSD is skipped only for a confident read whose words lie the right way")
    func uprightRead() {
        func page(_ words: [(String, Double, Int, Int)]) -> OCRPage {
            let ws = words.enumerated().map { i, w in OCRWord(text: w.0, confidence: w.1, box: Box(x: i * 80, y: 0, width: w.2, height: w.3)) }
            return OCRPage(blocks: [OCRBlock(box: Box(x: 0, y: 0, width: 1000, height: 40), lines: [OCRLine(box: Box(x: 0, y: 0, width: 1000, height: 40), words: ws)])])
        }
        let upright = page([("Grilled", 0.9, 70, 20), ("salmon", 0.92, 60, 20), ("with", 0.88, 40, 20), ("lemon", 0.9, 50, 20), ("14.50", 0.9, 50, 20)])
        #expect(PhotoProcessor.readsUpright(upright, minimumConfidence: 0.6))
        let doubtful = page([("Grilled", 0.5, 70, 20), ("salmon", 0.55, 60, 20), ("with", 0.5, 40, 20), ("lemon", 0.6, 50, 20), ("14.50", 0.6, 50, 20)])
        #expect(!PhotoProcessor.readsUpright(doubtful, minimumConfidence: 0.6))           // mean 0.55
        let sideways = page([("Grilled", 0.9, 20, 70), ("salmon", 0.92, 20, 60), ("with", 0.88, 20, 40), ("lemon", 0.9, 20, 50), ("14.50", 0.9, 20, 50)])
        #expect(!PhotoProcessor.readsUpright(sideways, minimumConfidence: 0.6))           // boxes on their side
        #expect(!PhotoProcessor.readsUpright(page([("Soup", 0.95, 40, 20)]), minimumConfidence: 0.6))  // too little text
        var turned = upright
        turned.turnedCharacters = 10
        #expect(!PhotoProcessor.readsUpright(turned, minimumConfidence: 0.6))
    }

    @Test("small text is enlarged for OCR and boxes come back in photo pixels; switches turn steps off")
    func rescale() throws {
        let clean = try ImageDecoder().decode(fileAt: TestSupport.samples.appendingPathComponent("menu-clean.png")).pix
        let small = try #require(clean.scaled(by: 0.4))
        let result = try Self.process(small)
        let record = try #require(result.preprocessing)
        #expect(record.scale > 1.5)
        #expect(result.source.width == small.width)
        let salmon = try #require(result.ocr?.page.words.first { $0.text == "Salmon" })
        #expect(salmon.box.maxX <= small.width && salmon.box.height < 30)   // photo pixels, not the enlarged copy's
        var off = ScanSettings()
        off.preprocess = .none
        let plain = try #require(try Self.process(small, settings: off).preprocessing)
        #expect(plain.scale == 1 && plain.rotated == 0 && plain.osdRotation == nil)
    }

    @Test("readGray: Tesseract reads the photo's gray copy, scaled like the photo; boxes stay in photo pixels")
    func readGray() throws {
        let clean = try ImageDecoder().decode(fileAt: TestSupport.samples.appendingPathComponent("menu-clean.png")).pix
        let small = try #require(clean.scaled(by: 0.4))
        var settings = ScanSettings()
        settings.preprocess.readGray = true
        let gray = try #require(small.grayscale())
        let prepared = try PhotoProcessor(settings: settings).prepare(small, textHeight: 8, gray: gray)
        #expect(prepared.ocrCopy.depth == 8 && prepared.record.scale > 1)
        #expect(prepared.upright === small)
        #expect(ScanSettings().preprocess.readGray, "the default since round 5 of issue 16")
        var colourSettings = ScanSettings()
        colourSettings.preprocess.readGray = false
        let colour = try PhotoProcessor(settings: colourSettings).prepare(small, textHeight: 8, gray: gray)
        #expect(colour.ocrCopy.depth == small.depth)
        let result = try Self.process(small, settings: settings)
        let salmon = try #require(result.ocr?.page.words.first { $0.text == "Salmon" })
        #expect(salmon.box.maxX <= small.width && salmon.box.height < 30)
    }
}

@Suite("Shrinking undone when the read shows tiny words")
struct ShrinkCheckTests {
    func page(heights: [Int], text: String = "word") -> OCRPage {
        let words = heights.enumerated().map { OCRWord(text: text, confidence: 0.9, box: Box(x: $0.offset * 50, y: 0, width: 40, height: $0.element)) }
        return OCRPage(blocks: [OCRBlock(box: Box(x: 0, y: 0, width: 1000, height: 100), lines: [OCRLine(box: Box(x: 0, y: 0, width: 1000, height: 100), words: words)])])
    }

    @Test("a shrunk copy read as 6 px words or as almost nothing was shrunk too far; readable words or no shrink are fine")
    func shrankTooFar() {
        #expect(PhotoProcessor.shrankTooFar(page(heights: [6, 6, 5, 7, 6, 6]), scale: 0.27, minimumWordHeight: 16))
        #expect(!PhotoProcessor.shrankTooFar(page(heights: [40, 42, 38, 44, 40]), scale: 0.27, minimumWordHeight: 16))
        #expect(!PhotoProcessor.shrankTooFar(page(heights: [6, 6, 5, 7, 6, 6]), scale: 1, minimumWordHeight: 16))
        #expect(!PhotoProcessor.shrankTooFar(page(heights: [6, 6, 5, 7, 6, 6]), scale: 1.5, minimumWordHeight: 16))
        // A shrunk copy that yields almost no words was shrunk too far as well (marks
        // without a letter or digit are no words); unshrunk, it is what it is.
        #expect(PhotoProcessor.shrankTooFar(page(heights: [40, 40, 40]), scale: 0.5, minimumWordHeight: 16))
        #expect(PhotoProcessor.shrankTooFar(page(heights: [40, 42, 38, 44, 40], text: "—"), scale: 0.5, minimumWordHeight: 16))
        #expect(PhotoProcessor.shrankTooFar(OCRPage(blocks: []), scale: 0.5, minimumWordHeight: 16))
        #expect(!PhotoProcessor.shrankTooFar(OCRPage(blocks: []), scale: 1, minimumWordHeight: 16))
    }
}

@Suite("OCR page: placing recovered lines in reading order")
struct InsertionTests {
    func line(_ text: String, _ x: Int, _ y: Int, _ w: Int = 100, _ h: Int = 20) -> OCRLine {
        let box = Box(x: x, y: y, width: w, height: h)
        return OCRLine(box: box, words: [OCRWord(text: text, confidence: 0.9, box: box)])
    }

    @Test("a price joins the item's line on its row; other lines become blocks placed by position")
    func insertion() {
        let items = OCRBlock(box: Box(x: 0, y: 100, width: 300, height: 100),
                             lines: [line("Soup", 0, 100), line("Salad", 0, 140), line("Tart", 0, 180)])
        let page = OCRPage(blocks: [items, OCRBlock(box: Box(x: 0, y: 300, width: 100, height: 20), lines: [line("Footer", 0, 300)])])
        let out = page.inserting([line("9.00", 500, 142, 60), line("Note", 0, 500), line("Lunch", 0, 20), line("Menu", 0, 50),
                                  line("Hello", 0, 400), line("6.50", 500, 102, 60)])
        #expect(out.text == "Lunch\nMenu\n\nSoup 6.50\nSalad 9.00\nTart\n\nFooter\n\nHello\n\nNote")
        #expect(out.blocks[1].box.maxX == 560)
        #expect(out.blocks[1].lines[0].box == Box(x: 0, y: 100, width: 560, height: 22))
        #expect(out.words.count == page.words.count + 6)
    }

    @Test("in a two-column menu a recovered price joins its item on the left, not the nearer next column")
    func twoColumns() {
        let page = OCRPage(blocks: [
            OCRBlock(box: Box(x: 0, y: 0, width: 300, height: 20), lines: [line("Cordon-bleu", 0, 0, 300)]),
            OCRBlock(box: Box(x: 520, y: 0, width: 280, height: 20), lines: [line("Käsespätzle", 520, 0, 280)]),
        ])
        let out = page.inserting([line("11,90", 420, 1, 60)])
        #expect(out.text == "Cordon-bleu 11,90\n\nKäsespätzle")
        let shifted = OCRPage(blocks: page.blocks.map { b in
            OCRBlock(box: Box(x: b.box.x + 100, y: 0, width: b.box.width, height: 20),
                     lines: b.lines.map { line($0.text, $0.box.x + 100, 0, $0.box.width) })
        })
        // Nothing on its left in the row: it joins the nearest line on its right.
        #expect(shifted.inserting([line("12", 20, 1, 30)]).text == "12 Cordon-bleu\n\nKäsespätzle")
    }

    @Test("a column of line numbers in the left margin is a block of its own before the text, not the start of each row")
    func marginColumn() {
        // A deposition page: text lines 80 px apart, numbers 1…4 right-aligned 100 px left of them.
        let texts = ["That was the basement.", "Q. That was also the basement?", "A. Yeah. There was", "an area"]
        let first = OCRBlock(box: Box(x: 440, y: 0, width: 500, height: 100),
                             lines: texts.prefix(2).enumerated().map { line($0.element, 440, $0.offset * 80, 500, 24) })
        let second = OCRBlock(box: Box(x: 440, y: 160, width: 500, height: 100),
                              lines: texts.dropFirst(2).enumerated().map { line($0.element, 440, 160 + $0.offset * 80, 500, 24) })
        let page = OCRPage(blocks: [first, second])
        let numbers = (1...4).map { n in line("\(n)", n < 10 ? 322 : 300, (n - 1) * 80, 16, 24) }
        let out = page.inserting(numbers)
        #expect(out.text == "1\n2\n3\n4\n\n" + texts.prefix(2).joined(separator: "\n") + "\n\n" + texts.dropFirst(2).joined(separator: "\n"))
        #expect(out.words.count == page.words.count + 4)
        // Two such numbers are no column: they join their rows as before.
        #expect(page.inserting(Array(numbers.prefix(2))).text.hasPrefix("1 That was the basement.\n2 Q. That"))
        // Numbers close to the text (an item number, no gutter) join their rows.
        let close = (1...4).map { n in line("\(n)", 410, (n - 1) * 80, 16, 24) }
        #expect(page.inserting(close).text.hasPrefix("1 That was the basement."))
        // A column of row labels (a table's, words) is no margin column: each joins its row.
        let labels = ["Total", "Liabilities", "Netdebt"].enumerated().map { line($0.element, 100, $0.offset * 80, 200, 24) }
        #expect(page.inserting(labels).text.hasPrefix("Total That was the basement.\nLiabilities Q. That"))
        // A price column on the right still joins the rows.
        let prices = (0..<4).map { r in line("9.50", 1100, r * 80, 60, 24) }
        #expect(page.inserting(prices).text.hasPrefix("That was the basement. 9.50\n"))
    }
}
