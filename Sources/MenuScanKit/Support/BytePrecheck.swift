/// Necessary conditions for regular expressions, read from a string's UTF-8 bytes: where
/// one is false its pattern cannot match, so the regex need not run (most menu lines).
/// Every byte of 0x80 and above is taken for a possible `\s` (ICU's `\s` holds Unicode
/// spaces), so a non-ASCII space never hides a match.
enum BytePrecheck {
    @inline(__always) static func maySpace(_ b: UInt8) -> Bool { b == 0x20 || (b >= 0x09 && b <= 0x0D) || b >= 0x80 }

    /// How many times `byte` occurs in `s`, counting no further than `limit`
    /// (`s.utf8.lazy.filter { $0 == byte }.prefix(limit).count`, without the generic lazy chain).
    static func count(of byte: UInt8, in s: String, upTo limit: Int) -> Int {
        var n = 0
        for b in s.utf8 where b == byte {
            guard n < limit else { break }
            n += 1
        }
        return n
    }

    /// A byte for which `first` holds, followed after nothing but possible spaces by one for
    /// which `separator` holds: what "X\s*," in a list pattern needs.
    @inline(__always)
    static func mayHoldListStart(_ s: String, first: (UInt8) -> Bool, separator: (UInt8) -> Bool) -> Bool {
        var open = false
        for b in s.utf8 {
            if first(b) { open = true } else if separator(b) { if open { return true } } else if !maySpace(b) { open = false }
        }
        return false
    }

    /// Necessary for a list of single lower-case letters ("a, c"; `lowerLetterListRegex`): a
    /// lower-case ASCII letter with no ASCII letter or digit before it and none after it, then
    /// only possible spaces, then a comma. Word ends before a comma ("salt, pepper") fail it.
    static func mayHoldSingleLetterList(_ s: String) -> Bool {
        var previous: UInt8 = 0x20
        var single = false  // a lone lower-case letter was read, then only possible spaces
        for b in s.utf8 {
            if single {
                if b == UInt8(ascii: ",") { return true }
                if maySpace(b) { previous = b; continue }
                single = false
            }
            if b >= 0x61 && b <= 0x7A && !isLetter(previous) && !isDigit(previous) { single = true }
            previous = b
        }
        return false
    }

    /// Necessary for a list of capital letters ("A, C, G"): a capital, then only possible
    /// spaces, then a comma (the structurer's and the classifier's letter-code patterns).
    static func mayHoldCapitalList(_ s: String) -> Bool {
        mayHoldListStart(s, first: isCapital, separator: { $0 == UInt8(ascii: ",") })
    }

    /// The bytes of " - " (a space, a hyphen-minus, a space) in a row.
    static func holdsSpacedHyphen(_ s: String) -> Bool {
        var beforePrevious: UInt8 = 0, previous: UInt8 = 0
        for b in s.utf8 {
            if b == 0x20 && previous == 0x2D && beforePrevious == 0x20 { return true }
            beforePrevious = previous
            previous = b
        }
        return false
    }

    @inline(__always) static func isCapital(_ b: UInt8) -> Bool { b >= 0x41 && b <= 0x5A }
    @inline(__always) static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }
    @inline(__always) static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
}
