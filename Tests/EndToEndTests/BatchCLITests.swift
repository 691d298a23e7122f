import Foundation
import MenuScanKit
import Testing

/// A deterministic random source for kill points (SplitMix64).
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Helpers for batch runs of the binary.
enum Batch {
    /// A folder of copies of the samples: `copies` maps new name → sample.
    static func folder(_ copies: [(String, String)]) throws -> URL {
        let dir = CLI.temporaryDirectory().appendingPathComponent("in")
        for (name, sample) in copies {
            let target = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: CLI.packageRoot.appendingPathComponent("samples/" + sample), to: target)
        }
        return dir
    }

    /// Starts the binary without waiting; output discarded unless `stderr` is given.
    static func start(_ arguments: [String], environment: [String: String]? = nil, stderr: URL? = nil) throws -> Process {
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = arguments
        process.currentDirectoryURL = CLI.packageRoot
        if let environment { process.environment = environment }
        process.standardOutput = FileHandle.nullDevice
        if let stderr {
            FileManager.default.createFile(atPath: stderr.path, contents: nil)
            process.standardError = try FileHandle(forWritingTo: stderr)
        } else {
            process.standardError = FileHandle.nullDevice
        }
        try process.run()
        return process
    }

    /// Every file under `dir`, relative, hidden ones included.
    static func files(_ dir: URL) -> [String] {
        (FileManager.default.enumerator(atPath: dir.path)?.allObjects as? [String] ?? []).sorted()
    }

    /// The journal's readable entries (all shard files).
    static func journal(_ out: URL) -> [[String: Any]] {
        let folder = out.appendingPathComponent(".menuscan")
        var entries: [[String: Any]] = []
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where name.hasPrefix("journal") {
            let text = (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n") {
                if let obj = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] { entries.append(obj) }
            }
        }
        return entries
    }

    /// How many photos samples/ holds.
    static var sampleCount: Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: CLI.packageRoot.appendingPathComponent("samples").path)) ?? []
        return names.filter { ["png", "jpg", "jpeg"].contains(($0 as NSString).pathExtension.lowercased()) }.count
    }

    /// Waits (up to 10 s) until the file exists.
    static func waitFor(_ url: URL) {
        var polls = 0
        while polls < 200, !FileManager.default.fileExists(atPath: url.path) {
            usleep(50_000)
            polls += 1
        }
    }

    static func inode(_ url: URL) -> UInt64? {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? UInt64) ?? nil
    }

    /// A photo's JSON without timings (which differ run to run): `timings`
    /// and every `seconds` key at any depth.
    static func result(_ url: URL) throws -> NSDictionary {
        func strip(_ value: Any) -> Any {
            if let dict = value as? [String: Any] {
                return dict.filter { $0.key != "timings" && $0.key != "seconds" }.mapValues(strip)
            }
            if let array = value as? [Any] { return array.map(strip) }
            return value
        }
        return (strip(try CLI.json(url)) as? [String: Any] ?? [:]) as NSDictionary
    }

    static func environment(_ extra: [String: String]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        for key in ["JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "MENUSCAN_TEST_CRASH_ON",
                    "MENUSCAN_TEST_TRAP_ON", "MENUSCAN_TEST_HANG_ON", "MENUSCAN_TEST_KILL_ON"] {
            env.removeValue(forKey: key)
        }
        return env.merging(extra) { $1 }
    }
}

@Suite("End to end: batch runs that survive anything", .serialized)
struct BatchCLITests {
    static let inputs: [(String, String)] = [
        ("s1.jpg", "menu-sideways-exif.jpg"), ("s2.jpg", "menu-sideways-exif.jpg"), ("sub/s3.jpg", "menu-sideways-exif.jpg"),
        ("sub/s4.jpg", "menu-sideways-exif.jpg"), ("blank.png", "blank.png"), ("corrupt.jpg", "corrupt.jpg"),
        ("clean.png", "menu-clean.png"), ("sub/photo.jpg", "menu-photo.jpg"),
    ]
    static let keys = ["s1", "s2", "sub/s3", "sub/s4", "blank", "corrupt", "clean", "sub/photo"]

    @Test("kill -9 at 30 random moments inside runs while photos keep arriving, then a re-run: one complete result per photo, nothing torn, nothing redone")
    func killNine() throws {
        let input = try Batch.folder(Self.inputs)
        let root = input.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: root) }
        let reference = root.appendingPathComponent("reference"), out = root.appendingPathComponent("out")
        let env = Batch.environment([:])
        let fm = FileManager.default
        try fm.createDirectory(at: input.appendingPathComponent("added"), withIntermediateDirectories: true)

        var rng = SeededRandom(state: 20_261_122)
        var completedInodes: [String: UInt64] = [:]
        var killedWhileRunning = 0
        var runs = 0
        // 30 kills inside a run (at most 80 runs: a run may finish before its kill point).
        while killedWhileRunning < 30 && runs < 80 {
            let run = runs
            runs += 1
            // New photos arrive between runs (as users add files), so every run has work to be killed in.
            for (n, sample) in [(0, "menu-sideways-exif.jpg"), (1, "menu-sideways-exif.jpg"),
                                (2, ["blank.png", "corrupt.jpg", "menu-sideways-exif.jpg"][run % 3])] {
                try fm.copyItem(at: CLI.packageRoot.appendingPathComponent("samples/" + sample),
                                to: input.appendingPathComponent("added/p\(run)-\(n).\((sample as NSString).pathExtension)"))
            }
            let before = Batch.journal(out).count
            let process = try Batch.start(["scan", input.path, "--out", out.path, "--jobs", "2", "--quiet"], environment: env)
            // Kill at a random moment after the run has begun work (whatever the machine's load),
            // so kills land inside OCR, output writes and journal appends.
            var polls = 0
            while polls < 1000, process.isRunning, Batch.journal(out).count == before {
                usleep(5_000)
                polls += 1
            }
            usleep(UInt32.random(in: 0...800_000, using: &rng))
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                killedWhileRunning += 1
            }
            process.waitUntilExit()
            // Every photo the journal calls done has its complete JSON, untouched since it was first done.
            for entry in Batch.journal(out) where entry["event"] as? String == "done" {
                let key = try #require(entry["key"] as? String)
                let json = out.appendingPathComponent(key + ".json")
                #expect((try? CLI.json(json)) != nil, "\(key).json is complete")
                let node = Batch.inode(json)
                if let before = completedInodes[key] { #expect(node == before, "\(key) was redone after it was complete") }
                completedInodes[key] = node
            }
        }
        let final = try CLI.run(["scan", input.path, "--out", out.path, "--jobs", "2", "--quiet"], environment: env)
        #expect(final.status == 1, "blank and corrupt are not ok: \(final.stderr)")
        #expect(try CLI.run(["scan", input.path, "--out", reference.path, "--jobs", "2", "--quiet"], environment: env).status == 1)
        let keys = Batch.files(reference).filter { $0.hasSuffix(".json") && !$0.hasPrefix(".menuscan") && $0 != "summary.json" }
            .map { String($0.dropLast(5)) }.sorted()
        #expect(keys.count == Self.keys.count + 3 * runs)
        print("kill -9 test: \(runs) runs, \(killedWhileRunning) killed by SIGKILL while running, \(completedInodes.count) of \(keys.count) photos complete before the final run")
        #expect(killedWhileRunning == 30, "30 kills must land inside a run")

        // Exactly one result per photo, equal to an uninterrupted run; no temporary files.
        let files = Batch.files(out)
        #expect(!files.contains { $0.contains(".tmp-") }, "\(files.filter { $0.contains(".tmp-") })")
        let jsons = files.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".menuscan") && $0 != "summary.json" }
        #expect(jsons.sorted() == keys.map { $0 + ".json" })
        for key in keys {
            #expect(try Batch.result(out.appendingPathComponent(key + ".json")) == Batch.result(reference.appendingPathComponent(key + ".json")), "\(key)")
            let hasText = fm.fileExists(atPath: out.appendingPathComponent(key + ".txt").path)
            #expect(hasText == fm.fileExists(atPath: reference.appendingPathComponent(key + ".txt").path), "\(key).txt")
            if let before = completedInodes[key] { #expect(Batch.inode(out.appendingPathComponent(key + ".json")) == before, "\(key) redone") }
        }
        // Each photo was completed exactly once over all runs.
        let done = Batch.journal(out).filter { $0["event"] as? String == "done" }.compactMap { $0["key"] as? String }
        #expect(done.sorted() == keys, "one done entry per photo")
        let summary = try CLI.json(out.appendingPathComponent("summary.json"))
        #expect((summary["counts"] as? [String: Int]) == (try CLI.json(reference.appendingPathComponent("summary.json"))["counts"] as? [String: Int]))
    }

    @Test("one run survives a worker abort(), a Swift trap after OCR, a hang past --timeout, a SIGKILL mid-OCR and a FIFO; 20 good photos ok, exit 1")
    func isolation() throws {
        let root = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let input = root.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        // 20 distinct good photos: the clean sample with a small mark in a different place each.
        let decoded = try ImageDecoder(maxMegapixels: 100).decode(fileAt: CLI.packageRoot.appendingPathComponent("samples/menu-clean.png"))
        let good = (0..<20).map { String(format: "good%02d.png", $0) }
        for (i, name) in good.enumerated() {
            let png = try #require(decoded.pix.pngData())
            let copy = try ImageDecoder(maxMegapixels: 100).decode(bytes: png, name: name)
            for dx in 0..<2 { for dy in 0..<2 { copy.pix.setGray(x: 2 + 3 * i + dx, y: 2 + dy, 200) } }
            try Data(try #require(copy.pix.pngData())).write(to: input.appendingPathComponent(name))
        }
        for bad in ["abort.png", "trap.png", "hang.png", "oom.png"] {
            try FileManager.default.copyItem(at: input.appendingPathComponent("good00.png"), to: input.appendingPathComponent(bad))
        }
        #expect(mkfifo(input.appendingPathComponent("fifo.png").path, 0o644) == 0)
        let out = root.appendingPathComponent("out")
        let env = Batch.environment(["MENUSCAN_TEST_CRASH_ON": "abort.png", "MENUSCAN_TEST_TRAP_ON": "trap.png",
                                     "MENUSCAN_TEST_HANG_ON": "hang.png", "MENUSCAN_TEST_KILL_ON": "oom.png", "SWIFT_BACKTRACE": "enable=no"])
        let started = ContinuousClock.now
        let run = try CLI.run(["scan", input.path, "--out", out.path, "--jobs", "2", "--timeout", "8", "--quiet"], environment: env)
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        #expect(run.status == 1, "\(run.stderr)")
        // Without --timeout the hang never ends: any bound far from that proves the run was
        // not stuck. (120 s failed once at load 9 on 2 cores: this is no speed test.)
        #expect(seconds < 600, "one run, not stuck on the hang or the FIFO")
        for name in good {
            let photo = try CLI.json(out.appendingPathComponent((name as NSString).deletingPathExtension + ".json"))
            #expect(photo["status"] as? String == "ok", "\(name)")
        }
        func messages(_ stem: String) throws -> (status: String?, messages: [[String: Any]], ocr: Bool) {
            let photo = try CLI.json(out.appendingPathComponent(stem + ".json"))
            return (photo["status"] as? String, photo["messages"] as? [[String: Any]] ?? [], photo["ocr"] != nil)
        }
        // abort() before OCR: tried twice, then an error naming the signal.
        let aborted = try messages("abort")
        #expect(aborted.status == "error")
        #expect(aborted.messages.first?["code"] as? String == "MSG-PROC-001")
        #expect((aborted.messages.first?["detail"] as? String)?.contains("SIGABRT") == true)
        // A Swift trap in the menu stage: the OCR result stands (R4 status), the stage is named.
        let trapped = try messages("trap")
        #expect(trapped.status == "ok" && trapped.ocr)
        let stageMessage = trapped.messages.first { $0["code"] as? String == "MSG-PROC-001" }
        #expect(stageMessage?["detail"] as? String == "classify")
        #expect(stageMessage?["severity"] as? String == "medium")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("trap.txt").path))
        // A hang: killed at the timeout, retried once, then an error.
        let hung = try messages("hang")
        #expect(hung.status == "error")
        #expect((hung.messages.first?["detail"] as? String)?.contains("--timeout") == true)
        // SIGKILL in the middle of recognition (as the OOM killer): retried once, then an error naming the signal.
        let killed = try messages("oom")
        #expect(killed.status == "error" && !killed.ocr)
        let killDetail = killed.messages.first?["detail"] as? String ?? ""
        #expect(killed.messages.first?["code"] as? String == "MSG-PROC-001")
        #expect(killDetail.contains("SIGKILL") && killDetail.contains("stage ocr") && killDetail.contains("(twice)"), "\(killDetail)")
        // A FIFO is never opened for reading: an error of its own.
        let fifo = try messages("fifo")
        #expect(fifo.status == "error")
        #expect((fifo.messages.first?["detail"] as? String)?.contains("FIFO") == true)
        let counts = try CLI.json(out.appendingPathComponent("summary.json"))["counts"] as? [String: Int]
        #expect(counts?["ok"] == 21 && counts?["error"] == 4)
    }

    @Test("--worker-photos 1: a fresh worker for every photo, same results")
    func recycle() throws {
        let out = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let run = try CLI.run(["scan", "samples/menu-clean.png", "samples/menu-sideways-exif.jpg", "samples/blank.png", "--out", out.path,
                               "--jobs", "1", "--worker-photos", "1", "--verbose"], environment: Batch.environment([:]))
        #expect(run.status == 1, "blank.png fails: \(run.stderr)")
        #expect(run.stderr.components(separatedBy: "worker recycled").count - 1 == 3)
        for name in ["menu-clean", "menu-sideways-exif"] {
            #expect(try CLI.json(out.appendingPathComponent(name + ".json"))["status"] as? String == "ok")
        }
    }

    @Test("two runs on one folder: the second is refused with exit 75 unless it is another shard")
    func outputLock() throws {
        let root = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let out = root.appendingPathComponent("out")
        let journalFolder = out.appendingPathComponent(".menuscan")
        try FileManager.default.createDirectory(at: journalFolder, withIntermediateDirectories: true)
        // The first run, as far as the lock goes: this test holds the journal's flock.
        let fd = open(journalFolder.appendingPathComponent("journal.jsonl").path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        #expect(fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0)
        defer { close(fd) }
        let second = try CLI.run(["scan", "samples/blank.png", "--out", out.path], environment: Batch.environment([:]))
        #expect(second.status == 75)
        #expect(second.stderr.contains("another run is writing to"))
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("blank.json").path))
        let shard = try CLI.run(["scan", "samples/blank.png", "--out", out.path, "--shard", "0/1", "--quiet"], environment: Batch.environment([:]))
        #expect(shard.status == 1, "a shard has its own journal and lock: \(shard.stderr)")
    }

    @Test("SIGINT: no new photos, in-flight ones finish, summary written, exit 130; the re-run resumes")
    func interrupt() throws {
        let copies = (0..<16).map { ("m\($0).png", "menu-clean.png") }
        let input = try Batch.folder(copies)
        let root = input.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: root) }
        let out = root.appendingPathComponent("out")
        let args = ["scan", input.path, "--out", out.path, "--jobs", "1"]
        let log = root.appendingPathComponent("stderr")
        let process = try Batch.start(args, environment: Batch.environment([:]), stderr: log)
        // Wait for the first result, then interrupt.
        Batch.waitFor(out.appendingPathComponent("m0.json"))
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        let summary = try CLI.json(out.appendingPathComponent("summary.json"))
        let processed = try #require(summary["processed"] as? Int)
        #expect(summary["interrupted"] as? Bool == true)
        #expect(processed >= 1 && processed < 16)
        let files = Batch.files(out)
        #expect(files.filter { $0.hasSuffix(".json") && $0.hasPrefix("m") }.count == processed, "the in-flight photo finished, nothing else started")
        #expect(!files.contains { $0.contains(".tmp-") })
        #expect(try String(contentsOf: log, encoding: .utf8).contains("stopping"))

        let again = try CLI.run(args + ["--quiet"], environment: Batch.environment([:]))
        #expect(again.status == 0, "\(again.stderr)")
        let resumed = try CLI.json(out.appendingPathComponent("summary.json"))
        #expect(resumed["reused"] as? Int == processed && resumed["processed"] as? Int == 16)
    }

    @Test("the first SIGTERM ends the run promptly, even with a photo that never finishes: exit 130, summary, re-run resumes")
    func terminate() throws {
        let input = try Batch.folder([("a-hang.png", "menu-clean.png"), ("b.png", "menu-clean.png")])
        let root = input.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: root) }
        let out = root.appendingPathComponent("out")
        let args = ["scan", input.path, "--out", out.path, "--jobs", "1", "--quiet", "--timeout", "600"]
        let process = try Batch.start(args, environment: Batch.environment(["MENUSCAN_TEST_HANG_ON": "a-hang.png"]))
        var polls = 0
        while polls < 200, !Batch.journal(out).contains(where: { $0["event"] as? String == "start" }) {
            usleep(50_000)
            polls += 1
        }
        let sent = ContinuousClock.now
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect((ContinuousClock.now - sent) < .seconds(10), "ended promptly")
        #expect(process.terminationStatus == 130)
        #expect(try CLI.json(out.appendingPathComponent("summary.json"))["interrupted"] as? Bool == true)
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("a-hang.json").path))
        let again = try CLI.run(args, environment: Batch.environment([:]))
        #expect(again.status == 0, "the abandoned photo is redone: \(again.stderr)")
    }

    @Test("a second signal abandons the photos in flight, still exit 130 with a summary")
    func secondSignal() throws {
        let input = try Batch.folder((0..<16).map { ("m\($0).png", "menu-clean.png") })
        let root = input.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: root) }
        let out = root.appendingPathComponent("out")
        let process = try Batch.start(["scan", input.path, "--out", out.path, "--jobs", "1", "--quiet"], environment: Batch.environment([:]))
        Batch.waitFor(out.appendingPathComponent("m0.json"))
        kill(process.processIdentifier, SIGTERM)
        usleep(20_000)
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        #expect(try CLI.json(out.appendingPathComponent("summary.json"))["interrupted"] as? Bool == true)
        #expect(!Batch.files(out).contains { $0.contains(".tmp-") })
    }

    @Test("--timeout: a photo over the limit is an error (MSG-PROC-001) and the run goes on")
    func timeout() throws {
        let out = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try CLI.run(["scan", "samples/menu-clean.png", "samples/menu-sideways-exif.jpg", "--out", out.path,
                                  "--timeout", "0.001", "--quiet"], environment: Batch.environment([:]))
        #expect(result.status == 1)
        for name in ["menu-clean", "menu-sideways-exif"] {
            let photo = try CLI.json(out.appendingPathComponent(name + ".json"))
            #expect(photo["status"] as? String == "error")
            let message = try #require((photo["messages"] as? [[String: Any]])?.first)
            #expect(message["code"] as? String == "MSG-PROC-001")
            #expect((message["detail"] as? String)?.contains("--timeout") == true)
        }
        // The generous default reads the same photo.
        let normal = try CLI.run(["scan", "samples/menu-clean.png", "--out", out.path, "--retry-failed", "--quiet"], environment: Batch.environment([:]))
        #expect(normal.status == 0)
    }

    @Test("3 shards merged equal one unsharded run; K/N also from JOB_COMPLETION_INDEX and Slurm")
    func shardsMerge() throws {
        let input = try Batch.folder(Self.inputs)
        let root = input.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: root) }
        let single = root.appendingPathComponent("single"), shared = root.appendingPathComponent("shared")
        let env = Batch.environment([:])
        #expect(try CLI.run(["scan", input.path, "--out", single.path, "--quiet"], environment: env).status == 1)

        let shardEnvs: [[String: String]] = [
            [:],                                                                  // --shard 0/3
            ["JOB_COMPLETION_INDEX": "1", "MENUSCAN_SHARDS": "3"],                // Kubernetes Indexed Job
            ["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "1"],  // Slurm --array=1-3
        ]
        var perShard: [Int] = []
        for (k, extra) in shardEnvs.enumerated() {
            let args = ["scan", input.path, "--out", shared.path, "--quiet"] + (k == 0 ? ["--shard", "0/3"] : [])
            let r = try CLI.run(args, environment: Batch.environment(extra))
            #expect(r.status == 0 || r.status == 1, "\(r.stderr)")
            let s = try CLI.json(shared.appendingPathComponent(".menuscan/summary-shard-\(k)-of-3.json"))
            #expect(s["shard"] as? String == "\(k)/3")
            perShard.append(s["photos"] as? Int ?? -1)
        }
        #expect(perShard.reduce(0, +) == Self.keys.count, "shards partition the inputs: \(perShard)")
        #expect(!FileManager.default.fileExists(atPath: shared.appendingPathComponent("summary.json").path), "shards leave summary.json to merge")

        let merged = try CLI.run(["merge", shared.path], environment: env)
        #expect(merged.status == 1, "some photos are not ok: \(merged.stdout) \(merged.stderr)")
        let a = try CLI.json(shared.appendingPathComponent("summary.json")), b = try CLI.json(single.appendingPathComponent("summary.json"))
        #expect((a["counts"] as? [String: Int]) == (b["counts"] as? [String: Int]))
        #expect(a["photos"] as? Int == b["photos"] as? Int && a["processed"] as? Int == b["processed"] as? Int)
        func rows(_ s: [String: Any]) -> [String] {
            (s["files"] as? [[String: Any]] ?? []).map { f in
                "\(f["path"] ?? "") \(f["output"] ?? "") \(f["status"] ?? "") \(f["codes"] ?? "") \(f["meanConfidence"] ?? "-") \(f["characters"] ?? "-")"
            }
        }
        #expect(rows(a) == rows(b))
        #expect(rows(a).count == Self.keys.count)
        for key in Self.keys {
            #expect(try Batch.result(shared.appendingPathComponent(key + ".json")) == Batch.result(single.appendingPathComponent(key + ".json")), "\(key)")
        }
        let csvA = try String(contentsOf: shared.appendingPathComponent("summary.csv"), encoding: .utf8)
        #expect(csvA.components(separatedBy: "\r\n").filter { !$0.isEmpty }.count == Self.keys.count + 1)
        print("shard/merge: shards of \(perShard) photos; merged summary equals the unsharded run (\(Self.keys.count) photos)")

        // A missing shard is refused.
        try FileManager.default.removeItem(at: shared.appendingPathComponent(".menuscan/summary-shard-2-of-3.json"))
        let incomplete = try CLI.run(["merge", shared.path], environment: env)
        #expect(incomplete.status == 65 && incomplete.stderr.contains("missing shard"))
        // JOB_COMPLETION_INDEX without a count is a usage error.
        #expect(try CLI.run(["scan", input.path, "--out", shared.path], environment: Batch.environment(["JOB_COMPLETION_INDEX": "0"])).status == 64)
    }

    @Test("R12: no log line of any format, nor the summaries, holds words from the samples' menus")
    func privacy() throws {
        let gt = try ["menu-clean", "menu-photo", "menu-sideways-exif"].map {
            try String(contentsOf: CLI.packageRoot.appendingPathComponent("samples/\($0).gt.txt"), encoding: .utf8)
        }.joined(separator: " ")
        // Menu words (4+ letters) that are not also in our file names or log vocabulary.
        let vocabulary = Set(["menu", "clean", "photo", "sideways", "exif", "blank", "corrupt", "samples"])
        let words = Set(gt.split(whereSeparator: { !$0.isLetter }).map(String.init).filter { $0.count >= 4 && !vocabulary.contains($0.lowercased()) })
        #expect(words.count > 50)
        let out = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        var lines: [String] = []
        for format in ["text", "json"] {
            let r = try CLI.run(["scan", "samples", "--out", out.path, "--verbose", "--force", "--log-format", format], environment: Batch.environment([:]))
            #expect(r.status == 1)
            let logLines = r.stderr.split(separator: "\n").map(String.init)
            #expect(logLines.filter { $0.contains("photo done") }.count == Batch.sampleCount, "one line per photo in \(format)")
            lines += logLines
        }
        lines += try String(contentsOf: out.appendingPathComponent("summary.json"), encoding: .utf8).split(separator: "\n").map(String.init)
        lines += try String(contentsOf: out.appendingPathComponent("summary.csv"), encoding: .utf8).split(separator: "\n").map(String.init)
        lines += try String(contentsOf: out.appendingPathComponent(".menuscan/journal.jsonl"), encoding: .utf8).split(separator: "\n").map(String.init)
        let menuWords = Set(words.map { $0.lowercased() })
        for line in lines {
            // Whole words, case-insensitive ("start" does not hold "Tart").
            let tokens = Set(line.split(whereSeparator: { !$0.isLetter }).map { $0.lowercased() })
            for word in tokens.intersection(menuWords) {
                Issue.record("menu text \"\(word)\" in: \(line)")
            }
        }
        // The words are on the photos: the text outputs have them, so the check above could fail.
        let text = try String(contentsOf: out.appendingPathComponent("menu-clean.txt"), encoding: .utf8)
        #expect(words.filter { text.contains($0) }.count > 20)
    }

    @Test("--log-format json: one object per line with file, status, code, severity and timings")
    func jsonLogs() throws {
        let out = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let r = try CLI.run(["scan", "samples", "--out", out.path, "--verbose", "--log-format", "json"], environment: Batch.environment([:]))
        #expect(r.status == 1)
        let objects = try r.stderr.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:] }
        #expect(!objects.isEmpty && objects.allSatisfy { $0["level"] is String && $0["message"] is String && $0["time"] is String })
        let photos = objects.filter { $0["message"] as? String == "photo done" }
        #expect(photos.count == Batch.sampleCount)
        let corrupt = try #require(photos.first { ($0["file"] as? String)?.hasSuffix("corrupt.jpg") == true })
        #expect(corrupt["status"] as? String == "error" && corrupt["code"] as? String == "MSG-INPUT-001" && corrupt["severity"] as? String == "medium")
        let clean = try #require(photos.first { ($0["file"] as? String)?.hasSuffix("menu-clean.png") == true })
        #expect((clean["timings"] as? [String: Any])?["ocr"] is Double)
        #expect(clean["confidence"] is Double && clean["seconds"] is Double)
    }

    @Test("progress bar only on a terminal and never with --quiet")
    func progressBar() throws {
        let out = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let plain = try CLI.run(["scan", "samples", "--out", out.path, "--force"], environment: Batch.environment([:]))
        #expect(!plain.stderr.contains("photos/s") && !plain.stderr.contains("\r"), "not a TTY: no bar")
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { return }
        func onTTY(_ extra: String) throws -> String {
            let command = "\(CLI.binary.path) scan samples --out \(out.path) --force \(extra)"
            return try CLI.run(["-qec", command, "/dev/null"], environment: Batch.environment([:]), executable: "/usr/bin/script").stdout
        }
        let tty = try onTTY("")
        let n = Batch.sampleCount
        #expect(tty.contains("\(n)/\(n)") && tty.contains("photos/s") && tty.contains("ETA") && tty.contains("error 1") && tty.contains("failed "), "\(tty)")
        #expect(!(try onTTY("--quiet")).contains("photos/s"))
    }

    @Test("R13 on a real full file system (tmpfs; needs mount rights, skipped otherwise)", .enabled(if: TmpFS.available))
    func fullDisk() throws {
        let mount = CLI.temporaryDirectory()
        defer { _ = try? CLI.run([mount.path], executable: "/bin/umount"); try? FileManager.default.removeItem(at: mount) }
        #expect(try CLI.run(["-t", "tmpfs", "-o", "size=64k", "tmpfs", mount.path], executable: "/bin/mount").status == 0)
        // Leave about 20 KB free: enough for the journal and a few results, not for all.
        try Data(count: 44 * 1024).write(to: mount.appendingPathComponent("filler"))
        let out = mount.appendingPathComponent("out")
        let r = try CLI.run(["scan", "samples", "--out", out.path, "--jobs", "1"], environment: Batch.environment([:]))
        #expect(r.status == 73, "\(r.stderr)")
        #expect(r.stderr.contains("MSG-STORAGE-001"))
        let files = Batch.files(out)
        #expect(!files.contains { $0.contains(".tmp-") }, "\(files)")
        for json in files where json.hasSuffix(".json") && !json.hasPrefix(".menuscan") {
            #expect((try? CLI.json(out.appendingPathComponent(json))) != nil, "\(json) is complete")
        }
        // The journal holds whole lines only, and the same command resumes once there is space.
        try BadInputTests.expectWholeJournal(out)
        let done = Batch.journal(out).filter { $0["event"] as? String == "done" }.count
        #expect(try CLI.run(["-o", "remount,size=64m", mount.path], executable: "/bin/mount").status == 0)
        let again = try CLI.run(["scan", "samples", "--out", out.path, "--jobs", "1", "--quiet"], environment: Batch.environment([:]))
        #expect(again.status == 1, "some samples are not ok: \(again.stderr)")
        let summary = try CLI.json(out.appendingPathComponent("summary.json"))
        #expect(summary["processed"] as? Int == Batch.sampleCount && summary["reused"] as? Int == done)
        print("full tmpfs: exit \(r.status), \(done) photos done before the disk was full; after more space the re-run kept them and finished \(Batch.sampleCount)")
        try BadInputTests.expectWholeJournal(out)
    }
}

enum TmpFS {
    /// Whether this machine lets the tests mount a tmpfs (root with CAP_SYS_ADMIN).
    static let available: Bool = {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/bin/mount") else { return false }
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        guard let r = try? CLI.run(["-t", "tmpfs", "-o", "size=4k", "tmpfs", dir.path], executable: "/bin/mount"), r.status == 0 else { return false }
        _ = try? CLI.run([dir.path], executable: "/bin/umount")
        return true
    }()
}
