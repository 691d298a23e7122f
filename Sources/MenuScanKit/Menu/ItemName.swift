import Foundation

/// What OCR makes of dot leaders and ornaments around a dish name, and names without it.
///
/// Dot leaders between a name and its price are read as dots, as runs of round letters
/// ("SOOOSSOSSSSSHSS", "ccccsccsseee", "onnnso") and as short scraps after them ("Soup
/// …… ee 6"); ornaments before a name as signs ("— ~ Salad", "@ Apple Strudel"). None of
/// it is part of the dish: left in, it spoils the name and, as an unknown word, makes the
/// item's allergen verdict `caution (unknown_terms)`. The tests are typographic and the
/// same on every menu: leader characters, runs of the letters OCR reads dots as, the
/// position after leaders. A word with a real word glued to leaders ("Salat……0….") is no
/// garbage word (its leaders are cut off the name, the word is kept for classification).
enum ItemName {
    private static let leaderChars = PageLayout.leaderChars
    /// Letters and marks OCR reads leader dots as (as in `PriceParser`'s misread leaders).
    private static let dotLike: Set<Character> = Set("0oOcCeEsSHuUvVaAnm:;,'\"")

    /// A word that is leaders as OCR reads them: at least 3 leader dots and nothing else
    /// but dot-like marks, or a run of dot-like letters of at least 5 with the same one
    /// three times in a row ("SOOOSSSS", "…0…0.0cccccsccsseee", "onnnso").
    static func isLeaderWord(_ w: String) -> Bool {
        let dots = w.filter { leaderChars.contains($0) }.count
        let rest = w.filter { !leaderChars.contains($0) }
        guard rest.allSatisfy({ dotLike.contains($0) }) else { return false }
        if dots >= 3 { return true }
        return rest.count >= 5 && rest.hasRunOfThree
    }

    /// No letter and no digit: an ornament or a stray sign ("—", "~", "@", "•", "|").
    static func isOrnament(_ w: String) -> Bool { !w.contains { $0.isLetter || $0.isNumber } }

    /// A scrap OCR reads after leaders: 2 or 3 of the letters it reads dots as ("ee",
    /// "eo"). Codes ("(N)", "a,c"), marks and real words ("egg") are no scraps.
    static func isScrap(_ w: String) -> Bool {
        (2...3).contains(w.count) && w.allSatisfy { $0.isLetter && dotLike.contains($0) }
    }

    /// Indices of the garbage words of one line: leader words, scraps (at most two) right
    /// after a leader word that run up to the line's end, a number or another leader word,
    /// and with `ornaments`, the signs and leaders before the first word with a letter or
    /// digit.
    static func garbageIndices(_ words: [String], ornaments: Bool = true) -> Set<Int> {
        var out = Set<Int>()
        var k = 0
        while ornaments, k < words.count, isOrnament(words[k]) || isLeaderWord(words[k]) { out.insert(k); k += 1 }
        for i in words.indices where isLeaderWord(words[i]) {
            out.insert(i)
            var j = i + 1
            var scraps: [Int] = []
            while j < words.count, scraps.count < 3, isScrap(words[j]) { scraps.append(j); j += 1 }
            guard !scraps.isEmpty, scraps.count <= 2 else { continue }
            let endsThere = j >= words.count || words[j].contains(where: \.isNumber) || isLeaderWord(words[j])
            if endsThere { out.formUnion(scraps) }
        }
        return out
    }

    /// A dish name without leader garbage and ornaments: garbage words removed, leaders
    /// glued to the last word cut off ("Salat……0…." → "Salat"), ornaments at either end
    /// removed, repeated until nothing changes (a removal can leave an ornament at an end).
    /// A name that would keep fewer than 2 letters is returned unchanged.
    static func clean(_ name: String) -> String {
        var current = name
        // Each step that changes the text shortens it, so this ends.
        while true {
            let next = cleanStep(current)
            if next == current || next.count >= current.count { break }
            current = next
        }
        return current.filter(\.isLetter).count >= 2 ? current : name
    }

    private static func cleanStep(_ name: String) -> String {
        let words = name.split(separator: " ").map(String.init)
        guard !words.isEmpty else { return name }
        let garbage = garbageIndices(words)
        var kept = words.indices.filter { !garbage.contains($0) }.map { words[$0] }
        // Trailing ornaments and leaders glued to the last word, until neither is left.
        while let last = kept.last {
            if isOrnament(last) { kept.removeLast(); continue }
            guard let r = gluedLeaderStart(last) else { break }
            let word = String(last[..<r])
            if word.isEmpty { kept.removeLast() } else { kept[kept.count - 1] = word }
        }
        return kept.joined(separator: " ")
    }

    /// Where leaders glued to the end of a word begin (three leader dots or more, then
    /// nothing but dot-like marks), or nil.
    static func gluedLeaderStart(_ w: String) -> String.Index? {
        var i = w.startIndex
        while i < w.endIndex {
            if leaderChars.contains(w[i]) {
                let tail = w[i...]
                if tail.filter({ leaderChars.contains($0) }).count >= 3,
                   tail.allSatisfy({ leaderChars.contains($0) || dotLike.contains($0) }) { return i }
            }
            i = w.index(after: i)
        }
        return nil
    }

    /// The words of an item's line for classification: leader words become a full stop
    /// (a leader run ends a phrase, as before), scraps after them are left out; signs stay
    /// (they scope qualifiers and are no unknown terms).
    static func withoutGarbage(_ words: [SourceWord]) -> [SourceWord] {
        let texts = words.map(\.text)
        let garbage = garbageIndices(texts, ornaments: false)
        guard !garbage.isEmpty else { return words }
        return words.indices.compactMap { i in
            guard garbage.contains(i) else { return words[i] }
            return isLeaderWord(texts[i]) ? SourceWord(text: ".", confidence: words[i].confidence) : nil
        }
    }
}
