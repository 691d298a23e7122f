/// R6 levels for hotspots: the same `ConfidenceLevel` and thresholds the
/// bench uses (`ConfidenceMetrics.level`); no confidence → low.
extension ConfidenceLevel {
    public init(_ confidence: Double?) {
        self = confidence.map(ConfidenceMetrics.level) ?? .low
    }
}

/// Whether a hotspot's text can be relied on.
public enum HotspotState: String, Codable, Sendable, CaseIterable {
    /// Read with medium or high confidence (R6 level medium/high).
    case recognized
    /// Read, but with low confidence (R6 level low): shown, flagged for checking.
    case lowConfidence = "low_confidence"
}

/// What a hotspot stands for: a menu item (when menu structure is known) or a
/// text line (the fallback).
public enum HotspotKind: String, Codable, Sendable, CaseIterable {
    case item, line
}

/// A tappable region on the upright photo (SPEC R5, VegyScan OCR scenario 2).
public struct Hotspot: Codable, Equatable, Sendable {
    /// Stable across runs on the same photo and settings: derived from the
    /// kind, box and text (see `HotspotBuilder.stableID`).
    public var id: String
    public var kind: HotspotKind
    /// Upright photo pixels, `[x, y, width, height]`.
    public var box: Box
    public var text: String
    /// Mean of the words' confidences (0…1); nil when no word had one.
    public var confidence: Double?
    public var level: ConfidenceLevel
    public var state: HotspotState
    /// Present only where classification ran (item hotspots): allergen names,
    /// dietary status (vegan, vegetarian, not_vegetarian, unknown) and safety
    /// against the user's profile (safe, caution, unsafe).
    public var allergens: [String]?
    public var dietary: String?
    public var safety: String?

    public init(id: String, kind: HotspotKind, box: Box, text: String, confidence: Double?,
                level: ConfidenceLevel, state: HotspotState,
                allergens: [String]? = nil, dietary: String? = nil, safety: String? = nil) {
        self.id = id
        self.kind = kind
        self.box = box
        self.text = text
        self.confidence = confidence
        self.level = level
        self.state = state
        self.allergens = allergens
        self.dietary = dietary
        self.safety = safety
    }
}

/// Why an area with text-like content has no hotspot.
public enum UnrecognizedReason: String, Codable, Sendable, CaseIterable {
    /// Ink with text-line structure and no word read there at all.
    case noWords = "no_words"
    /// Words were read there, but below the hotspot confidence floor.
    case lowConfidence = "low_confidence"
    /// The text-like content touches the photo's edge: part of it is outside the photo.
    case cutOff = "cut_off"
    /// Text-like content lies on both sides of something that is neither
    /// paper nor text (a hand, a plate): the menu is covered there.
    case covered
}

/// An area that holds text-like content but no confidently read words (R5).
public struct UnrecognizedRegion: Codable, Equatable, Sendable {
    /// Upright photo pixels, `[x, y, width, height]`.
    public var box: Box
    public var reason: UnrecognizedReason

    public init(box: Box, reason: UnrecognizedReason) {
        self.box = box
        self.reason = reason
    }
}

/// How much of the photo's text area was read, as used by the partial rule.
public struct TextCoverage: Codable, Equatable, Sendable {
    /// Pixels covered by hotspots (union of their boxes, upright photo pixels).
    public var recognizedArea: Int
    /// Pixels covered by the unread text lines inside unrecognised regions.
    public var unrecognizedArea: Int
    /// unrecognizedArea / (recognizedArea + unrecognizedArea); 0 when both are 0.
    public var unrecognizedShare: Double

    public init(recognizedArea: Int, unrecognizedArea: Int) {
        self.recognizedArea = recognizedArea
        self.unrecognizedArea = unrecognizedArea
        let total = recognizedArea + unrecognizedArea
        unrecognizedShare = total > 0 ? Double(unrecognizedArea) / Double(total) : 0
    }
}
