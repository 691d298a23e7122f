/// Text read by Unicode scalars or UTF-8 bytes where it is safe to: where every `Character`
/// (grapheme cluster) of a string is a single scalar, a pass over its scalars (or, at ASCII
/// separators, over its bytes) makes the same decisions as a pass over its Characters, at a
/// fraction of the cost (grapheme breaking is most of `Character` iteration in the profile).
enum ScalarText {
    /// Whether every Character of `s` is one Unicode scalar. Conservative: true only when
    /// every scalar lies in `isStandalone`'s ranges, none of whose scalars joins a neighbour
    /// into one grapheme cluster (no combining mark, joiner, prepended or spacing mark, Hangul
    /// jamo or regional indicator; `ScalarTextTests` checks every one of them), and `s` holds
    /// no "\r" (with a following "\n" one Character of two scalars).
    static func isOneScalarPerCharacter(_ s: String) -> Bool {
        // (Plain ASCII without "\r", most menu lines, is settled on the bytes.)
        if isOneBytePerCharacter(s) { return true }
        return s.unicodeScalars.allSatisfy { isStandalone($0.value) }
    }

    /// Whether every Character of `s` is one byte: ASCII without "\r" (which with a following
    /// "\n" is one Character of two bytes).
    static func isOneBytePerCharacter(_ s: String) -> Bool {
        s.utf8.allSatisfy { $0 < 0x80 && $0 != 0x0D }
    }

    /// Latin (ASCII, Latin-1, Extended-A/B, IPA, spacing modifiers), Greek, Cyrillic without its
    /// combining marks, Latin Extended Additional (Vietnamese), general punctuation without the
    /// zero-width and format characters, currency signs, letterlike symbols and number forms.
    @inline(__always)
    static func isStandalone(_ v: UInt32) -> Bool {
        switch v {
        case 0x0D: return false
        case 0...0x2FF, 0x370...0x482, 0x1E00...0x1EFF, 0x2010...0x2027, 0x2030...0x205E, 0x20A0...0x20C0,
             0x2100...0x218B: return true
        default: return false
        }
    }

    /// The lines of `text`, split at "\n", "\r" and "\r\n" as `split(omittingEmptySubsequences:
    /// false)` splits its Characters at them: a line feed or carriage return is always a
    /// Character of its own (grapheme rules GB4, GB5), except "\r\n", one Character (GB3).
    /// Read from the bytes.
    static func lines(_ text: String) -> [String] {
        let bytes = Array(text.utf8)
        var out: [String] = []
        var start = 0, k = 0
        while k < bytes.count {
            let b = bytes[k]
            guard b == 0x0A || b == 0x0D else { k += 1; continue }
            out.append(String(decoding: bytes[start..<k], as: UTF8.self))
            k += (b == 0x0D && k + 1 < bytes.count && bytes[k + 1] == 0x0A) ? 2 : 1
            start = k
        }
        out.append(String(decoding: bytes[start...], as: UTF8.self))
        return out
    }

    /// `text.split(whereSeparator: { !$0.isLetter }).map(String.init)`: the runs of letters.
    /// On the bytes of ASCII text (its only letters are A–Z and a–z; "\r\n" and its bytes are
    /// no letters); on the scalars when every Character is one scalar (such a Character's
    /// `isLetter` is its scalar's `isAlphabetic`); else by Characters. It ran on every line
    /// (folded words, German signals, menu-wide words) and its Character reads were ~6 % of
    /// analysing a menu with accented words.
    static func letterWords(_ text: String) -> [String] {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return text.utf8.split(whereSeparator: { !BytePrecheck.isLetter($0) }).map { String(decoding: $0, as: UTF8.self) }
        }
        guard isOneScalarPerCharacter(text) else {
            return text.split(whereSeparator: { !$0.isLetter }).map(String.init)
        }
        return text.unicodeScalars.split(whereSeparator: { !isAlphabetic($0) }).map { String(Substring($0)) }
    }

    /// `u.properties.isWhitespace` (and so a one-scalar Character's `isWhitespace`), read
    /// without the property tables below U+0100: tab to carriage return, space, NEL, no-break
    /// space. A test compares every scalar below U+0300 with the property.
    @inline(__always)
    static func isWhitespace(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x09...0x0D, 0x20, 0x85, 0xA0: return true
        case 0..<0x100: return false
        default: return u.properties.isWhitespace
        }
    }

    /// `u.properties.isAlphabetic`, read without the property tables below U+0100 (ASCII and
    /// Latin-1, most accented menu text): A–Z, a–z, ª, µ, º and À–ÿ without × and ÷. A test
    /// compares every scalar below U+0100 with the property.
    @inline(__always)
    static func isAlphabetic(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x41...0x5A, 0x61...0x7A, 0xAA, 0xB5, 0xBA, 0xC0...0xD6, 0xD8...0xF6, 0xF8...0xFF: return true
        case 0..<0x100: return false
        default: return u.properties.isAlphabetic
        }
    }

    /// The words of a line split at spaces and tabs, as splitting its Characters at those that
    /// are a space or a tab gives them (empty words left out). On the bytes when every
    /// Character is one scalar (a space byte is then a space Character); else by Characters
    /// (" \u{301}", a space with a combining accent, is one Character and no separator).
    static func spaceSeparatedWords(_ line: String) -> [String] {
        guard isOneScalarPerCharacter(line) else {
            return line.split(whereSeparator: { $0.asciiByte == 0x20 || $0.asciiByte == 0x09 }).map(String.init)
        }
        return line.utf8.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 }).map { String(decoding: $0, as: UTF8.self) }
    }
}
