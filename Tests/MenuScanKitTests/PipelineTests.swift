import Foundation
import Testing
@testable import MenuScanKit

@Suite("Pipeline: line recovery and menu classification on a photo", .serialized)
struct PipelineTests {
    static func run(_ settings: ScanSettings) throws -> PhotoResult {
        try PhotoProcessor(settings: settings).process(fileAt: TestSupport.samples.appendingPathComponent("menu-clean.png"),
                                                      displayPath: "menu-clean.png")
    }

    @Test("the second pass reads the prices the layout pass dropped, inside the photo")
    func recovery() throws {
        var off = ScanSettings()
        off.recoverLines = false
        let without = try Self.run(off)
        let with = try Self.run(ScanSettings())
        let before = Set(without.ocr?.page.words.map(\.text) ?? [])
        let after = with.ocr?.page.words ?? []
        #expect(!before.contains("18.50"))   // Tesseract's layout pass misses it (PSM 3)
        #expect(after.contains { $0.text == "18.50" })
        #expect((with.ocr?.recoveredLines ?? 0) >= 5)
        #expect(without.ocr?.recoveredLines == nil)
        for w in after {
            #expect(w.box.maxX <= with.source.width ?? 0 && w.box.maxY <= with.source.height ?? 0)
        }
        // Nothing read twice.
        let boxes = after.map(\.box)
        for (i, a) in boxes.enumerated() { for b in boxes[(i + 1)...] { #expect(a.iou(b) < 0.5) } }
    }

    @Test("line recovery gives up only while nothing was kept, after the set number of reads; recognizeLines stops when told")
    func giveUp() throws {
        #expect(PhotoProcessor.continuesRecovery(tried: 15, kept: 0, giveUp: 16))
        #expect(!PhotoProcessor.continuesRecovery(tried: 16, kept: 0, giveUp: 16))
        #expect(PhotoProcessor.continuesRecovery(tried: 40, kept: 1, giveUp: 16))
        #expect(PhotoProcessor.continuesRecovery(tried: 400, kept: 0, giveUp: 0))
        let image = try ImageDecoder().decode(fileAt: TestSupport.samples.appendingPathComponent("menu-clean.png")).pix
        let engine = try TesseractEngine(settings: OCRSettings())
        let boxes = Array(try engine.recognize(image).lines.prefix(3).map(\.box))
        try #require(boxes.count == 3)
        var asked = 0
        let stopped = engine.recognizeLines(image, boxes: boxes) { _ in
            asked += 1
            return asked < 2
        }
        #expect(asked == 2 && stopped.count == 2)
        #expect(engine.recognizeLines(image, boxes: boxes).count == 3)
    }

    @Test("menu items come out with prices, allergens, diet and safety against a profile")
    func menu() throws {
        var settings = ScanSettings()
        settings.allergenProfile = AllergenProfile(allergens: [.peanuts, .milk])
        let result = try Self.run(settings)
        let menu = try #require(result.menu)
        let byName = Dictionary(menu.items.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let satay = try #require(byName["Chicken Satay"])
        #expect(satay.price == "15.50")
        #expect(satay.allergens.contains { $0.id == .peanuts })
        #expect(satay.safety == .unsafe)
        #expect(satay.dietary == .not_vegetarian)
        let sorbet = try #require(byName["Fruit Sorbet"])
        #expect(sorbet.safety == .safe)
        #expect(sorbet.dietary == .vegan)
        #expect(byName["Tofu Stir Fry"]?.allergens.contains { $0.id == .soybeans } == true)
        #expect(menu.items.count == 9)
        // Item-level hotspots carry the safety.
        let spots = try #require(result.hotspots)
        #expect(spots.contains { $0.text.contains("Chicken Satay") && $0.safety == "unsafe" })
        #expect(result.timings["classify"] != nil)
    }

    /// A menu page drawn through poppler at 200 dpi, with a note of two lines set at `noteAngle`
    /// degrees below the dishes when `noteAngle` is given.
    static func slantedNotePage(in dir: URL, noteAngle: Double?) throws -> URL {
        var lines = [TestPDF.Line(text: "STARTERS", x: 72, y: 720, size: 14)]
        for (k, dish) in ["Tomato soup with basil 6.50", "Garlic bread with butter 4.00", "Green salad with lemon 5.00",
                          "Grilled chicken with rice 12.00", "Beef stew with potatoes 14.00", "Roast pork with cabbage 13.50",
                          "Baked potato with butter 6.00", "Lentil soup with carrot 5.50"].enumerated() {
            lines.append(TestPDF.Line(text: dish, x: 72, y: 690 - Double(k) * 24, size: 13))
        }
        if let angle = noteAngle {
            for (k, note) in ["Please tell your server about any allergy before you order.",
                              "Every dish is cooked in one small kitchen, nothing kept apart."].enumerated() {
                lines.append(TestPDF.Line(text: note, x: 90, y: 330 - Double(k) * 30, size: 13, angle: angle))
            }
        }
        let pdf = dir.appendingPathComponent("page.pdf")
        try Data(TestPDF(pages: [TestPDF.Page(lines: lines)]).bytes()).write(to: pdf)
        let pix = try #require(try PDFDocument(fileAt: pdf).page(1)?.render(dpi: 200))
        let png = dir.appendingPathComponent(noteAngle == nil ? "plain.png" : "note.png")
        try Data(try #require(pix.encoded(as: .png))).write(to: png)
        return png
    }

    @Test("a partial photo: text nobody read may be a statement for every item, so nothing on it is safe")
    func unreadTextWithdrawsSafe() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanup(dir) }
        var settings = ScanSettings()
        settings.allergenProfile = AllergenProfile(allergens: [.peanuts])
        settings.recoverLines = false   // the slanted note stays unread
        let plain = try PhotoProcessor(settings: settings).process(fileAt: Self.slantedNotePage(in: dir, noteAngle: nil), displayPath: "plain.png")
        #expect(plain.status == .ok)
        #expect(plain.menu?.items.contains { $0.safety == .safe } == true, "\(plain.menu?.items.map { ($0.name, $0.safetyReasons) } ?? [])")
        let note = try PhotoProcessor(settings: settings).process(fileAt: Self.slantedNotePage(in: dir, noteAngle: 13), displayPath: "note.png")
        #expect(note.status == .partial, "\(note.textCoverage.map { "\($0)" } ?? "") \(note.ocr?.page.lines.map(\.text) ?? [])")
        let items = note.menu?.items ?? []
        #expect(items.count >= 4)
        #expect(!items.contains { $0.safety == .safe })
        #expect(items.contains { $0.safetyReasons.contains("unread_text") }, "\(items.map { ($0.name, $0.safetyReasons) }) \(note.messages.map(\.code)) \(String(describing: note.readQuality)) \(note.ocr?.page.lines.map(\.text) ?? [])")
        #expect(note.hotspots?.contains { $0.safety == Safety.safe.rawValue } != true)
    }
}
