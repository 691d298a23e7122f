import Foundation

/// Prices at the end of a menu line: "$4.5", "€12", "3,20", "12.50 €",
/// "¥800", "45 TL", "£7", dotted leaders ("Soup ........ 5.50"), several
/// sizes ("3.50 6.75 12.25"), a trailing note ("$11.50 (+ $2 for chicken)"),
/// and a stray mark OCR reads after a price ("3.25 #", from an icon or a dot).
enum PriceParser {
    // "S4", "S8.5": OCR's reading of "$4", "$8.5" (the dollar sign's most common confusion);
    // "C16": of "€16" (the euro sign's). Both only at the end of a line.
    // "70p": pence (British menus price small extras so).
    // "12,-", "12.–", "35:-": whole euros, francs or kronor; "Fr. 9.50", "CHF 12": Swiss francs before the sum.
    // The world's other currencies (`worldPrice`), after the first ones.
    static let strongPrice = #"(?:\d{1,2}p(?![\p{L}\p{N}])|[SC]\d{1,3}(?:[.,]\d{1,2})?(?=\s*$)|[$€£¥]\s?\d{1,5}(?:[.,]\d{1,2})?|[$€£¥]\s?[.,]\d{2}|\d{1,5}(?:[.,]\d{1,2})?\s?(?:€|\$|£|¥|TL|₺|EUR|USD|GBP|CHF|YEN|円)|\d{1,4}[.,]\d{2}|\d{1,4}[.,]\d(?=\s*(?:$|/))|\d{1,4}[.,:](?:--?|–|—)(?![\p{L}\p{N}])|(?:SFr\.|Fr\.|CHF)\s?\d{1,4}(?:[.,](?:\d{1,2}|--?|–|—))?|"#
        + worldPrice + ")"
    /// A plain number: up to three digits, or thousands in groups ("45.000", "12,500": currencies
    /// without cents, printed without their sign).
    static let plainPrice = #"(?:\d{1,3}(?:[.,]\d{3})+|\d{1,3})"#

    /// Currencies printed after the sum besides € $ £ ¥ TL ₺ EUR USD GBP CHF YEN 円: signs, ISO codes and
    /// the abbreviations menus print ("8,90 лв.", "120 Kč", "25 zł", "89 kr", "1 200 Ft", "45.000 ₫",
    /// "3.500 DT"). From general knowledge of the world's currencies, not from any one menu.
    static let currenciesAfter = [
        "₪", "₹", "₩", "฿", "₫", "đ", "₽", "₴", "₸", "₼", "₾", "₦", "₵", "₱", "元",
        "kr", "kr.", "Kr", "Kr.", "KR", "kn", "Kč", "KČ", "zł", "ZŁ", "Ft", "FT", "lei", "Lei", "LEI", "din", "din.",
        "KM", "Rs", "Rs.", "DH", "Dh", "Dhs", "LE", "DT", "Br", "Euro", "euro", "EURO", "Fr.", "Fr", "SFr.",
        "лв", "лв.", "руб", "руб.", "р.", "грн", "грн.", "ден", "ден.", "дин", "дин.", "сом", "сум",
        "SEK", "NOK", "DKK", "ISK", "PLN", "CZK", "HUF", "RON", "BGN", "RSD", "HRK", "BAM", "MKD", "RUB", "UAH",
        "BYN", "GEL", "AMD", "AZN", "KZT", "UZS", "INR", "PKR", "LKR", "NPR", "BDT", "ILS", "NIS", "JPY", "CNY",
        "RMB", "HKD", "TWD", "SGD", "MYR", "THB", "VND", "IDR", "PHP", "KRW", "AUD", "NZD", "CAD", "MXN", "BRL",
        "ARS", "CLP", "COP", "PEN", "UYU", "ZAR", "KES", "NGN", "GHS", "XOF", "XAF", "CFA", "FCFA", "AED", "SAR",
        "QAR", "KWD", "BHD", "OMR", "JOD", "MAD", "EGP", "TND", "DZD", "LBP",
    ]
    /// Currencies printed before the sum besides $ € £ ¥, SFr., Fr. and CHF: signs ("₪32", "₹250"),
    /// matched by the pattern, and abbreviations and codes ("RM 7", "Rs. 180", "R$ 8,50", "kr 145",
    /// "HK$48"), which `find` marks first (`markingLetterCurrencies`): as alternatives of the pattern
    /// ICU tried every one at every place of every line, three times the pattern's cost.
    static let signsBefore = "₪₹₩฿₱₽₴₺₦₵₫¤"
    static let lettersBefore = [
        "R$", "Rs", "Rs.", "Rp", "Rp.", "RM", "S$", "HK$", "NT$", "A$", "AU$", "C$", "CA$", "NZ$", "US$", "MX$", "Mex$",
        "kr", "kr.", "Kr", "Kr.", "KSh", "Ksh", "AED", "SAR", "QAR", "QR", "Dhs", "Dhs.", "Dh", "EUR", "USD", "GBP",
        "JPY", "INR", "PHP", "Php", "HKD", "SGD", "MYR", "IDR", "THB", "AUD", "NZD", "CAD", "ZAR", "BRL", "MXN", "ILS", "NIS",
    ]
    /// What a letter currency before the sum is marked with: the generic currency sign, one of `signsBefore`.
    static let letterCurrencyMark: Character = "¤"
    /// A sum in one of those currencies: whole thousands in groups ("1 200", "45.000", "12,500",
    /// cents allowed after them) or up to five digits, with cents or a dash for none ("189,-").
    /// A currency of letters after the sum is not followed by a letter or digit.
    static let worldPrice: String = {
        let sum = #"(?:\d{1,3}(?:[.,\u00A0\u202F ]\d{3})+(?:[.,]\d{2})?|\d{1,5}(?:[.,](?:\d{1,2}|--?|–|—))?)"#
        return "[" + signsBefore + #"]\s?"# + sum
            + "|" + sum + #"\s?"# + trie(currenciesAfter) + #"(?![\p{L}\p{N}])"#
    }()

    /// The alternatives of `tokens` as a tree of their common beginnings ("k(?:r\.?)" for kr, kr.):
    /// after a sum ICU tries one branch a character, not every token.
    static func trie(_ tokens: [String]) -> String {
        let split = tokens.compactMap { t in t.first.map { (first: $0, rest: String(t.dropFirst())) } }
        let groups = Dictionary(grouping: split, by: \.first)
        let branches = groups.sorted { $0.key < $1.key }.map { first, words -> String in
            let rests = words.map(\.rest)
            let head = NSRegularExpression.escapedPattern(for: String(first))
            let longer = rests.filter { !$0.isEmpty }
            guard !longer.isEmpty else { return head }
            return head + "(?:" + trie(longer) + ")" + (rests.contains("") ? "?" : "")
        }
        return branches.count == 1 ? branches[0] : "(?:" + branches.joined(separator: "|") + ")"
    }

    /// `lettersBefore` by their first byte, longest first (all ASCII).
    static let lettersBeforeByFirstByte: [UInt8: [[UInt8]]] = Dictionary(
        grouping: lettersBefore.map { Array($0.utf8) }.sorted { $0.count > $1.count }, by: { $0[0] })

    /// `line` with every letter currency of `lettersBefore` that stands before a sum — at the start of
    /// a word, then at most one space or tab, then a digit — and that space written as
    /// `letterCurrencyMark` ("Nasi lemak RM 7" → "Nasi lemak ¤7"), and what each mark stands for, in
    /// order; nil where there is none (most lines: a scan of the bytes decides).
    static func markingLetterCurrencies(_ line: String) -> (String, [String])? {
        let b = Array(line.utf8)
        var out: [UInt8] = [], marks: [String] = []
        var copied = 0  // the bytes before it are in `out` (written only once a mark is found)
        func isWordByte(_ c: UInt8) -> Bool { c >= 0x80 || (c >= 0x30 && c <= 0x39) || (c | 0x20 >= 0x61 && c | 0x20 <= 0x7A) }
        var i = 0
        while i < b.count {
            guard i == 0 || !isWordByte(b[i - 1]), let tokens = lettersBeforeByFirstByte[b[i]] else { i += 1; continue }
            var found: Int? = nil
            for t in tokens where i + t.count <= b.count && b[i..<(i + t.count)].elementsEqual(t) {
                var k = i + t.count
                if k < b.count, b[k] == 0x20 || b[k] == 0x09 { k += 1 }
                if k < b.count, b[k] >= 0x30 && b[k] <= 0x39 { found = k; break }
            }
            guard let k = found else { i += 1; continue }
            out += b[copied..<i]
            out += String(letterCurrencyMark).utf8
            marks.append(String(decoding: b[i..<k], as: UTF8.self))
            copied = k
            i = k
        }
        guard !marks.isEmpty else { return nil }
        out += b[copied...]
        return (String(decoding: out, as: UTF8.self), marks)
    }

    /// `text` with the marks `markingLetterCurrencies` wrote put back, from `marks[from...]`; how
    /// many it put back.
    static func unmarking(_ text: String, _ marks: [String], from: Int) -> (String, Int) {
        var out = "", k = from
        for ch in text {
            if ch == letterCurrencyMark, k < marks.count { out += marks[k]; k += 1 } else { out.append(ch) }
        }
        return (out, k - from)
    }

    /// Prices at the end of a line. Several sizes follow the first price after a space or
    /// a slash; after a slash a size may be a plain number even where the first price must
    /// be strong ("4,5/8", "€12.50/18": the second size is written short).
    /// The whole pattern: the text before (group 1), a separator, the price run (group 2),
    /// a note (group 3). `find` runs it in parts (`trailingMatch`); this is their reference.
    static func trailingRegex(allowPlain: Bool) -> NSRegularExpression {
        try! NSRegularExpression(pattern: #"^(.*?)(?:"# + separator + #"|^)"# + trailingRun(allowPlain: allowPlain))
    }
    static let strongTrailing = trailingRegex(allowPlain: false)
    static let plainTrailing = trailingRegex(allowPlain: true)

    /// Leaders or spaces before a price run.
    private static let separator = #"\s*[.·…_]{2,}\s*|\s+"#

    /// A plain first size whose run of sizes ends in a currency ("15/21 €", "9/15 EUR"): the
    /// currency printed once after the last size is every size's.
    static let plainSizesWithCurrency = #"\d{1,4}(?=(?:\s*/\s*\d{1,4}(?:[.,]\d{1,2})?)+\s?(?:€|\$|£|¥|TL|₺|EUR|USD|GBP|CHF|YEN|円))"#

    /// The price run (group 1), an optional note (group 2) and a stray mark, to the end.
    private static func trailingRun(allowPlain: Bool) -> String {
        let p = allowPlain ? "(?:\(strongPrice)|\(plainPrice))" : "(?:\(strongPrice)|\(plainSizesWithCurrency))"
        let size = "(?:\(strongPrice)|\(plainPrice))"
        return #"(\+?\s?"# + p + #"(?:\s*/\s*\+?\s?"# + size + #"|\s+\+?\s?"# + p + #")*)\s*(\([^()]*\))?(?:\s+[^\p{L}\p{N}\s()]{1,2})?\s*$"#
    }

    /// `trailingRegex` without its lazy prefix `^(.*?)`, which made ICU try the rest of the
    /// pattern at every character of the line: the run after a separator, searched anywhere
    /// (ICU skips to the places a separator can start), and the run at the very start (the
    /// `^` alternative). Groups: the price run (1), the note (2).
    static func afterSeparatorRegex(allowPlain: Bool) -> NSRegularExpression {
        try! NSRegularExpression(pattern: "(?:" + separator + ")" + trailingRun(allowPlain: allowPlain))
    }
    static func atStartRegex(allowPlain: Bool) -> NSRegularExpression {
        try! NSRegularExpression(pattern: "^" + trailingRun(allowPlain: allowPlain))
    }
    static let strongAfterSeparator = afterSeparatorRegex(allowPlain: false)
    static let plainAfterSeparator = afterSeparatorRegex(allowPlain: true)
    static let strongAtStart = atStartRegex(allowPlain: false)
    static let plainAtStart = atStartRegex(allowPlain: true)

    /// What `trailingRegex(allowPlain:)` captures in `line`: the text before the separator, the
    /// price run and the note ("" when none); nil where it does not match. The same match,
    /// found in parts: ICU's lazy `(.*?)` tries the rest at offsets 0, 1, 2, … in turn and
    /// takes the first that matches, at each trying the separators first and then `^`
    /// (offset 0 only). The leftmost match of `afterSeparator` is the first offset where a
    /// separator works; at offset 0 it wins over `atStartRegex`, elsewhere that comes first.
    /// `.` matches no line terminator, so the text before cannot run past the first one.
    /// (Property-tested against `trailingRegex` on random and price-shaped lines.)
    static func trailingMatch(in line: String, allowPlain: Bool) -> (before: String, price: String, after: String)? {
        let full = NSRange(location: 0, length: line.utf16.count)
        let separated = (allowPlain ? plainAfterSeparator : strongAfterSeparator).firstMatch(in: line, range: full)
        let m: NSTextCheckingResult
        if let s = separated, s.range.location == 0 {
            m = s
        } else if mayStartWithPrice(line), let z = (allowPlain ? plainAtStart : strongAtStart).firstMatch(in: line, range: full) {
            m = z
        } else if let s = separated, s.range.location <= firstLineTerminator(line) {
            m = s
        } else {
            return nil
        }
        let note = m.range(at: 2)
        return (line.substring(utf16: NSRange(location: 0, length: m.range.location)), line.substring(utf16: m.range(at: 1)),
                note.location == NSNotFound ? "" : line.substring(utf16: note))
    }

    /// False only when `atStartRegex` cannot match: its run begins with an optional "+", one optional
    /// `\s`, then a digit, "S", "C", the "F" of "Fr." or a currency sign. Any non-ASCII scalar (a
    /// Unicode space, digit or sign) and any ASCII control character (taken for a possible space) say true.
    static func mayStartWithPrice(_ line: String) -> Bool {
        var scalars = line.unicodeScalars.makeIterator()
        guard var c = scalars.next() else { return false }
        if c == "+" { guard let next = scalars.next() else { return false }; c = next }
        if c.value <= 0x20 { guard let next = scalars.next() else { return false }; c = next }
        guard c.isASCII else { return true }
        return (0x30...0x39).contains(c.value) || c == "S" || c == "C" || c == "$" || c == "F"
    }

    /// `currenciesAfter` by their last scalar.
    static let afterByLastScalar: [Unicode.Scalar: [[Unicode.Scalar]]] =
        Dictionary(grouping: currenciesAfter.map { Array($0.unicodeScalars) }, by: { $0[$0.count - 1] })

    /// False only when no `worldPrice` in a currency printed after the sum can end the line: after
    /// trailing white space, the line ends in such a currency, with a digit or a dash ("189,-") before
    /// it, one white space between them allowed. (A necessary condition of that alternative at the
    /// end; `mayEndWithPrice` asks it only where its own test says no.)
    static func mayEndWithCurrencyAfter(_ line: String) -> Bool {
        var tail: [Unicode.Scalar] = []
        for c in line.unicodeScalars.reversed() {
            if tail.isEmpty, c.properties.isWhitespace { continue }
            tail.append(c)
            if tail.count == 8 { break }
        }
        guard let last = tail.first, let tokens = afterByLastScalar[last] else { return false }
        for t in tokens where tail.count > t.count && tail.prefix(t.count).elementsEqual(t.reversed()) {
            var k = t.count
            if tail[k].properties.isWhitespace { k += 1 }
            guard k < tail.count else { continue }
            let c = tail[k]
            if c.properties.numericType == .decimal || c == "-" || c == "–" || c == "—" { return true }
        }
        return false
    }

    /// The UTF-16 offset of the first line terminator ICU's `.` does not match ("\n", VT, FF,
    /// "\r", NEL, U+2028, U+2029; each one UTF-16 unit), or the length when there is none.
    static func firstLineTerminator(_ line: String) -> Int {
        var offset = 0
        for u in line.utf16 {
            switch u {
            case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return offset
            default: offset += 1
            }
        }
        return offset
    }

    struct Found: Equatable {
        var before: String   // the text before the price (leaders removed)
        var price: String
        var after: String    // a trailing parenthetical note, if any
    }

    // Leaders as OCR reads them (compiled once: these run on every line).
    static let leaderRun = try! NSRegularExpression(pattern: #"\s+[.·…_0oOcCeEsS:;,'"]{3,}$"#)
    static let gluedLeaders = try! NSRegularExpression(pattern: #"[.·…_]{3,}[^\s]*$"#)
    static let misreadLeaders = try! NSRegularExpression(pattern: #"[.·…_0oOcCeEsSHuUvVaAnm:;,'"]{8,}$"#)

    /// The first match of `rx` in `s`, as a range of `s`.
    private static func firstRange(_ rx: NSRegularExpression, in s: String) -> Range<String.Index>? {
        guard let m = rx.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) else { return nil }
        return Range(m.range, in: s)
    }

    static func find(in line: String, allowPlain: Bool) -> Found? {
        guard line.utf8.contains(where: { $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        // "RM 7", "Rs. 180", "kr 145": a letter currency before the sum, marked as a sign, then put back.
        if let (marked, marks) = markingLetterCurrencies(line) {
            guard var f = findMarked(in: marked, allowPlain: allowPlain) else { return nil }
            var k = 0, n = 0
            (f.before, n) = unmarking(f.before, marks, from: k); k += n
            (f.price, n) = unmarking(f.price, marks, from: k); k += n
            (f.after, n) = unmarking(f.after, marks, from: k)
            return f
        }
        return findMarked(in: line, allowPlain: allowPlain)
    }

    /// `find` on a line whose letter currencies before a sum are marked.
    private static func findMarked(in line: String, allowPlain: Bool) -> Found? {
        // Every price has a digit and ends where a price can end: most lines of a menu
        // are settled without a regex.
        guard mayEndWithPrice(line) else { return nil }
        guard let (before, run, after) = trailingMatch(in: line, allowPlain: allowPlain) else { return nil }
        let price = run.trimmingSpaces()
        // "1/2 ROAST CHICKEN" or "8oz" are not prices; a price needs a digit and
        // the text before it must not end inside a number ("24,925").
        guard price.contains(where: \.isNumber) else { return nil }
        let cleaned = removingLeaders(before.trimmingSpaces())
        if let last = cleaned.last, cleaned.count == before.trimmingSpaces().count,
           last.isNumber || last == "," { return nil }
        return Found(before: cleaned.trimmingSpaces(), price: price, after: after)
    }

    /// Leaders removed from the end of the text before a price. With `precheck` (always, outside
    /// the tests) each clean-up regex runs only where its necessary condition holds
    /// (`mayEnd(_:inRunOf:of:)`, `hasRunOfThreeDots`), so the result is the same as without:
    /// the property test compares both on random text.
    static func removingLeaders(_ text: String, precheck: Bool = true) -> String {
        var cleaned = text
        // Dotted leaders as OCR reads them: "....", "00000000", "ccoo", "ss..."
        while !precheck || mayEnd(cleaned, inRunOf: 3, of: leaderRunScalars),
              let r = firstRange(leaderRun, in: cleaned),
              cleaned[r].contains(where: { ".·…_0".contains($0) }) || cleaned[r].count >= 5 {
            cleaned.removeSubrange(r)
        }
        // Leaders glued to the last word ("Spätlese.......eeeeeseee") and longer
        // misreads with a run of one character ("SOOOSSSSHHSSSS", "cvccccssccve").
        if !precheck || hasRunOfThreeDots(cleaned), let r = firstRange(gluedLeaders, in: cleaned) { cleaned.removeSubrange(r) }
        while !precheck || mayEnd(cleaned, inRunOf: 8, of: misreadLeaderScalars),
              let r = firstRange(misreadLeaders, in: cleaned),
              cleaned[r].hasRunOfThree {
            cleaned.removeSubrange(r)
            cleaned = cleaned.trimmingSpaces()
        }
        while let l = cleaned.last, ".·…_".contains(l) { cleaned.removeLast() }
        return cleaned
    }

    /// The character classes of `leaderRun` and `misreadLeaders` (all in the Basic Multilingual
    /// Plane: one UTF-16 unit, as ICU counts, is one scalar).
    static let leaderRunScalars = Set(".·…_0oOcCeEsS:;,'\"".unicodeScalars)
    static let misreadLeaderScalars = Set(".·…_0oOcCeEsSHuUvVaAnm:;,'\"".unicodeScalars)

    /// False only when a pattern `[set]{count,}$` cannot match `s`: ICU's `$` (no multiline
    /// option) matches at the end, or before a line terminator at the end. When the last scalar
    /// is no line terminator a match ends at the end, so the last `count` scalars are all in
    /// `set`; when it is one, this says true and the regex decides.
    static func mayEnd(_ s: String, inRunOf count: Int, of set: Set<Unicode.Scalar>) -> Bool {
        var n = 0
        for c in s.unicodeScalars.reversed() {
            if n == 0 {
                switch c.value {
                case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return true
                default: break
                }
            }
            guard set.contains(c) else { return false }
            n += 1
            if n >= count { return true }
        }
        return false
    }

    /// Three scalars of `[.·…_]` in a row: `gluedLeaders` cannot match without them.
    static func hasRunOfThreeDots(_ s: String) -> Bool {
        var run = 0
        for c in s.unicodeScalars {
            switch c.value {
            case 0x2E, 0x5F, 0xB7, 0x2026:
                run += 1
                if run >= 3 { return true }
            default: run = 0
            }
        }
        return false
    }

    /// False only when the trailing pattern cannot match: after trailing spaces the line
    /// ends in a Latin letter that ends no currency code (TL EUR USD GBP CHF YEN) and is no
    /// pence "p", or in one
    /// or two punctuation marks not preceded by a space (a stray mark after a price needs
    /// one), or in three or more such marks, and in none of these cases in a currency of
    /// `currenciesAfter` after a number (`mayEndWithCurrencyAfter`). Everything else (digits,
    /// currency signs, ")", "-", other scripts, unusual spaces) goes to the regex. A necessary
    /// condition only, so `find` is unchanged (property-tested against the regex alone).
    static func mayEndWithPrice(_ line: String) -> Bool {
        let u = Array(line.unicodeScalars.suffix(8))
        var k = u.count - 1
        func isSpace(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" || c == "\n" || c == "\r" }
        while k >= 0 && isSpace(u[k]) { k -= 1 }
        guard k >= 0 else { return true }
        let c = u[k].value
        switch c {
        case 0x41...0x5A, 0x61...0x7A:
            // The last letter of a currency code, or the "p" of pence
            return "LRDPFNp".unicodeScalars.contains(u[k]) || mayEndWithCurrencyAfter(line)
        case 0xC0...0x24F where c != 0xD7 && c != 0xF7:
            return mayEndWithCurrencyAfter(line)
        default:
            break
        }
        func isMark(_ c: Unicode.Scalar) -> Bool {
            switch c.value {
            case 0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E: return !"()-$".unicodeScalars.contains(c)
            default: return false
            }
        }
        guard isMark(u[k]) else { return true }
        var run = 0
        while k >= 0 && isMark(u[k]) { run += 1; k -= 1 }
        if run >= 3 { return mayEndWithCurrencyAfter(line) }
        // The character before the marks: a space (or anything unusual) may precede a stray mark.
        guard k >= 0 else { return true }
        return !(u[k].isASCII && !isSpace(u[k])) || mayEndWithCurrencyAfter(line)
    }

    /// A line with a currency sign or decimals at its end.
    static func hasStrongPrice(_ line: String) -> Bool { find(in: line, allowPlain: false) != nil }

    /// Cents printed as superscripts ("7⁹⁵", "£2⁵⁰", a common price style of designed menus)
    /// written as decimals ("7.95", "£2.50"): a digit followed by exactly two superscript
    /// digits. Text without a superscript digit is returned as it is.
    static func expandingSuperscriptCents(_ s: String) -> String {
        guard mayHoldSuperscriptDigit(s) else { return s }
        let chars = Array(s)
        var out = ""
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c.isASCII, c.isNumber, i + 2 < chars.count,
               let d1 = superscriptDigits[chars[i + 1]], let d2 = superscriptDigits[chars[i + 2]],
               i + 3 >= chars.count || superscriptDigits[chars[i + 3]] == nil {
                out.append(c); out.append("."); out.append(d1); out.append(d2)
                i += 3
                continue
            }
            out.append(c)
            i += 1
        }
        return out
    }

    static let superscriptDigits: [Character: Character] = ["⁰": "0", "¹": "1", "²": "2", "³": "3", "⁴": "4", "⁵": "5",
                                                            "⁶": "6", "⁷": "7", "⁸": "8", "⁹": "9"]

    /// A superscript digit's UTF-8 bytes occur in `s`: ⁰ and ⁴–⁹ are E2 81 B0/B4–B9, ¹ ² ³ are
    /// C2 B9/B2/B3. (Lines with "€", "£" or a curly apostrophe, which share the lead bytes,
    /// are settled here without building a character array.)
    static func mayHoldSuperscriptDigit(_ s: String) -> Bool {
        var previous: UInt8 = 0, beforePrevious: UInt8 = 0
        for b in s.utf8 {
            if previous == 0xC2, b == 0xB2 || b == 0xB3 || b == 0xB9 { return true }
            if beforePrevious == 0xE2, previous == 0x81, b == 0xB0 || (0xB4...0xB9).contains(b) { return true }
            beforePrevious = previous
            previous = b
        }
        return false
    }
}

extension StringProtocol {
    /// Three equal characters in a row ("cccc", "SSS"): leader dots as OCR reads them, rare in words.
    var hasRunOfThree: Bool {
        var previous: Character?
        var run = 0
        for c in self {
            run = c == previous ? run + 1 : 1
            if run >= 3 { return true }
            previous = c
        }
        return false
    }
}

/// Decimal separators OCR dropped ("7,40  940" → "7,40  9,40", "4.00 … 400" → "4,00").
///
/// On a page whose prices are written with two decimals (at least 3 such
/// numbers, and at least 60 % of the numbers in its prices), a plain number
/// of 3 or 4 digits in a price whose value read with two decimals falls
/// within the range of the page's decimal prices is that price with its
/// separator lost (a faint comma or point is the character OCR drops most in
/// a price). The page's own separator is put back. A price in a currency
/// without decimals (¥800) is untouched: such a page has no two-decimal
/// majority, and 8.00 would fall outside its range anyway. Pages of one-decimal prices
/// ("4.5" read "45") are repaired by `repairOneDecimal`.
enum PriceSeparatorRepair {
    private static let number = try! NSRegularExpression(pattern: #"(?<!\d)\d+(?:[.,]\d+)?"#)
    /// Without a two-decimal majority, a plain 3–4 digit number is repaired only when it is
    /// more than this many times the page's highest decimal price.
    static let implausibleFactor = 4.0

    static func repair(_ prices: [String?]) -> [String?] {
        repairOneDecimal(repairTwoDecimals(prices))
    }

    /// The two-decimal pages (see the type's comment).
    static func repairTwoDecimals(_ prices: [String?]) -> [String?] {
        let all = numbers(in: prices)
        let twoDecimal = all.filter { $0.decimals == 2 && $0.value != nil }
        let decimals = twoDecimal.compactMap(\.value)
        guard decimals.count >= 3, let low = decimals.min(), let high = decimals.max() else { return prices }
        // Without a two-decimal majority (a price column whose re-read lost most of its
        // points: "£1200", "£300" beside "£16.00"), a number is repaired only when as read
        // it is far beyond every decimal price of the page (`implausibleFactor` × the highest).
        let majority = Double(decimals.count) >= 0.6 * Double(all.count)
        let sep = separator(of: twoDecimal)
        return prices.map { price in
            guard let price else { return nil }
            var out = price
            for m in number.matches(in: price, range: NSRange(price.startIndex..., in: price)).reversed() {
                guard let r = Range(m.range, in: price) else { continue }
                let token = String(price[r])
                guard token.allSatisfy(\.isNumber), (3...4).contains(token.count), let v = Double(token) else { continue }
                let value = v / 100
                guard value >= low * 0.8, value <= high * 1.25, majority || v > implausibleFactor * high,
                      let outRange = Range(m.range, in: out) else { continue }
                out.replaceSubrange(outRange, with: token.dropLast(2) + sep + token.suffix(2))
            }
            return out
        }
    }

    /// Pages that write their prices with one decimal ("4.5", "6,5", "12.5"): at least
    /// `minimumOneDecimal` such prices, more than the two-decimal ones. There a price that is
    /// one plain number of 2 or 3 digits ("45", "95") is read with one decimal ("4.5") when
    /// as read it is more than `implausibleFactor` times the median of the page's prices and
    /// read with one decimal it falls within the range of its one-decimal prices: the point
    /// OCR lost. A price of several numbers ("glass 6.5 bottle 32") is left as read.
    static func repairOneDecimal(_ prices: [String?]) -> [String?] {
        let read = numbers(in: prices).filter { $0.value != nil }
        let oneDecimal = read.filter { $0.decimals == 1 }
        let one = oneDecimal.compactMap(\.value)
        let two = read.filter { $0.decimals == 2 }.count
        guard one.count >= minimumOneDecimal, one.count > two, let low = one.min(), let high = one.max() else { return prices }
        let sorted = read.compactMap(\.value).sorted()
        let median = sorted[sorted.count / 2]
        let sep = separator(of: oneDecimal)
        return prices.map { price in
            guard let price else { return nil }
            let found = number.matches(in: price, range: NSRange(price.startIndex..., in: price))
            guard found.count == 1, let r = Range(found[0].range, in: price) else { return price }
            let token = String(price[r])
            guard token.allSatisfy(\.isNumber), (2...3).contains(token.count), let v = Double(token),
                  v > implausibleFactor * median, v / 10 >= low * 0.8, v / 10 <= high * 1.25 else { return price }
            var out = price
            out.replaceSubrange(r, with: token.dropLast(1) + sep + token.suffix(1))
            return out
        }
    }

    /// The least number of one-decimal prices that make a page one of them.
    static let minimumOneDecimal = 3

    /// A point OCR lost, seen in the word's width ("4.5" read "45"; round 15). A price that is
    /// one plain number of 2 or 3 digits ending in 5 (one-decimal prices are halves: "4.5",
    /// "12.5") whose word is at least `lostPointWidth` times as wide a digit as the page's plain
    /// numbers (median over the plain number words among `pageWords`, at least 3: the printed
    /// point takes room the read text lost), and which as read is more than `lostPointValue`
    /// times the median of the page's prices, is read with one decimal. `priceWords[k]`: the
    /// word price `k` was read from.
    static func repairLostPoints(_ prices: [String?], priceWords: [OCRWord?], pageWords: [OCRWord]) -> [String?] {
        let reference = pageWords.compactMap(digitWidth).sorted()
        let read = numbers(in: prices)
        let values = read.compactMap(\.value).sorted()
        guard reference.count >= 3, !values.isEmpty else { return prices }
        let medianWidth = reference[reference.count / 2], medianValue = values[values.count / 2]
        let sep = separator(of: read.filter { $0.decimals > 0 })
        return prices.indices.map { k in
            guard let price = prices[k] else { return nil }
            let token = price.trimmingSpaces()
            guard (2...3).contains(token.count), token.allSatisfy({ $0.isASCII && $0.isNumber }), token.last == "5",
                  let v = Double(token), v > lostPointValue * medianValue,
                  k < priceWords.count, let word = priceWords[k], word.text == token,
                  let width = digitWidth(word), width >= lostPointWidth * medianWidth else { return price }
            return String(token.dropLast(1)) + sep + String(token.suffix(1))
        }
    }

    static let lostPointWidth = 1.2
    static let lostPointValue = 2.0

    /// A word of 1–3 ASCII digits: its width per digit in its own height (nil otherwise).
    static func digitWidth(_ w: OCRWord) -> Double? {
        let n = w.text.count
        guard (1...3).contains(n), w.text.allSatisfy({ $0.isASCII && $0.isNumber }), w.box.height > 0, w.box.width > 0 else { return nil }
        return Double(w.box.width) / Double(w.box.height) / Double(n)
    }

    /// One number of a page's prices: its value (a comma read as a point; nil when it cannot be
    /// read, as with digits of another script), how many digits follow its separator (0 without
    /// one), and whether that separator is a comma.
    struct Number { var value: Double?; var decimals: Int; var comma: Bool }

    /// Every number in the prices, in order.
    static func numbers(in prices: [String?]) -> [Number] {
        prices.compactMap { $0 }.flatMap(tokens).map { token in
            let at = token.firstIndex { $0 == "." || $0 == "," }
            return Number(value: Double(token.replacingOccurrences(of: ",", with: ".")),
                          decimals: at.map { token.distance(from: $0, to: token.endIndex) - 1 } ?? 0,
                          comma: at.map { token[$0] == "," } ?? false)
        }
    }

    /// The separator most of these numbers are written with ("." on a tie).
    static func separator(of numbers: [Number]) -> String {
        let commas = numbers.filter(\.comma).count
        return commas > numbers.count - commas ? "," : "."
    }

    private static func tokens(_ s: String) -> [String] {
        number.matches(in: s, range: NSRange(s.startIndex..., in: s)).compactMap { Range($0.range, in: s).map { String(s[$0]) } }
    }
}

/// One price-shaped token as OCR reads it in a place where only a price can be (a
/// short reading on a price's row or under an item): the characters OCR confuses
/// with digits put back, one letter at most ("l2" → "12", "5.5O" → "5.50", "S8" → "$8") and punctuation
/// it adds after a price dropped ("7." → "7", "12,-" → "12"). A token is changed only
/// when the result is a price (`PriceRecovery.isPrice`) and it was not one already,
/// so a word stays a word: without a digit nothing is changed.
enum PriceToken {
    /// Letters OCR reads for digits (never "S": see `signLike`; never "|", a column rule).
    static let digitLike: [Character: Character] = ["O": "0", "o": "0", "D": "0", "l": "1", "I": "1", "i": "1",
                                                     "B": "8", "Z": "2", "z": "2"]
    /// Letters OCR reads for a currency sign before a digit.
    static let signLike: [Character: Character] = ["S": "$", "s": "$"]
    static let trailingNoise: Set<Character> = [".", ",", ":", ";", "'", "’", "-", "_", "\u{201A}"]

    static func normalised(_ raw: String) -> String {
        let t = raw.trimmingCharacters(in: .whitespaces)
        guard t.contains(where: { $0.isASCII && $0.isNumber }) else { return raw }
        if PriceRecovery.isPrice(t) { return t }
        var chars = Array(t)
        while chars.count > 1, let last = chars.last, trailingNoise.contains(last) { chars.removeLast() }
        // One confused letter at most: "12oz" is a weight, not "1202".
        var mapped: [Character] = []
        var letters = 0
        for (i, c) in chars.enumerated() {
            if i == 0, let sign = signLike[c], chars.count > 1, chars[1].isASCII, chars[1].isNumber { mapped.append(sign); continue }
            if let d = digitLike[c] { letters += 1; mapped.append(d) } else { mapped.append(c) }
        }
        guard letters <= 1 else { return raw }
        let m = String(mapped)
        return PriceRecovery.isPrice(m) ? m : raw
    }
}

/// Currency signs OCR misread, repaired from the page's own prices.
///
/// On a page whose prices carry one currency sign before the number (at least 3
/// prices with a sign, at least 75 % of them the same sign, and at least 60 % of all
/// prices signed):
/// - a price with another sign is that sign misread ("$3" among "£" prices: "£3");
/// - a price without a sign whose first character is a digit OCR reads for that sign
///   (`digitLike`: "£6.5" read "26.5", "$4" read "54") is repaired when its value
///   lies above the page's signed prices (over 1.25 × the highest) and the value
///   without that digit lies within them (0.8 × the lowest … 1.25 × the highest).
/// A price that fits the page as read is never changed.
enum PriceSignRepair {
    static let signs: [Character] = ["$", "£", "€"]
    /// Digits OCR reads for a sign printed before the number.
    static let digitLike: [Character: Set<Character>] = ["£": ["2", "3"], "$": ["5", "8"], "€": ["6"]]
    private static let number = try! NSRegularExpression(pattern: #"^\d{1,4}(?:[.,]\d{1,2})?$"#)

    static func value(_ s: Substring) -> Double? { Double(s.replacingOccurrences(of: ",", with: ".")) }

    static func repair(_ prices: [String?]) -> [String?] {
        let present = prices.compactMap { $0?.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let signed = present.filter { $0.first.map(signs.contains) == true }
        guard signed.count >= 3, Double(signed.count) >= 0.6 * Double(present.count) else { return prices }
        var counts: [Character: Int] = [:]
        for p in signed { if let c = p.first { counts[c, default: 0] += 1 } }
        guard let (sign, n) = counts.max(by: { ($0.value, String($0.key)) < ($1.value, String($1.key)) }),
              Double(n) >= 0.75 * Double(signed.count) else { return prices }
        let values = signed.filter { $0.first == sign }.compactMap { p -> Double? in
            let body = p.dropFirst().trimmingCharacters(in: .whitespaces)
            return number.firstMatch(in: body, range: NSRange(body.startIndex..., in: body)) != nil ? value(Substring(body)) : nil
        }
        guard let low = values.min(), let high = values.max() else { return prices }
        return prices.map { price in
            guard let price else { return nil }
            let t = price.trimmingCharacters(in: .whitespaces)
            guard let first = t.first else { return price }
            if first != sign, signs.contains(first) { return String(sign) + t.dropFirst() }
            guard first.isASCII, first.isNumber, digitLike[sign]?.contains(first) == true,
                  number.firstMatch(in: t, range: NSRange(t.startIndex..., in: t)) != nil,
                  let whole = value(Substring(t)), let rest = value(t.dropFirst()),
                  whole > high * 1.25, rest >= low * 0.8, rest <= high * 1.25,
                  t.dropFirst().first.map({ $0.isNumber }) == true else { return price }
            return String(sign) + t.dropFirst()
        }
    }
}
