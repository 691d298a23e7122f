import Foundation
import Testing
@testable import MenuScanKit

/// Degradations of a clean photo, generated in the test (nothing large is committed).
enum Degrade {
    static func map(_ g: GrayImage, _ f: (UInt8) -> UInt8) -> GrayImage {
        GrayImage(width: g.width, height: g.height, pixels: g.pixels.map(f))
    }

    /// Separable box blur of radius r, applied `passes` times (≈ Gaussian).
    static func blur(_ g: GrayImage, radius r: Int, passes: Int = 3, horizontalOnly: Bool = false) -> GrayImage {
        var cur = g
        for _ in 0..<passes {
            cur = boxPass(cur, r, dx: 1, dy: 0)
            if !horizontalOnly { cur = boxPass(cur, r, dx: 0, dy: 1) }
        }
        return cur
    }

    private static func boxPass(_ g: GrayImage, _ r: Int, dx: Int, dy: Int) -> GrayImage {
        var out = g
        for y in 0..<g.height {
            for x in 0..<g.width {
                var s = 0, n = 0
                for k in -r...r {
                    let xx = x + k * dx, yy = y + k * dy
                    if xx >= 0, xx < g.width, yy >= 0, yy < g.height { s += Int(g[xx, yy]); n += 1 }
                }
                out[x, y] = UInt8(s / n)
            }
        }
        return out
    }

    /// A blown-out ellipse covering about `share` of the photo on a dimmed page.
    static func glare(_ g: GrayImage, share: Double) -> GrayImage {
        var out = map(g) { UInt8(Double($0) * 0.75) }
        let rx = (share * Double(g.width * g.height) / Double.pi).squareRoot() * 1.2
        let ry = (share * Double(g.width * g.height) / Double.pi).squareRoot() / 1.2
        let cx = Double(g.width) / 2, cy = Double(g.height) / 2
        for y in 0..<g.height {
            for x in 0..<g.width where pow((Double(x) - cx) / rx, 2) + pow((Double(y) - cy) / ry, 2) <= 1 {
                out[x, y] = 255
            }
        }
        return out
    }
}

@Suite("Quality: metrics and the R2 gate")
struct QualityTests {
    static func clean() throws -> Bitmap {
        try ImageDecoder().decode(fileAt: TestSupport.samples.appendingPathComponent("menu-clean.png")).pix
    }

    static func assess(_ g: GrayImage) throws -> QualityReport {
        let bitmap = try #require(Bitmap.from(g))
        return try #require(QualityGate().assess(bitmap))
    }

    static func kinds(_ r: QualityReport) -> Set<DefectKind> { Set(r.defects.map(\.kind)) }

    @Test("the clean sample passes, with a text height near its font's")
    func cleanPasses() throws {
        let report = try #require(QualityGate().assess(try Self.clean()))
        #expect(report.verdict == .ok, "\(report.defects)")
        let h = try #require(report.metrics.textHeight)
        #expect(h > 14 && h < 30)  // 30 px DejaVu Sans: x-height ≈ 16, caps ≈ 22
        #expect(report.metrics.textComponents > 200)
        #expect(QualityGate.textHeight(of: try Self.clean()) == h)  // the rescaler's shortcut agrees
    }

    @Test("each generated degradation is caught as its own defect")
    func degradations() throws {
        let source = try Self.clean()
        let g = try #require(source.grayImage(scale: 0.5))  // smaller: keeps the test fast
        let cases: [(String, GrayImage, DefectKind)] = [
            ("gaussian blur", Degrade.blur(g, radius: 2), .blurry),
            ("motion blur", Degrade.blur(g, radius: 5, passes: 1, horizontalOnly: true), .blurry),
            ("darkened ×0.2", Degrade.map(g) { UInt8(Double($0) * 0.2) }, .tooDark),
            ("washed out", Degrade.map(g) { UInt8(255 - Double(255 - $0) * 0.25) }, .overexposed),
            ("low contrast", Degrade.map(g) { UInt8(128 + (Double($0) - 128) * 0.15) }, .lowContrast),
            ("glare", Degrade.glare(g, share: 0.3), .glare),
        ]
        for (name, image, kind) in cases {
            let report = try Self.assess(image)
            #expect(report.verdict == .rejected, "\(name) passed")
            #expect(Self.kinds(report).contains(kind), "\(name): \(report.defects)")
        }
    }

    @Test("downscaled text is low_resolution, with the measured height in the defect")
    func lowResolution() throws {
        let source = try Self.clean()
        let small = try #require(source.scaled(by: 0.22))
        let report = try #require(QualityGate().assess(small))
        let defect = try #require(report.defects.first { $0.kind == .lowResolution })
        #expect(defect.value < defect.threshold)
        #expect(defect.threshold == QualityThresholds().minTextHeight)
    }

    @Test("a blank page is not called a photo defect: it goes on to OCR, which fails it")
    func blank() throws {
        let report = try Self.assess(GrayImage(width: 400, height: 300, fill: 250))
        #expect(report.verdict == .ok)
        #expect(try Self.assess(GrayImage(width: 400, height: 300, fill: 10)).defects.map(\.kind) == [.tooDark])
    }

    @Test("thresholds decide: the same metrics pass or fail as the thresholds move")
    func thresholds() throws {
        let source = try Self.clean()
        let g = try #require(source.grayImage(scale: 0.5))
        let m = try Self.assess(g).metrics
        var strict = QualityThresholds()
        strict.minSharpness = m.sharpness + 0.01
        #expect(QualityGate(thresholds: strict).judge(m).defects.map(\.kind) == [.blurry])
        var lax = QualityThresholds()
        lax.minSharpness = m.sharpness - 0.01
        #expect(QualityGate(thresholds: lax).judge(m).verdict == .ok)
    }

    @Test("metric building blocks: percentiles, sharpness of a step vs a ramp, glare tiles")
    func blocks() {
        var h = [Int](repeating: 0, count: 256)
        h[10] = 1; h[20] = 98; h[200] = 1
        #expect(QualityAnalysis.percentile(h, 100, 1) == 10)
        #expect(QualityAnalysis.percentile(h, 100, 50) == 20)
        #expect(QualityAnalysis.percentile(h, 100, 99) == 20)
        #expect(QualityAnalysis.percentile(h, 100, 100) == 200)
        // Vertical and horizontal step edges vs the same edges as 8 px ramps.
        var step = GrayImage(width: 64, height: 64, fill: 255), ramp = step
        for y in 0..<64 {
            for x in 0..<64 {
                step[x, y] = (x < 32) != (y < 32) ? 0 : 255
                let t = min(1, max(0, Double(abs(x - 32) - 0) / 8)) * min(1, max(0, Double(abs(y - 32)) / 8))
                ramp[x, y] = (x < 32) != (y < 32) ? UInt8(255 * (1 - t) * 0.5) : UInt8(255 - 255 * (1 - t) * 0.5)
            }
        }
        #expect(QualityAnalysis.sharpness(step) > 0.9)
        #expect(QualityAnalysis.sharpness(ramp) < QualityAnalysis.sharpness(step) / 3)
        // Glare: a quarter of the tiles clipped on a mid-grey page.
        var page = GrayImage(width: 128, height: 128, fill: 150)
        for y in 0..<64 { for x in 0..<64 { page[x, y] = 255 } }
        #expect(QualityAnalysis.glareShare(page) == 0.25)
        #expect(QualityAnalysis.glareShare(GrayImage(width: 128, height: 128, fill: 255)) == 0)  // white paper
    }
}

@Suite("Quality: text on the OCR copy (issue 17)")
struct OCRCopyQualityTests {
    /// Paper with 12 rows of 40 hollow "characters" (12×18 px outlines) whose strokes are `stroke` px wide.
    static func page(stroke: Int, ink: UInt8 = 20) -> GrayImage {
        var g = GrayImage(width: 700, height: 500, fill: 240)
        for row in 0..<12 {
            for col in 0..<40 {
                let x0 = 20 + col * 16, y0 = 20 + row * 36
                for y in y0..<(y0 + 18) {
                    for x in x0..<(x0 + 12) where x - x0 < stroke || x0 + 12 - 1 - x < stroke || y - y0 < stroke || y0 + 18 - 1 - y < stroke {
                        g[x, y] = ink
                    }
                }
            }
        }
        return g
    }

    @Test func strokeWidthAndContrastAreMeasuredOnTheCopy() throws {
        let thin = QualityAnalysis.ocrCopy(Self.page(stroke: 1), scale: 1)
        let thick = QualityAnalysis.ocrCopy(Self.page(stroke: 3), scale: 1)
        let t = try #require(thin.strokeWidth), k = try #require(thick.strokeWidth)
        #expect(t >= 1 && t < 1.6, "\(thin) \(thick)")
        #expect(k >= 2.6 && k < 3.6, "\(thick)")
        #expect(thin.textHeight == 18 && thin.textComponents >= 400)
        // the same copy, enlarged 4× from the photo: the photo's strokes were a quarter as wide
        let enlarged = QualityAnalysis.ocrCopy(Self.page(stroke: 3), scale: 4)
        #expect(abs((enlarged.sourceStrokeWidth ?? 0) - k / 4) < 0.01)
        // ink near the paper's grey: little contrast
        let faint = QualityAnalysis.ocrCopy(Self.page(stroke: 3, ink: 200), scale: 1)
        #expect(thick.contrast > 200 && faint.contrast <= 40, "\(faint)")
        #expect(thick.measuredShare == 1)
    }

    @Test func theGateJudgesWhatOCRWillSee() {
        let gate = QualityGate()
        #expect(gate.judgeOCRCopy(QualityAnalysis.ocrCopy(Self.page(stroke: 3), scale: 1)).isEmpty)
        // hairline strokes on the copy
        let thin = gate.judgeOCRCopy(QualityAnalysis.ocrCopy(Self.page(stroke: 1), scale: 1))
        #expect(thin.map(\.kind) == [.lowResolution] && thin.first?.measure == "ocrCopyStrokeWidth")
        // ink a few grey levels under bright paper
        let faint = gate.judgeOCRCopy(QualityAnalysis.ocrCopy(Self.page(stroke: 3, ink: 190), scale: 1))
        #expect(faint.map(\.kind) == [.overexposed] && (faint.first?.value ?? 99) <= 50, "\(faint)")
        // an enlarged copy whose strokes were smeared into the paper
        let smeared = QualityAnalysis.ocrCopy(Self.page(stroke: 3, ink: 130), scale: 2.5)
        #expect(gate.judgeOCRCopy(smeared).map(\.kind) == [.lowResolution])
        var unscaled = smeared
        unscaled.scale = 1
        #expect(gate.judgeOCRCopy(unscaled).isEmpty)
        // nothing text-like: no verdict
        #expect(gate.judgeOCRCopy(QualityAnalysis.ocrCopy(GrayImage(width: 300, height: 300, fill: 250), scale: 1)).isEmpty)
    }

    @Test func checkJudgesTheCopyAScanWouldMake() throws {
        let gate = QualityGate()
        let thin = try #require(Bitmap.from(Self.page(stroke: 1))), thick = try #require(Bitmap.from(Self.page(stroke: 3)))
        let a = gate.assessOCRCopy(of: thin, report: try #require(gate.assess(thin)), preprocess: PreprocessSettings())
        #expect(a.verdict == .rejected && a.defects.contains { $0.kind == .lowResolution && $0.measure == "ocrCopyStrokeWidth" }, "\(a.defects)")
        #expect(a.ocrCopy?.scale == 1)  // 18 px text is read as it is
        let b = gate.assessOCRCopy(of: thick, report: try #require(gate.assess(thick)), preprocess: PreprocessSettings())
        #expect(b.verdict == .ok && b.ocrCopy != nil, "\(b.defects)")
    }

    @Test func aLargeCopyIsMeasuredInItsCentralWindow() throws {
        let g = GrayImage(width: 3000, height: 1000, fill: 200)
        let w = g.centralWindow(maxSide: 2048)
        #expect(w.width == 2048 && w.height == 1000)
        #expect(g.centralWindow(maxSide: 4000) == g)
        #expect(abs(QualityAnalysis.ocrCopy(g, scale: 1).measuredShare - 0.683) < 0.001)
        // the pipeline clips the Bitmap first and says how large the copy was
        let pix = try #require(Bitmap.from(g))
        let clipped = try #require(pix.centralWindow(maxSide: 2048)?.grayImage())
        #expect(clipped == w)
        #expect(abs(QualityAnalysis.ocrCopy(clipped, scale: 1, copyPixels: 3_000_000).measuredShare - 0.683) < 0.001)
    }
}
