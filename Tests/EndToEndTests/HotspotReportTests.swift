import Foundation
import Testing
import MenuScanKit

/// One scan of samples/ with --overlay, shared by the tests below.
private enum Scan {
    static let out: URL = {
        let out = CLI.temporaryDirectory()
        // Line-level hotspots (--no-menu); item-level ones are tested in PipelineTests.
        _ = try? CLI.run(["scan", "samples", "--out", out.path, "--overlay", "--no-menu", "--quiet"])
        return out
    }()

    static func result(_ stem: String) throws -> PhotoResult {
        try JSONDecoder().decode(PhotoResult.self, from: Data(contentsOf: out.appendingPathComponent(stem + ".json")))
    }

    static var schema: JSONSchemaSubset {
        get throws {
            JSONSchemaSubset(root: try JSONValue.parse(Data(contentsOf: CLI.packageRoot.appendingPathComponent("docs/photo-result.schema.json"))))
        }
    }
}

private func near(_ a: RGB, _ b: RGB, _ tolerance: Int) -> Bool {
    abs(Int(a.r) - Int(b.r)) <= tolerance && abs(Int(a.g) - Int(b.g)) <= tolerance && abs(Int(a.b) - Int(b.b)) <= tolerance
}

private func pixel(_ image: DecodedImage, _ x: Int, _ y: Int) -> RGB? {
    image.pix.rgb(x: x, y: y).map { RGB($0.r, $0.g, $0.b) }
}

@Suite("End to end: hotspots, partial results, overlays, report", .serialized)
struct HotspotReportTests {
    @Test("the half-blurred menu is partial: hotspots only on the sharp half, the blurred half one unrecognised region")
    func partialSample() throws {
        let r = try Scan.result("menu-partial-blur")
        #expect(r.status == .partial)
        // partial first; half the menu unread also gives a low readConfidence (issue 17)
        #expect(r.messages.map(\.code) == ["MSG-PARTIAL-001", "lowConfidenceResults"])
        #expect((r.readQuality?.readConfidence ?? 1) <= ConfidenceLevel.mediumAbove)
        #expect(r.messages.first?.message == "Some menu items could not be recognized. Tap to retake.")
        #expect(r.messages.first?.severity == .low)
        let height = try #require(r.source.height)
        let cut = Int(Double(height) * 0.52)  // samples/generate.py blurs from 52 % down
        let hotspots = try #require(r.hotspots)
        #expect(hotspots.count >= 10)
        #expect(hotspots.allSatisfy { $0.box.y < cut }, "a hotspot on the blurred half")
        #expect(hotspots.contains { $0.text.contains("Tagine") && $0.state == .recognized && $0.level == .high })
        let regions = try #require(r.unrecognizedRegions)
        // the blurred item names and descriptions (left) and prices (right) are covered
        #expect(regions.contains { $0.box.y >= cut - 40 && $0.box.maxY >= height * 85 / 100 && $0.box.x < 120 && $0.box.width >= 300 })
        #expect(regions.contains { $0.box.maxX >= 900 && $0.box.y >= cut - 40 })
        #expect(regions.allSatisfy { $0.box.maxY > cut - 40 }, "a region on the sharp half")
        #expect((r.textCoverage?.unrecognizedShare ?? 0) >= 0.15)
    }

    @Test("sharp samples stay ok with no unrecognised region over their text")
    func okSamples() throws {
        for stem in ["menu-clean", "menu-photo", "menu-sideways-exif"] {
            let r = try Scan.result(stem)
            #expect(r.status == .ok, "\(stem)")
            #expect((r.textCoverage?.unrecognizedShare ?? 1) < 0.15, "\(stem)")
            #expect((r.hotspots ?? []).count >= 8, "\(stem)")
            #expect((r.hotspots ?? []).allSatisfy { $0.kind == .line && HotspotBuilder.stableID(kind: .line, box: $0.box, text: $0.text).hasPrefix(String($0.id.prefix(10))) })
        }
        // the sideways photo's boxes are in its upright frame
        let side = try Scan.result("menu-sideways-exif")
        let w = try #require(side.source.width), h = try #require(side.source.height)
        #expect(w > h)  // a landscape page stored portrait with EXIF 6
        #expect((side.hotspots ?? []).allSatisfy { $0.box.maxX <= w && $0.box.maxY <= h })
    }

    @Test("hotspot ids, boxes and regions are the same on a second run")
    func stableAcrossRuns() throws {
        let again = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: again) }
        let run = try CLI.run(["scan", "samples/menu-partial-blur.jpg", "samples/menu-clean.png", "--out", again.path, "--no-menu", "--quiet", "--jobs", "1"])
        #expect(run.status == 0, "\(run.stderr)")
        for stem in ["menu-partial-blur", "menu-clean"] {
            let second = try JSONDecoder().decode(PhotoResult.self, from: Data(contentsOf: again.appendingPathComponent(stem + ".json")))
            let first = try Scan.result(stem)
            #expect(first.hotspots == second.hotspots, "\(stem)")
            #expect(first.unrecognizedRegions == second.unrecognizedRegions, "\(stem)")
        }
    }

    @Test("every NAME.json of the scan validates against docs/photo-result.schema.json")
    func schemaValid() throws {
        let schema = try Scan.schema
        let files = try FileManager.default.contentsOfDirectory(atPath: Scan.out.path).filter { $0.hasSuffix(".json") && $0 != "summary.json" }
        #expect(files.count == 6)
        for file in files {
            let value = try JSONValue.parse(Data(contentsOf: Scan.out.appendingPathComponent(file)))
            #expect(schema.validate(value).isEmpty, "\(file): \(schema.validate(value))")
        }
    }

    @Test("the schema validator rejects documents that break the schema")
    func schemaRejects() throws {
        let schema = try Scan.schema
        let good = try JSONValue.parse(Data(contentsOf: Scan.out.appendingPathComponent("menu-partial-blur.json")))
        guard case .object(var doc) = good, case .array(var spots)? = doc["hotspots"], case .object(var spot) = spots[0],
              case .array(var regions)? = doc["unrecognizedRegions"], case .object(var region) = regions[0] else {
            Issue.record("sample has no hotspots/regions"); return
        }
        func invalid(_ d: [String: JSONValue]) -> Bool { !schema.validate(.object(d)).isEmpty }
        var d = doc; d["schemaVersion"] = .int(2); #expect(invalid(d))
        d = doc; d["status"] = .string("partly"); #expect(invalid(d))
        d = doc; d["source"] = nil; #expect(invalid(d))
        var s = spot; s["id"] = nil; spots[0] = .object(s); d = doc; d["hotspots"] = .array(spots); #expect(invalid(d))
        s = spot; s["level"] = .string("very high"); spots[0] = .object(s); d = doc; d["hotspots"] = .array(spots); #expect(invalid(d))
        s = spot; s["box"] = .array([.int(1), .int(2), .int(3)]); spots[0] = .object(s); d = doc; d["hotspots"] = .array(spots); #expect(invalid(d))
        s = spot; s["confidence"] = .number(1.5); spots[0] = .object(s); d = doc; d["hotspots"] = .array(spots); #expect(invalid(d))
        s = spot; s["colour"] = .string("blue"); spots[0] = .object(s); d = doc; d["hotspots"] = .array(spots); #expect(invalid(d))
        region["reason"] = .string("smudged"); regions[0] = .object(region); d = doc; d["unrecognizedRegions"] = .array(regions); #expect(invalid(d))
        doc["addedLater"] = .object([:])  // keys added later keep schemaVersion 1: the top level allows them
        #expect(!invalid(doc))
    }

    @Test("--overlay writes NAME.overlay.png: upright photo, blue outline on a hotspot, grey over the region, legend")
    func overlayFiles() throws {
        #expect(FileManager.default.fileExists(atPath: Scan.out.appendingPathComponent("blank.overlay.png").path))
        #expect(!FileManager.default.fileExists(atPath: Scan.out.appendingPathComponent("corrupt.overlay.png").path))
        let r = try Scan.result("menu-partial-blur")
        let overlay = try ImageDecoder().decode(fileAt: Scan.out.appendingPathComponent("menu-partial-blur.overlay.png"))
        let photo = try ImageDecoder().decode(fileAt: CLI.packageRoot.appendingPathComponent("samples/menu-partial-blur.jpg"))
        #expect(overlay.width == photo.width)
        #expect(overlay.height == photo.height + OverlayRenderer.legendHeight(forWidth: photo.width))
        let spot = try #require(r.hotspots?.first { $0.state == .recognized })
        let outline = try #require(pixel(overlay, spot.box.x + spot.box.width / 2, spot.box.y - 2))
        #expect(outline == OverlayStyle.recognized)
        let region = try #require(r.unrecognizedRegions?.first)
        let (cx, cy) = (region.box.x + region.box.width / 2, region.box.y + region.box.height / 2)
        let before = try #require(pixel(photo, cx, cy)), after = try #require(pixel(overlay, cx, cy))
        let expected = UInt8((0.55 * Double(before.r) + 0.45 * 128).rounded())
        #expect(abs(Int(after.r) - Int(expected)) <= 2, "grey blend over the unrecognised region")
        let sideways = try ImageDecoder().decode(fileAt: Scan.out.appendingPathComponent("menu-sideways-exif.overlay.png"))
        #expect(sideways.width > sideways.height)  // drawn upright
    }

    @Test("menuscan report writes a self-contained index.html with every photo embedded and its hotspots")
    func report() throws {
        let run = try CLI.run(["report", Scan.out.path, "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        let html = try String(contentsOf: Scan.out.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(!html.contains("<script") && !html.contains("src=\"http") && !html.contains("href=\"http") && !html.contains("<link"))
        #expect(html.components(separatedBy: "<image href=\"data:image/jpeg;base64,").count - 1 == 5)  // all but corrupt.jpg
        let r = try Scan.result("menu-partial-blur")
        #expect(html.contains("id=\"\(HTMLReport.anchor(for: "menu-partial-blur"))\""))
        for spot in r.hotspots ?? [] { #expect(html.contains("data-id=\"\(spot.id)\"")) }
        #expect(html.contains("class=\"region\""))
        #expect(html.contains("Some menu items could not be recognized. Tap to retake."))
        // the log names files and counts, never menu text (R12)
        #expect(!run.stderr.contains("GARDEN") && !run.stderr.contains("Tagine"))
    }

    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test("in headless Chromium the page draws the hotspot outline over the right pixels and greys the region",
          .enabled(if: chromium != nil, "needs Debian's chromium: run `make report-check`"))
    func browser() throws {
        let run = try CLI.run(["report", Scan.out.path, "--quiet"])
        #expect(run.status == 0)
        let shot = Scan.out.appendingPathComponent("shot.png")
        let (vw, vh) = (1000, 1200)
        let page = Scan.out.appendingPathComponent("index.html").absoluteString + "#" + HTMLReport.anchor(for: "menu-partial-blur")
        let browser = Process()
        browser.executableURL = URL(fileURLWithPath: try #require(Self.chromium))
        browser.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1",
                             "--user-data-dir=" + Scan.out.appendingPathComponent("chromium-profile").path,
                             "--window-size=\(vw),\(vh)", "--screenshot=" + shot.path, page]
        browser.standardOutput = FileHandle.nullDevice
        browser.standardError = FileHandle.nullDevice
        try browser.run()
        browser.waitUntilExit()
        #expect(browser.terminationStatus == 0)
        let image = try ImageDecoder().decode(fileAt: shot)
        #expect(image.width == vw && image.height == vh)

        // The photo fills the window below the bar from its top-left corner, scaled to fit.
        let r = try Scan.result("menu-partial-blur")
        let w = Double(try #require(r.source.width)), h = Double(try #require(r.source.height))
        let s = min(Double(vw) / w, Double(vh - HTMLReport.barHeight) / h)
        func screen(_ x: Int, _ y: Int) -> (Int, Int) { (Int(Double(x) * s), HTMLReport.barHeight + Int(Double(y) * s)) }
        let spot = try #require(r.hotspots?.first { $0.text.contains("Tagine") })
        let (sx, sy) = screen(spot.box.x + spot.box.width / 2, spot.box.y)
        let onOutline = (sy - 2...sy + 2).compactMap { pixel(image, sx, $0) }
        #expect(onOutline.contains { near($0, OverlayStyle.recognized, 40) }, "outline colour at the hotspot's top edge: \(onOutline)")
        let above = try #require(pixel(image, sx, sy - 8))
        #expect(!near(above, OverlayStyle.recognized, 80), "no outline where there is no hotspot")
        let photoThere = try ImageDecoder().decode(fileAt: CLI.packageRoot.appendingPathComponent("samples/menu-partial-blur.jpg"))
        let original = try #require(pixel(photoThere, spot.box.x + spot.box.width / 2, spot.box.y))
        #expect(!near(original, OverlayStyle.recognized, 80), "the blue comes from the overlay, not the photo")

        let region = try #require(r.unrecognizedRegions?.first)
        // a paper pixel inside the region, right of the item names: white in the photo, grey on screen
        let px = region.box.x + region.box.width / 2, py = region.box.y + region.box.height / 2
        let paper = try #require(pixel(photoThere, px, py))
        let (rx, ry) = screen(px, py)
        let shown = try #require(pixel(image, rx, ry))
        let expected = 0.55 * Double(paper.r) + 0.45 * 128
        #expect(abs(Double(shown.r) - expected) <= 20, "greyed region: photo \(paper), screen \(shown)")
    }
}
