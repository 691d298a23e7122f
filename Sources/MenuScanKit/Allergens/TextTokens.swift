import Foundation

/// Text normalisation shared by the lexicon and the matcher: lower case,
/// diacritics removed, ligatures and ß expanded ("Käse" → "kase",
/// "Bœuf" → "boeuf", "Weißwurst" → "weisswurst").
enum TextFold {
    /// `lowercased()` of ASCII text (A–Z → a–z, which is all Unicode's mapping does to
    /// ASCII), on bytes: the standard library's Unicode-aware path cost ~150 instructions
    /// a character in the profile.
    static func asciiLowercased(_ s: String) -> String {
        guard s.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return s }
        let bytes = s.utf8
        return String(unsafeUninitializedCapacity: bytes.count) { out in
            var k = 0
            for b in bytes { out[k] = (b >= 0x41 && b <= 0x5A) ? b | 0x20 : b; k += 1 }
            return k
        }
    }

    /// Characters that fold to something other than their decomposition without marks
    /// (ligatures, ß; Turkish dotless i and Vietnamese/Croatian đ have no decomposition:
    /// "Cacık", "Đậu"; Greek final sigma is the sigma a capital Σ lowers to: "ΓΥΡΟΣ" = "γύρος";
    /// apostrophes and accents alone become "'"). A Character key matches by
    /// canonical equivalence, as `==` does.
    private static let specialFolds: [Character: String] = [
        "ß": "ss", "œ": "oe", "æ": "ae", "ø": "o", "ł": "l", "ı": "i", "đ": "d", "ς": "σ",
        "’": "'", "‘": "'", "`": "'", "´": "'",
    ]
    /// `specialFolds` by scalar value (each key is one scalar), for the scalar path.
    private static let specialScalarFolds: [UInt32: String] = Dictionary(uniqueKeysWithValues: specialFolds.compactMap { key, value in
        key.unicodeScalars.first.map { ($0.value, value) }
    })

    static func fold(_ s: String) -> String {
        // Plain ASCII (most menu words): lower case is the whole fold.
        if s.utf8.allSatisfy({ $0 < 128 && $0 != UInt8(ascii: "`") }) { return asciiLowercased(s) }
        let lower = s.lowercased()
        // Every Character one scalar (`ScalarText.isOneScalarPerCharacter`, most accented text):
        // the same fold read on scalars, without breaking the text into Characters. No scalar of
        // those ranges but the keys of `specialFolds` is canonically equivalent to one of them
        // (the singletons that are, U+1FEF and U+1FFD, lie outside them).
        guard ScalarText.isOneScalarPerCharacter(lower) else { return foldCharacters(lower) }
        var out = ""
        out.reserveCapacity(lower.utf8.count)
        for u in lower.unicodeScalars {
            let v = u.value
            if v < 0x80, v != 0x60 { out.unicodeScalars.append(u) }
            else if let special = specialScalarFolds[v] { out += special }
            else { appendWithoutMarks(String(u), to: &out) }
        }
        return out
    }

    /// The fold of lower-cased text read by Characters (any text; `fold`'s path where a
    /// Character may hold several scalars).
    static func foldCharacters(_ lower: String) -> String {
        var out = ""
        out.reserveCapacity(lower.utf8.count)
        for ch in lower {
            // (A one-byte character tested on its byte: `ch != "`"` was a string comparison.)
            // ("\r\n" takes the default case, which gives it back unchanged.)
            if let b = ch.asciiByte, b != 0x60 { out.append(ch) }
            else if let special = specialFolds[ch] { out += special }
            else { appendWithoutMarks(String(ch), to: &out) }
        }
        return out
    }

    /// `text`'s canonical decomposition without its nonspacing marks, appended to `out`.
    private static func appendWithoutMarks(_ text: String, to out: inout String) {
        for scalar in text.decomposedStringWithCanonicalMapping.unicodeScalars
        where scalar.properties.generalCategory != .nonspacingMark {
            out.unicodeScalars.append(scalar)
        }
    }
}

/// A word of input text with the OCR confidence it was read with (nil when
/// the input is plain text or the engine gave none).
struct SourceWord: Sendable {
    var text: String
    var confidence: Double?
}

/// One token: a run of letters/digits, or one punctuation mark that matters
/// for scoping qualifiers (`, & / | + ( ) -`).
struct Token: Sendable {
    enum Kind: Sendable { case word, punct }
    var norm: String
    var raw: String
    var kind: Kind
    /// Index of the source word the token came from.
    var word: Int
    /// Sentences are split at . ! ? ; : (qualifier scopes stop there).
    var sentence: Int
}

enum Tokenizer {
    static let punctTokens: Set<Character> = [",", "&", "/", "|", "+", "(", ")", "-", "–", "*"]
    static let sentenceEnds: Set<Character> = [".", "!", "?", ";", ":", "•", "·"]

    /// Tokenises words; German "…frei" compounds are split into stem + "frei"
    /// so that "glutenfrei" reads as "gluten frei".
    static func tokenize(_ words: [SourceWord]) -> [Token] {
        var tokens: [Token] = []
        var sentence = 0
        for (wi, w) in words.enumerated() {
            // "ginger €: spring onion": an ampersand in a display font read as a currency sign
            // or another symbol, between two words, is the connector it stands for.
            if isMisreadAmpersand(w.text), wi > 0, wi + 1 < words.count,
               words[wi - 1].text.contains(where: \.isLetterFast), words[wi + 1].text.contains(where: \.isLetterFast) {
                tokens.append(Token(norm: "&", raw: w.text.trimmingWhitespace(), kind: .punct, word: wi, sentence: sentence))
                continue
            }
            // "w/", "w." and "w/o" (US menus' "with" and "without") are the words they stand for:
            // "Beef w. Broccoli" is the dish "beef with broccoli".
            var text = w.text
            if let (word, rest) = withAbbreviation(text) {
                tokens.append(Token(norm: word, raw: String(text.prefix(text.count - rest.count)), kind: .word, word: wi, sentence: sentence))
                guard !rest.isEmpty else { continue }
                text = String(rest)
            }
            var current = ""
            func flush() {
                guard !current.isEmpty else { return }
                let norm = TextFold.fold(current)
                // Every "…frei" form has an "f" and six characters at least: other words need no split.
                if norm.utf8.count >= 6, norm.utf8.contains(UInt8(ascii: "f")) {
                    for piece in splitFrei(norm, raw: current) {
                        tokens.append(Token(norm: piece.0, raw: piece.1, kind: .word, word: wi, sentence: sentence))
                    }
                } else {
                    tokens.append(Token(norm: norm, raw: current, kind: .word, word: wi, sentence: sentence))
                }
                current = ""
            }
            if text.utf8.allSatisfy({ $0 < 128 }) && !text.utf8.contains(13) {
                // Plain ASCII (most words): the same decisions on bytes, no Character array.
                let bytes = Array(text.utf8)
                var start = -1 // first byte of the current run of letters and digits
                func flushBytes(_ end: Int) {
                    guard start >= 0 else { return }
                    current = String(decoding: bytes[start..<end], as: UTF8.self)
                    start = -1
                    flush()
                }
                for (ci, b) in bytes.enumerated() {
                    if Self.isAlnum(b) {
                        if start < 0 { start = ci }
                    } else if (b == UInt8(ascii: ".") || b == UInt8(ascii: ",")) && start >= 0 && Self.isDigit(bytes[ci - 1])
                                && ci + 1 < bytes.count && Self.isDigit(bytes[ci + 1]) {
                        continue // 3,20 / 12.50 stay one token
                    } else {
                        flushBytes(ci)
                        let ch = Character(Unicode.Scalar(b))
                        if sentenceEnds.contains(ch) {
                            let prevShort = (tokens.last?.norm.count ?? 0) <= 1 && tokens.last?.kind == .word
                            if !prevShort { sentence += 1 }
                        } else if punctTokens.contains(ch) {
                            tokens.append(Token(norm: String(ch), raw: String(ch), kind: .punct, word: wi, sentence: sentence))
                        }
                    }
                }
                flushBytes(bytes.count)
                continue
            }
            let chars = Array(text)
            for (ci, ch) in chars.enumerated() {
                if ch.isLetterFast || ch.isNumberFast {
                    current.append(ch)
                } else if (ch == "." || ch == ",") && !current.isEmpty && current.last!.isNumber
                            && ci + 1 < chars.count && chars[ci + 1].isNumber {
                    current.append(ch) // 3,20 / 12.50 stay one token
                } else {
                    flush()
                    if sentenceEnds.contains(ch) {
                        // "B.L.T." or "No." must not end a sentence: only when followed by space/end
                        // and the previous token is longer than one letter.
                        let prevShort = (tokens.last?.norm.count ?? 0) <= 1 && tokens.last?.kind == .word
                        if !prevShort { sentence += 1 }
                    } else if punctTokens.contains(ch) {
                        tokens.append(Token(norm: String(ch == "–" ? "-" : ch), raw: String(ch), kind: .punct, word: wi, sentence: sentence))
                    }
                }
            }
            flush()
        }
        return tokens
    }

    /// A word that opens with "w/" or "w." (either case): "with", or "without" for "w/o" and "w/out",
    /// and the rest of the word ("w/Broccoli" → "with", "Broccoli"). "w." only as a word of its own.
    /// nil for every other word (one byte decides for most).
    static func withAbbreviation(_ text: String) -> (String, Substring)? {
        let u = text.utf8
        guard u.count >= 2, let first = u.first, first == UInt8(ascii: "w") || first == UInt8(ascii: "W") else { return nil }
        let second = u[u.index(after: u.startIndex)]
        let rest = text.dropFirst(2)
        if second == UInt8(ascii: ".") { return rest.allSatisfy(\.isWhitespace) ? ("with", rest) : nil }
        guard second == UInt8(ascii: "/") else { return nil }
        for out in ["out", "o"] where rest.lowercased().hasPrefix(out) {
            let after = rest.dropFirst(out.count)
            if after.first.map({ !$0.isLetter && !$0.isNumber }) ?? true { return ("without", after) }
        }
        return ("with", rest)
    }

    /// Symbols OCR reads for a display font's ampersand.
    static let ampersandMisreads: Set<Character> = ["&", "€", "£", "$", "¢", "¥", "@", "§", "%"]

    /// A word of one such symbol, perhaps with a stray mark read beside it ("€:", ".&").
    static func isMisreadAmpersand(_ text: String) -> Bool {
        // (Most words start with a letter or digit: one byte decides.)
        guard text.utf8.count <= 12, let first = text.utf8.first, !isAlnum(first) else { return false }
        var symbols = 0, marks = 0
        for ch in text {
            if ampersandMisreads.contains(ch) { symbols += 1 }
            else if ch.isWhitespace { continue }  // (no token either way: "%\u{A0}" is "%")
            else if ":.,;'`".contains(ch) { marks += 1 }
            else { return false }
        }
        return symbols == 1 && symbols + marks <= 3
    }

    @inline(__always) private static func isDigit(_ b: UInt8) -> Bool { b >= 48 && b <= 57 }
    @inline(__always) private static func isAlnum(_ b: UInt8) -> Bool {
        isDigit(b) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122)
    }

    private static let freiSuffixes = ["freies", "freier", "freien", "freie", "frei"]

    private static func splitFrei(_ norm: String, raw: String) -> [(String, String)] {
        for suffix in freiSuffixes where norm.hasSuffix(suffix) && norm.count >= suffix.count + 2 {
            var stem = String(norm.dropLast(suffix.count))
            if stem.hasSuffix("-") { stem.removeLast() }
            // Fugen-s / -n of German compounds ("nussfrei", "eifrei", "laktosefrei")
            return [(stem, stem), ("frei", "frei")]
        }
        return [(norm, raw)]
    }

    /// Candidate lexicon keys for a token: itself and simple singular forms
    /// (almonds → almond, peaches → peach, berries → berry).
    static func variants(_ t: String) -> [String] {
        var v = [t]
        if t.count > 3 {
            if t.hasSuffix("ies") { v.append(String(t.dropLast(3)) + "y") }
            if t.hasSuffix("es") { v.append(String(t.dropLast(2))) }
            if t.hasSuffix("s") && !t.hasSuffix("ss") { v.append(String(t.dropLast())) }
        }
        return v
    }
}
