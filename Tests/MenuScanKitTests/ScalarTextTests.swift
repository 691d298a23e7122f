import Foundation
import PropertyBased
import Testing
@testable import MenuScanKit

// Round 13's byte and scalar paths must give exactly the answers of the Character code they
// replaced (kept here as the references), on any text: ASCII, Latin-1, "\r\n", combining
// marks after letters and spaces, a prepended mark before a space, joiners, emoji and CJK.
@Suite("Scalar and byte paths agree with the Character paths")
struct ScalarTextTests {
    private static let pieces = [
        " ", "  ", "\t", "\n", "\r", "\r\n", "\u{A0}", "\u{2009}", "\u{200B}", "\u{200D}", "\u{2028}", "e\u{301}", " \u{301}",
        "\u{600} ", "\u{94D}", "🍕", "👍🏽", "寿司", "한", "\u{1F1E9}\u{1F1EA}", "Käse", "ß", "İ", "Σ", "ǅ", "Ⅻ", "½", "٣", "€", "’",
        "A", "z", "0", "9", ".", ",", ";", "(", "-", "&", "+", "|", "-", " - ", "and", "AND", "with", "und", "u", "w", "Soup",
    ]
    private static let gen = zip(Gen.element(of: pieces), Gen.latin1.string(of: 0...3), Gen.int(in: 0...2))
        .map { piece, random, pick in pick == 0 ? random : (piece ?? "") }
        .array(of: 0...12)
        .map { $0.joined() }

    private static func strings(seed: UInt64, count: Int) -> [String] {
        var rng = Xoshiro(seed: (seed, 0x9E37_79B9_7F4A_7C15, seed &* 31 &+ 7, 0xD1B5_4A32_D192_ED03))
        return (0..<count).map { _ in gen.run(using: &rng) }
    }

    /// Every scalar `isStandalone` admits is a Character of its own between letters and beside
    /// itself: it is no combining mark, joiner, spacing or prepended mark, jamo or regional
    /// indicator, the only scalars that join a neighbour.
    @Test func standaloneScalarsNeverJoin() {
        var checked = 0
        for v in UInt32(0)...0x2FFFF where ScalarText.isStandalone(v) {
            guard let s = Unicode.Scalar(v) else { continue }
            let c = String(s)
            #expect(("a" + c + "a").count == 3 && (c + c).count == 2 && (" " + c + " ").count == 3, "U+\(String(v, radix: 16))")
            checked += 1
        }
        #expect(checked > 1500)
        for joiner: UInt32 in [0x0D, 0x301, 0x483, 0x600, 0x94D, 0x200C, 0x200D, 0x20D0, 0xFE0F, 0x1100, 0x1F1E6] {
            #expect(!ScalarText.isStandalone(joiner))
        }
    }

    @Test func linesAndWordsAsCharacterSplits() {
        for (i, s) in Self.strings(seed: 101, count: 4000).enumerated() {
            let lines = s.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
            #expect(ScalarText.lines(s) == lines.map(String.init), "iteration \(i): \(s.debugDescription)")
            for line in lines.map(String.init) {
                let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
                #expect(ScalarText.spaceSeparatedWords(line) == words, "iteration \(i): \(line.debugDescription)")
                if ScalarText.isOneScalarPerCharacter(line) { #expect(line.count == line.unicodeScalars.count) }
            }
        }
    }

    @Test func letterWordsAsCharacterSplits() {
        for (i, s) in Self.strings(seed: 109, count: 4000).enumerated() {
            for t in [s, s.lowercased(), TextFold.fold(s)] {
                #expect(ScalarText.letterWords(t) == t.split(whereSeparator: { !$0.isLetter }).map(String.init),
                        "iteration \(i): \(t.debugDescription)")
            }
        }
        #expect(ScalarText.letterWords("Käse-Spätzle mit\r\nZwiebeln") == ["Käse", "Spätzle", "mit", "Zwiebeln"])
    }

    /// `TextFold.fold` as it read Characters before its scalar path (the reference): lower case
    /// for plain ASCII, else the Character path.
    private static func referenceFold(_ s: String) -> String {
        if s.utf8.allSatisfy({ $0 < 128 && $0 != UInt8(ascii: "`") }) { return s.lowercased() }
        return TextFold.foldCharacters(s.lowercased())
    }

    @Test func foldAsCharacterFold() {
        for (i, s) in Self.strings(seed: 113, count: 4000).enumerated() {
            #expect(TextFold.fold(s) == Self.referenceFold(s), "iteration \(i): \(s.debugDescription)")
        }
        // Every scalar of the scalar path's ranges, alone, in a word, upper-cased and after "\u{130}".
        var checked = 0
        for v in UInt32(0)...0x2FFFF where ScalarText.isStandalone(v) {
            guard let u = Unicode.Scalar(v) else { continue }
            let c = String(u)
            for t in [c, "K" + c + "ä", c.uppercased() + "é", "\u{130}" + c] {
                #expect(TextFold.fold(t) == Self.referenceFold(t), "U+\(String(v, radix: 16)) in \(t.debugDescription)")
            }
            checked += 1
        }
        #expect(checked > 1500)
        #expect(TextFold.fold("Straße’s CRÈME Brûlée") == "strasse's creme brulee")
    }

    @Test func structurerCountsAsCharacterCounts() {
        for (i, s) in Self.strings(seed: 103, count: 4000).enumerated() {
            let letters = s.filter(\.isLetter)
            let counts = MenuStructurer.letterCounts(s)
            #expect(counts.letters == letters.count && counts.capitals == letters.filter(\.isUppercase).count,
                    "iteration \(i): \(s.debugDescription)")
            #expect(MenuStructurer.spaceWordCount(s) == s.split(separator: " ").count, "iteration \(i): \(s.debugDescription)")
            #expect(MenuStructurer.spaceWordCount(s, limit: 2) == min(3, s.split(separator: " ").count))
            #expect(MenuStructurer.firstLetter(s) == s.first(where: \.isLetter), "iteration \(i): \(s.debugDescription)")
            #expect(MenuStructurer.nameScore(s) == Self.referenceNameScore(s), "iteration \(i): \(s.debugDescription)")
            let t = s.trimmingSpaces()
            #expect(MenuStructurer.isHeaderLikeGeneral(t) == Self.referenceHeaderLike(t), "iteration \(i): \(t.debugDescription)")
            let (l, c) = AllergenClassifier.letterCount(s)
            #expect(l == s.filter(\.isLetterFast).count && c == s.count, "iteration \(i): \(s.debugDescription)")
        }
    }

    @Test func phraseEdgesAsCharacterReads() {
        for (i, s) in Self.strings(seed: 107, count: 4000).enumerated() {
            #expect(ItemBounds.startsMidPhrase(s) == Self.referenceStartsMidPhrase(s), "iteration \(i): \(s.debugDescription)")
            #expect(ItemBounds.endsMidPhrase(s) == Self.referenceEndsMidPhrase(s), "iteration \(i): \(s.debugDescription)")
        }
        #expect(ItemBounds.startsMidPhrase("und Lauch") && ItemBounds.endsMidPhrase("served with"))
        #expect(!ItemBounds.startsMidPhrase("Und Lauch") && !ItemBounds.endsMidPhrase("with"))
    }

    @Test func spanTextAsFoundationReplacement() {
        for (i, s) in Self.strings(seed: 109, count: 3000).enumerated() {
            let tokens = s.split(separator: " ").map { Token(norm: "", raw: String($0), kind: .word, word: 0, sentence: 0) }
            let joined = tokens.map(\.raw).joined(separator: " ")
            #expect(AllergenClassifier.spanText(tokens[...]) == joined.replacingOccurrences(of: " - ", with: "-"),
                    "iteration \(i): \(s.debugDescription)")
        }
        let dash = ["gluten", "-", "free"].map { Token(norm: $0, raw: $0, kind: .word, word: 0, sentence: 0) }
        #expect(AllergenClassifier.spanText(dash[...]) == "gluten-free")
    }

    /// `ScalarText.isAlphabetic` is the scalar property on every scalar below U+0100 (where it
    /// reads no table) and on the scalars of random text; `ScalarText.isWhitespace` is a
    /// one-scalar Character's `isWhitespace` on every scalar `isStandalone` admits, and
    /// `visibleCharacters` the filter it replaced; `BytePrecheck.count(of:in:upTo:)` is the
    /// lazy filter's prefix count it replaced.
    @Test func latinAlphabeticAndByteCounts() {
        for v in UInt32(0)..<0x300 {
            guard let u = Unicode.Scalar(v) else { continue }
            #expect(ScalarText.isAlphabetic(u) == u.properties.isAlphabetic, "U+\(String(v, radix: 16))")
        }
        for v in UInt32(0)...0x2FFFF where ScalarText.isStandalone(v) {
            guard let u = Unicode.Scalar(v) else { continue }
            #expect(ScalarText.isWhitespace(u) == Character(u).isWhitespace, "U+\(String(v, radix: 16))")
            if v < 0x300 { #expect(ScalarText.isWhitespace(u) == u.properties.isWhitespace, "U+\(String(v, radix: 16))") }
        }
        for (i, s) in Self.strings(seed: 149, count: 3000).enumerated() {
            for u in s.unicodeScalars { #expect(ScalarText.isAlphabetic(u) == u.properties.isAlphabetic, "iteration \(i)") }
            #expect(MenuAnalyzer.visibleCharacters(s) == s.filter { !$0.isWhitespace }.count, "iteration \(i): \(s.debugDescription)")
            #expect(MenuAnalyzer.visibleCharactersNonASCII(s) == s.filter { !$0.isWhitespace }.count, "iteration \(i): \(s.debugDescription)")
            for byte in [UInt8(ascii: ","), UInt8(ascii: "("), 0xC3] {
                for limit in 0...3 {
                    #expect(BytePrecheck.count(of: byte, in: s, upTo: limit) == s.utf8.lazy.filter { $0 == byte }.prefix(limit).count,
                            "iteration \(i): \(s.debugDescription)")
                }
            }
        }
        // A joiner or mark after a removed line feed joins the Character before it in the filtered text.
        for s in ["u.u\r\n\u{200D}", "g2ì\n\u{94D}é", "Käse \u{A0}8,50 €", "Crème\u{2009}brûlée"] {
            #expect(MenuAnalyzer.visibleCharacters(s) == s.filter { !$0.isWhitespace }.count, "\(s.debugDescription)")
        }
    }

    /// `String.substring(utf16:)` is `NSString.substring(with:)`: on every range of random text
    /// that falls between scalars (it reads those), on ranges inside a surrogate pair or out of
    /// bounds (it hands those to `NSString`), and on the groups of the price and code regexes.
    @Test func utf16SubstringAsNSString() {
        var rng = Xoshiro(seed: (127, 0x9E37_79B9_7F4A_7C15, 131, 0xD1B5_4A32_D192_ED03))
        var scalarAligned = 0
        for (i, s) in Self.strings(seed: 127, count: 1500).enumerated() {
            let ns = s as NSString
            let n = ns.length
            for _ in 0..<12 {
                let lo = Gen.int(in: 0...n).run(using: &rng), len = Gen.int(in: 0...(n - lo)).run(using: &rng)
                let r = NSRange(location: lo, length: len)
                #expect(s.substring(utf16: r) == ns.substring(with: r), "iteration \(i): \(s.debugDescription) \(r)")
                let u = s.utf16
                if let a = u.index(u.startIndex, offsetBy: lo, limitedBy: u.endIndex), a.samePosition(in: s.unicodeScalars) != nil {
                    scalarAligned += 1
                }
            }
            let line = s + " 12.50"
            for rx in [PriceParser.strongTrailing, PriceParser.plainTrailing, AllergenClassifier.looseLetterListRegex] {
                for m in rx.matches(in: line, range: NSRange(location: 0, length: (line as NSString).length)) {
                    for g in 0..<m.numberOfRanges where m.range(at: g).location != NSNotFound {
                        #expect(line.substring(utf16: m.range(at: g)) == (line as NSString).substring(with: m.range(at: g)),
                                "iteration \(i): \(line.debugDescription) group \(g)")
                    }
                }
            }
        }
        #expect(scalarAligned > 10_000)
        // Inside a surrogate pair, and a range of combining marks cut from their letter.
        #expect("a🍕b".substring(utf16: NSRange(location: 2, length: 2)) == ("a🍕b" as NSString).substring(with: NSRange(location: 2, length: 2)))
        #expect("e\u{301}\u{302}x".substring(utf16: NSRange(location: 1, length: 2)) == "\u{301}\u{302}")
    }

    /// `AllergenClassifier.infixOffset` is Foundation's `range(of:)` read in Characters: on
    /// random words and terms, on terms cut from the word, the empty term and longer terms.
    @Test func infixOffsetAsFoundationSearch() {
        var rng = Xoshiro(seed: (137, 0x9E37_79B9_7F4A_7C15, 139, 0xD1B5_4A32_D192_ED03))
        let asciiWords = Gen.element(of: Array("abcnrmlise")).array(of: 0...12).map { String($0.compactMap { $0 }) }
        var found = 0
        for (i, s) in Self.strings(seed: 137, count: 2000).enumerated() {
            let word = asciiWords.run(using: &rng), other = asciiWords.run(using: &rng)
            var pairs = [(s, word), (word, s), (word, other), (other, word), (s, ""), ("", s), (s, s), (word + s, word)]
            let chars = Array(word)
            if !chars.isEmpty {
                let lo = Gen.int(in: 0...(chars.count - 1)).run(using: &rng), hi = Gen.int(in: (lo + 1)...chars.count).run(using: &rng)
                pairs.append((word, String(chars[lo..<hi])))
                pairs.append((s + word + s, String(chars[lo..<hi])))
            }
            for (w, t) in pairs {
                let expected = AllergenClassifier.infixOffsetFoundation(of: t, in: w)
                #expect(AllergenClassifier.infixOffset(of: t, in: w) == expected, "iteration \(i): \(t.debugDescription) in \(w.debugDescription)")
                if expected != nil { found += 1 }
            }
        }
        #expect(found > 2000)
        #expect(AllergenClassifier.infixOffset(of: "gulasch", in: "garnelengulasch") == 8)
        #expect(AllergenClassifier.infixOffset(of: "rn", in: "corner") == 2 && AllergenClassifier.infixOffset(of: "", in: "corner") == nil)
    }

    // MARK: The Character versions replaced

    static func referenceNameScore(_ s: String) -> Double {
        let t = MenuStructurer.stripCodes(s)
        let words = t.split(separator: " ")
        if words.isEmpty { return -1 }
        var score = 1.0
        if words.count > 7 { score -= 1 }
        if t.contains("|") { score -= 1 }
        if t.contains(",") { score -= 0.5 }
        let ls = t.filter(\.isLetter)
        if !ls.isEmpty && Double(ls.filter(\.isUppercase).count) / Double(ls.count) >= 0.5 { score += 0.5 }
        if let f = t.first, f.isLowercase, !words.contains(where: { w in w.count > 1 && w.allSatisfy { !$0.isLetter || $0.isUppercase } }) {
            score -= 0.5
        }
        return score
    }

    static func referenceHeaderLike(_ t: String) -> Bool {
        let words = t.split(separator: " ")
        guard (1...5).contains(words.count), let first = t.first else { return false }
        guard first.isUppercase || first.isNumber else { return false }
        if let last = t.last, ",;.".contains(last) { return false }
        let ls = t.filter(\.isLetter)
        guard ls.count >= 3 else { return false }
        if ls.allSatisfy(\.isUppercase) { return true }
        return words.allSatisfy { w in w.count < 4 || w.first!.isUppercase || !w.first!.isLetter }
    }

    static func referenceStartsMidPhrase(_ text: String) -> Bool {
        let t = text.trimmingSpaces()
        guard let first = t.first else { return false }
        if ItemBounds.joinerSigns.contains(first) { return true }
        guard first.isLowercase else { return false }
        let word = t.prefix { $0.isLetter }
        guard !word.isEmpty else { return false }
        return ItemBounds.joiners.contains(TextFold.fold(String(word)))
    }

    static func referenceEndsMidPhrase(_ text: String) -> Bool {
        let t = text.trimmingSpaces()
        guard let last = t.last else { return false }
        if last == "," || last == ";" || last == "(" || last == "-" || ItemBounds.joinerSigns.contains(last) { return true }
        let word = t.reversed().prefix { $0.isLetter }
        guard !word.isEmpty, word.count < t.count else { return false }
        return ItemBounds.endJoiners.contains(TextFold.fold(String(word.reversed())))
    }
}
