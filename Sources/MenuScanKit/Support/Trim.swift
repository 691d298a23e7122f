/// Whitespace trimming without Foundation's `NSString` round trip, which costs
/// more than the rest of a menu line's structuring on Linux (profile in
/// docs/performance.md). Same sets as `CharacterSet.whitespaces` (tab and the
/// Unicode space separators, Zs) and `.whitespacesAndNewlines` (plus U+000A–U+000D,
/// U+0085, U+2028, U+2029).
extension String {
    /// `trimmingCharacters(in: .whitespaces)`.
    func trimmingSpaces() -> String { trimmed(newlines: false) }

    /// `trimmingCharacters(in: .whitespacesAndNewlines)`.
    func trimmingWhitespace() -> String { trimmed(newlines: true) }

    private func trimmed(newlines: Bool) -> String {
        let scalars = unicodeScalars
        var start = scalars.startIndex, end = scalars.endIndex
        while start < end, String.isTrimmed(scalars[start], newlines: newlines) { start = scalars.index(after: start) }
        while start < end {
            let before = scalars.index(before: end)
            guard String.isTrimmed(scalars[before], newlines: newlines) else { break }
            end = before
        }
        if start == scalars.startIndex && end == scalars.endIndex { return self }
        return String(scalars[start..<end])
    }

    @inline(__always)
    private static func isTrimmed(_ s: Unicode.Scalar, newlines: Bool) -> Bool {
        switch s.value {
        case 0x20, 0x09: return true
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return newlines
        case 0..<0x80: return false
        default: return s.properties.generalCategory == .spaceSeparator
        }
    }
}

extension Substring {
    func trimmingSpaces() -> String { String(self).trimmingSpaces() }
    func trimmingWhitespace() -> String { String(self).trimmingWhitespace() }
}

extension Character {
    /// `isLetter` / `isNumber` / `isUppercase` with an ASCII fast path (the Unicode
    /// property lookup dominated line structuring in the profile).
    var isLetterFast: Bool {
        if let a = asciiValue { return (a | 0x20) >= 0x61 && (a | 0x20) <= 0x7A }
        return isLetter
    }
    var isNumberFast: Bool {
        if let a = asciiValue { return a >= 0x30 && a <= 0x39 }
        return isNumber
    }
    var isUppercaseFast: Bool {
        if let a = asciiValue { return a >= 0x41 && a <= 0x5A }
        return isUppercase
    }
}
