import Foundation
import Testing

/// Issue 14's list of bad inputs, each thrown at one `menuscan scan` run:
/// every input gets its own result, the run never dies, nothing else is lost.
@Suite("End to end: every bad input of issue 14 in one run", .serialized)
struct BadInputTests {
    /// Output JSON of each input, from summary.json's rows (file name → row).
    static func rows(_ out: URL) throws -> [String: [String: Any]] {
        let summary = try CLI.json(out.appendingPathComponent("summary.json"))
        var rows: [String: [String: Any]] = [:]
        for row in summary["files"] as? [[String: Any]] ?? [] {
            rows[((row["path"] as? String ?? "") as NSString).lastPathComponent] = row
        }
        return rows
    }

    static func photo(_ out: URL, _ row: [String: Any]?) -> [String: Any]? {
        guard let output = row?["output"] as? String else { return nil }
        return try? CLI.json(out.appendingPathComponent(output))
    }

    static func firstMessage(_ photo: [String: Any]?) -> (code: String?, detail: String) {
        let m = (photo?["messages"] as? [[String: Any]])?.first
        return (m?["code"] as? String, m?["detail"] as? String ?? "")
    }

    /// Every journal line is a whole JSON object, and every `done` names outputs that exist.
    static func expectWholeJournal(_ out: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let folder = out.appendingPathComponent(".menuscan")
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where name.hasPrefix("journal") {
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            #expect(data.last == nil || data.last == 0x0A, "\(name) ends with a whole line", sourceLocation: sourceLocation)
            for line in data.split(separator: 0x0A) {
                let entry = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any]
                #expect(entry != nil, "a torn journal line: \(String(decoding: line, as: UTF8.self))", sourceLocation: sourceLocation)
                if entry?["event"] as? String == "done" {
                    for output in entry?["outputs"] as? [String] ?? [] {
                        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent(output).path),
                                "done but \(output) missing", sourceLocation: sourceLocation)
                    }
                }
            }
        }
        #expect(!Batch.files(out).contains { $0.contains(".tmp-") }, "temporary files left", sourceLocation: sourceLocation)
    }

    @Test("truncated and bit-flipped JPEG/PNG/WebP/TIFF/BMP/GIF, bombs, 1×1, 1×40000, CMYK, 16-bit, PDF and text named .jpg, FIFO, symlink loops, a non-UTF-8 name, a file deleted mid-run and a second run on the same folder: one run, a result each")
    func everyBadInput() throws {
        let root = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let input = root.appendingPathComponent("in"), out = root.appendingPathComponent("out")
        // The fuzzing corpus (Pillow; fixed seed) without the samples: 64 files.
        let made = try CLI.run([CLI.packageRoot.appendingPathComponent("Benchmarks/fuzz/make_corpus.py").path, input.path, "--no-samples"],
                               executable: "/usr/bin/python3")
        try #require(made.status == 0, "make_corpus.py (needs python3-pil): \(made.stderr)")
        let fm = FileManager.default
        #expect(mkfifo(input.appendingPathComponent("fifo.jpg").path, 0o644) == 0)
        try fm.createSymbolicLink(atPath: input.appendingPathComponent("loop.jpg").path, withDestinationPath: "loop.jpg")
        try fm.createDirectory(at: input.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: input.appendingPathComponent("sub/up").path, withDestinationPath: "..")
        // "caf\xE9.png": a Latin-1 name, not UTF-8.
        let valid = try Data(contentsOf: input.appendingPathComponent("valid.png"))
        let latin1 = (Array(input.path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".png".utf8) + [0]).map { CChar(bitPattern: $0) }
        let fd = open(latin1, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        try #require(fd >= 0)
        _ = valid.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        // Sorted last, so it is still waiting when it is deleted.
        try fm.copyItem(at: CLI.packageRoot.appendingPathComponent("samples/menu-clean.png"), to: input.appendingPathComponent("zz-deleted.png"))
        let inputs = try fm.contentsOfDirectory(atPath: input.path).filter { $0 != "sub" }.count

        let log = root.appendingPathComponent("stderr")
        // --quality warn: every decodable image is read (Debian's Pillow draws the
        // corpus' tiny text with its bitmap font, which the gate may call glare),
        // so the text proves the decode of CMYK, 16-bit, palette and alpha images.
        let args = ["scan", input.path, "--out", out.path, "--jobs", "2", "--lang", "eng", "--timeout", "60", "--quality", "warn"]
        let run = try Batch.start(args, environment: Batch.environment([:]), stderr: log)
        var polls = 0
        while polls < 1200, run.isRunning, !Batch.journal(out).contains(where: { $0["event"] as? String == "start" }) {
            usleep(50_000)
            polls += 1
        }
        #expect(run.isRunning, "the run was still going when the file was deleted")
        try fm.removeItem(at: input.appendingPathComponent("zz-deleted.png"))
        // A second run on the same folder while the first writes: refused, exit 75.
        let second = try CLI.run(args + ["--quiet"], environment: Batch.environment([:]))
        #expect(second.status == 75, "\(second.stderr)")
        #expect(second.stderr.contains("another run is writing to"))
        run.waitUntilExit()
        #expect(run.terminationStatus == 1, "\((try? String(contentsOf: log, encoding: .utf8)) ?? "")")

        let rows = try Self.rows(out)
        let summary = try CLI.json(out.appendingPathComponent("summary.json"))
        #expect(summary["photos"] as? Int == inputs && summary["processed"] as? Int == inputs, "one result per input")
        #expect(rows.count == inputs)
        try Self.expectWholeJournal(out)
        var checked = 0
        for (name, row) in rows {
            let photo = Self.photo(out, row)
            let status = photo?["status"] as? String
            #expect(status != nil && status == row["status"] as? String, "\(name) has its own complete result")
            let (code, detail) = Self.firstMessage(photo)
            let text = (try? String(contentsOf: out.appendingPathComponent(((row["output"] as? String ?? "") as NSString).deletingPathExtension + ".txt"),
                                    encoding: .utf8)) ?? ""
            switch name {
            case let n where n.hasPrefix("trunc") || ["empty.jpg", "text.jpg", "doc.pdf.jpg"].contains(n):
                #expect(status == "error" && code == "MSG-INPUT-001", "\(name): \(code ?? "-") \(detail)")
            case let n where n.hasPrefix("bomb."):  // PNG, JPEG, WebP, TIFF headers claiming 0.27-10 gigapixels
                #expect(status == "error" && code == "MSG-INPUT-002", "\(name): \(detail)")
            case "one.png", "grey16.png":  // black: 1×1 of 0, and 8-bit values in a 16-bit range
                let codes = (photo?["messages"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
                #expect(status != "ok" && status != "partial" && codes.contains("MSG-QUALITY-001"), "\(name): \(codes) \(detail)")
            case "tall.png", "wide.png":
                #expect(status == "error" && code == "MSG-PROC-001" && !detail.contains("--timeout"), "\(name): \(detail)")
            case let n where n.hasPrefix("valid.") || ["cmyk.jpg", "cmyk.tif", "grey16full.png", "rgba.png", "palette.png"].contains(n):
                #expect(status == "ok" || status == "partial", "\(name): \(status ?? "-") \(code ?? "-") \(detail)")
                #expect(text.contains("Soup"), "\(name) is read: \(text)")
            case let n where n.hasPrefix("flip"):
                break  // any status: a flipped bit may leave a readable image
            case "fifo.jpg":
                #expect(status == "error" && code == "MSG-INPUT-003" && detail.contains("FIFO"), "\(detail)")
            case "loop.jpg":
                #expect(status == "error" && code == "MSG-INPUT-003" && detail.contains("symbolic links"), "\(detail)")
            case let n where n.hasPrefix("caf"):
                #expect(status == "error" && code == "MSG-INPUT-003" && detail.contains("not valid UTF-8"), "\(detail)")
            case "zz-deleted.png":
                #expect(status == "error" && code?.hasPrefix("MSG-INPUT") == true && detail.contains("No such file"), "\(detail)")
            default:
                Issue.record("an input this test does not know: \(name)")
            }
            checked += 1
        }
        #expect(checked == inputs)
        // The refused run left the first run's journal alone: one start and one done per input.
        let entries = Batch.journal(out)
        #expect(entries.filter { $0["event"] as? String == "done" }.count == inputs)
        #expect(Set(entries.filter { $0["event"] as? String != "crash" }.compactMap { $0["pid"] as? Int }).count == 1,
                "every start and done line from the one run")
    }
}

/// Full disk and read-only output, deterministic: a file-size limit
/// (`prlimit --fsize`, EFBIG) stands in for a disk that fills up, at a chosen
/// file; a read-only tmpfs (root only) for a read-only output folder. The
/// real full tmpfs is `BatchCLITests.fullDisk`.
@Suite("End to end: storage that fills up or turns read-only mid-run", .serialized)
struct StorageFaultTests {
    /// `menuscan` under a file-size limit of `bytes` (no file may grow past it).
    static func limited(_ bytes: Int, _ arguments: [String]) throws -> CLI.Result {
        try CLI.run(["--fsize=\(bytes)", CLI.binary.path] + arguments, environment: Batch.environment([:]), executable: "/usr/bin/prlimit")
    }

    @Test("the journal cannot grow (full disk at a journal append): exit 73, MSG-STORAGE-001, whole journal lines; the re-run keeps every photo done and finishes",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit")))
    func journalFull() throws {
        // Small results (unreadable photos, ~0.6 KB JSON), so the journal (~0.9 KB a photo) is the file that hits the limit.
        let input = try Batch.folder((0..<12).map { (String(format: "c%02d.jpg", $0), "corrupt.jpg") })
        let root = input.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: root) }
        // Distinct content, so no result is shared.
        for i in 0..<12 { try Data(repeating: UInt8(i), count: i + 1).append(to: input.appendingPathComponent(String(format: "c%02d.jpg", i))) }
        let out = root.appendingPathComponent("out")
        let args = ["scan", input.path, "--out", out.path, "--jobs", "1", "--lang", "eng"]
        let full = try Self.limited(4000, args)
        #expect(full.status == 73, "\(full.stderr)")
        #expect(full.stderr.contains("MSG-STORAGE-001") && full.stderr.contains("journal.jsonl"), "\(full.stderr)")
        try BadInputTests.expectWholeJournal(out)
        let done = Batch.journal(out).filter { $0["event"] as? String == "done" }.count
        #expect(done >= 1 && done < 12, "the limit stopped the run part-way: \(done) done")
        // Space again: the same command resumes.
        let again = try CLI.run(args + ["--quiet"], environment: Batch.environment([:]))
        #expect(again.status == 1, "corrupt photos are errors: \(again.stderr)")
        let summary = try CLI.json(out.appendingPathComponent("summary.json"))
        #expect(summary["processed"] as? Int == 12 && summary["reused"] as? Int == done)
        #expect((summary["counts"] as? [String: Int])?["error"] == 12)
        try BadInputTests.expectWholeJournal(out)
    }

    @Test("a photo's result cannot be written (full disk at an output): exit 73, that photo has neither file, nothing torn; the re-run finishes",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit")))
    func outputFull() throws {
        let input = try Batch.folder([("a-corrupt.jpg", "corrupt.jpg"), ("b-blank.png", "blank.png"), ("c-clean.png", "menu-clean.png"),
                                      ("d-corrupt.jpg", "corrupt.jpg")])
        let root = input.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: root) }
        try Data([1]).append(to: input.appendingPathComponent("d-corrupt.jpg"))
        let out = root.appendingPathComponent("out")
        let args = ["scan", input.path, "--out", out.path, "--jobs", "1", "--lang", "eng"]
        // 6 KB: the small results fit, menu-clean's JSON (words and boxes) does not.
        let full = try Self.limited(6000, args)
        #expect(full.status == 73, "\(full.stderr)")
        #expect(full.stderr.contains("MSG-STORAGE-001") && full.stderr.contains("File too large"), "\(full.stderr)")
        let fm = FileManager.default
        #expect(!fm.fileExists(atPath: out.appendingPathComponent("c-clean.json").path))
        #expect(!fm.fileExists(atPath: out.appendingPathComponent("c-clean.txt").path), "a photo has both outputs or none")
        #expect(!fm.fileExists(atPath: out.appendingPathComponent("d-corrupt.json").path), "no new photo after the storage error")
        #expect(fm.fileExists(atPath: out.appendingPathComponent("a-corrupt.json").path))
        try BadInputTests.expectWholeJournal(out)
        let again = try CLI.run(args + ["--quiet"], environment: Batch.environment([:]))
        #expect(again.status == 1, "\(again.stderr)")
        let summary = try CLI.json(out.appendingPathComponent("summary.json"))
        #expect(summary["processed"] as? Int == 4 && summary["reused"] as? Int == 2)
        #expect(try CLI.json(out.appendingPathComponent("c-clean.json"))["status"] as? String == "ok")
    }

    @Test("a read-only output folder (read-only tmpfs): exit 73 with MSG-STORAGE-001 before any photo, nothing written",
          .enabled(if: TmpFS.available))
    func readOnly() throws {
        let mount = CLI.temporaryDirectory()
        defer { _ = try? CLI.run([mount.path], executable: "/bin/umount"); try? FileManager.default.removeItem(at: mount) }
        #expect(try CLI.run(["-t", "tmpfs", "-o", "size=16m", "tmpfs", mount.path], executable: "/bin/mount").status == 0)
        let out = mount.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        #expect(try CLI.run(["-o", "remount,ro", mount.path], executable: "/bin/mount").status == 0)
        let refused = try CLI.run(["scan", "samples/menu-clean.png", "--out", out.path, "--lang", "eng"], environment: Batch.environment([:]))
        #expect(refused.status == 73, "\(refused.stderr)")
        #expect(refused.stderr.contains("MSG-STORAGE-001") && refused.stderr.contains("Read-only file system"), "\(refused.stderr)")
        #expect(Batch.files(out).isEmpty)

        // Linux will not remount a file system read-only while a file on it is
        // open for writing (the journal), so a folder cannot turn read-only mid-run.
    }
}

extension Data {
    /// Appends to the file at `url`.
    func append(to url: URL) throws {
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: self)
    }
}
