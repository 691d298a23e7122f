import Foundation
import Testing
import MenuScanKit

/// Runs the built `menuscan` binary as a user would.
enum CLI {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["MENUSCAN_BIN"] { return URL(fileURLWithPath: path) }
        return packageRoot.appendingPathComponent(".build/debug/menuscan")
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// `executable` runs another program the same way (e.g. `script` for a TTY).
    static func run(_ arguments: [String], environment: [String: String]? = nil, executable: String? = nil) throws -> Result {
        let process = Process()
        process.executableURL = executable.map { URL(fileURLWithPath: $0) } ?? binary
        process.arguments = arguments
        process.currentDirectoryURL = packageRoot
        if let environment { process.environment = environment }
        // Output goes to files, so a chatty child can never block on a full pipe.
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let outURL = dir.appendingPathComponent("stdout"), errURL = dir.appendingPathComponent("stderr")
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return Result(status: process.terminationStatus,
                      stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
                      stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
    }

    static func temporaryDirectory() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("menuscan-e2e-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func json(_ url: URL) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
        guard let dict = object as? [String: Any] else { throw CocoaError(.fileReadCorruptFile) }
        return dict
    }
}

@Suite("End to end: the menuscan binary", .serialized)
struct CLITests {
    @Test("scanning samples/ gives every sample its expected status, words and orientation")
    func samples() throws {
        let out = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try CLI.run(["scan", "samples", "--out", out.path, "--verbose"])
        #expect(result.status == 1, "blank and corrupt samples are not ok → exit 1; stderr: \(result.stderr)")

        let expected = try CLI.json(CLI.packageRoot.appendingPathComponent("samples/expected.json"))
        for (file, value) in expected {
            let want = try #require(value as? [String: Any])
            let stem = (file as NSString).deletingPathExtension
            let photo = try CLI.json(out.appendingPathComponent(stem + ".json"))
            #expect(photo["schemaVersion"] as? Int == 1)
            #expect(photo["status"] as? String == want["status"] as? String, "\(file)")
            let source = try #require(photo["source"] as? [String: Any])
            #expect(source["path"] as? String == "samples/\(file)")
            let messages = photo["messages"] as? [[String: Any]] ?? []
            if let code = want["code"] as? String {
                #expect(messages.first?["code"] as? String == code, "\(file)")
                for key in ["title", "message", "recovery", "severity"] { #expect(messages.first?[key] is String, "\(file) \(key)") }
            } else {
                #expect(messages.isEmpty, "\(file)")
            }
            guard let words = want["words"] as? [String] else { continue }
            #expect((source["sha256"] as? String)?.count == 64)
            #expect(source["orientation"] as? Int == want["orientation"] as? Int, "\(file)")
            let width = try #require(source["width"] as? Int), height = try #require(source["height"] as? Int)
            let ocr = try #require(photo["ocr"] as? [String: Any])
            #expect((ocr["meanConfidence"] as? Double ?? 0) > 0.7, "\(file)")
            #expect((ocr["characters"] as? Int ?? 0) >= 10)
            var seen: [String] = []
            for block in ocr["blocks"] as? [[String: Any]] ?? [] {
                for line in block["lines"] as? [[String: Any]] ?? [] {
                    for word in line["words"] as? [[String: Any]] ?? [] {
                        let text = try #require(word["text"] as? String)
                        seen.append(text.trimmingCharacters(in: .punctuationCharacters))
                        let box = try #require(word["box"] as? [Int])
                        #expect(box.count == 4 && box[0] >= 0 && box[1] >= 0 && box[0] + box[2] <= width && box[1] + box[3] <= height)
                        let c = try #require(word["confidence"] as? Double)
                        #expect(c >= 0 && c <= 1)
                    }
                }
            }
            for w in words { #expect(seen.contains(w), "\(file): \(w) not read") }
            let text = try String(contentsOf: out.appendingPathComponent(stem + ".txt"), encoding: .utf8)
            for w in words { #expect(text.contains(w)) }
        }
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("corrupt.txt").path))

        let summary = try CLI.json(out.appendingPathComponent("summary.json"))
        let counts = try #require(summary["counts"] as? [String: Int])
        #expect(counts["ok"] == 3 && counts["failed"] == 1 && counts["error"] == 1)
        #expect(summary["photosPerSecond"] as? Double ?? 0 > 0)
        #expect(summary["meanConfidence"] is Double)

        // R12: the log holds file names, codes and timings, never menu text.
        #expect(result.stderr.contains("menu-clean.png"))
        for word in ["CORNER", "Salmon", "Risotto", "HARBOUR", "Burrata", "Espresso", "Cappuccino", "frangipane"] {
            #expect(!result.stderr.contains(word), "log leaks menu text: \(word)")
        }
        // No temporary files are left behind.
        let all = FileManager.default.enumerator(atPath: out.path)?.allObjects as? [String] ?? []
        #expect(!all.contains { $0.contains(".tmp-") })
    }

    @Test("a clean-only run exits 0; options reach the engine")
    func exitZero() throws {
        let out = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try CLI.run(["scan", "samples/menu-clean.png", "--out", out.path, "--jobs", "1", "--psm", "4", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "--quiet prints nothing on success: \(result.stderr)")
        let photo = try CLI.json(out.appendingPathComponent("menu-clean.json"))
        let ocr = try #require(photo["ocr"] as? [String: Any])
        #expect(ocr["psm"] as? Int == 4)
        #expect(ocr["language"] as? String == "eng")
    }

    @Test("a PNG with a damaged colour profile is read without libpng writing to stderr")
    func pngWarningsSilenced() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var png = [UInt8](try Data(contentsOf: CLI.packageRoot.appendingPathComponent("samples/menu-clean.png")))
        // An iCCP chunk (name, compression 0, then data that is not zlib) right after IHDR.
        let body = Array("ICC Profile".utf8) + [0, 0] + Array("not a zlib stream".utf8)
        let type = Array("iCCP".utf8)
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in type + body {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (crc & 1 == 1 ? 0xEDB8_8320 : 0) }
        }
        crc ^= 0xFFFF_FFFF
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        // pHYs: 11811 pixels per metre (300 dpi) both ways, unit metre; its CRC is fixed.
        let phys: [UInt8] = [0, 0, 0, 9] + Array("pHYs".utf8) + [0, 0, 0x2E, 0x23, 0, 0, 0x2E, 0x23, 1, 0x78, 0xA5, 0x3F, 0x76]
        png.insert(contentsOf: be(UInt32(body.count)) + type + body + be(crc) + phys, at: 8 + 25)   // signature + IHDR chunk
        let photo = dir.appendingPathComponent("profiled.png")
        try Data(png).write(to: photo)
        let result = try CLI.run(["scan", photo.path, "--out", dir.appendingPathComponent("out").path, "--jobs", "1", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "nothing from libpng: \(result.stderr)")
        // The resolution stays: Tesseract's layout analysis depends on it.
        #expect(try ImageDecoder().decode(fileAt: photo).pix.resolution == 300)
    }

    @Test("documented exit codes: no input 66, missing model 69, usage 64")
    func exitCodes() throws {
        let out = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let empty = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect(try CLI.run(["scan", empty.path, "--out", out.path]).status == 66)
        let missing = try CLI.run(["scan", "samples", "--out", out.path, "--lang", "xyz"])
        #expect(missing.status == 69)
        #expect(missing.stderr.contains("MSG-ENV-001"))
        #expect(try CLI.run(["scan", "samples", "--out", out.path, "--psm", "0"]).status == 64)
        #expect(try CLI.run(["scan", "samples", "--out", out.path, "--jobs", "0"]).status == 64)
    }

    @Test("an output folder that cannot be written stops the run with MSG-STORAGE-001 and exit 73")
    func unwritableOutput() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let blocker = dir.appendingPathComponent("file")
        try Data("x".utf8).write(to: blocker)
        let result = try CLI.run(["scan", "samples/menu-clean.png", "--out", blocker.path + "/out"])
        #expect(result.status == 73, "\(result.stderr)")
        #expect(result.stderr.contains("MSG-STORAGE-001"))
    }

    @Test("the CLI re-executes itself with OMP_THREAD_LIMIT=1 unless the user set it")
    func openMP() throws {
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "OMP_THREAD_LIMIT")
        let unset = try CLI.run(["doctor"], environment: env)
        #expect(unset.status == 0)
        #expect(unset.stdout.contains("OMP_THREAD_LIMIT: 1"))
        env["OMP_THREAD_LIMIT"] = "2"
        #expect(try CLI.run(["doctor"], environment: env).stdout.contains("OMP_THREAD_LIMIT: 2"))
    }
}

@Suite("End to end: menuscan bench", .serialized)
struct BenchCLITests {
    @Test("bench runs configs side by side, and reading the scan outputs back gives the same figures")
    func bench() throws {
        let out = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try CLI.run(["bench", "samples", "--out", out.path, "--config", "auto:psm=3", "--config", "sparse:psm=11", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("| auto | sparse |") || result.stdout.contains("auto") && result.stdout.contains("sparse"))
        for file in ["bench.json", "bench.md", "bench.html", "auto/menu-clean.json", "sparse/summary.json"] {
            #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent(file).path), "\(file)")
        }
        let bench = try CLI.json(out.appendingPathComponent("bench.json"))
        let reports = try #require(bench["reports"] as? [[String: Any]])
        #expect(reports.map { $0["label"] as? String } == ["auto", "sparse"])
        let auto = reports[0]
        #expect(auto["photos"] as? Int == 6)
        let outcomes = try #require(auto["outcomes"] as? [String: Int])
        #expect(outcomes["ok"] == 3 && outcomes["failed"] == 1 && outcomes["error"] == 1)
        let accuracy = try #require(auto["accuracy"] as? [String: Any])
        let cer = try #require(accuracy["cer"] as? Double)
        #expect(cer >= 0 && cer < 0.3)
        let speed = try #require(auto["speed"] as? [String: Any])
        #expect((speed["peakRSSBytes"] as? Int ?? 0) > 1_000_000)
        #expect((speed["photosPerSecond"] as? Double ?? 0) > 0)
        // R12: bench files hold no menu text.
        let md = try String(contentsOf: out.appendingPathComponent("bench.md"), encoding: .utf8)
        #expect(!md.contains("Salmon") && !md.contains("Cappuccino"))

        let again = try CLI.run(["bench", "--from-scan", out.appendingPathComponent("auto").path, "--out", out.appendingPathComponent("reread").path, "--quiet"])
        #expect(again.status == 0, "\(again.stderr)")
        let reread = try CLI.json(out.appendingPathComponent("reread/bench.json"))
        let r = try #require((reread["reports"] as? [[String: Any]])?.first)
        let rAccuracy = try #require(r["accuracy"] as? [String: Any])
        #expect(rAccuracy["cer"] as? Double == cer)
        #expect(rAccuracy["wordRecall"] as? Double == accuracy["wordRecall"] as? Double)
        #expect((r["outcomes"] as? [String: Int]) == outcomes)
    }
}
