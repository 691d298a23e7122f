import Foundation

/// A line of menu text with the words it came from.
struct StructLine: Sendable {
    var text: String
    var words: [SourceWord]
    var ocrWords: [OCRWord]
}

/// An item before classification: which lines it holds.
struct RawItem: Sendable {
    var section: String?
    /// The header line of the section (its words are context: "SANDWICHES", "PIZZAS", "WINES").
    var sectionLine: Int?
    var name: String
    var descriptionParts: [String] = []
    var price: String?
    /// The price a heading or note gives the item's list ("CHOCOLATE BARS £10 each"): its price
    /// when it prints none of its own. Kept apart so that it never counts as a printed price
    /// the item took (the structure choice counts those).
    var listPrice: String?
    /// Indices (into the flat line list) of the item's own lines.
    var lines: [Int]
    /// Section notes ("All burgers served on a brioche bun") that apply to it.
    var noteLines: [Int] = []
    /// The section its section is nested in: a heading set in body type under a heading
    /// ("Æg og rejer", read as a heading, under SMØRREBRØD). Its heading and notes are
    /// context for the item too.
    var parentSection: String?
    var parentSectionLine: Int?
    var parentNoteLines: [Int] = []
    var closed = false
}

/// Turns lines into menu items (sections, name, description, price).
///
/// Two layouts are recognised and chosen per menu by how name-like the
/// resulting item names are:
/// - A: "NAME … PRICE" then description lines (most printed menus);
/// - B: name line, description lines, price at the end of the last one
///   (or alone on the next line).
/// Lines come in runs (a column of a band of the page); an item never spans runs.
struct MenuStructurer {
    var lines: [StructLine]
    var runs: [[Int]]
    var legendLines: Set<Int>
    /// Join a name wrapped over two lines when the second ends in the price (layout A). Only on
    /// exact text: on OCR pages a symbol read as letters ("jai Selbach Riesling") or as "&"
    /// looks like the same evidence.
    var joinsWrappedNames = false

    struct Output {
        var items: [RawItem]
        var sections: [String]
        var looseLines: [Int]
    }

    static let numericCodes = try! NSRegularExpression(pattern: #"\(\s*\d{1,2}(?:\s*[,;.]\s*\d{1,2})*\s*\)"#)
    static let bracketedShortCodes = try! NSRegularExpression(pattern: #"\s*\(\s*[A-Z][a-z]?(?:\s*,\s*[A-Z][a-z]?)+\s*\)"#)
    static let letterCodes = try! NSRegularExpression(pattern: #"(?<![A-Za-z0-9À-ÿ'])[A-Z](?:\s*,\s*[A-Z])+(?![A-Za-z0-9À-ÿ])"#)

    /// Code lists as OCR reads them at the end of a name ("Frittatensuppe a,c,c").
    static let trailingLooseCodes = try! NSRegularExpression(pattern: #"\s+[A-Za-z](?:\s*[,.]\s*[A-Za-z])+\s*$"#)

    /// Every code pattern needs a bracket or a comma: a line without either is left to the bar check.
    static func mayHoldCodes(_ s: String) -> Bool {
        s.utf8.contains { $0 == UInt8(ascii: "(") || $0 == UInt8(ascii: ",") }
    }

    /// Necessary for `numericCodes`: a bracket and a digit.
    static func mayHoldNumericCodes(_ s: String) -> Bool {
        s.utf8.contains(UInt8(ascii: "(")) && s.utf8.contains { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// Necessary for `trailingLooseCodes` with a comma: a comma, and the line ends (before
    /// spaces) in a letter with a comma or point before it (after spaces).
    static func mayEndInLooseCodes(_ s: String) -> Bool {
        guard s.utf8.contains(UInt8(ascii: ",")) else { return false }
        var it = s.utf8.reversed().makeIterator()
        var b = it.next()
        while let x = b, BytePrecheck.maySpace(x) { b = it.next() }
        guard let last = b, BytePrecheck.isLetter(last) else { return false }
        b = it.next()
        while let x = b, BytePrecheck.maySpace(x) { b = it.next() }
        return b == UInt8(ascii: ",") || b == UInt8(ascii: ".")
    }

    static func stripCodes(_ s: String) -> String {
        var t = s
        if mayHoldNumericCodes(t) {
            t = numericCodes.stringByReplacingMatches(in: t, range: NSRange(location: 0, length: (t as NSString).length), withTemplate: " ")
        }
        // British keys' codes of one or two letters in brackets ("(G, E, Mi, Ce)"): the whole list,
        // not its one-letter codes alone (which left "( , Mi, Ce)").
        if t.utf8.contains(UInt8(ascii: "(")), t.utf8.contains(UInt8(ascii: ",")) {
            t = bracketedShortCodes.stringByReplacingMatches(in: t, range: NSRange(location: 0, length: (t as NSString).length), withTemplate: " ")
        }
        if BytePrecheck.mayHoldCapitalList(t) {
            t = letterCodes.stringByReplacingMatches(in: t, range: NSRange(location: 0, length: (t as NSString).length), withTemplate: " ")
        }
        // "a,c,c" / "a.c,c" but not "B.L.T." (a list needs a comma)
        if mayEndInLooseCodes(t), let m = trailingLooseCodes.firstMatch(in: t, range: NSRange(location: 0, length: (t as NSString).length)),
           (t as NSString).substring(with: m.range).contains(",") {
            t = (t as NSString).replacingCharacters(in: m.range, with: "")
        }
        // A column divider OCR read as a bar at either end ("| Tomato Salad"). Without a bar's
        // bytes and without spaces to collapse, splitting at spaces and joining gives `t` back.
        if !t.utf8.contains(where: { $0 == 0x7C || $0 == 0xA6 || $0 == 0x96 || $0 == 0x82 }), !hasSpacesToCollapse(t) { return t }
        var words = t.split(separator: " ")
        let bar: (Substring) -> Bool = { $0.allSatisfy { "|¦‖│".contains($0) } }
        while let first = words.first, bar(first) { words.removeFirst() }
        while let last = words.last, bar(last) { words.removeLast() }
        return words.joined(separator: " ")
    }

    /// A space byte at either end or two in a row: what `split(separator: " ")` + `joined`
    /// would change.
    private static func hasSpacesToCollapse(_ s: String) -> Bool {
        var previous: UInt8 = 0x20
        for b in s.utf8 {
            if b == 0x20 && previous == 0x20 { return true }
            previous = b
        }
        return previous == 0x20
    }

    static func hasNumericCodes(_ s: String) -> Bool {
        s.utf8.contains(UInt8(ascii: "(")) && numericCodes.firstMatch(in: s, range: NSRange(location: 0, length: (s as NSString).length)) != nil
    }

    /// Nothing but allergen code lists and punctuation.
    static func isCodeOnly(_ s: String) -> Bool {
        // Without a bracket or comma nothing is stripped but bars, which are no letters or digits;
        // two letters side by side are never a code (every code pattern takes single letters
        // between separators), so a line with a word is settled without a regex.
        guard mayHoldCodes(s), !hasTwoAdjacentLetters(s) else { return false }
        let rest = stripCodes(s).filter { $0.isLetterFast || $0.isNumberFast }
        return rest.isEmpty && s.contains(where: { $0.isNumberFast || $0.isUppercaseFast })
    }

    /// How many letters `s` holds (`isLetterFast`) and how many of them are capitals
    /// (`isUppercaseFast`).
    static func letterCounts(_ s: String) -> (letters: Int, capitals: Int) {
        var letters = 0, capitals = 0
        // ASCII: every Character is one byte ("\r\n" aside, which is neither).
        if s.utf8.allSatisfy({ $0 < 0x80 }) {
            for b in s.utf8 where BytePrecheck.isLetter(b) {
                letters += 1
                if BytePrecheck.isCapital(b) { capitals += 1 }
            }
            return (letters, capitals)
        }
        for c in s where c.isLetterFast {
            letters += 1
            if c.isUppercaseFast { capitals += 1 }
        }
        return (letters, capitals)
    }

    /// The number of words `split(separator: " ")` cuts `s` into, stopping at `limit + 1`.
    /// On the bytes when every Character is one scalar (a space byte is then a space
    /// Character).
    static func spaceWordCount(_ s: String, limit: Int = .max) -> Int {
        guard ScalarText.isOneScalarPerCharacter(s) else {
            let n = s.split(separator: " ").count
            return n > limit ? limit + 1 : n  // (n > limit: limit + 1 cannot overflow)
        }
        var words = 0, inWord = false
        for b in s.utf8 {
            if b == 0x20 { inWord = false; continue }
            if !inWord {
                inWord = true
                words += 1
                if words > limit { return words }
            }
        }
        return words
    }

    /// Two ASCII letters in a row.
    private static func hasTwoAdjacentLetters(_ s: String) -> Bool {
        var previous = false
        for b in s.utf8 {
            let letter = BytePrecheck.isLetter(b)
            if letter && previous { return true }
            previous = letter
        }
        return false
    }

    static func isHeaderLike(_ s: String) -> Bool {
        let t = s.trimmingSpaces()
        if t.utf8.allSatisfy({ $0 < 0x80 }) { return isHeaderLikeASCII(t) }
        return isHeaderLikeGeneral(t)
    }

    /// `isHeaderLikeGeneral` on bytes, for ASCII text (tested against it): no word array, and
    /// more than five words ends the look at once.
    static func isHeaderLikeASCII(_ t: String) -> Bool {
        var words = 0, inWord = false, letters = 0, lower = 0, titleCase = true, wordLength = 0, wordFirst: UInt8 = 0
        func endWord() {
            if wordLength >= 4 && BytePrecheck.isLetter(wordFirst) && !BytePrecheck.isCapital(wordFirst) { titleCase = false }
        }
        var previous: UInt8 = 0
        for b in t.utf8 {
            defer { previous = b }
            if b == 0x20 {
                if inWord { endWord() }
                inWord = false
                continue
            }
            if !inWord {
                inWord = true; words += 1; wordLength = 0; wordFirst = b
                if words > 5 { return false }
            }
            if !(b == 0x0A && previous == 0x0D) { wordLength += 1 }  // "\r\n" is one character
            if BytePrecheck.isLetter(b) { letters += 1; if b >= 0x61 { lower += 1 } }
        }
        if inWord { endWord() }
        guard words >= 1, let first = t.utf8.first else { return false }
        guard BytePrecheck.isCapital(first) || BytePrecheck.isDigit(first) else { return false }
        if let last = t.utf8.last, last == 0x2C || last == 0x3B || last == 0x2E { return false }
        guard letters >= 3 else { return false }
        if lower == 0 { return true }
        return titleCase
    }

    static func isHeaderLikeGeneral(_ t: String) -> Bool {
        // (Most lines are longer than a header: their words are counted up to six only.)
        guard (1...5).contains(spaceWordCount(t, limit: 5)), let first = t.first else { return false }
        let words = t.split(separator: " ")
        guard first.isUppercase || first.isNumber else { return false }
        if let last = t.last, ",;.".contains(last) { return false }
        let ls = letterCounts(t)
        guard ls.letters >= 3 else { return false }
        if ls.capitals == ls.letters { return true }
        // Title Case: every word of 4+ letters capitalised
        return words.allSatisfy { w in w.count < 4 || w.first!.isUppercase || !w.first!.isLetter }
    }

    /// The head of a line annotated in brackets or after a dash ("PASTIES" of "PASTIES (Large /
    /// Medium)", "PLATES" of "PLATES – with red rice"): the text before the first "(" or "[", or
    /// before a spaced dash (–, —, -), when both it and what follows hold a letter; else nil.
    static func annotatedHead(_ t: String) -> String? {
        var cut: String.Index?
        if let b = t.firstIndex(where: { $0 == "(" || $0 == "[" }) { cut = b }
        for dash in [" – ", " — ", " - "] {
            if let r = t.range(of: dash), cut.map({ r.lowerBound < $0 }) ?? true { cut = r.lowerBound }
        }
        guard let cut else { return nil }
        let head = t[..<cut].trimmingSpaces(), rest = t[cut...]
        guard head.contains(where: \.isLetter), rest.contains(where: \.isLetter) else { return nil }
        return head
    }

    /// A header in capitals ("SOUPS", "Cold SANDWICHES": at least 60% capitals).
    static func isAllCapsHeader(_ s: String) -> Bool { isHeaderLike(s) && isMostlyCapitals(s) }

    /// Three or more letters, at least 60 % of them capitals.
    static func isMostlyCapitals(_ s: String) -> Bool {
        let ls = letterCounts(s)
        return ls.letters >= 3 && Double(ls.capitals) >= 0.6 * Double(ls.letters)
    }

    /// "tomato, pickled red onion add salmon bacon +$6": an add-on that
    /// continues the current item rather than starting a new one.
    static func isContinuation(_ f: PriceParser.Found) -> Bool {
        guard f.price.hasPrefix("+") else { return false }
        let ls = letterCounts(f.before)
        return ls.letters == 0 || Double(ls.capitals) < 0.3 * Double(ls.letters)
    }

    /// Whether line `next` goes on with the text of line `line`: `line` ends in a comma
    /// ("Camembert mit Camembert," / "Schinken u. Preiselbeeren 13,20") or `next` starts with
    /// a lower-case letter ("… Zwiebeln" / "und Lauch 8,20").
    /// On a menu that writes its names in lower case (`LineFacts.lowerCaseNames`) a lower-case
    /// start says nothing.
    static func continues(_ line: String, into next: String, lowerCaseNames: Bool) -> Bool {
        if endsUnfinished(line) { return true }
        guard !lowerCaseNames, let first = next.first(where: { !$0.isWhitespace }) else { return false }
        return first.isLetter && first.isLowercase
    }

    /// Words after a price that make it the price of every item of a list ("Chocolate Fudge
    /// Cake 2.95 any" / "Carrot Cake"; "4.95 each" / "Bounty" / "Twix"), in the menu languages.
    static let groupWords: Set<String> = [
        "each", "ea", "ea.", "any", "all", "je", "jeweils", "chacun", "chacune", "pièce", "cada", "c/u",
        "l'uno", "cad.", "cadauno", "stuk", "stück",
    ]

    /// The line without a group word after its price ("2.95 any" → "2.95", "any"); the line
    /// as it is when it ends in no such word or the word follows no digit.
    static func splittingGroupWord(_ line: String) -> (text: String, groupWord: String?) {
        // A price has a digit, and the word ends the line in an ASCII letter or a point.
        guard line.utf8.contains(where: BytePrecheck.isDigit) else { return (line, nil) }
        let t = line.trimmingSpaces()
        guard let end = t.utf8.last, BytePrecheck.isLetter(end) || end == UInt8(ascii: ".") else { return (line, nil) }
        guard let space = t.lastIndex(of: " ") else { return (line, nil) }
        let word = t[t.index(after: space)...]
        guard word.count <= 8, groupWords.contains(word.lowercased()) else { return (line, nil) }
        let rest = t[..<space].trimmingSpaces()
        guard let last = rest.last, last.isNumber || "€$£¥".contains(last) else { return (line, nil) }
        return (rest, String(word))
    }

    /// A list member under a group price: a short name of up to four words that is not a
    /// sentence, does not go on, and is no group price of its own that was not read as a price
    /// ("Chocolate Doughnuts 70p each"); "Various flavours available" is the list's note.
    static func isListMember(_ s: String, lowerCaseNames: Bool) -> Bool {
        let t = stripCodes(s).trimmingSpaces()
        guard let last = t.last, !".!:;".contains(last), !endsUnfinished(t),
              let lastWord = t.split(separator: " ").last, !groupWords.contains(lastWord.lowercased()) else { return false }
        return isShortName(t, maxWords: 4, lowerCaseNames: lowerCaseNames)
    }

    /// Words that join two parts of a dish's text and so never end a name or a header:
    /// conjunctions, prepositions and articles of the menu languages.
    static let joiningWords: Set<String> = [
        "and", "or", "with", "of", "in", "on", "over", "a", "an", "the", "&", "+",
        "und", "u.", "oder", "mit", "von", "vom", "auf", "aus", "im", "zum", "zur", "einer", "einem", "einen", "dem", "der", "den",
        "et", "ou", "avec", "au", "aux", "à", "de", "du", "des", "la", "le", "les", "sur",
        "y", "o", "con", "del", "al", "el", "en", "sin",
        "e", "di", "da", "alla", "alle", "della", "dello", "sul", "sulla",
        "met", "van", "het", "op", "com", "do", "ao", "na", "no",
    ]

    /// The line's own end says the text goes on: a comma, a hyphen or "&", or a joining word
    /// (a name or header never ends in one: "Gemüsefrikadellen mit", "Chicken with").
    static func endsUnfinished(_ line: String) -> Bool {
        let t = line.trimmingSpaces()
        if let last = t.utf8.last, last == UInt8(ascii: ",") || last == UInt8(ascii: "-") || last == UInt8(ascii: "&") { return true }
        guard let lastWord = t.split(separator: " ").last else { return false }
        return joiningWords.contains(lastWord.lowercased())
    }

    /// One-line items: priced lines right under another priced line whose name is short. On a
    /// page that has them, a Title Case line above a short priced name can be a header.
    static func oneLineItems(runs: [[Int]], price: [PriceParser.Found?], lowerCaseNames: Bool) -> Int {
        var n = 0
        for run in runs {
            for (k, i) in run.enumerated() where k > 0 && i >= 0 && i < price.count && run[k - 1] >= 0 && run[k - 1] < price.count {
                if let f = price[i], price[run[k - 1]] != nil, isShortName(f.before, lowerCaseNames: lowerCaseNames) { n += 1 }
            }
        }
        return n
    }

    /// A short dish name: one to `maxWords` words, starting with a capital, no comma or bar,
    /// no word of four or more letters in lower case (a description's words).
    /// On a menu that writes its names in lower case, case says nothing.
    static func isShortName(_ s: String, maxWords: Int = 3, lowerCaseNames: Bool) -> Bool {
        let t = stripCodes(s).trimmingSpaces()
        let words = t.split(separator: " ")
        guard (1...max(1, maxWords)).contains(words.count), !t.contains(","), !t.contains("|") else { return false }
        if lowerCaseNames { return true }
        guard startsCapitalised(t) else { return false }
        return !words.contains { w in w.count >= 4 && (w.first.map { $0.isLetter && $0.isLowercase } ?? false) }
    }

    /// The first letter (after leading punctuation and digits) is a capital.
    static func startsCapitalised(_ s: String) -> Bool {
        firstLetter(s)?.isUppercase ?? false
    }

    /// `s.first(where: \.isLetter)`. When every Character is one scalar, ASCII bytes before
    /// the first other one are Characters of their own, and an ASCII letter among them is
    /// the answer (no other ASCII character is a letter).
    static func firstLetter(_ s: String) -> Character? {
        if ScalarText.isOneScalarPerCharacter(s) {
            for b in s.utf8 {
                if b >= 0x80 { break }
                if BytePrecheck.isLetter(b) { return Character(Unicode.Scalar(b)) }
            }
        }
        return s.first(where: \.isLetter)
    }

    static func droppingTrailingComma(_ s: String) -> String {
        var t = s.trimmingSpaces()
        while t.last == "," { t.removeLast() }
        return t.trimmingSpaces()
    }

    /// A quantity and nothing else: a number (decimals or a fraction allowed) and at most a unit of
    /// one to four small letters with an optional point ("350 g", "0,5 l", "3 бр.", "6 pcs", "200 гр."),
    /// or one of the capital units menus print ("0,5 L", "33 CL", "8 OZ"); parentheses allowed.
    static func isQuantity(_ s: String) -> Bool {
        var t = Substring(s.trimmingSpaces())
        if t.first == "(" && t.last == ")" { t = t.dropFirst().dropLast() }
        let digits = t.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty else { return false }
        t = t.dropFirst(digits.count)
        if let sep = t.first, sep == "." || sep == "," || sep == "/" {
            let more = t.dropFirst().prefix { $0.isASCII && $0.isNumber }
            guard !more.isEmpty else { return false }
            t = t.dropFirst(1 + more.count)
        }
        if t.first == " " { t = t.dropFirst() }
        if t.last == "." { t = t.dropLast() }
        if t.isEmpty { return true }
        if ["L", "CL", "ML", "DL", "G", "KG", "OZ", "Kg", "Cl", "Ml", "Dl"].contains(String(t)) { return true }
        return t.count <= 4 && t.allSatisfy { $0.isLetter && $0.isLowercase }
    }

    /// How much a string looks like a dish name rather than a description.
    static func nameScore(_ s: String) -> Double {
        let t = stripCodes(s)
        let wordCount = spaceWordCount(t)
        if wordCount == 0 { return -1 }
        var score = 1.0
        if wordCount > 7 { score -= 1 }
        // (The bytes first: Foundation's `contains` on a string is a search with a locale.)
        if t.utf8.contains(0x7C), t.contains("|") { score -= 1 }
        if t.utf8.contains(0x2C), t.contains(",") { score -= 0.5 }
        let ls = letterCounts(t)
        if ls.letters > 0 && Double(ls.capitals) / Double(ls.letters) >= 0.5 { score += 0.5 }
        if let f = t.first, f.isLowercase, !t.split(separator: " ").contains(where: { w in
            w.count > 1 && w.allSatisfy { !$0.isLetterFast || $0.isUppercaseFast }
        }) {
            score -= 0.5
        }
        return score
    }

    /// What both layouts ask of every line, computed once.
    struct LineFacts {
        var text: [String]
        var codeOnly: [Bool]
        var headerLike: [Bool]
        var allCapsHeader: [Bool]
        /// More than 60 % of the page's lines start in lower case: the menu writes its names so,
        /// and a lower-case start says nothing about wrapping.
        var lowerCaseNames: Bool
        /// Priced lines right under another priced line whose name is short ("Spezi 3,00").
        var oneLineItems = 0
        /// Lines that read as headers in capitals ("FIKABRÖD", "ATT DRICKA"): a page that sets
        /// its headers so does not set one in Title Case.
        var capsHeaders = 0
        /// Starts in lower case and ends in "!": a header's tagline ("lecker belegt!").
        var tagline: [Bool]
        /// The line's price is for every item of the list it opens ("2.95 any").
        var groupPrice: [Bool]

        init(_ lines: [StructLine]) {
            text = lines.map { $0.text.trimmingSpaces() }
            codeOnly = text.map(MenuStructurer.isCodeOnly)
            // A heading in capitals may carry an annotation in lower case, in brackets or after a
            // dash ("PASTIES (Large / Medium)", "FISH (regular / large)", "PLATES – with red rice &
            // finadene"): its head is what says it is a heading.
            let lines = text, heads = text.map(MenuStructurer.annotatedHead)
            let header = lines.indices.map { i in
                MenuStructurer.isHeaderLike(lines[i])
                    || heads[i].map { MenuStructurer.isHeaderLike($0) && MenuStructurer.isMostlyCapitals($0) } ?? false
            }
            headerLike = header
            allCapsHeader = lines.indices.map { i in header[i] && MenuStructurer.isMostlyCapitals(heads[i] ?? lines[i]) }
            capsHeaders = allCapsHeader.filter { $0 }.count
            tagline = text.map { $0.utf8.last == UInt8(ascii: "!") && !MenuStructurer.startsCapitalised($0) }
            let lettered = text.compactMap(MenuStructurer.firstLetter)
            lowerCaseNames = 5 * lettered.filter(\.isLowercase).count > 3 * lettered.count
            groupPrice = Array(repeating: false, count: text.count)
        }
    }

    func run() -> Output {
        // Plain-number prices only on menus without currency/decimal prices.
        // A price for every item of a list ("2.95 any", "4.95 each"): found without its word,
        // which stays in the price.
        let split = lines.map { Self.splittingGroupWord($0.text) }
        let strongPrices = split.map { PriceParser.find(in: $0.text, allowPlain: false) }
        let allowPlain = strongPrices.lazy.filter { $0 != nil }.count < 3
        var price: [PriceParser.Found?] = lines.indices.map { i in
            legendLines.contains(i) ? nil : allowPlain ? PriceParser.find(in: split[i].text, allowPlain: true) : strongPrices[i]
        }
        // A priced line whose text before the price is only a quantity ("350 g · 8,90 лв.", "0,5 l 4.00")
        // names no dish: it is the price line of the name above, the quantity a part of its description.
        for i in price.indices {
            guard let f = price[i], Self.isQuantity(f.before) else { continue }
            price[i] = PriceParser.Found(before: "", price: f.price, after: f.after.isEmpty ? f.before : f.before + " " + f.after)
        }
        var facts = LineFacts(lines)
        for i in price.indices {
            guard let word = split[i].groupWord, var f = price[i], f.after.isEmpty else { continue }
            f.price += " " + word
            price[i] = f
            facts.groupPrice[i] = true
        }
        facts.oneLineItems = Self.oneLineItems(runs: runs, price: price, lowerCaseNames: facts.lowerCaseNames)
        let a = layoutA(price: price, facts: facts)
        let b = layoutB(price: price, facts: facts)
        func score(_ o: Output) -> Double {
            o.items.reduce(0) { $0 + Self.nameScore($1.name) } - 0.25 * Double(o.looseLines.count)
        }
        return score(b) > score(a) + 0.5 ? b : a
    }

    private func isPriceOnly(_ f: PriceParser.Found?) -> Bool { f != nil && f!.before.isEmpty }

    /// Priced line `line` ends `item`: its text before the price goes on the description, then its
    /// price and what follows the price; the item is done ("und Lauch 8,20", "Oatly · 42:-").
    private func close(_ item: inout RawItem?, withPricedLine f: PriceParser.Found, line: Int, into items: inout [RawItem]) {
        item?.descriptionParts.append(Self.stripCodes(f.before).trimmingSpaces())
        item?.price = f.price
        item?.lines.append(line)
        if !f.after.isEmpty { item?.descriptionParts.append(f.after) }
        finish(&item, into: &items)
    }

    private func finish(_ item: inout RawItem?, into items: inout [RawItem]) {
        if var it = item {
            it.closed = true
            items.append(it)
        }
        item = nil
    }

    func layoutA(price: [PriceParser.Found?], facts: LineFacts) -> Output {
        var items: [RawItem] = []
        var sections: [String] = []
        var loose: [Int] = []
        var section: String? = nil
        var sectionLine: Int? = nil
        var sectionNotes: [Int] = []
        for run in runs {
            var current: RawItem? = nil
            // A group price and whether its list has begun.
            var group: (price: String, members: Int)? = nil
            for (k, i) in run.enumerated() {
                let text = facts.text[i]
                if text.isEmpty || legendLines.contains(i) { finish(&current, into: &items); continue }
                if let f = price[i] {
                    group = facts.groupPrice[i] ? (f.price, 0) : nil
                    if facts.groupPrice[i] && f.before.isEmpty {
                        // "4.95 each" on its own line: the price of the list below, not of the line above.
                        finish(&current, into: &items)
                        loose.append(i)
                        continue
                    }
                } else if let g = group {
                    let nextOwnPrice = k + 1 < run.count && price[run[k + 1]].map { !$0.before.isEmpty } == true
                    if Self.isListMember(text, lowerCaseNames: facts.lowerCaseNames) && !nextOwnPrice && !facts.allCapsHeader[i] {
                        finish(&current, into: &items)
                        items.append(RawItem(section: section, sectionLine: sectionLine, name: Self.stripCodes(text), price: g.price,
                                             lines: [i], noteLines: sectionNotes, closed: true))
                        group = (g.price, g.members + 1)
                        continue
                    }
                    // Prose before the list is its note; after it, the list has ended.
                    if g.members > 0 || nextOwnPrice { group = nil }
                    if nextOwnPrice { finish(&current, into: &items) }
                }
                var next: Int? = k + 1 < run.count ? run[k + 1] : nil
                // A header's tagline ("immer frisch!") is looked past for the header decision.
                if facts.headerLike[i], price[i] == nil, let n = next, price[n] == nil, facts.tagline[n], k + 2 < run.count { next = run[k + 2] }
                if facts.codeOnly[i] {
                    if current != nil { current!.lines.append(i); finish(&current, into: &items) }
                    else if !items.isEmpty && items[items.count - 1].lines.last.map({ $0 + 1 == i }) == true { items[items.count - 1].lines.append(i) }
                    else { loose.append(i) }
                    continue
                }
                if let f = price[i] {
                    if f.before.isEmpty {
                        if current != nil && current!.price == nil {
                            current!.price = f.price
                            current!.lines.append(i)
                            if !f.after.isEmpty { current!.descriptionParts.append(f.after) }  // "350 g", "(+ $2 for chicken)"
                            continue
                        }
                        loose.append(i); continue
                    }
                    // The second line of a name wrapped over two lines, the price at its end
                    // ("Klassiker mit Speck, Zwiebeln" / "und Lauch 8,20").
                    if joinsWrappedNames, k > 0, current != nil, current!.price == nil, current!.lines == [run[k - 1]],
                       Self.continues(facts.text[run[k - 1]], into: f.before, lowerCaseNames: facts.lowerCaseNames) {
                        // The price ends the item, as in layout B: what follows starts something new.
                        close(&current, withPricedLine: f, line: i, into: &items)
                        continue
                    }
                    if current != nil && Self.isContinuation(f) {
                        current!.descriptionParts.append(text)
                        current!.lines.append(i)
                        continue
                    }
                    finish(&current, into: &items)
                    let name = Self.stripCodes(f.before)
                    current = RawItem(section: section, sectionLine: sectionLine, name: name, price: f.price, lines: [i], noteLines: sectionNotes)
                    if !f.after.isEmpty { current!.descriptionParts.append(f.after) }
                    continue
                }
                let nextIsItem = next.map { price[$0] != nil && !(price[$0]!.before.isEmpty) } ?? false
                let nextIsPriceOnly = next.map { isPriceOnly(price[$0]) && !facts.groupPrice[$0] } ?? false
                let nextIsHeader = next.map { price[$0] == nil && facts.headerLike[$0] } ?? false
                // This line's text goes on in the next line, which ends in the price.
                let nextFinishesThis = joinsWrappedNames && next.map { n in
                    price[n].map { !$0.before.isEmpty && Self.continues(text, into: $0.before, lowerCaseNames: facts.lowerCaseNames) } ?? false
                } == true
                // Right under "NAME PRICE" a line is its description ("Romaine, parmesan" / "add
                // chicken 4") unless its own end says it goes on or it is a short name ("Rinderbrühe").
                if nextFinishesThis && !facts.allCapsHeader[i] && Self.startsCapitalised(text)
                    && (current == nil || current!.descriptionParts.count >= 1 || Self.endsUnfinished(text)
                        || Self.isShortName(text, lowerCaseNames: false)) {
                    finish(&current, into: &items)
                    current = RawItem(section: section, sectionLine: sectionLine, name: Self.stripCodes(Self.droppingTrailingComma(text)),
                                      lines: [i], noteLines: sectionNotes)
                    continue
                }
                // A Title Case line inside an open description is part of it ("Potato Salad and Cranberry Sauce").
                // On a page whose headers are set in capitals, a Title Case line that with one priced
                // line makes a block of its own is a name, not a header ("Havrelatte" / "Oatly · 42:-").
                let nameOfBlock = nextIsItem && current == nil && facts.capsHeaders >= 2 && !facts.allCapsHeader[i]
                    && k == 0 && run.count == 2
                let canBeHeader = (facts.allCapsHeader[i] || current == nil || current!.descriptionParts.count >= 4) && !nameOfBlock
                if canBeHeader && facts.headerLike[i] && (nextIsItem || nextIsHeader || facts.allCapsHeader[i]) && !nextIsPriceOnly {
                    finish(&current, into: &items)
                    section = text
                    sectionLine = i
                    sections.append(text)
                    sectionNotes = []
                    group = nil
                    continue
                }
                if nameOfBlock, facts.headerLike[i],
                   let n = next, let f = price[n], !Self.continues(text, into: f.before, lowerCaseNames: facts.lowerCaseNames) {
                    // …and the priced line under it is its description ("Oatly · 42:-", "33 cl · 25:-").
                    // (The priced line ends the run, so the run is done.)
                    current = RawItem(section: section, sectionLine: sectionLine, name: Self.stripCodes(text), lines: [i], noteLines: sectionNotes)
                    close(&current, withPricedLine: f, line: n, into: &items)
                    break
                }
                if nextIsPriceOnly && Self.nameScore(text) >= 1 && (current == nil || current!.descriptionParts.count >= 1) {
                    finish(&current, into: &items)
                    current = RawItem(section: section, sectionLine: sectionLine, name: Self.stripCodes(text), lines: [i], noteLines: sectionNotes)
                    continue
                }
                if current != nil && current!.descriptionParts.count < 4 {
                    current!.descriptionParts.append(text)
                    current!.lines.append(i)
                    if Self.hasNumericCodes(text) { finish(&current, into: &items) }
                    continue
                }
                finish(&current, into: &items)
                loose.append(i)
                // Notes right after a header apply to that section's items.
                if section != nil && items.last?.section != section { sectionNotes.append(i) }
            }
            finish(&current, into: &items)
        }
        return Output(items: items, sections: sections, looseLines: loose)
    }

    func layoutB(price: [PriceParser.Found?], facts: LineFacts) -> Output {
        var items: [RawItem] = []
        var sections: [String] = []
        var loose: [Int] = []
        var section: String? = nil
        var sectionLine: Int? = nil
        var sectionNotes: [Int] = []
        /// Line `h` is a header: it opens a section with no notes yet.
        func openSection(_ h: Int) {
            section = facts.text[h]; sectionLine = h; sections.append(facts.text[h]); sectionNotes = []
        }
        for run in runs {
            var chunk: [Int] = []
            for i in run {
                let text = facts.text[i]
                if text.isEmpty || legendLines.contains(i) { loose += chunk; chunk = []; continue }
                if facts.codeOnly[i] {
                    if !chunk.isEmpty { chunk.append(i) }
                    else if !items.isEmpty { items[items.count - 1].lines.append(i) }
                    else { loose.append(i) }
                    continue
                }
                if let f = price[i] {
                    // Sentences before the item's own lines are section notes
                    // ("All our pizzas are … thin crust." / "The Veg" / "Cheese | … $11.00").
                    // A tagline under a header starts in lower case and ends in "!" ("Flammkuchen" /
                    // "lecker belegt!"); "Vive la Poutine!" is a name.
                    if let k = chunk.lastIndex(where: { facts.text[$0].hasSuffix(".") || facts.tagline[$0] }),
                       k < chunk.count - 1 {
                        let notes = Array(chunk[...k])
                        // A header among them (Title Case, not a sentence) opens a section: its notes follow it.
                        loose += notes
                        if let h = notes.lastIndex(where: { facts.headerLike[$0] }) {
                            openSection(notes[h])
                            sectionNotes = Array(notes[(h + 1)...])
                        } else if section != nil {
                            sectionNotes += notes
                        }
                        chunk = Array(chunk[(k + 1)...])
                    }
                    // A one-line header above a one-line item ("Herzhaftes" / "Gulaschsuppe 5,80"): the
                    // priced line is a short name of its own that does not go on from the header. On a
                    // page whose headers are set in capitals, a Title Case line is a name and the priced
                    // line its description ("Havrelatte" / "Oatly · 42:-").
                    if chunk.count == 1, facts.oneLineItems >= 2, facts.headerLike[chunk[0]],
                       facts.allCapsHeader[chunk[0]] || facts.capsHeaders < 2,
                       Self.isShortName(f.before, lowerCaseNames: facts.lowerCaseNames),
                       !Self.continues(facts.text[chunk[0]], into: f.before, lowerCaseNames: facts.lowerCaseNames) {
                        openSection(chunk[0])
                        loose.append(chunk[0])
                        chunk = []
                    }
                    var own = chunk
                    let sentenceLike = chunk.allSatisfy { c in
                        let t = facts.text[c]
                        return t.hasSuffix(".") || (t.hasSuffix("!") && t.split(separator: " ").count > 5)
                    }
                    if !chunk.isEmpty && !f.before.isEmpty && sentenceLike && Self.nameScore(f.before) >= 1 {
                        loose += chunk
                        if section != nil { sectionNotes += chunk }
                        own = []
                    }
                    if own.isEmpty && f.before.isEmpty {
                        loose.append(i); chunk = []; continue
                    }
                    let nameText = own.isEmpty ? f.before : lines[own[0]].text
                    var item = RawItem(section: section, sectionLine: sectionLine, name: Self.stripCodes(nameText.trimmingSpaces()),
                                       price: f.price, lines: own + [i], noteLines: sectionNotes)
                    if own.count > 1 { item.descriptionParts += own.dropFirst().map { facts.text[$0] } }
                    if !own.isEmpty && !f.before.isEmpty { item.descriptionParts.append(f.before) }
                    if !f.after.isEmpty { item.descriptionParts.append(f.after) }
                    item.closed = true
                    items.append(item)
                    chunk = []
                    continue
                }
                if facts.allCapsHeader[i] {
                    loose += chunk; chunk = []
                    openSection(i)
                    continue
                }
                chunk.append(i)
            }
            loose += chunk
        }
        return Output(items: items, sections: sections, looseLines: loose)
    }
}
