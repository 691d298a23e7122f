import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes files atomically: a temporary file in the same folder, fsync, then
/// rename over the target. A reader never sees a half-written file, and a
/// killed run leaves at most a hidden `.NAME.tmp-…` file behind.
public enum AtomicWriter {
    public static func write(_ bytes: [UInt8], to url: URL) throws(MenuScanError) {
        let dir = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        } catch {
            throw storageError(errno == 0 ? EIO : errno, "creating \(dir.lastPathComponent)")
        }
        let tmp = dir.appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        let fd = open(tmp.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw storageError(errno, "creating \(url.lastPathComponent)") }
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
                throw storageError(e, "writing \(url.lastPathComponent)")
            }
            offset += n
        }
        if fsync(fd) != 0 {
            let e = errno
            close(fd)
            throw storageError(e, "syncing \(url.lastPathComponent)")
        }
        guard close(fd) == 0 else { throw storageError(errno, "closing \(url.lastPathComponent)") }
        guard rename(tmp.path, url.path) == 0 else { throw storageError(errno, "renaming \(url.lastPathComponent)") }
        ok = true
    }

    public static func write(_ string: String, to url: URL) throws(MenuScanError) {
        try write(Array(string.utf8), to: url)
    }

    /// Every failure to write output is a storage problem (R13): full disk,
    /// quota, read-only or unwritable folder. The detail names the cause.
    static func storageError(_ code: Int32, _ what: String) -> MenuScanError {
        MenuScanError.storageFull.with(detail: "\(what): \(String(cString: strerror(code))) (errno \(code))")
    }
}
