import Foundation

/// Whether the menu structure cut a phrase in two at an item's edge.
///
/// An item that begins with "und Lauch" or "with fries", or whose last line ends
/// with "Ruccola," or "served with", holds only part of what the menu says about
/// it: the rest (an ingredient, or the heading that names its base: "Flammkuchen")
/// went to another item. What it contains cannot then be read from its own words,
/// so it must not be called safe. The test is typographic and the same in every
/// language MenuScan reads: a list joiner at the start of a line, a comma or joiner
/// at its end.
enum ItemBounds {
    /// Words that join the parts of one phrase ("and", "with", "of"…), folded, in the five
    /// languages of the lexicon. A dish name does not start with one of them written in
    /// lower case ("the EGG SANDWICH" does start with an article: articles are left out).
    static let joiners: Set<String> = [
        "and", "or", "with", "w", "plus", "of", "in", "on", "to", "for", "from",
        "und", "oder", "mit", "u", "sowie", "auf", "von", "vom", "zum", "zur", "im",
        "et", "ou", "avec", "aux", "au", "de", "du", "des",
        "y", "o", "con", "del", "e", "ed", "al", "alla", "della", "di",
    ]
    /// No phrase ends with a joiner or an article.
    static let endJoiners: Set<String> = joiners.union([
        "the", "a", "an", "der", "die", "das", "ein", "eine", "la", "le", "les", "un", "une", "el", "los", "las", "il", "lo",
    ])
    /// Joiners written as signs.
    static let joinerSigns: Set<Character> = ["&", "+"]

    /// The text begins in the middle of a phrase: its first word is a joiner written in
    /// lower case ("und Lauch", "with fries") or a joining sign ("& chips").
    static func startsMidPhrase(_ text: String) -> Bool {
        let t = text.trimmingSpaces()
        if let ascii = asciiBytes(t) {
            // The same decisions on the bytes (every Character one byte; a letter is A–Z a–z).
            guard let first = ascii.first else { return false }
            if first == UInt8(ascii: "&") || first == UInt8(ascii: "+") { return true }
            guard first >= 0x61 && first <= 0x7A else { return false }
            let word = ascii.prefix(while: BytePrecheck.isLetter)
            return joiners.contains(TextFold.asciiLowercased(String(decoding: word, as: UTF8.self)))
        }
        guard let first = t.first else { return false }
        if joinerSigns.contains(first) { return true }
        guard first.isLowercase else { return false }
        let word = t.prefix { $0.isLetter }
        guard !word.isEmpty else { return false }
        // "u." and "w/" are abbreviations of joiners; a longer word must end there.
        return joiners.contains(TextFold.fold(String(word)))
    }

    /// The text ends in the middle of a phrase: a trailing comma, semicolon, open
    /// bracket, hyphen or joining sign, or a joiner as its last word ("served with").
    static func endsMidPhrase(_ text: String) -> Bool {
        let t = text.trimmingSpaces()
        if let ascii = asciiBytes(t) {
            // The same decisions on the bytes (every Character one byte; a letter is A–Z a–z).
            guard let last = ascii.last else { return false }
            if ",;(-&+".utf8.contains(last) { return true }
            let wordLength = ascii.reversed().prefix(while: BytePrecheck.isLetter).count
            guard wordLength > 0, wordLength < ascii.count else { return false }
            // (The last word as a slice of the bytes: decoding a reversed view took a generic path.)
            return endJoiners.contains(TextFold.asciiLowercased(String(decoding: ascii[(ascii.count - wordLength)...], as: UTF8.self)))
        }
        guard let last = t.last else { return false }
        // "-": a word hyphenated at the line's end goes on in the next line.
        if last == "," || last == ";" || last == "(" || last == "-" || joinerSigns.contains(last) { return true }
        let word = t.reversed().prefix { $0.isLetter }
        guard !word.isEmpty, word.count < t.count else { return false }
        return endJoiners.contains(TextFold.fold(String(word.reversed())))
    }

    /// The bytes of ASCII text without "\r" (whose every Character is then one byte), else nil.
    private static func asciiBytes(_ t: String) -> [UInt8]? {
        ScalarText.isOneBytePerCharacter(t) ? Array(t.utf8) : nil
    }

    /// Per item (in reading order): true when the item starts or ends mid-phrase, when
    /// a neighbour's edge does (the phrase goes on into this item), or when the line
    /// after its section heading does (the heading was the first line of an item, and
    /// the section that named the dish was lost). `perLine`: every item is one line the
    /// caller gave on its own; only its own edges count.
    static func cutPhrases(items: [RawItem], lines: [StructLine], perLine: Bool) -> [Bool] {
        func text(_ i: Int) -> String { i >= 0 && i < lines.count ? lines[i].text : "" }
        /// The last line with a price at its end removed: "… und Lauch 8,20" ends its phrase.
        func endsOpen(_ r: RawItem) -> Bool {
            guard let last = r.lines.last else { return endsMidPhrase(r.name) }
            let t = text(last)
            // (The cheap test first: the price regex only runs on a line that ends mid-phrase.)
            return endsMidPhrase(t) && PriceParser.find(in: t, allowPlain: false) == nil
        }
        let starts = items.map { startsMidPhrase($0.name) }
        let ends = items.map(endsOpen)
        var cut = items.indices.map { k in starts[k] || ends[k] }
        guard !perLine else { return cut }
        // The phrase goes on across the edge: both sides hold part of it.
        for k in items.indices where k + 1 < items.count && (starts[k + 1] || ends[k]) {
            cut[k] = true; cut[k + 1] = true
        }
        var brokenHeadings = Set<Int>()
        for r in items {
            if let h = r.sectionLine, h + 1 < lines.count, startsMidPhrase(text(h + 1)) || endsMidPhrase(text(h)) {
                brokenHeadings.insert(h)
            }
        }
        for k in items.indices where items[k].sectionLine.map(brokenHeadings.contains) == true { cut[k] = true }
        return cut
    }
}
