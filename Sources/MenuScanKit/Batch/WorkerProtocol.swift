import Foundation
#if canImport(Glibc)
import Glibc
#endif

// The supervisor ↔ worker protocol (process isolation, docs/batch-isolation.md).
// Frames: a 4-byte big-endian length, then that many bytes of JSON. The
// supervisor sends one `WorkerConfig`, then one `WorkerJob` per photo; the
// worker answers each job with `stage` and `checkpoint` replies and ends it
// with one `result` (or `fatal` when its engine cannot start).

/// Sent once when a worker starts.
public struct WorkerConfig: Codable, Sendable {
    public var settings: ScanSettings
    public var overlay: Bool
    public var hooks: WorkerTestHooks

    public init(settings: ScanSettings, overlay: Bool, hooks: WorkerTestHooks = WorkerTestHooks()) {
        self.settings = settings
        self.overlay = overlay
        self.hooks = hooks
    }
}

/// TEST ONLY fault hooks, by file name, to prove isolation end to end:
/// `abort()` before decoding (MENUSCAN_TEST_CRASH_ON), a Swift trap in the
/// menu stage after OCR (MENUSCAN_TEST_TRAP_ON), a hang while decoding
/// (MENUSCAN_TEST_HANG_ON), SIGKILL in the middle of recognition, as the
/// kernel's OOM killer would (MENUSCAN_TEST_KILL_ON).
public struct WorkerTestHooks: Codable, Sendable, Equatable {
    public var crashOn: String?
    public var trapOn: String?
    public var hangOn: String?
    public var killOn: String?

    public init(crashOn: String? = nil, trapOn: String? = nil, hangOn: String? = nil, killOn: String? = nil) {
        self.crashOn = crashOn
        self.trapOn = trapOn
        self.hangOn = hangOn
        self.killOn = killOn
    }

    public static func fromEnvironment(_ env: [String: String]) -> WorkerTestHooks {
        func name(_ key: String) -> String? { env[key].flatMap { $0.isEmpty ? nil : $0 } }
        return WorkerTestHooks(crashOn: name("MENUSCAN_TEST_CRASH_ON"), trapOn: name("MENUSCAN_TEST_TRAP_ON"),
                               hangOn: name("MENUSCAN_TEST_HANG_ON"), killOn: name("MENUSCAN_TEST_KILL_ON"))
    }

    public var isEmpty: Bool { crashOn == nil && trapOn == nil && hangOn == nil && killOn == nil }
}

/// One photo for a worker. The whole work item travels as a Codable value,
/// so a field added to `InputPhoto` (e.g. a PDF page) needs no protocol change.
public struct WorkerJob: Codable, Sendable {
    public var photo: InputPhoto
}

/// A worker's answer.
public struct WorkerReply: Codable, Sendable {
    public enum Kind: String, Codable, Sendable {
        /// The pipeline entered `stage`.
        case stage
        /// What is done so far (OCR and the threshold rules): kept if a
        /// later stage fails.
        case checkpoint
        /// The photo's complete result.
        case result
        /// The engine could not start: the run must stop (`error`).
        case fatal

        var byte: UInt8 {
            switch self {
            case .stage: 0x73  // s
            case .checkpoint: 0x63  // c
            case .result: 0x72  // r
            case .fatal: 0x66  // f
            }
        }

        init?(byte: UInt8) {
            switch byte {
            case 0x73: self = .stage
            case 0x63: self = .checkpoint
            case 0x72: self = .result
            case 0x66: self = .fatal
            default: return nil
            }
        }
    }

    public var kind: Kind
    public var stage: String?
    public var result: PhotoResult?
    public var overlayPNG: Data?
    public var error: MenuScanError?

    public init(kind: Kind, stage: String? = nil, result: PhotoResult? = nil, overlayPNG: Data? = nil, error: MenuScanError? = nil) {
        self.kind = kind
        self.stage = stage
        self.result = result
        self.overlayPNG = overlayPNG
        self.error = error
    }
}

/// Length-prefixed frames over file descriptors.
public enum Frames {
    /// A frame larger than this is a protocol error (results with an overlay
    /// are a few MB).
    public static let maximumBytes = 256 << 20

    static func encode<T: Encodable>(_ value: T) -> [UInt8]? {
        guard let body = try? JSONEncoder().encode(value), body.count <= maximumBytes else { return nil }
        let n = UInt32(body.count)
        return [UInt8(n >> 24), UInt8((n >> 16) & 0xFF), UInt8((n >> 8) & 0xFF), UInt8(n & 0xFF)] + Array(body)
    }

    /// Writes every byte (EINTR retried). False when the other side is gone.
    @discardableResult
    static func write(_ bytes: [UInt8], to fd: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += n
        }
        return true
    }

    @discardableResult
    static func send<T: Encodable>(_ value: T, to fd: Int32) -> Bool {
        guard let bytes = encode(value) else { return false }
        return write(bytes, to: fd)
    }

    /// A reply frame: one byte of its kind, then its JSON, so the supervisor
    /// can keep a checkpoint undecoded (it is needed only if the worker dies).
    @discardableResult
    static func send(_ reply: WorkerReply, to fd: Int32) -> Bool {
        guard let body = try? JSONEncoder().encode(reply), body.count < maximumBytes else { return false }
        let n = UInt32(body.count + 1)
        return write([UInt8(n >> 24), UInt8((n >> 16) & 0xFF), UInt8((n >> 8) & 0xFF), UInt8(n & 0xFF),
                      reply.kind.byte] + Array(body), to: fd)
    }

    /// The kind byte and JSON of a reply frame.
    static func split(_ frame: Data) -> (kind: WorkerReply.Kind, json: Data)? {
        guard let first = frame.first, let kind = WorkerReply.Kind(byte: first) else { return nil }
        return (kind, frame.dropFirst())
    }
}

/// Reads frames from a descriptor, optionally with a deadline (poll).
final class FrameReader {
    enum Outcome {
        case frame(Data)
        /// The other side closed (or a read failed, or a malformed frame).
        case closed
        case timedOut
    }

    let fd: Int32
    private var buffer: [UInt8] = []
    private var start = 0

    init(fd: Int32) { self.fd = fd }

    func next(deadline: ContinuousClock.Instant? = nil) -> Outcome {
        while true {
            if let frame = takeFrame() { return frame }
            var wait: Int32 = -1
            if let deadline {
                let left = deadline - ContinuousClock.now
                if left <= .zero { return .timedOut }
                wait = Int32(min(60_000, max(1, Int((left.seconds * 1000).rounded(.up)))))
            }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let r = poll(&p, 1, wait)
            if r < 0 {
                if errno == EINTR { continue }
                return .closed
            }
            if r == 0 { continue }  // the deadline is checked at the top
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return .closed
            }
            if n == 0 { return .closed }
            if start > 0 && start == buffer.count { buffer.removeAll(keepingCapacity: true); start = 0 }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }

    private func takeFrame() -> Outcome? {
        let available = buffer.count - start
        guard available >= 4 else { return nil }
        let n = Int(buffer[start]) << 24 | Int(buffer[start + 1]) << 16 | Int(buffer[start + 2]) << 8 | Int(buffer[start + 3])
        guard n <= Frames.maximumBytes else { return .closed }
        guard available >= 4 + n else { return nil }
        let frame = Data(buffer[(start + 4)..<(start + 4 + n)])
        start += 4 + n
        if start == buffer.count { buffer.removeAll(keepingCapacity: true); start = 0 }
        return .frame(frame)
    }
}
