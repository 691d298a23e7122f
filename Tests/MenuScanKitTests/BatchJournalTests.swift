import Foundation
import Logging
import Testing
@testable import MenuScanKit

/// Records the waits a retry policy asks for, instead of sleeping.
final class SleepRecorder: @unchecked Sendable {
    // @unchecked: `waits` is guarded by `lock`.
    private let lock = NSLock()
    private var recorded: [Double] = []
    var waits: [Double] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }

    func policy(network: Bool = false) -> RetryPolicy {
        RetryPolicy(sleep: { [self] in lock.lock(); recorded.append($0); lock.unlock() }, isNetworkPath: { _ in network })
    }
}

/// An output writer that fails on chosen calls with a chosen errno
/// (after writing a partial temporary file, as a full disk would).
final class FaultyWriter: @unchecked Sendable {
    // @unchecked: `calls` is guarded by `lock`.
    private let lock = NSLock()
    private var calls = 0
    let failing: @Sendable (Int) -> Int32?

    init(failing: @escaping @Sendable (Int) -> Int32?) { self.failing = failing }

    var writer: OutputWriter {
        OutputWriter { [self] (bytes, url) throws(IOFailure) in
            lock.lock()
            calls += 1
            let n = calls
            lock.unlock()
            if let code = failing(n) {
                // A torn temporary file, removed as AtomicWriter does on failure.
                let tmp = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).tmp-fault")
                _ = FileManager.default.createFile(atPath: tmp.path, contents: Data(bytes.prefix(bytes.count / 2)))
                unlink(tmp.path)
                throw IOFailure(code: code, what: "writing \(url.lastPathComponent)")
            }
            try AtomicWriter.writeOnce(bytes, to: url)
        }
    }
}

@Suite("Batch: retries, journal, hashing, shards, CSV, merge")
struct BatchJournalTests {
    @Test("R10: transient errors are retried 3 times after 1, 2 and 4 s; then the error stands")
    func retries() throws {
        let sleeps = SleepRecorder()
        var attempts = 0
        let value = try sleeps.policy().run(path: "/x") { () throws(IOFailure) -> Int in
            attempts += 1
            if attempts < 3 { throw IOFailure(code: attempts == 1 ? EAGAIN : EINTR, what: "x") }
            return 42
        }
        #expect(value == 42 && attempts == 3)
        #expect(sleeps.waits == [1, 2])

        let always = SleepRecorder()
        attempts = 0
        #expect(throws: IOFailure(code: ESTALE, what: "x")) {
            try always.policy().run(path: "/x") { () throws(IOFailure) in attempts += 1; throw IOFailure(code: ESTALE, what: "x") }
        }
        #expect(attempts == 4 && always.waits == [1, 2, 4])
    }

    @Test("R10/R13: full disk, read-only, permissions are never retried; EIO only on network mounts")
    func notRetried() {
        for code in [ENOSPC, EROFS, EACCES, ENOENT, EDQUOT] {
            let sleeps = SleepRecorder()
            var attempts = 0
            #expect(throws: IOFailure.self) {
                try sleeps.policy().run(path: "/x") { () throws(IOFailure) in attempts += 1; throw IOFailure(code: code, what: "x") }
            }
            #expect(attempts == 1 && sleeps.waits.isEmpty, "errno \(code)")
        }
        let local = SleepRecorder().policy(network: false), nfs = SleepRecorder().policy(network: true)
        #expect(!local.isTransient(IOFailure(code: EIO, what: ""), path: "/x"))
        #expect(nfs.isTransient(IOFailure(code: EIO, what: ""), path: "/x"))
        #expect(!RetryPolicy.onNetworkFileSystem(FileManager.default.temporaryDirectory.path))
    }

    @Test("the journal folds start/crash/done per photo and survives a torn last line")
    func journal() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanup(dir) }
        let record = PhotoRecord(path: "a.png", output: "a.json", status: .ok, codes: [], meanConfidence: 0.9, characters: 20, seconds: 1)
        do {
            let j = try Journal(outputDirectory: dir, shard: nil)
            try j.append(JournalEntry(event: .start, key: "a", sha256: "h1", settings: "s"))
            try j.append(JournalEntry(event: .done, key: "a", sha256: "h1", settings: "s", record: record, outputs: ["a.json"]))
            try j.append(JournalEntry(event: .start, key: "b", sha256: "h2", settings: "s"))
            try j.append(JournalEntry(event: .crash, key: "b", sha256: "h2", settings: "s"))
            try j.append(JournalEntry(event: .crash, key: "b", sha256: "h2", settings: "s"))
            try j.append(JournalEntry(event: .crash, key: "c", sha256: "h3", settings: "s"))
            try j.append(JournalEntry(event: .crash, key: "c", sha256: "h3-changed", settings: "s"))
        }
        // A kill in the middle of a line.
        let url = Journal.folder(in: dir).appendingPathComponent("journal.jsonl")
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("{\"event\":\"done\",\"key\":\"b\",\"sett".utf8))
        try handle.close()

        var state = Journal.load(outputDirectory: dir)
        #expect(state.unreadableLines == 1)
        #expect(state.photos["a"]?.done?.record == record)
        #expect(state.crashes(key: "b", sha256: "h2", settings: "s") == 2)
        #expect(state.crashes(key: "b", sha256: "h2", settings: "other") == 0)
        #expect(state.crashes(key: "c", sha256: "h3-changed", settings: "s") == 1, "a crash on other content does not count")
        #expect(state.photos["b"]?.done == nil)

        // The next writer ends the torn line first, so its entries are read.
        let j2 = try Journal(outputDirectory: dir, shard: Shard(index: 1, count: 2))
        try Journal(outputDirectory: dir, shard: nil).append(JournalEntry(event: .done, key: "b", sha256: "h2", settings: "s", record: record))
        try j2.append(JournalEntry(event: .done, key: "d", sha256: "h4", settings: "s", record: record))
        state = Journal.load(outputDirectory: dir)
        #expect(state.unreadableLines == 1)
        #expect(state.photos["b"]?.done != nil && state.crashes(key: "b", sha256: "h2", settings: "s") == 0)
        #expect(state.photos["d"]?.done != nil, "shard journals are read too")
    }

    @Test("a second run refused by the journal's lock writes nothing to it, not even the end of a torn line")
    func refusedRunLeavesJournal() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanup(dir) }
        let first = try Journal(outputDirectory: dir, shard: nil)
        #expect(first.tryLock())
        try first.append(JournalEntry(event: .start, key: "a", sha256: "h1", settings: "s"))
        // The first run is in the middle of its work; its file ends without a newline for a moment.
        let url = first.url
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("{\"event\":\"st".utf8))
        try handle.close()
        let before = try Data(contentsOf: url)
        let second = try Journal(outputDirectory: dir, shard: nil)
        #expect(!second.tryLock())
        #expect(try Data(contentsOf: url) == before, "the refused run wrote to the journal")
        // The next run that writes ends the torn line before its first entry.
        try Journal(outputDirectory: dir, shard: nil).append(JournalEntry(event: .start, key: "b", sha256: "h2", settings: "s"))
        let state = Journal.load(outputDirectory: dir)
        #expect(state.unreadableLines == 1 && state.photos["b"] != nil)
    }

    @Test("settings hash: stable, changes with settings that change results, ignores --timeout")
    func settingsHash() {
        let base = ScanSettings()
        #expect(BatchHashing.settingsHash(base) == BatchHashing.settingsHash(ScanSettings()))
        #expect(BatchHashing.settingsHash(base).count == 64)
        var psm = base
        psm.ocr.pageSegmentationMode = 11
        #expect(BatchHashing.settingsHash(psm) != BatchHashing.settingsHash(base))
        var timed = base
        timed.ocr.timeLimitSeconds = 5
        #expect(BatchHashing.settingsHash(timed) == BatchHashing.settingsHash(base))
    }

    @Test("content hash streams the file and equals the decoder's sha256")
    func contentHash() throws {
        let url = TestSupport.samples.appendingPathComponent("menu-clean.png")
        let decoded = try ImageDecoder().decode(fileAt: url)
        #expect(try BatchHashing.contentHash(of: url) == decoded.sha256)
        #expect(throws: IOFailure.self) { try BatchHashing.contentHash(of: URL(fileURLWithPath: "/nonexistent/x.png")) }
    }

    @Test("shards: K/N parsing, environment (Kubernetes, Slurm), a stable partition")
    func shards() throws {
        #expect(Shard(parsing: "0/3") == Shard(index: 0, count: 3))
        for bad in ["3/3", "-1/3", "1", "a/b", "1/0", "1/2/3"] { #expect(Shard(parsing: bad) == nil, "\(bad)") }
        #expect(try Shard.fromEnvironment(["JOB_COMPLETION_INDEX": "2"], shards: 4).get() == Shard(index: 2, count: 4))
        #expect(try Shard.fromEnvironment(["JOB_COMPLETION_INDEX": "1", "MENUSCAN_SHARDS": "3"], shards: nil).get() == Shard(index: 1, count: 3))
        #expect(throws: ShardError.self) { try Shard.fromEnvironment(["JOB_COMPLETION_INDEX": "1"], shards: nil).get() }
        #expect(throws: ShardError.self) { try Shard.fromEnvironment(["JOB_COMPLETION_INDEX": "5"], shards: 3).get() }
        #expect(try Shard.fromEnvironment(["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "1"], shards: nil).get()
                == Shard(index: 2, count: 3))
        #expect(try Shard.fromEnvironment(["SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "2"], shards: nil).get() == Shard(index: 0, count: 2))
        #expect(try Shard.fromEnvironment([:], shards: nil).get() == nil)
        #expect(throws: ShardError.self) { try Shard.fromEnvironment([:], shards: 3).get() }

        let paths = (0..<300).map { "d\($0 % 7)/menu-\($0).jpg" }
        let shards = (0..<3).compactMap { Shard(index: $0, count: 3) }
        let parts = shards.map { s in Set(paths.filter { s.contains(relativePath: $0) }) }
        #expect(parts.map(\.count).reduce(0, +) == paths.count)
        #expect(parts.reduce(Set<String>()) { $0.union($1) }.count == paths.count, "every path in exactly one shard")
        #expect(parts.allSatisfy { $0.count > 60 }, "roughly even: \(parts.map(\.count))")
        // Adding files never moves existing ones.
        let more = paths + (300..<400).map { "new/\($0).jpg" }
        for (s, part) in zip(shards, parts) {
            #expect(Set(more.filter { s.contains(relativePath: $0) }).isSuperset(of: part))
        }
    }

    @Test("summary.csv: a header, one row per photo, RFC 4180 quoting, counts where present")
    func csv() {
        let rows = [
            PhotoRecord(path: "a, \"b\".png", output: "a.json", status: .ok, codes: [], meanConfidence: 0.91234,
                        characters: 12, seconds: 1.5, timings: ["decode": 0.1, "ocr": 1.25], items: 3, allergens: 2),
            PhotoRecord(path: "c.jpg", output: "c.json", status: .error, codes: ["MSG-INPUT-001"], meanConfidence: nil,
                        characters: nil, seconds: 0.01),
        ]
        let lines = SummaryCSV.render(rows).components(separatedBy: "\r\n")
        #expect(lines[0] == SummaryCSV.columns.joined(separator: ","))
        #expect(lines[1] == "\"a, \"\"b\"\".png\",a.json,ok,,0.9123,12,1.5000,0.1000,1.2500,,3,2")
        #expect(lines[2] == "c.jpg,c.json,error,MSG-INPUT-001,,,0.0100,,,,,")
        #expect(lines.count == 4 && lines[3].isEmpty)
    }

    @Test("merge: every shard once, same settings, no photo twice; outputs relative to the merged folder")
    func merge() throws {
        func summary(_ shard: String?, _ paths: [String], settings: ScanSettings = ScanSettings()) -> RunSummary {
            RunSummary(records: paths.map { PhotoRecord(path: $0, output: $0 + ".json", status: .ok, codes: [], meanConfidence: 0.8, characters: 20, seconds: 1) },
                       total: paths.count, wallSeconds: 2, settings: settings, jobs: 1, fatal: nil as ResultMessage?, reused: 0,
                       interrupted: false, shard: shard, peakRSSBytes: 100)
        }
        let out = URL(fileURLWithPath: "/data/out")
        let merged = try SummaryMerge.merge([(out, summary("1/2", ["b"])), (out.appendingPathComponent("s0"), summary("0/2", ["a"]))], into: out)
        #expect(merged.files.map(\.path) == ["a", "b"])
        #expect(merged.files.map(\.output) == ["s0/a.json", "b.json"])
        #expect(merged.photos == 2 && merged.processed == 2 && merged.counts["ok"] == 2 && merged.shard == nil)
        #expect(throws: SummaryMerge.Failure.self) { try SummaryMerge.merge([(out, summary("0/2", ["a"]))], into: out) }
        #expect(throws: SummaryMerge.Failure.self) { try SummaryMerge.merge([(out, summary("0/2", ["a"])), (out, summary("1/2", ["a"]))], into: out) }
        #expect(throws: SummaryMerge.Failure.self) { try SummaryMerge.merge([(out, summary("0/2", ["a"])), (out, summary("0/2", ["b"]))], into: out) }
        var other = ScanSettings()
        other.ocr.pageSegmentationMode = 6
        #expect(throws: SummaryMerge.Failure.self) { try SummaryMerge.merge([(out, summary("0/2", ["a"])), (out, summary("1/2", ["b"], settings: other))], into: out) }
        #expect(throws: SummaryMerge.Failure.self) { try SummaryMerge.merge([(out, summary(nil, ["a"]))], into: out) }
    }
}

@Suite("Batch runner: resume, storage faults, retries", .serialized)
struct BatchRunnerTests {
    static let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    /// A folder with copies of small samples (fast to OCR) and the corrupt one.
    func inputFolder() throws -> URL {
        let dir = TestSupport.temporaryDirectory().appendingPathComponent("in")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let fm = FileManager.default
        for (name, sample) in [("a.jpg", "menu-sideways-exif.jpg"), ("b.jpg", "menu-sideways-exif.jpg"),
                               ("c.png", "blank.png"), ("d.jpg", "corrupt.jpg")] {
            try fm.copyItem(at: TestSupport.samples.appendingPathComponent(sample), to: dir.appendingPathComponent(name))
        }
        return dir
    }

    func run(_ input: URL, _ out: URL, mode: RerunMode = .resume, jobs: Int = 1, writer: OutputWriter = .atomic,
             retry: RetryPolicy? = nil) throws -> BatchOutcome {
        var options = BatchOptions(settings: ScanSettings(), outputDirectory: out, jobs: jobs,
                                   journal: try Journal(outputDirectory: out, shard: nil))
        options.mode = mode
        options.writer = writer
        options.retry = retry ?? SleepRecorder().policy()
        return BatchRunner(photos: InputDiscovery.discover([input.path]).photos, options: options, logger: Self.logger).run()
    }

    func inode(_ url: URL) -> UInt64? {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? UInt64) ?? nil
    }

    @Test("a re-run keeps results done with the same content and settings; a changed photo is redone; --retry-failed and --force")
    func resume() throws {
        let input = try inputFolder()
        let root = input.deletingLastPathComponent()
        defer { TestSupport.cleanup(root) }
        let out = root.appendingPathComponent("out")
        let first = try run(input, out, jobs: 2)
        #expect(first.fatal == nil && first.records.count == 4 && first.summary.reused == 0)
        let inodes = ["a", "b", "c", "d"].map { inode(out.appendingPathComponent("\($0).json")) }

        let second = try run(input, out)
        #expect(second.summary.reused == 4 && second.summary.processed == 4)
        #expect(second.summary.counts == first.summary.counts)
        #expect(["a", "b", "c", "d"].map { inode(out.appendingPathComponent("\($0).json")) } == inodes, "nothing rewritten")

        // Changed content is redone; the rest kept.
        try FileManager.default.removeItem(at: input.appendingPathComponent("b.jpg"))
        try FileManager.default.copyItem(at: TestSupport.samples.appendingPathComponent("blank.png"), to: input.appendingPathComponent("b.jpg"))
        let third = try run(input, out)
        #expect(third.summary.reused == 3)
        #expect(third.records.first { $0.path.hasSuffix("b.jpg") }?.status == .failed)

        // --retry-failed redoes failed and error photos only.
        let retried = try run(input, out, mode: .retryFailed)
        #expect(retried.summary.reused == 1, "only a.jpg (ok) is kept")
        #expect(inode(out.appendingPathComponent("a.json")) == inodes[0])
        // A deleted output is redone.
        try FileManager.default.removeItem(at: out.appendingPathComponent("a.json"))
        #expect(try run(input, out).summary.reused == 3)
        #expect(try run(input, out, mode: .force).summary.reused == 0)
    }

    @Test("R13: storage full stops new photos, MSG-STORAGE-001, no half-written photo, no retry")
    func storageFull() throws {
        let input = try inputFolder()
        let root = input.deletingLastPathComponent()
        defer { TestSupport.cleanup(root) }
        let out = root.appendingPathComponent("out")
        // Writes 1 and 2 (a.txt, a.json) succeed; the 3rd (b.txt) hits a full disk.
        let faulty = FaultyWriter { $0 >= 3 ? ENOSPC : nil }
        let sleeps = SleepRecorder()
        let outcome = try run(input, out, writer: faulty.writer, retry: sleeps.policy())
        #expect(outcome.fatal?.code == "MSG-STORAGE-001")
        #expect(outcome.fatal?.detail?.contains("errno \(ENOSPC)") == true)
        #expect(sleeps.waits.isEmpty, "a full disk is not retried")
        #expect(outcome.records.map(\.path).map { ($0 as NSString).lastPathComponent } == ["a.jpg"], "no new photo after the failure")
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(files == [".menuscan", "a.json", "a.txt"], "b has neither txt nor json; no temporary files: \(files)")
        // The journal holds a only: a re-run does b, c, d and keeps a.
        let again = try run(input, out)
        #expect(again.fatal == nil && again.summary.reused == 1 && again.records.count == 4)
    }

    @Test("R13: a read-only folder (EROFS) is a storage error too")
    func readOnly() throws {
        let input = try inputFolder()
        let root = input.deletingLastPathComponent()
        defer { TestSupport.cleanup(root) }
        let outcome = try run(input, root.appendingPathComponent("out"), writer: FaultyWriter { _ in EROFS }.writer)
        #expect(outcome.fatal?.code == "MSG-STORAGE-001" && outcome.records.isEmpty)
    }

    @Test("R10: a transient write error is retried with backoff and the photo completes")
    func transientWrite() throws {
        let input = try inputFolder()
        let root = input.deletingLastPathComponent()
        defer { TestSupport.cleanup(root) }
        let out = root.appendingPathComponent("out")
        let faulty = FaultyWriter { $0 == 1 || $0 == 2 ? EAGAIN : ($0 == 5 ? EIO : nil) }
        let sleeps = SleepRecorder()
        let outcome = try run(input, out, writer: faulty.writer, retry: sleeps.policy(network: true))
        #expect(outcome.fatal == nil && outcome.records.count == 4)
        #expect(sleeps.waits == [1, 2, 1])
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("a.json").path))
    }
}
