/// A menu item as the menu-structure stage found it, for item-level hotspots.
/// (Menu analysis lives in another stage; this is the narrow shape hotspots need.)
public struct HotspotItem: Equatable, Sendable {
    public var box: Box
    public var text: String
    public var confidence: Double?
    public var allergens: [String]?
    public var dietary: String?
    public var safety: String?

    public init(box: Box, text: String, confidence: Double?, allergens: [String]? = nil,
                dietary: String? = nil, safety: String? = nil) {
        self.box = box
        self.text = text
        self.confidence = confidence
        self.allergens = allergens
        self.dietary = dietary
        self.safety = safety
    }
}

/// Builds hotspots from what OCR read.
///
/// - Item level: when the menu-structure stage found items (`items` non-empty),
///   each item with a confidence at or above `minimumConfidence` is a hotspot.
/// - Line level (the fallback, and the only level until menu analysis lands):
///   each OCR line holding at least one letter or digit whose mean word
///   confidence is at or above `minimumConfidence`.
///
/// A hotspot's state is `recognized` when its R6 level is medium or high, else
/// `low_confidence`. Lines below `minimumConfidence` (R4's 0.3 by default) get
/// no hotspot (R5: hotspots only on recognised text); their ink is reported by
/// the region analysis as unrecognised with reason `low_confidence`.
public struct HotspotBuilder: Sendable, Equatable {
    public var minimumConfidence: Double

    public init(minimumConfidence: Double = 0.3) {
        self.minimumConfidence = minimumConfidence
    }

    public func build(page: OCRPage, items: [HotspotItem]? = nil) -> [Hotspot] {
        if let items, !items.isEmpty {
            return assignIDs(items.compactMap { item in
                guard accepts(item.confidence), Self.hasText(item.text) else { return nil }
                return Hotspot(id: "", kind: .item, box: item.box, text: item.text, confidence: item.confidence,
                               level: ConfidenceLevel(item.confidence), state: Self.state(item.confidence),
                               allergens: item.allergens, dietary: item.dietary, safety: item.safety)
            })
        }
        return assignIDs(page.lines.compactMap { line in
            let confidence = Self.confidence(of: line)
            guard accepts(confidence), Self.hasText(line.text) else { return nil }
            return Hotspot(id: "", kind: .line, box: line.box, text: line.text, confidence: confidence,
                           level: ConfidenceLevel(confidence), state: Self.state(confidence))
        })
    }

    /// Lines that were read but stay below the floor (their boxes), for region reasons.
    public func rejectedLines(page: OCRPage) -> [OCRLine] {
        page.lines.filter { line in
            Self.hasText(line.text) && !accepts(Self.confidence(of: line))
        }
    }

    /// Mean of the line's word confidences; nil when no word has one.
    public static func confidence(of line: OCRLine) -> Double? {
        let c = line.words.compactMap(\.confidence)
        return c.isEmpty ? nil : c.reduce(0, +) / Double(c.count)
    }

    static func state(_ confidence: Double?) -> HotspotState {
        ConfidenceLevel(confidence) == .low ? .lowConfidence : .recognized
    }

    private func accepts(_ confidence: Double?) -> Bool {
        guard let confidence else { return false }  // nothing vouches for it
        return confidence >= minimumConfidence
    }

    static func hasText(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.properties.isAlphabetic || $0.properties.numericType != nil }
    }

    /// IDs are `h-` plus 8 hex digits of FNV-1a over kind, box and text: the
    /// same photo and settings give the same OCR, so the same IDs; an ID does
    /// not shift when another hotspot appears or disappears. Identical
    /// (kind, box, text) get `-2`, `-3`… in reading order.
    private func assignIDs(_ hotspots: [Hotspot]) -> [Hotspot] {
        var seen: [String: Int] = [:]
        return hotspots.map { h in
            var h = h
            let base = Self.stableID(kind: h.kind, box: h.box, text: h.text)
            let n = seen[base, default: 0] + 1
            seen[base] = n
            h.id = n == 1 ? base : "\(base)-\(n)"
            return h
        }
    }

    public static func stableID(kind: HotspotKind, box: Box, text: String) -> String {
        var hash: UInt32 = 0x811C_9DC5
        for byte in "\(kind.rawValue)|\(box.x),\(box.y),\(box.width),\(box.height)|\(text)".utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 0x0100_0193
        }
        let hex = String(hash, radix: 16)
        return "h-" + String(repeating: "0", count: 8 - hex.count) + hex
    }
}

extension Box {
    /// Area of the union of `boxes` (overlaps counted once), by coordinate compression.
    public static func unionArea(_ boxes: [Box]) -> Int {
        let boxes = boxes.filter { $0.width > 0 && $0.height > 0 }
        guard !boxes.isEmpty else { return 0 }
        let xs = Array(Set(boxes.flatMap { [$0.x, $0.maxX] })).sorted()
        var area = 0
        for i in 0..<(xs.count - 1) {
            let x0 = xs[i], x1 = xs[i + 1]
            let spans = boxes.filter { $0.x <= x0 && $0.maxX >= x1 }.map { ($0.y, $0.maxY) }.sorted { $0.0 < $1.0 }
            var covered = 0, top = Int.min, bottom = Int.min
            for (y0, y1) in spans {
                if y0 > bottom {
                    if bottom > top { covered += bottom - top }
                    top = y0; bottom = y1
                } else {
                    bottom = max(bottom, y1)
                }
            }
            if bottom > top { covered += bottom - top }
            area += covered * (x1 - x0)
        }
        return area
    }
}
