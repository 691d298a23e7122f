import Foundation
import Logging
import MenuScanKit

enum LogFormat: String, CaseIterable {
    case text, json
}

enum CLILogging {
    /// swift-log to stderr. Never logs menu text (R12): callers pass metadata only.
    static func make(quiet: Bool, verbose: Bool, format: LogFormat = .text) -> Logger {
        let level: Logger.Level = quiet ? .warning : (verbose ? .info : .notice)
        LoggingSystem.bootstrap { label in
            switch format {
            case .text:
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = level
                return handler
            case .json:
                var handler = JSONLineLogHandler()
                handler.logLevel = level
                return handler
            }
        }
        return Logger(label: "menuscan")
    }
}

/// `--log-format json`: one JSON object per line on stderr: time, level,
/// message and the metadata (file, status, code, severity, seconds, timings…),
/// numbers as numbers.
struct JSONLineLogHandler: LogHandler {
    var logLevel: Logger.Level = .notice
    var metadata: Logger.Metadata = [:]
    private static let lock = NSLock()

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(level: Logger.Level, message: Logger.Message, metadata extra: Logger.Metadata?,
             source: String, file: String, function: String, line: UInt) {
        var object: [String: Any] = [
            "time": Date().ISO8601Format(),
            "level": level.rawValue,
            "message": message.description,
        ]
        for (key, value) in metadata.merging(extra ?? [:], uniquingKeysWith: { $1 }) {
            // Names and texts stay strings even when they look like numbers (a file named "2024").
            object[key] = Self.textKeys.contains(key) ? value.description : Self.plain(value)
        }
        guard var data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        data.append(0x0A)
        Self.lock.lock()
        FileHandle.standardError.write(data)
        Self.lock.unlock()
    }

    static let textKeys: Set<String> = ["file", "path", "paths", "out", "detail", "code", "status", "severity",
                                        "lang", "mode", "shard", "photos", "counts", "config"]

    static func plain(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let s): return Double(s).map { $0 as Any } ?? s
        case .stringConvertible(let c): return c.description
        case .array(let a): return a.map(plain)
        case .dictionary(let d): return d.mapValues(plain)
        }
    }
}

/// A progress bar on stderr, redrawn in place; only on a terminal (the
/// caller decides) and never with --quiet.
final class ProgressLine: @unchecked Sendable {
    // @unchecked: `lastDraw` is guarded by `lock`.
    private let enabled: Bool
    private let lock = NSLock()
    private var lastDraw = 0.0

    init(enabled: Bool) { self.enabled = enabled }

    func update(_ p: BatchProgress) {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        guard p.done == p.total || p.elapsed - lastDraw >= 0.1 else { return }
        lastDraw = p.elapsed
        FileHandle.standardError.write(Data(("\r" + Self.render(p) + "\u{1B}[K").utf8))
    }

    /// done/total, photos per second (photos done by this run), ETA and the counts that are not ok.
    static func render(_ p: BatchProgress) -> String {
        let worked = p.done - p.reused
        let rate = p.elapsed > 0 ? Double(worked) / p.elapsed : 0
        let eta = rate > 0 ? Double(p.total - p.done) / rate : 0
        let width = 24
        let filled = p.total > 0 ? width * p.done / p.total : width
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        var line = String(format: "%@ %d/%d  %.2f photos/s  ETA %@", bar, p.done, p.total, rate, formatDuration(eta))
        for status in [PhotoStatus.failed, .rejected, .error] {
            line += "  \(status.rawValue) \(p.counts[status] ?? 0)"
        }
        if p.reused > 0 { line += "  kept \(p.reused)" }
        return line
    }

    static func formatDuration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? String(format: "%dh%02dm", s / 3600, s % 3600 / 60) : String(format: "%d:%02d", s / 60, s % 60)
    }

    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\n".utf8))
    }
}

/// SIGINT: the first stops new photos (in-flight ones finish), the second
/// abandons the photos in flight. SIGTERM abandons them at once.
final class StopSignals: @unchecked Sendable {
    // @unchecked: `count` is guarded by `lock`; sources are only kept alive.
    private let lock = NSLock()
    private var count = 0
    private var sources: [DispatchSourceSignal] = []

    init(first: @escaping @Sendable (Int32) -> Void, second: @escaping @Sendable (Int32) -> Void) {
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { [self] in
                lock.lock()
                count += 1
                let n = count
                lock.unlock()
                // SIGTERM (a service manager, `timeout`) must end the run promptly: it abandons at once.
                if n == 1 && sig != SIGTERM { first(sig) } else if n == 1 || n == 2 { second(sig) }
            }
            source.resume()
            sources.append(source)
        }
    }

    var received: Bool {
        lock.lock()
        defer { lock.unlock() }
        return count > 0
    }
}
