import Foundation
import PropertyBased
import Testing
@testable import MenuScanKit

// The structurer's and classifier's fast text helpers (Support/Trim.swift) must
// give exactly the answers of the Foundation / standard-library calls they
// replace, on any text: random strings of ASCII, Latin-1, every Unicode space
// and line separator, combining marks, emoji and CJK, from a fixed seed.
@Suite("Fast text helpers agree with Foundation")
struct TextFastPathTests {
    private static let pieces = [
        " ", "\t", "\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{A0}", "\u{1680}", "\u{2000}", "\u{2009}",
        "\u{200B}", "\u{2028}", "\u{2029}", "\u{202F}", "\u{205F}", "\u{3000}", "\u{FEFF}", "e\u{301}", "🍕", "寿司",
        "Käse", "ß", "Ⅻ", "٣", "²", "Σ", "ǅ", "A", "z", "0", "9", ".", "|", "(", ",",
    ]
    private static let gen = zip(Gen.element(of: pieces), Gen.latin1.string(of: 0...3), Gen.int(in: 0...2))
        .map { piece, random, pick in pick == 0 ? random : (piece ?? "") }
        .array(of: 0...12)
        .map { $0.joined() }

    @Test("trimmingSpaces / trimmingWhitespace = trimmingCharacters(in: .whitespaces / .whitespacesAndNewlines)")
    func trimming() {
        var rng = Xoshiro(seed: (17, 0x9E37_79B9_7F4A_7C15, 541, 0xD1B5_4A32_D192_ED03))
        for i in 0..<3000 {
            let s = Self.gen.run(using: &rng)
            #expect(s.trimmingSpaces() == s.trimmingCharacters(in: .whitespaces), "iteration \(i): \(s.debugDescription)")
            #expect(s.trimmingWhitespace() == s.trimmingCharacters(in: .whitespacesAndNewlines), "iteration \(i): \(s.debugDescription)")
            let sub = Substring(s)
            #expect(sub.trimmingSpaces() == s.trimmingCharacters(in: .whitespaces))
        }
    }

    @Test("isLetterFast / isNumberFast / isUppercaseFast = isLetter / isNumber / isUppercase")
    func characterTests() {
        var rng = Xoshiro(seed: (29, 0x9E37_79B9_7F4A_7C15, 887, 0xD1B5_4A32_D192_ED03))
        var all = Set<Character>((0..<256).compactMap { Unicode.Scalar($0).map(Character.init) })
        for _ in 0..<1000 { all.formUnion(Self.gen.run(using: &rng)) }
        all.insert("\r\n")
        for c in all {
            #expect(c.isLetterFast == c.isLetter, "\(c.unicodeScalars.map(\.value))")
            #expect(c.isNumberFast == c.isNumber, "\(c.unicodeScalars.map(\.value))")
            #expect(c.isUppercaseFast == c.isUppercase, "\(c.unicodeScalars.map(\.value))")
        }
    }

    /// The tokenizer reads plain-ASCII words on bytes; any other word through Characters.
    /// A trailing no-break space (no letter, no token, only an end of word) sends a word
    /// through the Character path: both must give the same tokens on any ASCII text.
    @Test("Tokenizer: the ASCII byte path = the Character path")
    func tokenizerPaths() {
        let ascii = Array("aZ09.,;:!?&/|+()-*'\" \t\n\r#%$_eE5wWoO")
        let gen = Gen.element(of: ascii).map { $0 ?? "a" }.array(of: 0...14).map { String($0) }
        var rng = Xoshiro(seed: (41, 0x9E37_79B9_7F4A_7C15, 997, 0xD1B5_4A32_D192_ED03))
        func key(_ t: [Token]) -> [String] { t.map { "\($0.norm)|\($0.raw)|\($0.kind)|\($0.word)|\($0.sentence)" } }
        for i in 0..<3000 {
            let words = (0..<3).map { _ in gen.run(using: &rng) }
            let fast = Tokenizer.tokenize(words.map { SourceWord(text: $0, confidence: nil) })
            let slow = Tokenizer.tokenize(words.map { SourceWord(text: $0 + "\u{A0}", confidence: nil) })
            #expect(key(fast) == key(slow), "iteration \(i): \(words.debugDescription)")
        }
    }

    /// The German-text test counts words and signals on the bytes of ASCII text; it must
    /// count as the Character path on any ASCII text (function words in any case included).
    @Test("writesGerman: the ASCII byte path = the Character path")
    func germanSignalPaths() {
        let pieces = ["mit", "MIT", "Und", "oder", "vom", "hausgemachte", "aus", "Im", "x", "Salat", "with", "9", "0",
                      " ", "\t", "\n", "\r", "\r\n", ",", ".", "-", "'", "(", "/", "e"]
        let gen = Gen.element(of: pieces).map { $0 ?? "" }.array(of: 0...16).map { $0.joined() }
        var rng = Xoshiro(seed: (53, 0x9E37_79B9_7F4A_7C15, 1009, 0xD1B5_4A32_D192_ED03))
        for i in 0..<3000 {
            let s = gen.run(using: &rng)
            let fast = MenuAnalyzer.germanSignalsASCII(s), slow = MenuAnalyzer.germanSignalsGeneral(s)
            #expect(fast.signals == slow.signals && fast.words == slow.words, "iteration \(i): \(s.debugDescription)")
        }
        #expect(MenuAnalyzer.germanSignalsASCII("Schnitzel MIT Pommes und Salat") == (2, 5))
    }

    /// The analyzer's shortcuts: a segment the legend pre-check turns away never matches
    /// the legend pattern; the ASCII character count and menu-wide word test agree with
    /// the Character versions, on random text and on legend-like text.
    @Test("MenuAnalyzer: legend pre-check, visible characters, menu-wide words")
    func analyzerShortcuts() {
        let legendish = zip(Gen.element(of: ["A", "B", "Z", "1", "12", "7", "a", "É", " ", "-", "–", ":", ".", ")", "Gluten", "Mi", "Ce", "Mus", "VG",
                                             "Celery", " Milk", "Nuts", "our", "all dishes", "Käse", "٣", "\u{A0}", "b) ", " 12) ", "/", " / ", "·", ";", "|", "•"]),
                            Gen.int(in: 0...1), Gen.latin1.string(of: 0...2))
            .map { piece, pick, random in pick == 0 ? (piece ?? "") : random }
            .array(of: 0...6).map { $0.joined() }
        var rng = Xoshiro(seed: (53, 0x9E37_79B9_7F4A_7C15, 131, 0xD1B5_4A32_D192_ED03))
        for i in 0..<4000 {
            let s = i % 2 == 0 ? Self.gen.run(using: &rng) : legendish.run(using: &rng)
            let p = s.trimmingSpaces()
            let ns = p as NSString
            let matches = MenuAnalyzer.legendSegment.firstMatch(in: p, range: NSRange(location: 0, length: ns.length)) != nil
            #expect(!matches || MenuAnalyzer.mayBeLegendSegment(p), "iteration \(i): \(p.debugDescription)")
            // A line some legend part of which could match opens with a key (the pre-check of legend()).
            if MenuAnalyzer.legendParts(s).first.map({ q in
                let r = NSRange(location: 0, length: (q as NSString).length)
                return MenuAnalyzer.legendSegment.firstMatch(in: q, range: r) != nil
                    || MenuAnalyzer.multiLetterLegendSegment.firstMatch(in: q, range: r) != nil
            }) == true {
                #expect(MenuAnalyzer.mayOpenWithKey(s), "iteration \(i): \(s.debugDescription)")
            }
            // Keys closed by a bracket part a line whole: either one part, or three or more that
            // each open on a key and together end the line.
            let byKey = MenuAnalyzer.splitAtBracketKeys(Substring(s))
            #expect(byKey == [Substring(s)] || (byKey.count >= 3 && s.hasSuffix(byKey.joined())
                && byKey.allSatisfy { MenuAnalyzer.leadingKey($0.unicodeScalars, skipping: { _ in false })?.next == ")" }),
                    "iteration \(i): \(s.debugDescription)")
            // Entries cut at separators: no piece is empty, and a line without a slash is cut
            // exactly where a plain split at the separators cuts it (only a slash may join names).
            let pieces = MenuAnalyzer.entryPieces(s)
            #expect(!pieces.contains { $0.isEmpty }, "iteration \(i): \(s.debugDescription)")
            if !s.contains("/") {
                #expect(pieces == s.split(whereSeparator: { "|;•·".contains($0) }), "iteration \(i): \(s.debugDescription)")
            }
            let multi = MenuAnalyzer.multiLetterLegendSegment.firstMatch(in: p, range: NSRange(location: 0, length: ns.length)) != nil
            #expect(!multi || MenuAnalyzer.mayBeMultiLetterSegment(p), "iteration \(i): \(p.debugDescription)")
            #expect(MenuAnalyzer.visibleCharacters(s) == s.filter { !$0.isWhitespace }.count, "iteration \(i)")
            let words = TextFold.fold(s).split(whereSeparator: { !$0.isLetter })
            let slow = words.contains { ["all", "our", "dishes", "kuche", "speisen"].contains(String($0)) }
            if slow { #expect(MenuAnalyzer.speaksForTheMenu(s), "iteration \(i): \(s.debugDescription)") }
        }
        #expect(MenuAnalyzer.speaksForTheMenu("All our dishes may contain nuts."))
        #expect(!MenuAnalyzer.speaksForTheMenu("Chicken wings"))
        #expect(MenuAnalyzer.mayBeLegendSegment("A - Gluten") && !MenuAnalyzer.mayBeLegendSegment("Apple pie"))
    }
}

/// The structurer settles most lines before a regex runs: each pre-check is a necessary
/// condition of its pattern, so skipping the regex where it says no changes nothing.
@Suite("Price and code pre-checks never skip a match")
struct StructurePrecheckTests {
    private static let pieces = [
        "12", "4.50", "3,20", "7", "€", "$", "£", "¥", "₺", "円", "EUR", "USD", "TL", "CHF", "YEN", "GBP", "S4", "C16",
        ",-", " ", "  ", "\t", "\u{A0}", "\u{2009}", "\n", "....", "…", "_", "(", ")", "(+ $2 for chicken)", "+", "/",
        "#", "*", ".", ",", ";", ":", "!", "?", "|", "'", "Soup", "with", "a", "A", "B", "c", "a,c,c", "A, B", "(1,2)",
        "(3)", "é", "É", "ß", "Käse", "e\u{301}", "寿司", "٣", "×", "-", "Cal", "p", "P", "70p", "pm",
        // currencies of other countries, after and before the sum, and thousands in groups
        "Fr.", "Fr", "₪", "kr", "kr.", "Kč", "zł", "лв.", "лв", "Ft", "lei", "din.", "р.", "Dhs", "FCFA", "SEK", "RM", "Rs.",
        "R$", "HK$", "1 200", "45.000", "12,500", "189,-", "–", "r", "n", "s", "č",
    ]
    private static let gen = Gen.element(of: pieces).map { $0 ?? "" }.array(of: 0...9).map { $0.joined() }

    private static func matches(_ rx: NSRegularExpression, _ s: String) -> Bool {
        rx.firstMatch(in: s, range: NSRange(location: 0, length: (s as NSString).length)) != nil
    }

    @Test("mayEndWithPrice is false only where neither trailing-price pattern matches")
    func priceEnd() {
        var rng = Xoshiro(seed: (53, 0x9E37_79B9_7F4A_7C15, 1213, 0xD1B5_4A32_D192_ED03))
        var skipped = 0
        for i in 0..<6000 {
            let s = Self.gen.run(using: &rng)
            guard !PriceParser.mayEndWithPrice(s) else { continue }
            skipped += 1
            #expect(!Self.matches(PriceParser.strongTrailing, s), "iteration \(i): \(s.debugDescription)")
            #expect(!Self.matches(PriceParser.plainTrailing, s), "iteration \(i): \(s.debugDescription)")
        }
        #expect(skipped > 1000)  // the check does settle lines
    }

    /// Letter currencies before a sum are marked with one sign and put back: on any line, what is put
    /// back is the line, and a mark stands only where a currency of `lettersBefore` started a word and
    /// a digit followed (round 24).
    @Test("Letter currencies before a sum: marked, then put back as they were")
    func letterCurrencyMarks() {
        let gen = Gen.element(of: ["RM", "Rs.", "Rs", "kr", "Kr.", "R$", "HK$", "AED", "EUR", " ", "  ", "\t", "7", "12,50",
                                   "Nasi", "lemak", "ARM", "Krone", "x", "/", "(", "é", "¤", "\u{A0}", "."])
            .map { $0 ?? "" }.array(of: 0...8).map { $0.joined() }
        var rng = Xoshiro(seed: (29, 0x9E37_79B9_7F4A_7C15, 4211, 0xD1B5_4A32_D192_ED03))
        var marked = 0
        for i in 0..<6000 {
            let s = gen.run(using: &rng)
            guard let (m, marks) = PriceParser.markingLetterCurrencies(s) else { continue }
            marked += 1
            #expect(PriceParser.unmarking(m, marks, from: 0) == (s, marks.count) || s.contains("¤"), "\(i): \(s.debugDescription)")
            #expect(marks.allSatisfy { k in PriceParser.lettersBefore.contains(k.trimmingCharacters(in: .whitespaces)) }, "\(i)")
        }
        #expect(marked > 200)  // the lines do hold marked currencies
        #expect(PriceParser.markingLetterCurrencies("ARM 7 Krone 5 Soup 12") == nil)
        #expect(PriceParser.find(in: "Nasi lemak RM 7 / RM 12", allowPlain: false)?.price == "RM 7 / RM 12")
    }

    /// The whole trailing-price regex's groups (the reference `trailingRegex`: text before,
    /// price run, note), read the way `find` read them before it ran the pattern in parts.
    private static func referenceTrailing(_ line: String, allowPlain: Bool) -> [String]? {
        let ns = line as NSString
        guard let m = (allowPlain ? PriceParser.plainTrailing : PriceParser.strongTrailing)
            .firstMatch(in: line, range: NSRange(location: 0, length: ns.length)) else { return nil }
        return [ns.substring(with: m.range(at: 1)), ns.substring(with: m.range(at: 2)),
                m.range(at: 3).location == NSNotFound ? "" : ns.substring(with: m.range(at: 3))]
    }

    /// `PriceParser.trailingMatch` (the pattern in parts: after a separator, searched; at the
    /// start) = the whole regex with its lazy prefix, on price-shaped lines (prices at the start,
    /// after leaders, several sizes, notes, stray marks, line terminators of every kind inside
    /// and at the end, Unicode spaces and digits) and on random text.
    @Test("Trailing price in parts = the whole trailing regex")
    func trailingParts() {
        let priceish = Gen.element(of: Self.pieces + ["\r\n", "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}",
                                                      "\u{3000}", "١٢", "+ ", "+", " + $2", "S8.5", "$ 4", "£.50", "12,-", "4,5/8",
                                                      "€12.50/18", "15/21 €", "9 / 15 EUR", " / ", "·", "· ·", "_ _", "3.25 #", "12 €", "Soup 12", "1/2", "8oz"])
            .map { $0 ?? "" }.array(of: 0...10).map { $0.joined() }
        let random = zip(Gen.latin1.string(of: 0...12), Gen.element(of: ["", " 12", " 4.50", "12", "....7", "\n5", " $4 (x)"]))
            .map { text, end in text + (end ?? "") }
        var rng = Xoshiro(seed: (71, 0x9E37_79B9_7F4A_7C15, 1733, 0xD1B5_4A32_D192_ED03))
        var matched = [0, 0], atStart = 0
        for i in 0..<8000 {
            let s = i % 4 == 3 ? random.run(using: &rng) : priceish.run(using: &rng)
            for plain in [false, true] {
                let parts = PriceParser.trailingMatch(in: s, allowPlain: plain).map { [$0.before, $0.price, $0.after] }
                let reference = Self.referenceTrailing(s, allowPlain: plain)
                #expect(parts == reference, "\(i) plain \(plain): \(s.debugDescription)")
                if reference != nil { matched[plain ? 1 : 0] += 1 }
                if reference?.first == "" { atStart += 1 }
                if !PriceParser.mayStartWithPrice(s) {
                    #expect(!Self.matches(plain ? PriceParser.plainAtStart : PriceParser.strongAtStart, s), "\(i): \(s.debugDescription)")
                }
            }
        }
        #expect(matched[0] > 600 && matched[1] > 1200 && atStart > 300, "\(matched) \(atStart)")  // the lines do hold prices, some from their start
        #expect(PriceParser.trailingMatch(in: "Soup ........ 5.50", allowPlain: false).map { [$0.before, $0.price] } == ["Soup", "5.50"])
        #expect(PriceParser.trailingMatch(in: "12 (+ $2)", allowPlain: true).map { [$0.before, $0.price, $0.after] } == ["", "12", "(+ $2)"])
        #expect(PriceParser.trailingMatch(in: "Soup\n 5.50", allowPlain: false).map { [$0.before, $0.price] } == ["Soup", "5.50"])
        #expect(PriceParser.trailingMatch(in: "Soup\nx 5.50", allowPlain: false) == nil)  // `.` stops at the line feed
    }

    /// The leader clean-up after a price runs each of its regexes only where a necessary
    /// condition holds: the result must be that of the regexes alone, on random text and on
    /// text made of leader pieces (dots, OCR's "ccoo", "SSSS", line terminators at the end).
    @Test("Leader clean-up with its pre-checks = the regexes alone")
    func leaders() {
        let leaderish = Gen.element(of: ["....", ".", "…", "·", "_", "___", "0", "o", "O", "ccoo", "SSSS", "eeee", "HH", "uvvA",
                                         "nm", ":", ";", ",", "'", "\"", " ", "\t", "\n", "\r\n", "\u{2028}", "\u{85}",
                                         "Soup", "Spätlese", "é", "e\u{301}", "寿司", "12", "x", "\u{A0}"])
            .map { $0 ?? "" }.array(of: 0...10).map { $0.joined() }
        var rng = Xoshiro(seed: (67, 0x9E37_79B9_7F4A_7C15, 1613, 0xD1B5_4A32_D192_ED03))
        var skipped = 0
        for i in 0..<6000 {
            let s = i % 3 == 0 ? Self.gen.run(using: &rng) : leaderish.run(using: &rng)
            let t = i % 2 == 0 ? s.trimmingSpaces() : s
            #expect(PriceParser.removingLeaders(t) == PriceParser.removingLeaders(t, precheck: false), "\(i): \(t.debugDescription)")
            if !PriceParser.mayEnd(t, inRunOf: 3, of: PriceParser.leaderRunScalars) {
                skipped += 1
                #expect(!Self.matches(PriceParser.leaderRun, t), "\(i): \(t.debugDescription)")
            }
            if !PriceParser.mayEnd(t, inRunOf: 8, of: PriceParser.misreadLeaderScalars) {
                #expect(!Self.matches(PriceParser.misreadLeaders, t), "\(i): \(t.debugDescription)")
            }
            if !PriceParser.hasRunOfThreeDots(t) { #expect(!Self.matches(PriceParser.gluedLeaders, t), "\(i): \(t.debugDescription)") }
        }
        #expect(skipped > 1000)  // the checks do settle text
        #expect(PriceParser.removingLeaders("Soup ........") == "Soup")
        #expect(PriceParser.removingLeaders("Spätlese.......eeeeeseee") == "Spätlese")
    }

    @Test("Code pre-checks are false only where their pattern finds nothing; isCodeOnly unchanged")
    func codes() {
        var rng = Xoshiro(seed: (59, 0x9E37_79B9_7F4A_7C15, 1291, 0xD1B5_4A32_D192_ED03))
        for i in 0..<6000 {
            let s = Self.gen.run(using: &rng)
            if !MenuStructurer.mayHoldNumericCodes(s) { #expect(!Self.matches(MenuStructurer.numericCodes, s), "\(i): \(s.debugDescription)") }
            if !BytePrecheck.mayHoldCapitalList(s) { #expect(!Self.matches(MenuStructurer.letterCodes, s), "\(i): \(s.debugDescription)") }
            if !MenuStructurer.mayEndInLooseCodes(s) {
                let m = MenuStructurer.trailingLooseCodes.firstMatch(in: s, range: NSRange(location: 0, length: (s as NSString).length))
                #expect(m.map { (s as NSString).substring(with: $0.range).contains(",") } != true, "\(i): \(s.debugDescription)")
            }
            // isCodeOnly's word check against the definition without it
            let reference = MenuStructurer.mayHoldCodes(s)
                && MenuStructurer.stripCodes(s).filter { $0.isLetter || $0.isNumber }.isEmpty
                && s.contains(where: { $0.isNumber || $0.isUppercase })
            #expect(MenuStructurer.isCodeOnly(s) == reference, "\(i): \(s.debugDescription)")
        }
    }
}

@Suite("Structurer byte paths agree with the Character paths")
struct StructureBytePathTests {
    @Test("isHeaderLikeASCII = isHeaderLikeGeneral on ASCII text")
    func headerLike() {
        let ascii = Array("aZ09.,;:!?&/|+()-*'\" \t\r\n#%$_eEXyOoM  ")
        let gen = Gen.element(of: ascii).map { $0 ?? "a" }.array(of: 0...30).map { String($0) }
        let words = Gen.element(of: ["SOUPS", "Soups", "soups", "and", "Cold", "SANDWICHES", "12", "Tomato", "with", "A", "x\r\n", "The"])
            .map { $0 ?? "" }.array(of: 0...7).map { $0.joined(separator: " ") }
        var rng = Xoshiro(seed: (61, 0x9E37_79B9_7F4A_7C15, 1433, 0xD1B5_4A32_D192_ED03))
        for i in 0..<4000 {
            let s = i % 2 == 0 ? gen.run(using: &rng) : words.run(using: &rng)
            let t = s.trimmingSpaces()
            #expect(MenuStructurer.isHeaderLikeASCII(t) == MenuStructurer.isHeaderLikeGeneral(t), "\(i): \(t.debugDescription)")
        }
    }

    /// `stripCodes` as it was before its byte pre-checks and the no-collapse shortcut.
    static func referenceStrip(_ s: String) -> String {
        var t = s
        let mayHold: (String) -> Bool = { $0.utf8.contains { $0 == UInt8(ascii: "(") || $0 == UInt8(ascii: ",") } }
        for rx in [MenuStructurer.numericCodes, MenuStructurer.letterCodes] where mayHold(t) {
            t = rx.stringByReplacingMatches(in: t, range: NSRange(location: 0, length: (t as NSString).length), withTemplate: " ")
        }
        if mayHold(t), let m = MenuStructurer.trailingLooseCodes.firstMatch(in: t, range: NSRange(location: 0, length: (t as NSString).length)),
           (t as NSString).substring(with: m.range).contains(",") {
            t = (t as NSString).replacingCharacters(in: m.range, with: "")
        }
        var words = t.split(separator: " ")
        let bar: (Substring) -> Bool = { $0.allSatisfy { "|¦‖│".contains($0) } }
        while let first = words.first, bar(first) { words.removeFirst() }
        while let last = words.last, bar(last) { words.removeLast() }
        return words.joined(separator: " ")
    }

    @Test("stripCodes = its reference on any text")
    func strip() {
        let pieces = ["Soup", " ", "  ", "|", "¦", "‖", "│", "a,c,c", "A, B", "(1,2)", "(3)", " \u{301}", "e\u{301}", "Käse",
                      ",", ".", "x", "B.L.T.", "\u{A0}", "寿司", "12", "\t"]
        let gen = Gen.element(of: pieces).map { $0 ?? "" }.array(of: 0...9).map { $0.joined() }
        var rng = Xoshiro(seed: (67, 0x9E37_79B9_7F4A_7C15, 1499, 0xD1B5_4A32_D192_ED03))
        for i in 0..<4000 {
            let s = gen.run(using: &rng)
            #expect(MenuStructurer.stripCodes(s) == Self.referenceStrip(s), "\(i): \(s.debugDescription)")
        }
    }
}

@Suite("Code-reference pre-checks never skip a match")
struct CodeReferencePrecheckTests {
    @Test("each allergen-code pattern's byte condition holds wherever it matches")
    func codePatterns() {
        let pieces = ["(1, 4)", "(A,C)", "A, B", "a,c.c", "a . b", "01, 2, 4, 7", "12", ",", ".", "(", ")", " ", "\u{A0}",
                      "\u{2009}", "Soup", "x", "B", "É", "3", "; ", "e\u{301}", "寿司", "(a,c)", "a, g", "'", "\n", "é"]
        let gen = Gen.element(of: pieces).map { $0 ?? "" }.array(of: 0...8).map { $0.joined() }
        var rng = Xoshiro(seed: (71, 0x9E37_79B9_7F4A_7C15, 1553, 0xD1B5_4A32_D192_ED03))
        func matches(_ rx: NSRegularExpression, _ s: String) -> Bool {
            rx.firstMatch(in: s, range: NSRange(location: 0, length: (s as NSString).length)) != nil
        }
        for i in 0..<5000 {
            let s = gen.run(using: &rng)
            let digit = s.utf8.contains(where: BytePrecheck.isDigit), bracket = s.utf8.contains(UInt8(ascii: "("))
            let commas = s.utf8.filter { $0 == UInt8(ascii: ",") }.count
            if !(digit && bracket) { #expect(!matches(AllergenClassifier.numericCodeRegex, s), "\(i): \(s.debugDescription)") }
            if !(digit && commas >= 2) { #expect(!matches(AllergenClassifier.bareNumericListRegex, s), "\(i): \(s.debugDescription)") }
            if !(bracket && s.utf8.contains(where: BytePrecheck.isCapital)) {
                #expect(!matches(AllergenClassifier.letterParenRegex, s), "\(i): \(s.debugDescription)")
            }
            if !BytePrecheck.mayHoldCapitalList(s) {
                #expect(!matches(AllergenClassifier.letterListRegex, s), "\(i): \(s.debugDescription)")
            }
            if !BytePrecheck.mayHoldListStart(s, first: BytePrecheck.isLetter, separator: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: ".") }) {
                #expect(!matches(AllergenClassifier.looseLetterListRegex, s), "\(i): \(s.debugDescription)")
            }
            if !BytePrecheck.mayHoldSingleLetterList(s) {
                #expect(!matches(AllergenClassifier.lowerLetterListRegex, s), "\(i): \(s.debugDescription)")
            }
        }
    }
}

@Suite("Folding fast paths")
struct FoldFastPathTests {
    @Test("asciiLowercased = lowercased() on ASCII text")
    func asciiLower() {
        let ascii = (0..<128).compactMap { Unicode.Scalar($0).map(Character.init) }
        let gen = Gen.element(of: ascii).map { $0 ?? "a" }.array(of: 0...20).map { String($0) }
        var rng = Xoshiro(seed: (73, 0x9E37_79B9_7F4A_7C15, 1601, 0xD1B5_4A32_D192_ED03))
        for i in 0..<3000 {
            let s = gen.run(using: &rng)
            #expect(TextFold.asciiLowercased(s) == s.lowercased(), "\(i): \(s.debugDescription)")
        }
        #expect(TextFold.asciiLowercased("\r\nSOUP of the DAY") == "\r\nsoup of the day")
    }

    @Test("every menu-wide word has 3 to 8 letters (speaksForTheMenu's length check)")
    func menuWideLengths() {
        #expect(MenuAnalyzer.menuWideWords.allSatisfy { (3...8).contains($0.utf8.count) })
        #expect(MenuAnalyzer.speaksForTheMenu("ALL OUR DISHES may contain nuts"))
        #expect(!MenuAnalyzer.speaksForTheMenu("Grilled salmon, dill"))
    }
}
