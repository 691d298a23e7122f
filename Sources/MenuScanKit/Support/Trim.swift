import Foundation

/// Whitespace trimming without Foundation's `NSString` round trip, which costs
/// more than the rest of a menu line's structuring on Linux. Exactly the sets
/// `CharacterSet.whitespaces` and `.whitespacesAndNewlines` (a property test holds
/// them to it), with the answers for ASCII looked up in a table.
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

    /// ASCII answers of the two Foundation sets, read once; other scalars ask the set
    /// itself (Foundation on Linux counts U+000B and U+200B among `.whitespaces`).
    private static let asciiSpaces: [Bool] = (0..<128).map { CharacterSet.whitespaces.contains(Unicode.Scalar(UInt8($0))) }
    private static let asciiWhitespace: [Bool] = (0..<128).map {
        CharacterSet.whitespacesAndNewlines.contains(Unicode.Scalar(UInt8($0)))
    }

    @inline(__always)
    private static func isTrimmed(_ s: Unicode.Scalar, newlines: Bool) -> Bool {
        if s.value < 128 { return newlines ? asciiWhitespace[Int(s.value)] : asciiSpaces[Int(s.value)] }
        return newlines ? CharacterSet.whitespacesAndNewlines.contains(s) : CharacterSet.whitespaces.contains(s)
    }
}

extension Substring {
    func trimmingSpaces() -> String { String(self).trimmingSpaces() }
    func trimmingWhitespace() -> String { String(self).trimmingWhitespace() }
}

extension Character {
    /// `isLetter` / `isNumber` / `isUppercase` with an ASCII fast path (the Unicode
    /// property lookup dominated line structuring in the profile).
    /// The byte of a one-byte (ASCII) character, else nil. Unlike `asciiValue` it compares
    /// nothing with "\r\n" (a string comparison on every call, which showed in the profile);
    /// "\r\n" is two bytes, so it takes the slow path of the callers, whose answers for it
    /// are the same.
    @inline(__always) var asciiByte: UInt8? {
        let u = utf8
        guard u.count == 1, let b = u.first, b < 0x80 else { return nil }
        return b
    }
    var isLetterFast: Bool {
        if let a = asciiByte { return (a | 0x20) >= 0x61 && (a | 0x20) <= 0x7A }
        return isLetter
    }
    var isNumberFast: Bool {
        if let a = asciiByte { return a >= 0x30 && a <= 0x39 }
        return isNumber
    }
    var isUppercaseFast: Bool {
        if let a = asciiByte { return a >= 0x41 && a <= 0x5A }
        return isUppercase
    }
}
