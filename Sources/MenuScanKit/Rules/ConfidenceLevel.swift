/// R6 (AllerGuard Confidence Visualization Rule): high > 0.85, medium > 0.65,
/// otherwise low. The one definition every stage uses.
public enum ConfidenceLevel: String, Codable, Sendable, CaseIterable {
    case high, medium, low

    public static let highAbove = 0.85
    public static let mediumAbove = 0.65

    public init(confidence: Double) {
        if confidence > Self.highAbove { self = .high } else if confidence > Self.mediumAbove { self = .medium } else { self = .low }
    }
}
