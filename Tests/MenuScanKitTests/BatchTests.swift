import Foundation
import Testing
@testable import MenuScanKit

@Suite("Batch: discovery, output names, atomic writes")
struct BatchTests {
    func touch(_ dir: URL, _ path: String, _ content: String = "x") throws {
        let url = dir.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(content.utf8).write(to: url)
    }

    @Test("folders are walked recursively, hidden and non-image files skipped, order stable")
    func discovery() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanup(dir) }
        for p in ["b.jpg", "a.PNG", "sub/c.tiff", ".hidden.jpg", ".git/d.jpg", "notes.txt", "a.gt.txt", "sub/e.heic"] {
            try touch(dir, p)
        }
        let r = InputDiscovery.discover([dir.path])
        #expect(r.photos.map(\.outputBase) == ["a", "b", "sub/c", "sub/e"])
        #expect(r.skippedFiles == 2)
        #expect(r.missing.isEmpty)
        #expect(r.photos[0].displayPath == dir.path + "/a.PNG")
    }

    @Test("output names stay unique when inputs share a base name")
    func uniqueNames() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanup(dir) }
        for p in ["one/menu.jpg", "two/menu.jpg", "menu.jpg", "menu.png", "other/x.jpg"] { try touch(dir, p) }
        let other = dir.appendingPathComponent("other")
        let r = InputDiscovery.discover([dir.path, other.path, dir.appendingPathComponent("one/menu.jpg").path])
        let bases = r.photos.map(\.outputBase)
        #expect(Set(bases).count == bases.count, "\(bases)")
        #expect(bases.contains("menu.jpg") && bases.contains("menu.png"))
        #expect(bases.contains("one/menu") && bases.contains("two/menu"))
        // other/x.jpg is reached twice (inside dir and as its own argument) but done once.
        #expect(r.photos.filter { $0.url.lastPathComponent == "x.jpg" }.count == 1)
        #expect(r.photos.filter { $0.url.path.hasSuffix("one/menu.jpg") }.count == 1)
    }

    @Test("symlink loops end the walk, and links that lead nowhere still get their own result")
    func symlinks() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanup(dir) }
        let fm = FileManager.default
        try touch(dir, "a.jpg")
        try touch(dir, "sub/b.jpg")
        // sub/up → the folder itself, sub/again → sub: walking them would never end.
        try fm.createSymbolicLink(atPath: dir.appendingPathComponent("sub/up").path, withDestinationPath: "..")
        try fm.createSymbolicLink(atPath: dir.appendingPathComponent("sub/again").path, withDestinationPath: ".")
        // A link to itself and a link to nothing, named like photos.
        try fm.createSymbolicLink(atPath: dir.appendingPathComponent("loop.jpg").path, withDestinationPath: "loop.jpg")
        try fm.createSymbolicLink(atPath: dir.appendingPathComponent("gone.png").path, withDestinationPath: "missing.png")
        let r = InputDiscovery.discover([dir.path])
        #expect(r.photos.map(\.outputBase) == ["a", "gone", "loop", "sub/b"])
        // Processing such a link is a per-file error, never a hang or a crash.
        let result = try PhotoProcessor.forTests().process(fileAt: dir.appendingPathComponent("loop.jpg"), displayPath: "loop.jpg")
        #expect(result.status == .error)
        #expect(result.messages.first?.code.hasPrefix("MSG-INPUT") == true)
    }

    @Test("a missing argument is reported, the rest still found")
    func missing() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanup(dir) }
        try touch(dir, "a.jpg")
        let r = InputDiscovery.discover([dir.path, "/nonexistent/folder"])
        #expect(r.missing == ["/nonexistent/folder"])
        #expect(r.photos.count == 1)
    }

    @Test("atomic writes replace the target and leave no temporary files")
    func atomicWrite() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanup(dir) }
        let url = dir.appendingPathComponent("deep/er/out.json")
        try AtomicWriter.write("first", to: url)
        try AtomicWriter.write("second", to: url)
        #expect(try String(contentsOf: url, encoding: .utf8) == "second")
        let left = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
        #expect(left == ["out.json"])
    }

    @Test("a write that cannot happen is a storage error and leaves the old file intact")
    func atomicWriteFailure() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanup(dir) }
        try touch(dir, "file")
        do {
            try AtomicWriter.write("x", to: dir.appendingPathComponent("file/child.json"))
            Issue.record("expected a storage error")
        } catch {
            #expect(error.code == "MSG-STORAGE-001")
            #expect(error.detail?.contains("errno") == true)
        }
        #expect(try String(contentsOf: dir.appendingPathComponent("file"), encoding: .utf8) == "x")
    }

    @Test("boxes encode as [x, y, width, height] and round-trip")
    func boxJSON() throws {
        let box = Box(left: 10, top: 20, right: 40, bottom: 25)
        let data = try JSONEncoder().encode(box)
        #expect(String(decoding: data, as: UTF8.self) == "[10,20,30,5]")
        #expect(try JSONDecoder().decode(Box.self, from: data) == box)
        #expect(Box(x: 0, y: 0, width: 10, height: 10).iou(Box(x: 5, y: 0, width: 10, height: 10)) == 50.0 / 150.0)
        #expect(Box(x: 0, y: 0, width: 10, height: 10).intersection(Box(x: 10, y: 0, width: 5, height: 5)) == nil)
    }

    @Test("summary counts every status, and a low run confidence raises the R14 warning")
    func summary() {
        func record(_ s: PhotoStatus, _ c: Double?) -> PhotoRecord {
            PhotoRecord(path: "p", output: "p.json", status: s, codes: [], meanConfidence: c, characters: 10, seconds: 1)
        }
        let low = RunSummary(records: [record(.ok, 0.4), record(.failed, 0.5), record(.error, nil)], total: 3,
                             wallSeconds: 2, settings: ScanSettings(), jobs: 2, fatal: nil)
        #expect(low.counts == ["ok": 1, "failed": 1, "error": 1, "partial": 0, "rejected": 0])
        #expect(low.meanConfidence == 0.45)
        #expect(low.warnings.map(\.code) == ["lowConfidenceResults"])
        #expect(low.photosPerSecond == 1.5)
        let fine = RunSummary(records: [record(.ok, 0.5)], total: 1, wallSeconds: 1, settings: ScanSettings(), jobs: 1, fatal: nil)
        #expect(fine.warnings.isEmpty)
    }
}
