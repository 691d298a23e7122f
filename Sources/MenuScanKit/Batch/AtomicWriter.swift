import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes files atomically: a temporary file in the same folder, fsync, then
/// rename over the target. A reader never sees a half-written file, and a
/// killed run leaves at most a hidden `.NAME.tmp-…` file behind.
public enum AtomicWriter {
    public static func write(_ bytes: [UInt8], to url: URL) throws(MenuScanError) {
        do {
            try writeOnce(bytes, to: url)
        } catch {
            throw error.storageError
        }
    }

    public static func write(_ string: String, to url: URL) throws(MenuScanError) {
        try write(Array(string.utf8), to: url)
    }

    /// One attempt, failing with the errno of the call that failed (for R10
    /// retries of transient errors). Nothing is left behind on failure.
    public static func writeOnce(_ bytes: [UInt8], to url: URL) throws(IOFailure) {
        let dir = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        } catch {
            throw IOFailure(code: errno == 0 ? EIO : errno, what: "creating \(dir.lastPathComponent)")
        }
        let tmp = dir.appendingPathComponent(".\(url.lastPathComponent)\(temporaryMarker)\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        let fd = open(tmp.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw IOFailure(code: errno, what: "creating \(url.lastPathComponent)") }
        var ok = false
        defer {
            if !ok { unlink(tmp.path) }
        }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { buf in
                buf.baseAddress.map { Glibc.write(fd, $0 + offset, buf.count - offset) } ?? 0
            }
            if n < 0 {
                if errno == EINTR { continue }
                let e = errno
                close(fd)
                throw IOFailure(code: e, what: "writing \(url.lastPathComponent)")
            }
            offset += n
        }
        if fsync(fd) != 0 {
            let e = errno
            close(fd)
            throw IOFailure(code: e, what: "syncing \(url.lastPathComponent)")
        }
        guard close(fd) == 0 else { throw IOFailure(code: errno, what: "closing \(url.lastPathComponent)") }
        guard rename(tmp.path, url.path) == 0 else { throw IOFailure(code: errno, what: "renaming \(url.lastPathComponent)") }
        ok = true
    }

    /// Writes a file produced piece by piece (large summaries) with the same
    /// guarantees: temporary file, fsync, rename; nothing left on failure.
    /// `body` calls `emit` with each piece; pieces are buffered to 64 KiB.
    public static func stream(to url: URL, _ body: (_ emit: ([UInt8]) throws(IOFailure) -> Void) throws(IOFailure) -> Void) throws(MenuScanError) {
        let dir = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        } catch {
            throw storageError(errno == 0 ? EIO : errno, "creating \(dir.lastPathComponent)")
        }
        let tmp = dir.appendingPathComponent(".\(url.lastPathComponent)\(temporaryMarker)\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        let fd = open(tmp.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw storageError(errno, "creating \(url.lastPathComponent)") }
        var ok = false
        var closed = false
        defer {
            if !closed { close(fd) }
            if !ok { unlink(tmp.path) }
        }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 16)
        func flush() throws(IOFailure) {
            var offset = 0
            while offset < buffer.count {
                let n = buffer.withUnsafeBytes { buf in buf.baseAddress.map { Glibc.write(fd, $0 + offset, buf.count - offset) } ?? 0 }
                if n < 0 {
                    if errno == EINTR { continue }
                    throw IOFailure(code: errno, what: "writing \(url.lastPathComponent)")
                }
                offset += n
            }
            buffer.removeAll(keepingCapacity: true)
        }
        do throws(IOFailure) {
            try body { (piece: [UInt8]) throws(IOFailure) in
                buffer.append(contentsOf: piece)
                if buffer.count >= 1 << 16 { try flush() }
            }
            try flush()
            if fsync(fd) != 0 { throw IOFailure(code: errno, what: "syncing \(url.lastPathComponent)") }
            closed = true
            guard close(fd) == 0 else { throw IOFailure(code: errno, what: "closing \(url.lastPathComponent)") }
            guard rename(tmp.path, url.path) == 0 else { throw IOFailure(code: errno, what: "renaming \(url.lastPathComponent)") }
        } catch {
            throw error.storageError
        }
        ok = true
    }

    /// Temporary files are named `.NAME` + this + `PID-RANDOM`.
    public static let temporaryMarker = ".tmp-"

    /// Every failure to write output is a storage problem (R13): full disk,
    /// quota, read-only or unwritable folder. The detail names the cause.
    static func storageError(_ code: Int32, _ what: String) -> MenuScanError {
        IOFailure(code: code, what: what).storageError
    }

    /// The target file name when `name` is one of our temporary files
    /// (`.menu.json.tmp-123-456` → `menu.json`), else nil.
    public static func temporaryTarget(ofName name: String) -> String? {
        guard name.hasPrefix("."), let r = name.range(of: temporaryMarker, options: .backwards) else { return nil }
        let target = String(name[name.index(after: name.startIndex)..<r.lowerBound])
        return target.isEmpty ? nil : target
    }
}
