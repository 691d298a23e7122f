import Foundation
import Testing
@testable import MenuScanKit

/// Four photos whose figures are worked out by hand in the tests below.
let benchSamplePhotos: [BenchPhoto] = [
    BenchPhoto(path: "a.jpg", status: "ok",
               words: [BenchWord(text: "Fish", confidence: 0.9), BenchWord(text: "chips", confidence: 0.7)],
               text: "Fish chips", groundTruth: "fish and chips", stageSeconds: ["decode": 0.1, "ocr": 1.0]),
    BenchPhoto(path: "b.jpg", status: "failed", messageCodes: ["MSG-OCR-001", "MSG-OCR-001"],
               words: [BenchWord(text: "x", confidence: 0.2)],
               text: "x", groundTruth: "soup", stageSeconds: ["decode": 0.3, "ocr": 2.0]),
    BenchPhoto(path: "c.jpg", status: "error", messageCodes: ["MSG-INPUT-001"], stageSeconds: ["decode": 0.05]),
    BenchPhoto(path: "d.jpg", status: "ok",
               words: [BenchWord(text: "tea", confidence: nil), BenchWord(text: "cake", confidence: 0.95)],
               text: "tea cake"),
]

@Suite struct BenchReportTests {
    let report = BenchReport.build(label: "default", photos: benchSamplePhotos, wallSeconds: 2, peakRSSBytes: 1000)

    @Test func outcomesAndMessageCodes() {
        #expect(report.photos == 4)
        #expect(report.outcomes == ["ok": 2, "partial": 0, "failed": 1, "rejected": 0, "error": 1])
        #expect(report.outcomeRates == ["ok": 0.5, "partial": 0, "failed": 0.25, "rejected": 0, "error": 0.25])
        // A code counts once per photo.
        #expect(report.messageCodes == ["MSG-OCR-001": 1, "MSG-INPUT-001": 1])
    }

    @Test func confidenceFigures() {
        let c = report.confidence
        #expect(c.words == 4 && c.wordsWithoutConfidence == 1)
        #expect(abs(c.mean! - 2.75 / 4) < 1e-12)
        #expect(c.levels.high.words == 2 && c.levels.medium.words == 1 && c.levels.low.words == 1)
        #expect(c.levels.high.share == 0.5)
        #expect(c.histogram.map(\.count).reduce(0, +) == 4)
        #expect(c.histogram[18].count == 1 && c.histogram[19].count == 1 && c.histogram[14].count == 1 && c.histogram[4].count == 1)
        #expect(c.percentiles.p50 == 0.7 && c.percentiles.p5 == 0.2 && c.percentiles.p95 == 0.95)
        #expect(c.perPhoto.map(\.path) == ["a.jpg", "b.jpg", "c.jpg", "d.jpg"])
        #expect(abs(c.perPhoto[0].mean! - 0.8) < 1e-12 && c.perPhoto[0].min == 0.7)
        #expect(c.perPhoto[2].mean == nil && c.perPhoto[2].words == 0)
        #expect(c.perPhoto[3].words == 1 && c.perPhoto[3].mean == 0.95)
        #expect(c.lowest.map(\.path) == ["b.jpg", "a.jpg", "d.jpg"])
    }

    @Test func accuracyFigures() throws {
        let a = try #require(report.accuracy)
        #expect(a.photos == 2)
        #expect(a.perPhoto.map(\.path) == ["a.jpg", "b.jpg"])
        #expect(a.perPhoto[0].cer == 5.0 / 14 && a.perPhoto[0].wer == 1.0 / 3)
        #expect(a.perPhoto[0].wordRecall == 2.0 / 3 && a.perPhoto[0].wordPrecision == 1)
        #expect(a.perPhoto[1].cer == 1 && a.perPhoto[1].wer == 1 && a.perPhoto[1].wordRecall == 0)
        #expect(a.cer == 0.5)                                  // 9 / 18
        #expect(a.wer == 0.5)                                  // 2 / 4
        let cerMean: Double = (5.0 / 14 + 1) / 2, werMean: Double = (1.0 / 3 + 1) / 2
        #expect(a.cerMean == cerMean)
        #expect(a.werMean == werMean)
        #expect(a.wordRecall == 0.5 && a.wordPrecision == 2.0 / 3)
        // Calibration: Fish 0.9 right, chips 0.7 right, x 0.2 wrong; d.jpg has no ground truth.
        let cal = a.calibration
        #expect(cal.words == 3 && cal.correct == 2 && cal.wordsWithoutConfidence == 0)
        #expect(cal.bins[9].words == 1 && cal.bins[9].correct == 1)
        #expect(cal.bins[7].words == 1 && cal.bins[7].correct == 1)
        #expect(cal.bins[2].words == 1 && cal.bins[2].correct == 0)
        #expect(abs(cal.expectedCalibrationError! - 0.2) < 1e-12)   // (0.1 + 0.3 + 0.2) / 3
    }

    @Test func speedFigures() {
        let s = report.speed
        #expect(s.photosPerSecond == 2 && s.peakRSSBytes == 1000 && s.wallSeconds == 2)
        #expect(s.stages["decode"]?.photos == 3)
        #expect(abs(s.stages["decode"]!.totalSeconds - 0.45) < 1e-12)
        #expect(abs(s.stages["decode"]!.meanSeconds - 0.15) < 1e-12)
        #expect(s.stages["decode"]?.maxSeconds == 0.3)
        #expect(s.stages["ocr"] == StageTiming(photos: 2, totalSeconds: 3, meanSeconds: 1.5, maxSeconds: 2))
        #expect(s.orderedStages == ["decode", "ocr"])
        #expect(BenchReport.build(label: "x", photos: [], wallSeconds: 0, peakRSSBytes: nil).speed.photosPerSecond == nil)
    }

    @Test func photoFromAnOCRPageTakesItsWordsAndText() {
        let box = Box(x: 0, y: 0, width: 1, height: 1)
        let page = OCRPage(blocks: [
            OCRBlock(box: box, lines: [OCRLine(box: box, words: [OCRWord(text: "Soup", confidence: 0.91, box: box),
                                                                  OCRWord(text: "£4", confidence: nil, box: box)]),
                                       OCRLine(box: box, words: [OCRWord(text: "Bread", confidence: 0.5, box: box)])]),
            OCRBlock(box: box, lines: [OCRLine(box: box, words: [OCRWord(text: "Tea", confidence: 0.8, box: box)])]),
        ])
        let photo = BenchPhoto(path: "p.jpg", status: "ok", page: page, groundTruth: "Soup £4")
        #expect(photo.text == "Soup £4\nBread\n\nTea")
        #expect(photo.words == [BenchWord(text: "Soup", confidence: 0.91), BenchWord(text: "£4", confidence: nil),
                                BenchWord(text: "Bread", confidence: 0.5), BenchWord(text: "Tea", confidence: 0.8)])
        let failed = BenchPhoto(path: "q.jpg", status: "error", messageCodes: ["MSG-INPUT-001"], page: nil)
        #expect(failed.words.isEmpty && failed.text == "")
    }

    @Test func lowestHoldsAtMostTenLowestFirst() {
        let photos = (0..<12).map { i in
            BenchPhoto(path: String(format: "p%02d.jpg", i), status: "ok",
                       words: [BenchWord(text: "w", confidence: Double(12 - i) / 20)])
        }
        let r = BenchReport.build(label: "x", photos: photos, wallSeconds: 1, peakRSSBytes: nil)
        #expect(r.confidence.lowest.count == BenchReport.lowestCount)
        #expect(r.confidence.lowest.first?.path == "p11.jpg")
        #expect(r.confidence.lowest.last?.path == "p02.jpg")
    }

    @Test func accuracyIsNullWithoutGroundTruth() throws {
        let photos = benchSamplePhotos.map { p -> BenchPhoto in var p = p; p.groundTruth = nil; return p }
        let r = BenchReport.build(label: "no-gt", photos: photos, wallSeconds: 1, peakRSSBytes: nil)
        #expect(r.accuracy == nil)
        let object = try #require(try JSONSerialization.jsonObject(with: BenchRender.json([r])) as? [String: Any])
        let first = try #require((object["reports"] as? [[String: Any]])?.first)
        #expect(first["accuracy"] is NSNull)
        #expect((first["speed"] as? [String: Any])?["peakRSSBytes"] is NSNull)
    }

    @Test func jsonHasTheContractKeysAndRoundTrips() throws {
        let data = try BenchRender.json([report])
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["schemaVersion"] as? Int == 1)
        let r = try #require((object["reports"] as? [[String: Any]])?.first)
        for key in ["label", "photos", "outcomes", "messageCodes", "confidence", "accuracy", "speed"] {
            #expect(r[key] != nil, "missing \(key)")
        }
        let confidence = try #require(r["confidence"] as? [String: Any])
        for key in ["histogram", "percentiles", "levels", "perPhoto", "lowest"] {
            #expect(confidence[key] != nil, "missing confidence.\(key)")
        }
        let accuracy = try #require(r["accuracy"] as? [String: Any])
        for key in ["cer", "wer", "cerMean", "werMean", "wordRecall", "wordPrecision", "calibration", "perPhoto"] {
            #expect(accuracy[key] != nil, "missing accuracy.\(key)")
        }
        let speed = try #require(r["speed"] as? [String: Any])
        for key in ["photosPerSecond", "stages", "peakRSSBytes"] {
            #expect(speed[key] != nil, "missing speed.\(key)")
        }
        #expect((r["outcomes"] as? [String: Int])?["failed"] == 1)
        // Per-photo mean stays in the file as null, not left out.
        let perPhoto = try #require(confidence["perPhoto"] as? [[String: Any]])
        #expect(perPhoto[2]["mean"] is NSNull)
        let decoded = try JSONDecoder().decode(BenchFile.self, from: data)
        #expect(decoded.reports == [report])
    }

    @Test func jsonHoldsNoRecognisedText() throws {
        let photo = BenchPhoto(path: "menu.jpg", status: "ok", words: [BenchWord(text: "Zabaglione", confidence: 0.9)],
                               text: "Zabaglione", groundTruth: "Zabaglione")
        let json = String(decoding: try BenchRender.json([BenchReport.build(label: "x", photos: [photo],
                                                                              wallSeconds: 1, peakRSSBytes: nil)]),
                          as: UTF8.self)
        #expect(!json.contains("Zabaglione"))
    }
}
