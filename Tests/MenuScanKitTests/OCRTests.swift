import Foundation
import Testing
@testable import MenuScanKit

@Suite("OCR: Tesseract engine", .serialized)
struct OCRTests {
    static func recognize(_ name: String, engine: TesseractEngine) throws -> (OCRPage, DecodedImage) {
        let image = try ImageDecoder().decode(fileAt: TestSupport.samples.appendingPathComponent(name))
        return (try engine.recognize(image.pix), image)
    }

    @Test("words carry text, a 0…1 confidence and a box inside the upright photo; lines and blocks group them")
    func words() throws {
        let engine = try TesseractEngine(settings: OCRSettings())
        let (page, image) = try Self.recognize("menu-clean.png", engine: engine)
        let texts = page.words.map { $0.text.trimmingCharacters(in: .punctuationCharacters) }
        for expected in ["CORNER", "Salmon", "Risotto", "15.50", "frangipane"] {
            #expect(texts.contains(expected), "\(expected) missing")
        }
        for word in page.words {
            let c = try #require(word.confidence)
            #expect(c >= 0 && c <= 1)
            #expect(word.box.x >= 0 && word.box.y >= 0 && word.box.maxX <= image.width && word.box.maxY <= image.height)
            #expect(word.box.width > 0 && word.box.height > 0)
        }
        for block in page.blocks {
            for line in block.lines {
                #expect(block.box.union(line.box) == block.box, "line outside its block")
                for word in line.words { #expect(line.box.union(word.box) == line.box, "word outside its line") }
            }
        }
        // "Grilled Salmon" and its price sit on one line, left to right.
        let salmonLine = try #require(page.lines.first { $0.text.contains("Salmon") })
        #expect(salmonLine.words.first?.text == "Grilled")
        #expect((page.meanConfidence ?? 0) > 0.85)
    }

    @Test("one engine is reused: the same photo twice gives the same result, other photos in between")
    func reuse() throws {
        let engine = try TesseractEngine(settings: OCRSettings())
        let (first, _) = try Self.recognize("menu-photo.jpg", engine: engine)
        _ = try Self.recognize("blank.png", engine: engine)
        let (second, _) = try Self.recognize("menu-photo.jpg", engine: engine)
        #expect(first == second)
        #expect(!first.words.isEmpty)
    }

    @Test("the EXIF-sideways sample is read upright")
    func sideways() throws {
        let engine = try TesseractEngine(settings: OCRSettings())
        let (page, image) = try Self.recognize("menu-sideways-exif.jpg", engine: engine)
        #expect(image.orientation == 6)
        #expect(image.width == 900 && image.height == 558)  // stored 558×900
        #expect(page.words.map(\.text).contains("Cappuccino"))
    }

    @Test("a blank page yields no words and fails R4")
    func blank() throws {
        let engine = try TesseractEngine(settings: OCRSettings())
        let (page, _) = try Self.recognize("blank.png", engine: engine)
        #expect(page.characterCount < 10)
        #expect(ThresholdRules().evaluate(page).status == .failed)
    }

    @Test("a missing language model is an error value, not a crash")
    func missingModel() {
        do {
            _ = try TesseractEngine(settings: OCRSettings(language: "xyz"))
            Issue.record("expected an error")
        } catch {
            #expect(error.code == "MSG-ENV-001")
            #expect(error.detail?.contains("xyz.traineddata") == true)
        }
        do {
            _ = try TesseractEngine(settings: OCRSettings(pageSegmentationMode: 0))
            Issue.record("expected an error")
        } catch {
            #expect(error.code == "MSG-PROC-001")
        }
    }

    @Test("the processor turns every outcome into a status, never a throw")
    func processor() throws {
        let processor = try PhotoProcessor(settings: ScanSettings())
        let ok = processor.process(fileAt: TestSupport.samples.appendingPathComponent("menu-clean.png"), displayPath: "menu-clean.png")
        #expect(ok.status == .ok)
        #expect(ok.source.sha256?.count == 64)
        #expect(ok.timings["decode"] != nil && ok.timings["ocr"] != nil && ok.timings["total"] != nil)
        let bad = processor.process(fileAt: TestSupport.samples.appendingPathComponent("corrupt.jpg"), displayPath: "corrupt.jpg")
        #expect(bad.status == .error)
        #expect(bad.primaryCode == "MSG-INPUT-001")
        #expect(bad.ocr == nil)
    }
}
