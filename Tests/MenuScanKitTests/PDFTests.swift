import Foundation
import Testing
@testable import MenuScanKit

/// A tiny PDF writer for tests: pages with Helvetica text lines (visible or
/// invisible, render mode 3) and JPEG images, an optional /Rotate.
struct TestPDF {
    /// `angle`: degrees, counter-clockwise (a line rising to the right), as a page photographed askew.
    struct Line { var text: String; var x: Double; var y: Double; var size: Double = 12; var invisible = false; var angle = 0.0 }
    struct Image { var jpeg: [UInt8]; var pixelWidth: Int; var pixelHeight: Int; var x, y, width, height: Double }
    struct Page { var width = 612.0; var height = 792.0; var rotate = 0; var lines: [Line] = []; var images: [Image] = [] }
    var pages: [Page]

    /// PDF string literal in WinAnsi (Latin-1 for letters): ASCII as is,
    /// ( ) \ escaped, other Latin-1 characters as octal escapes.
    static func literal(_ s: String) -> String {
        var out = "("
        for scalar in s.unicodeScalars {
            switch scalar {
            case "(", ")", "\\": out += "\\" + String(scalar)
            case _ where scalar.value < 128: out += String(scalar)
            case _ where scalar.value < 256: out += "\\" + String(scalar.value, radix: 8)
            default: out += "?"
            }
        }
        return out + ")"
    }

    func bytes() -> [UInt8] {
        var objects: [[UInt8]] = []   // object n is objects[n - 1]
        func add(_ body: [UInt8]) -> Int { objects.append(body); return objects.count }
        func text(_ s: String) -> [UInt8] { Array(s.utf8) }
        let catalog = add([]), pagesObj = add([])
        let font = add(text("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"))
        var kids: [Int] = []
        for page in pages {
            var xobjects = ""
            var ops = ""
            for (i, im) in page.images.enumerated() {
                let obj = add(text("<< /Type /XObject /Subtype /Image /Width \(im.pixelWidth) /Height \(im.pixelHeight) /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode /Length \(im.jpeg.count) >>\nstream\n") + im.jpeg + text("\nendstream"))
                xobjects += "/Im\(i) \(obj) 0 R "
                ops += "q \(im.width) 0 0 \(im.height) \(im.x) \(im.y) cm /Im\(i) Do Q\n"
            }
            for line in page.lines {
                let (c, s) = (cos(line.angle * .pi / 180), sin(line.angle * .pi / 180))
                let place = line.angle == 0 ? "\(line.x) \(line.y) Td" : "\(c) \(s) \(-s) \(c) \(line.x) \(line.y) Tm"
                ops += "BT /F1 \(line.size) Tf \(line.invisible ? 3 : 0) Tr \(place) \(Self.literal(line.text)) Tj ET\n"
            }
            let content = add(text("<< /Length \(ops.utf8.count) >>\nstream\n\(ops)endstream"))
            let pageObj = add(text("<< /Type /Page /Parent \(pagesObj) 0 R /MediaBox [0 0 \(page.width) \(page.height)] /Rotate \(page.rotate) /Resources << /Font << /F1 \(font) 0 R >> /XObject << \(xobjects)>> >> /Contents \(content) 0 R >>"))
            kids.append(pageObj)
        }
        objects[catalog - 1] = text("<< /Type /Catalog /Pages \(pagesObj) 0 R >>")
        objects[pagesObj - 1] = text("<< /Type /Pages /Kids [\(kids.map { "\($0) 0 R" }.joined(separator: " "))] /Count \(kids.count) >>")
        var out = text("%PDF-1.4\n%\u{e2}\u{e3}\n")
        var offsets: [Int] = []
        for (i, body) in objects.enumerated() {
            offsets.append(out.count)
            out += text("\(i + 1) 0 obj\n") + body + text("\nendobj\n")
        }
        let xref = out.count
        out += text("xref\n0 \(objects.count + 1)\n0000000000 65535 f \n")
        for o in offsets { out += text(String(format: "%010d 00000 n \n", o)) }
        out += text("trailer\n<< /Size \(objects.count + 1) /Root \(catalog) 0 R >>\nstartxref\n\(xref)\n%%EOF\n")
        return out
    }

    /// Menu lines from the top of a Letter page, 12 pt, 18 pt apart.
    static func textPage(_ lines: [String], rotate: Int = 0) -> Page {
        Page(rotate: rotate, lines: lines.enumerated().map { Line(text: $1, x: 72, y: 720 - Double($0) * 18) })
    }

    /// A page holding only the sample menu photo (as JPEG), scaled to the page width.
    static func imagePage(invisibleText: [String] = []) throws -> Page {
        let decoded = try ImageDecoder().decode(fileAt: TestSupport.samples.appendingPathComponent("menu-clean.png"))
        let jpeg = try #require(decoded.pix.encoded(as: .jpeg))
        let w = 540.0, h = w * Double(decoded.height) / Double(decoded.width)
        return Page(lines: invisibleText.enumerated().map { Line(text: $1, x: 40, y: 700 - Double($0) * 14, size: 10, invisible: true) },
                    images: [Image(jpeg: jpeg, pixelWidth: decoded.width, pixelHeight: decoded.height, x: 36, y: 756 - h, width: w, height: h)])
    }
}

@Suite("PDF menus: pages, text layer, OCR of image pages, errors", .serialized)
struct PDFTests {
    static let menuLines = ["STARTERS", "Tomato soup with basil and cream 6.50", "Garlic bread with butter 4.00",
                            "MAINS", "Grilled salmon, lemon, dill potatoes 18.50", "Mushroom risotto with parmesan 14.00"]

    static func write(_ pdf: TestPDF, _ name: String, in dir: URL) throws -> URL {
        let url = dir.appendingPathComponent(name)
        try Data(pdf.bytes()).write(to: url)
        return url
    }

    @Test("discovery makes one input per page, NAME.p1 … NAME.pN, and leaves other files alone")
    func discovery() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanup(dir) }
        _ = try Self.write(TestPDF(pages: [TestPDF.textPage(["one"]), TestPDF.textPage(["two"]), TestPDF.textPage(["three"])]), "menu.pdf", in: dir)
        try Data([0x25, 0x50]).write(to: dir.appendingPathComponent("broken.pdf"))
        let found = InputDiscovery.discover([dir.path])
        #expect(found.photos.map(\.outputBase) == ["broken", "menu.p1", "menu.p2", "menu.p3"])
        #expect(found.photos.map(\.page) == [nil, 1, 2, 3])
        #expect(Set(found.photos.dropFirst().map(\.relativePath)) == ["menu.pdf"])
        let limited = InputDiscovery.discover([dir.path], maxPDFPages: 2)
        #expect(limited.photos.map(\.outputBase) == ["broken", "menu"])
    }

    @Test("a text-layer page: words, lines and boxes from the layer, confidence 1.0, engine pdf-text")
    func textLayer() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanup(dir) }
        let url = try Self.write(TestPDF(pages: [TestPDF.textPage(Self.menuLines)]), "menu.pdf", in: dir)
        let result = try PhotoProcessor.forTests().process(fileAt: url, displayPath: "menu.pdf", page: 1)
        let ocr = try #require(result.ocr)
        #expect(ocr.engine == "pdf-text")
        #expect(result.status == .ok)
        #expect(ocr.page.lines.map(\.text) == Self.menuLines)
        #expect(ocr.page.words.allSatisfy { $0.confidence == 1.0 })
        #expect(result.source.page == 1 && result.source.pages == 1 && result.source.format == "pdf")
        #expect(result.source.textLayer?.used == true)
        #expect(result.source.width == 1275 && result.source.height == 1650)   // Letter at 150 dpi
        // "STARTERS" starts at x = 72 pt (150 px); its baseline is 72 pt from the top (150 px).
        let first = try #require(ocr.page.words.first)
        #expect(abs(first.box.x - 150) <= 3)
        #expect(first.box.y < 150 && first.box.maxY > 135 && first.box.maxY <= 156)
        #expect(ocr.page.blocks.count == 1)
        #expect(result.quality == nil)
        #expect((result.menu?.items.count ?? 0) >= 3)
    }

    @Test("a rotated page: size turned and boxes in the upright rendered frame, over the text's ink")
    func rotated() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanup(dir) }
        let url = try Self.write(TestPDF(pages: [TestPDF.textPage(Self.menuLines, rotate: 90)]), "turned.pdf", in: dir)
        let processor = try PhotoProcessor.forTests()
        let result = processor.process(fileAt: url, displayPath: "turned.pdf", page: 1)
        let ocr = try #require(result.ocr)
        #expect(result.source.width == 1650 && result.source.height == 1275)
        #expect(ocr.page.lines.map(\.text) == Self.menuLines)
        // Text at the top left of the unrotated page is at the top right once turned 90° clockwise.
        let words = ocr.page.words
        #expect(words.allSatisfy { $0.box.x > 1650 / 2 && $0.box.y < 1275 / 2 })
        // Lines run downwards on the turned page: boxes taller than wide.
        #expect(words.filter { $0.text.count >= 5 }.allSatisfy { $0.box.height > $0.box.width })
        // The rendered frame has ink inside the word boxes.
        let doc = try PDFDocument(fileAt: url)
        let pix = try #require(doc.page(1)?.render(dpi: 150))
        #expect(pix.width == 1650)
        for w in words.prefix(4) {
            var dark = 0
            for y in stride(from: w.box.y, to: w.box.maxY, by: 1) {
                for x in stride(from: w.box.x, to: w.box.maxX, by: 1) where (pix.rgb(x: x, y: y)?.r ?? 255) < 128 { dark += 1 }
            }
            #expect(dark > 10, "no ink under \(w.text)")
        }
    }

    @Test("image-only and mixed documents: image pages are rendered and OCRed")
    func mixed() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanup(dir) }
        let pdf = TestPDF(pages: [TestPDF.textPage(Self.menuLines), try TestPDF.imagePage()])
        let url = try Self.write(pdf, "mixed.pdf", in: dir)
        let processor = try PhotoProcessor.forTests()
        let text = processor.process(fileAt: url, displayPath: "mixed.pdf", page: 1)
        let image = processor.process(fileAt: url, displayPath: "mixed.pdf", page: 2)
        #expect(text.ocr?.engine == "pdf-text")
        let ocr = try #require(image.ocr)
        #expect(ocr.engine.hasPrefix("tesseract"))
        #expect(image.source.textLayer?.used == false)
        // Rendered at the embedded scan's own resolution (below 300 dpi here), not upsampled.
        let scan = try ImageDecoder().decode(fileAt: TestSupport.samples.appendingPathComponent("menu-clean.png"))
        let native = (Double(scan.width) / (540.0 / 72)).rounded(.down)
        #expect(native < 300 && image.source.dpi == native)
        // The page's white margins are paper, not glare.
        #expect(image.status != .rejected)
        #expect(image.quality?.defects.contains { $0.kind == .glare } == false)
        #expect(text.unrecognizedRegions?.isEmpty == true && text.status == .ok)
        #expect(image.source.page == 2 && image.source.pages == 2)
        let words = Set(ocr.page.words.map(\.text))
        #expect(words.contains("Satay") || words.contains("Chicken"), "\(words.sorted().prefix(20))")
        #expect(ocr.page.words.contains { ($0.confidence ?? 1) < 1.0 })
    }

    @Test("an invisible OCR layer of garbage over a scan is not used: the page is OCRed")
    func garbageLayer() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanup(dir) }
        let garbage = ["xqzt kjhgf ~|~ wrrtp", "b7#c vvxzk qwrtz ||", "zzxq nnmb kkrt plmq", "hjkl ~~ qxzv ttrrw"]
        let url = try Self.write(TestPDF(pages: [try TestPDF.imagePage(invisibleText: garbage)]), "scan.pdf", in: dir)
        let result = try PhotoProcessor.forTests().process(fileAt: url, displayPath: "scan.pdf", page: 1)
        let layer = try #require(result.source.textLayer)
        #expect(layer.used == false)
        #expect(layer.reason?.hasPrefix("not language") == true, "\(layer.reason ?? "")")
        #expect(layer.imageCoverage > 0.3)
        #expect(result.ocr?.engine.hasPrefix("tesseract") == true)
    }

    @Test("judging a text layer: enough characters, little junk, mostly words")
    func judge() {
        #expect(PDFTextLayer.judge(Self.menuLines.joined(separator: "\n"), imageCoverage: 0).used)
        #expect(PDFTextLayer.judge("Seite 3", imageCoverage: 0).reason?.hasPrefix("too little text") == true)
        #expect(PDFTextLayer.judge(String(repeating: "\u{E001}\u{E002}abc ", count: 20), imageCoverage: 0).reason?.hasPrefix("unmapped") == true)
        #expect(PDFTextLayer.judge("Käsespätzle mit Röstzwiebeln 12,50 €\nCrème brûlée 7,00 €", imageCoverage: 0).used)
        #expect(PDFTextLayer.judge("Борщ зі сметаною 120 грн\nВареники з картоплею 95 грн", imageCoverage: 0).used)
    }

    @Test("the OCR resolution follows the page size, within 150…450 dpi and the pixel limit")
    func ocrDPI() {
        #expect(PDFTextLayer.ocrDPI(widthPoints: 612, heightPoints: 792, maxMegapixels: 100) == 300)
        #expect(PDFTextLayer.ocrDPI(widthPoints: 595, heightPoints: 842, maxMegapixels: 100) == 282)   // A4: 11.7 in
        #expect(PDFTextLayer.ocrDPI(widthPoints: 842, heightPoints: 1191, maxMegapixels: 100) == 199)  // A3
        #expect(PDFTextLayer.ocrDPI(widthPoints: 288, heightPoints: 432, maxMegapixels: 100) == 450)   // 4×6 in card
        #expect(PDFTextLayer.ocrDPI(widthPoints: 2592, heightPoints: 3456, maxMegapixels: 100) == 150) // poster
        let capped = PDFTextLayer.ocrDPI(widthPoints: 612, heightPoints: 792, maxMegapixels: 2)
        #expect(612 / 72 * capped * 792 / 72 * capped <= 2_000_000)
    }

    @Test("broken, encrypted and over-long PDFs are clear per-file errors")
    func errors() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanup(dir) }
        let processor = try PhotoProcessor.forTests(maxPDFPages: 2)
        let broken = dir.appendingPathComponent("broken.pdf")
        try Data("%PDF-1.4\nthis is not a PDF body".utf8).write(to: broken)
        let b = processor.process(fileAt: broken, displayPath: "broken.pdf")
        #expect(b.status == .error && b.messages.first?.code == "MSG-INPUT-001")
        #expect(b.messages.first?.detail?.contains("damaged or unreadable PDF") == true, "\(b.messages.first?.detail ?? "")")

        let long = try Self.write(TestPDF(pages: Array(repeating: TestPDF.textPage(["x"]), count: 3)), "long.pdf", in: dir)
        let l = processor.process(fileAt: long, displayPath: "long.pdf")
        #expect(l.messages.first?.code == "MSG-INPUT-005")
        #expect(l.messages.first?.detail == "long.pdf: 3 pages, limit 2")

        let plain = try Self.write(TestPDF(pages: [TestPDF.textPage(Self.menuLines)]), "plain.pdf", in: dir)
        let qpdf = ["/usr/bin/qpdf", "/usr/local/bin/qpdf"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let qpdf else {
            print("PDFTests.errors: qpdf not installed (make setup installs it), encrypted case skipped")
            return
        }
        let locked = dir.appendingPathComponent("locked.pdf")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: qpdf)
        p.arguments = ["--encrypt", "secret", "owner", "256", "--", plain.path, locked.path]
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        #expect(InputDiscovery.discover([locked.path]).photos.map(\.page) == [nil])
        let e = processor.process(fileAt: locked, displayPath: "locked.pdf")
        #expect(e.status == .error && e.messages.first?.code == "MSG-INPUT-004")
        #expect(e.messages.first?.title == "Protected PDF")
    }
}

extension PhotoProcessor {
    static func forTests(maxPDFPages: Int = InputDiscovery.defaultMaxPDFPages) throws -> PhotoProcessor {
        var settings = ScanSettings()
        settings.maxPDFPages = maxPDFPages
        return try PhotoProcessor(settings: settings)
    }
}

@Suite("PDF menus in a batch: one result per page, resumed page by page", .serialized)
struct PDFBatchTests {
    @Test("each page is NAME.pN.json and .txt with source.page; a re-run keeps every page; a removed page output is redone alone")
    func batch() throws {
        let root = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanup(root) }
        let input = root.appendingPathComponent("in"), out = root.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        let pages = [["SALADS", "Caesar salad with anchovies and egg 9.00"], ["DESSERTS", "Lemon tart with cream 6.00"],
                     ["DRINKS", "Fresh orange juice 3.50"]]
        _ = try PDFTests.write(TestPDF(pages: pages.map { TestPDF.textPage($0) }), "menu.pdf", in: input)
        func run() throws -> BatchOutcome {
            let options = BatchOptions(settings: ScanSettings(), outputDirectory: out, jobs: 2,
                                       journal: try Journal(outputDirectory: out, shard: nil))
            return BatchRunner(photos: InputDiscovery.discover([input.path]).photos, options: options,
                               logger: BatchRunnerTests.logger).run()
        }
        let first = try run()
        #expect(first.records.count == 3 && first.summary.reused == 0)
        for (i, lines) in pages.enumerated() {
            let json = try Data(contentsOf: out.appendingPathComponent("menu.p\(i + 1).json"))
            let result = try JSONDecoder().decode(PhotoResult.self, from: json)
            #expect(result.source.page == i + 1 && result.source.pages == 3)
            #expect(result.ocr?.engine == "pdf-text")
            let text = try String(contentsOf: out.appendingPathComponent("menu.p\(i + 1).txt"), encoding: .utf8)
            #expect(text.trimmingCharacters(in: .whitespacesAndNewlines) == lines.joined(separator: "\n"))
        }
        #expect(try run().summary.reused == 3)
        try FileManager.default.removeItem(at: out.appendingPathComponent("menu.p2.json"))
        let third = try run()
        #expect(third.summary.reused == 2)
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("menu.p2.json").path))
    }
}
