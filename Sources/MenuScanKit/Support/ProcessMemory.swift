import Foundation

/// Memory figures of this process, from /proc (Linux).
public enum ProcessMemory {
    /// Peak resident set size so far (VmHWM), in bytes, or nil where /proc is missing.
    public static func peakRSSBytes() -> Int? { field("VmHWM:") }

    /// Current resident set size (VmRSS), in bytes.
    public static func currentRSSBytes() -> Int? { field("VmRSS:") }

    private static func field(_ name: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(name) {
            let kb = line.dropFirst(name.count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap { Int($0) }
            return kb.map { $0 * 1024 }
        }
        return nil
    }
}
