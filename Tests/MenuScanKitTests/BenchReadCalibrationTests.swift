import Foundation
import Testing
@testable import MenuScanKit

@Suite("Bench: readConfidence vs word recall")
struct BenchReadCalibrationTests {
    @Test func bandsHoldMeansAndLowRecallCounts() {
        let c = ReadCalibration([(0.95, 0.9), (0.97, 0.5), (0.3, 0.2), (1.0, 1.0)])
        #expect(c.photos == 4)
        let top = c.bands.last!
        #expect(top.lower == 0.95 && top.photos == 3)
        #expect(abs((top.meanReadConfidence ?? 0) - (0.95 + 0.97 + 1.0) / 3) < 1e-9)
        #expect(abs((top.meanWordRecall ?? 0) - 0.8) < 1e-9)
        #expect(top.recallBelow07 == 1)
        let low = c.bands.first { $0.lower == 0.2 }!
        #expect(low.photos == 1 && low.meanWordRecall == 0.2)
        #expect(c.bands.filter { $0.photos == 0 }.allSatisfy { $0.meanReadConfidence == nil })
        #expect(abs((c.meanAbsoluteError ?? 0) - (0.05 + 0.47 + 0.1 + 0) / 4) < 1e-9)
    }

    @Test func reportAndRenderCarryTheReadCalibration() throws {
        var a = BenchPhoto(path: "a.png", status: "ok", words: [BenchWord(text: "tomato", confidence: 0.9)],
                           text: "tomato", groundTruth: "tomato soup")
        a.readConfidence = 0.55
        var b = BenchPhoto(path: "b.png", status: "ok", words: [BenchWord(text: "soup", confidence: 0.9)],
                           text: "soup", groundTruth: "soup")
        b.readConfidence = 0.92
        let report = BenchReport.build(label: "t", photos: [a, b], wallSeconds: 1, peakRSSBytes: nil)
        let rc = try #require(report.accuracy?.readCalibration)
        #expect(rc.photos == 2)
        #expect(rc.bands.first { $0.lower == 0.4 }?.meanWordRecall == 0.5)
        #expect(rc.bands.first { $0.lower == 0.9 }?.meanWordRecall == 1)
        let svg = BenchRender.readCalibrationSVG(report)
        #expect(svg.contains("data-photos=\"1\""))
        let json = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
        #expect(json.contains("readCalibration") && json.contains("\"meanWordRecall\":null"))
    }

    @Test func scanOutputReaderTakesReadConfidence() throws {
        let json = #"{"schemaVersion":1,"source":{"path":"x.png"},"status":"ok","readQuality":{"readConfidence":0.42,"features":{}}}"#
        let photo = try #require(try ScanOutputReader.photo(from: Data(json.utf8), file: "x.json", groundTruthRoot: nil))
        #expect(photo.readConfidence == 0.42)
    }
}
