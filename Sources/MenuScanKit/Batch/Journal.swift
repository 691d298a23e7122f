import Crypto
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How a re-run treats photos the journal already has.
public enum RerunMode: String, Sendable, Codable {
    /// Skip photos done with the same content and settings; do the rest.
    case resume
    /// As `resume`, and redo photos whose last result was failed, error or rejected.
    case retryFailed
    /// Redo every photo.
    case force
}

/// One line of the journal (JSON, one object per line).
public struct JournalEntry: Codable, Sendable, Equatable {
    public enum Event: String, Codable, Sendable {
        /// The photo was taken by a worker (written before any work on it).
        case start
        /// A native crash (signal) happened while this photo was in flight.
        case crash
        /// Both outputs are in place: the photo is complete.
        case done
    }

    public var event: Event
    /// The photo's output base ("sub/menu"): stable across runs and shards.
    public var key: String
    public var sha256: String?
    public var settings: String
    public var record: PhotoRecord?
    public var outputs: [String]?
    public var pid: Int32?

    public init(event: Event, key: String, sha256: String?, settings: String, record: PhotoRecord? = nil,
                outputs: [String]? = nil, pid: Int32? = nil) {
        self.event = event
        self.key = key
        self.sha256 = sha256
        self.settings = settings
        self.record = record
        self.outputs = outputs
        self.pid = pid
    }

    /// The entry as one journal line, newline included.
    public func line() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A struct of strings, numbers and arrays always encodes.
        return Array((try? encoder.encode(self)) ?? Data()) + [0x0A]
    }
}

/// What the journals of an output folder say, folded per photo.
public struct JournalState: Sendable {
    public struct Photo: Sendable, Equatable {
        /// The last completed result.
        public var done: JournalEntry?
        /// Native crashes on this photo since it was last completed, with the
        /// content and settings they happened with.
        public var crashes = 0
        public var crashSHA256: String?
        public var crashSettings: String?
        /// Starts without a completion (killed or crashed while in flight).
        public var unfinishedStarts = 0
    }

    public var photos: [String: Photo] = [:]
    /// Lines that could not be read (a torn last line after a kill).
    public var unreadableLines = 0

    public init() {}

    public mutating func apply(_ entry: JournalEntry) {
        var p = photos[entry.key] ?? Photo()
        switch entry.event {
        case .start:
            p.unfinishedStarts += 1
        case .crash:
            if p.crashSHA256 == entry.sha256 && p.crashSettings == entry.settings {
                p.crashes += 1
            } else {
                p.crashes = 1
                p.crashSHA256 = entry.sha256
                p.crashSettings = entry.settings
            }
        case .done:
            p.done = entry
            p.crashes = 0
            p.crashSHA256 = nil
            p.crashSettings = nil
            p.unfinishedStarts = 0
        }
        photos[entry.key] = p
    }

    /// Native crashes recorded for this content and settings since the last completion.
    public func crashes(key: String, sha256: String?, settings: String) -> Int {
        guard let p = photos[key], p.crashSHA256 == sha256, p.crashSettings == settings else { return 0 }
        return p.crashes
    }
}

/// The run journal: an append-only file of JSON lines under `OUT/.menuscan/`,
/// each line written with one `write` on an `O_APPEND` descriptor and synced
/// before the call returns. A kill can only tear the last line, which readers
/// skip; every photo's `done` line is written after its outputs are renamed
/// into place, so a `done` line always means a complete result on disk.
/// Shards sharing an output folder each append to their own file; every
/// reader folds all of them.
public final class Journal: @unchecked Sendable {
    // @unchecked: `fd` is written once in init; appends are serialised by `lock`.
    public static let folderName = ".menuscan"
    public let url: URL
    public let fileDescriptor: Int32
    private let lock = NSLock()
    private let retry: RetryPolicy
    /// Whether the file's end was checked for a torn line (guarded by `lock`).
    private var endChecked = false

    public static func folder(in outputDirectory: URL) -> URL {
        outputDirectory.appendingPathComponent(folderName, isDirectory: true)
    }

    /// `journal.jsonl`, or `journal-shard-K-of-N.jsonl` for a shard.
    public static func fileName(shard: Shard?) -> String {
        shard.map { "journal-\($0.label).jsonl" } ?? "journal.jsonl"
    }

    public init(outputDirectory: URL, shard: Shard?, retry: RetryPolicy = .standard) throws(MenuScanError) {
        let folder = Self.folder(in: outputDirectory)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw IOFailure(code: errno == 0 ? EIO : errno, what: "creating \(folder.path)").storageError
        }
        url = folder.appendingPathComponent(Self.fileName(shard: shard))
        let fd = open(url.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw IOFailure(code: errno, what: "opening \(url.lastPathComponent)").storageError }
        fileDescriptor = fd
        self.retry = retry
    }

    deinit { close(fileDescriptor) }

    /// Takes the advisory lock (flock) of this journal for the life of the
    /// process (released when it exits, however it exits). False when
    /// another process holds it: another run is writing this journal's photos.
    public func tryLock() -> Bool {
        while flock(fileDescriptor, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            return false
        }
        return true
    }

    /// The file's last byte (nil when empty or unreadable), without reading the rest.
    static func lastByte(of path: String) -> UInt8? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var byte: UInt8 = 0
        guard lseek(fd, -1, SEEK_END) >= 0, Glibc.read(fd, &byte, 1) == 1 else { return nil }
        return byte
    }

    /// Appends one entry and syncs it to disk (transient errors retried, R10).
    public func append(_ entry: JournalEntry) throws(MenuScanError) {
        let line = entry.line()
        lock.lock()
        defer { lock.unlock() }
        do {
            // A line torn by a kill would swallow the next entry: end it first.
            // Done on the first append, not on opening: a run refused by
            // another run's lock must not write a byte to its journal.
            if !endChecked {
                if Self.lastByte(of: url.path).map({ $0 != 0x0A }) == true {
                    try retry.run(path: url.path) { () throws(IOFailure) in try writeAll([0x0A]) }
                }
                endChecked = true
            }
            try retry.run(path: url.path) { () throws(IOFailure) in try writeAll(line) }
        } catch {
            throw error.storageError
        }
    }

    private func writeAll(_ bytes: [UInt8]) throws(IOFailure) {
        // One write call for the whole line, so concurrent appenders (the
        // supervisor's workers' results and crash lines) never interleave inside a line.
        // A line that does not fit (full disk, quota, file-size limit) is cut
        // off again: the journal keeps whole lines only and the next run
        // resumes from it. Only this process appends to this file (flock),
        // under `lock`, so the end before the write is still the end after.
        let end = lseek(fileDescriptor, 0, SEEK_END)
        let n = bytes.withUnsafeBytes { buf in Glibc.write(fileDescriptor, buf.baseAddress, buf.count) }
        if n < 0 {
            let code = errno
            cutBack(to: end)
            throw IOFailure(code: code, what: "appending to \(url.lastPathComponent)")
        }
        if n != bytes.count {
            // The rest would fail with the reason (ENOSPC, EDQUOT, EFBIG): ask for it.
            let rest = bytes.withUnsafeBytes { buf in Glibc.write(fileDescriptor, buf.baseAddress.map { $0 + n }, buf.count - n) }
            let code = rest < 0 ? errno : ENOSPC
            cutBack(to: end)
            throw IOFailure(code: code, what: "appending to \(url.lastPathComponent) (short write)")
        }
        if fsync(fileDescriptor) != 0 { throw IOFailure(code: errno, what: "syncing \(url.lastPathComponent)") }
    }

    /// Truncates a partly appended line away (best effort: should it fail,
    /// the torn line is skipped by readers and ended by the next writer).
    private func cutBack(to end: off_t) {
        guard end >= 0 else { return }
        while ftruncate(fileDescriptor, end) != 0 && errno == EINTR {}
    }

    /// Folds every `journal*.jsonl` in `OUT/.menuscan/` (all shards).
    public static func load(outputDirectory: URL) -> JournalState {
        var state = JournalState()
        let folder = folder(in: outputDirectory)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasPrefix("journal") && $0.hasSuffix(".jsonl") }.sorted()
        let decoder = JSONDecoder()
        for name in names {
            guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) else { continue }
            for line in data.split(separator: 0x0A, omittingEmptySubsequences: true) {
                if let entry = try? decoder.decode(JournalEntry.self, from: Data(line)) {
                    state.apply(entry)
                } else {
                    state.unreadableLines += 1
                }
            }
        }
        return state
    }
}

/// Hashes that tell whether an earlier result still holds.
public enum BatchHashing {
    /// SHA-256 of the settings' sorted-keys JSON. The time limit is left out:
    /// changing `--timeout` does not redo photos (timed-out ones are errors,
    /// redone with `--retry-failed`).
    public static func settingsHash(_ settings: ScanSettings) -> String {
        var s = settings
        s.ocr.timeLimitSeconds = nil
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(s)) ?? Data()
        return hex(SHA256.hash(data: data))
    }

    /// SHA-256 of the file's bytes, read in 64 KiB chunks into a stack buffer
    /// (no heap churn per photo: memory stays flat).
    public static func contentHash(of url: URL) throws(IOFailure) -> String {
        let fd: Int32
        switch RegularFile.open(url.path) {
        case .success(let opened): fd = opened.fd
        case .failure(.system(let code)): throw IOFailure(code: code, what: "opening \(url.lastPathComponent)")
        // Not hashed: the decoder reports why the file is not read (never a blocking open or read).
        case .failure(.notRegular), .failure(.tooLarge): throw IOFailure(code: EINVAL, what: "opening \(url.lastPathComponent)")
        }
        defer { close(fd) }
        var hasher = SHA256()
        let failure: Int32? = withUnsafeTemporaryAllocation(byteCount: 1 << 16, alignment: 16) { buffer in
            while true {
                let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if n == 0 { return nil }
                hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            }
        }
        if let failure { throw IOFailure(code: failure, what: "reading \(url.lastPathComponent)") }
        return hex(hasher.finalize())
    }

    static func hex<D: Sequence>(_ digest: D) -> String where D.Element == UInt8 {
        digest.map { String(format: "%02x", $0) }.joined()
    }
}
