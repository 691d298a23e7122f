import Foundation
import Testing
@testable import MenuScanKit

@Suite struct BenchScanOutputReaderTests {
    /// A fresh temporary folder, removed by the caller.
    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bench-reader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func write(_ text: String, _ relative: String, in root: URL) throws {
        let url = root.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    let okResult = """
    {"schemaVersion": 1,
     "source": {"path": "menus/lunch.jpg", "sha256": "00", "width": 10, "height": 10, "orientation": 1},
     "status": "ok",
     "messages": [{"code": "lowConfidenceResults", "title": "t", "message": "m", "recovery": "r", "severity": "high"}],
     "ocr": {"engine": "tesseract", "language": "eng", "meanConfidence": 0.8, "characters": 20,
       "blocks": [
         {"box": [0,0,1,1], "lines": [
           {"box": [0,0,1,1], "words": [{"text": "Fish", "confidence": 0.9, "box": [0,0,1,1]},
                                         {"text": "&", "confidence": null, "box": [0,0,1,1]},
                                         {"text": "chips", "confidence": 0.7, "box": [0,0,1,1]}]},
           {"box": [0,0,1,1], "words": [{"text": "£5", "confidence": 0.6, "box": [0,0,1,1]}]}]},
         {"box": [0,0,1,1], "lines": [
           {"box": [0,0,1,1], "words": [{"text": "Tea", "confidence": 0.95, "box": [0,0,1,1]}]}]}]},
     "timings": {"decode": 0.25, "ocr": 1.5, "note": "ignored"}}
    """

    let errorResult = """
    {"schemaVersion": 1, "source": {"path": "broken.png"}, "status": "error",
     "messages": [{"code": "MSG-INPUT-001", "title": "t", "message": "m", "recovery": "r", "severity": "medium"}],
     "timings": {"decode": 0.01}}
    """

    @Test func readsPhotosTextWordsTimingsAndGroundTruth() throws {
        let out = try temporaryDirectory(), truth = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out); try? FileManager.default.removeItem(at: truth) }
        try write(okResult, "menus/lunch.json", in: out)
        try write(errorResult, "broken.json", in: out)
        try write(#"{"photos": 2}"#, "summary.json", in: out)
        try write(#"{"schemaVersion": 1, "reports": []}"#, "bench.json", in: out)
        try write(#"["not", "a", "result"]"#, "other.json", in: out)
        try write("not json", "notes.txt", in: out)
        try write("fish and chips\n£5\n", "menus/lunch.gt.txt", in: truth)

        let photos = try ScanOutputReader.read(directory: out, groundTruthRoot: truth)
        #expect(photos.map(\.path) == ["broken.png", "menus/lunch.jpg"])

        let error = photos[0]
        #expect(error.status == "error" && error.messageCodes == ["MSG-INPUT-001"])
        #expect(error.words.isEmpty && error.text == "" && error.groundTruth == nil)
        #expect(error.stageSeconds == ["decode": 0.01])

        let ok = photos[1]
        #expect(ok.status == "ok" && ok.messageCodes == ["lowConfidenceResults"])
        #expect(ok.words == [BenchWord(text: "Fish", confidence: 0.9), BenchWord(text: "&", confidence: nil),
                             BenchWord(text: "chips", confidence: 0.7), BenchWord(text: "£5", confidence: 0.6),
                             BenchWord(text: "Tea", confidence: 0.95)])
        #expect(ok.text == "Fish & chips\n£5\n\nTea")
        #expect(ok.groundTruth == "fish and chips\n£5\n")
        #expect(ok.stageSeconds == ["decode": 0.25, "ocr": 1.5])
    }

    @Test func groundTruthPathReplacesTheExtension() {
        #expect(ScanOutputReader.groundTruthPath(for: "menus/lunch.jpg") == "menus/lunch.gt.txt")
        #expect(ScanOutputReader.groundTruthPath(for: "a.b.png") == "a.b.gt.txt")
        #expect(ScanOutputReader.groundTruthPath(for: "noext") == "noext.gt.txt")
        #expect(ScanOutputReader.groundTruthPath(for: "/abs/dir/x.JPEG") == "/abs/dir/x.gt.txt")
    }

    @Test func malformedResultIsReported() throws {
        let out = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        try write(#"{"schemaVersion": 1, "source": {"path": "a.jpg"}"#, "a.json", in: out)
        #expect(throws: MenuScanError.self) { try ScanOutputReader.read(directory: out, groundTruthRoot: nil) }
        try write(#"{"schemaVersion": 2, "source": {"path": "a.jpg"}, "status": "ok"}"#, "a.json", in: out)
        do {
            _ = try ScanOutputReader.read(directory: out, groundTruthRoot: nil)
            Issue.record("schemaVersion 2 was accepted")
        } catch let error as MenuScanError {
            #expect(error.code == "MSG-PROC-001")
            #expect(error.detail?.contains("schemaVersion 2") == true)
        }
    }

    @Test func readPhotosFeedTheReport() throws {
        let out = try temporaryDirectory(), truth = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out); try? FileManager.default.removeItem(at: truth) }
        try write(okResult, "lunch.json", in: out)
        try write("Fish & chips £5 Tea", "menus/lunch.gt.txt", in: truth)
        let photos = try ScanOutputReader.read(directory: out, groundTruthRoot: truth)
        let report = BenchReport.build(label: "x", photos: photos, wallSeconds: 1, peakRSSBytes: nil)
        let accuracy = try #require(report.accuracy)
        #expect(accuracy.cer == 0 && accuracy.wer == 0 && accuracy.wordRecall == 1)
        #expect(accuracy.calibration.correct == 4 && accuracy.calibration.wordsWithoutConfidence == 1)
    }
}
