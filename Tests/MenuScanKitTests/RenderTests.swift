import Foundation
import Testing
@testable import MenuScanKit

private func spot(_ box: Box, _ state: HotspotState = .recognized, text: String = "Soup <b>&", safety: String? = nil,
                  allergens: [String]? = nil) -> Hotspot {
    Hotspot(id: HotspotBuilder.stableID(kind: .line, box: box, text: text), kind: .line, box: box, text: text,
            confidence: state == .recognized ? 0.9 : 0.5, level: state == .recognized ? .high : .low, state: state,
            allergens: allergens, safety: safety)
}

@Suite("Render: overlay PNG and HTML report")
struct RenderTests {
    @Test("leptonica's built-in bitmap font loads without font files")
    func font() throws {
        let font = try #require(BitmapFont(size: 6))
        #expect(font.lineHeight > 5)
        #expect(BitmapFont(size: 7) == nil)
    }

    @Test("overlay: outlines in state/safety colours, grey blend over regions, legend strip below")
    func overlayPixels() throws {
        let photo = try #require(Bitmap.filled(width: 400, height: 300, r: 255, g: 255, b: 255))
        let a = Box(x: 50, y: 40, width: 120, height: 30), b = Box(x: 50, y: 100, width: 120, height: 30)
        let c = Box(x: 220, y: 40, width: 120, height: 30)
        let region = UnrecognizedRegion(box: Box(x: 200, y: 180, width: 150, height: 80), reason: .noWords)
        let out = try #require(OverlayRenderer().draw(image: photo, hotspots: [spot(a), spot(b, .lowConfidence), spot(c, safety: "safe")],
                                                      regions: [region], status: .partial))
        let strip = OverlayRenderer.legendHeight(forWidth: 400)
        #expect(out.width == 400 && out.height == 300 + strip)
        func px(_ x: Int, _ y: Int) -> RGB? { out.rgb(x: x, y: y).map { RGB($0.r, $0.g, $0.b) } }
        // the 2 px outline sits on the box grown by 2 px: around the text, not on it
        #expect(px(110, 38) == OverlayStyle.recognized)
        #expect(px(110, 40) == RGB(255, 255, 255))
        #expect((97...99).contains { px(110, $0) == OverlayStyle.lowConfidence })
        #expect(px(280, 38) == OverlayStyle.safe)
        #expect(px(110, 55) == RGB(255, 255, 255))  // inside: the text stays visible
        #expect(px(110, 30) == RGB(255, 255, 255))
        // (1 - 0.45) * 255 + 0.45 * 128 ≈ 198
        let g = try #require(px(275, 220))
        #expect(abs(Int(g.r) - 198) <= 2 && g.r == g.g && g.g == g.b)
        #expect(px(150, 220) == RGB(255, 255, 255))
        // the legend strip is white with coloured swatches and dark text
        var colours = Set<RGB>()
        for y in 300..<(300 + strip) { for x in 0..<400 { if let p = px(x, y) { colours.insert(p) } } }
        #expect(colours.contains(OverlayStyle.recognized) && colours.contains(OverlayStyle.safe))
        #expect(colours.contains(RGB(30, 30, 30)))  // label text drawn
    }

    @Test("overlay of a large photo is scaled to a 2000 px long side, PNG encoded")
    func overlayScaled() throws {
        let photo = try #require(Bitmap.filled(width: 3000, height: 1500, r: 200, g: 200, b: 200))
        let renderer = OverlayRenderer()
        #expect(renderer.scale(width: 3000, height: 1500) == 2000.0 / 3000.0)
        let png = try #require(renderer.render(image: photo, result: PhotoResult(source: SourceInfo(path: "x"), status: .ok)))
        let decoded = try ImageDecoder().decode(bytes: png, name: "overlay.png")
        #expect(decoded.width == 2000 && decoded.height == 1000 + OverlayRenderer.legendHeight(forWidth: 2000))
        #expect(decoded.format == "png")
    }

    @Test("HTML report: self-contained, escaped, anchors, SVG in photo coordinates, banner and tooltips")
    func html() throws {
        var result = PhotoResult(source: SourceInfo(path: "menus/a b.jpg", width: 640, height: 480), status: .partial,
                                 messages: [ResultMessage(MenuScanError.partialResults)])
        result.hotspots = [spot(Box(x: 10, y: 20, width: 100, height: 30), allergens: ["milk", "egg"])]
        result.unrecognizedRegions = [UnrecognizedRegion(box: Box(x: 5, y: 200, width: 300, height: 100), reason: .cutOff)]
        let failed = PhotoResult(source: SourceInfo(path: "bad.jpg"), status: .error)
        let html = HTMLReport.render([ReportPhoto(name: "menus/a b", result: result, image: "data:image/jpeg;base64,AAAA",
                                                  thumbnail: "data:image/jpeg;base64,BBBB"),
                                      ReportPhoto(name: "bad", result: failed)])
        #expect(html.hasPrefix("<!doctype html>"))
        #expect(!html.contains("<script") && !html.contains("src=\"http") && !html.contains("href=\"http") && !html.contains("<link"))
        #expect(html.contains("href=\"#p-menus_a_b\"") && html.contains("id=\"p-menus_a_b\""))
        #expect(html.contains("viewBox=\"0 0 640 480\""))
        #expect(html.contains("x=\"10\" y=\"20\" width=\"100\" height=\"30\""))
        #expect(html.contains("Soup &lt;b&gt;&amp;") && !html.contains("Soup <b>&"))
        #expect(html.contains("allergens: milk, egg"))
        #expect(html.contains("Not recognized (cut off)"))
        #expect(html.contains("Some menu items could not be recognized. Tap to retake."))
        #expect(html.contains("stroke=\"\(OverlayStyle.recognized.hex)\""))
        #expect(!html.contains("id=\"p-bad\""))  // nothing to open for a photo never decoded
        #expect(HTMLReport.escape("a\"'<>&") == "a&quot;&#39;&lt;&gt;&amp;")
    }
}
