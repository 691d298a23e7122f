import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A failed system call: its errno and what was being done (a file name, never content).
public struct IOFailure: Error, Equatable, Sendable, CustomStringConvertible {
    public var code: Int32
    public var what: String

    public init(code: Int32, what: String) {
        self.code = code
        self.what = what
    }

    public var description: String { "\(what): \(String(cString: strerror(code))) (errno \(code))" }

    /// Every failure to write output is a storage problem (R13): full disk,
    /// quota, read-only or unwritable folder. The detail names the cause.
    public var storageError: MenuScanError { MenuScanError.storageFull.with(detail: description) }
}

/// R10: only transient I/O failures are retried, with exponential backoff;
/// user-input problems (unreadable image, quality, OCR) never are: they are not
/// `IOFailure`s and never reach this type. `sleep` is injectable so tests don't wait.
public struct RetryPolicy: Sendable {
    /// Waits before each retry: the default retries 3 times, after 1 s, 2 s and 4 s.
    public var delays: [Double]
    public var sleep: @Sendable (Double) -> Void
    /// Whether the path is on a network file system (EIO is transient only there).
    public var isNetworkPath: @Sendable (String) -> Bool

    public init(delays: [Double] = [1, 2, 4],
                sleep: @escaping @Sendable (Double) -> Void = { Thread.sleep(forTimeInterval: $0) },
                isNetworkPath: @escaping @Sendable (String) -> Bool = RetryPolicy.onNetworkFileSystem) {
        self.delays = delays
        self.sleep = sleep
        self.isNetworkPath = isNetworkPath
    }

    public static let standard = RetryPolicy()

    /// EINTR, EAGAIN, EBUSY, ETIMEDOUT, ESTALE always; EIO on network mounts.
    /// ENOSPC, EDQUOT, EROFS, EACCES, ENOENT… are not transient.
    public func isTransient(_ failure: IOFailure, path: String) -> Bool {
        switch failure.code {
        case EINTR, EAGAIN, EBUSY, ETIMEDOUT, ESTALE: true
        case EIO: isNetworkPath(path)
        default: false
        }
    }

    /// Runs `body`; a transient failure is retried after each delay in turn.
    /// `onRetry` sees the failure, the retry number (1…) and the wait.
    public func run<T>(path: String, onRetry: ((IOFailure, Int, Double) -> Void)? = nil,
                       _ body: () throws(IOFailure) -> T) throws(IOFailure) -> T {
        var attempt = 0
        while true {
            do {
                return try body()
            } catch {
                guard attempt < delays.count, isTransient(error, path: path) else { throw error }
                let wait = delays[attempt]
                attempt += 1
                onRetry?(error, attempt, wait)
                sleep(wait)
            }
        }
    }

    /// File system types of network mounts (from /proc/self/mounts).
    static let networkTypes: Set<String> = ["nfs", "nfs4", "cifs", "smb3", "smbfs", "ceph", "9p", "afs",
                                            "lustre", "glusterfs", "fuse.glusterfs", "fuse.sshfs", "gpfs", "beegfs"]

    /// Only consulted after an EIO, so reading the mount table each time is fine.
    public static let onNetworkFileSystem: @Sendable (String) -> Bool = { path in
        guard let table = try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8) else { return false }
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        var best = (length: -1, type: "")
        for line in table.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 3 else { continue }
            let mountPoint = fields[1].replacingOccurrences(of: "\\040", with: " ")
            let inside = mountPoint == "/" || absolute == mountPoint || absolute.hasPrefix(mountPoint + "/")
            if inside, mountPoint.count > best.length { best = (mountPoint.count, String(fields[2])) }
        }
        return networkTypes.contains(best.type)
    }
}
