/// Severity of a problem, as in SPEC R9 and the AllerGuard `ErrorSeverity`.
public enum Severity: String, Codable, Sendable, Comparable, CaseIterable {
    case low, medium, high, critical

    private var rank: Int {
        switch self {
        case .low: 0
        case .medium: 1
        case .high: 2
        case .critical: 3
        }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// Every error MenuScan reports (SPEC R9): a stable code, the message library's
/// title, message and recovery suggestion, a severity and whether it is
/// recoverable. `detail` is technical context for logs and JSON (file names,
/// library return codes); it never holds recognised menu text (R12).
public struct MenuScanError: Error, Equatable, Codable, Sendable, CustomStringConvertible {
    public let code: String
    public let title: String
    public let message: String
    public let recovery: String
    public let severity: Severity
    public let recoverable: Bool
    public let detail: String?

    public init(code: String, title: String, message: String, recovery: String,
                severity: Severity, recoverable: Bool, detail: String? = nil) {
        self.code = code
        self.title = title
        self.message = message
        self.recovery = recovery
        self.severity = severity
        self.recoverable = recoverable
        self.detail = detail
    }

    /// The same error with technical context attached.
    public func with(detail: String) -> MenuScanError {
        MenuScanError(code: code, title: title, message: message, recovery: recovery,
                      severity: severity, recoverable: recoverable, detail: detail)
    }

    public var description: String {
        var text = "\(code) \(title): \(message)"
        if let detail { text += " [\(detail)]" }
        return text
    }
}
