import Foundation
import Logging
import MenuScanKit

enum CLILogging {
    /// swift-log to stderr. Never logs menu text (R12): callers pass metadata only.
    static func make(quiet: Bool, verbose: Bool) -> Logger {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = quiet ? .warning : (verbose ? .info : .notice)
            return handler
        }
        return Logger(label: "menuscan")
    }
}

/// A progress line on stderr, redrawn in place; only on a terminal.
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
        let rate = p.elapsed > 0 ? Double(p.done) / p.elapsed : 0
        let eta = rate > 0 ? Double(p.total - p.done) / rate : 0
        let bad = (p.counts[.failed] ?? 0) + (p.counts[.error] ?? 0) + (p.counts[.rejected] ?? 0)
        let width = 24
        let filled = p.total > 0 ? width * p.done / p.total : width
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let line = String(format: "\r%@ %d/%d  %.2f photos/s  ETA %.0fs  not ok: %d ", bar, p.done, p.total, rate, eta, bad)
        FileHandle.standardError.write(Data(line.utf8))
    }

    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\n".utf8))
    }
}
