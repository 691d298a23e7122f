import Foundation

/// `--lang auto`: which installed language a first English read of a menu is
/// written in. Three kinds of evidence, all from general knowledge, none
/// shaped on an evaluation file:
/// - function words of menus (articles, "with", "and", prepositions);
/// - the allergen lexicon's single-word terms of that language (models/allergens);
/// - letters with diacritics that belong to the language (ä ö ü ß, ç œ, ñ …),
///   when the English model reads them at all.
/// A language's score is its hits per word read. The English read is kept
/// unless another language scores higher with at least `minimumHits` hits.
public struct LanguageDetector: Sendable {
    /// Tesseract codes the detector knows, with the lexicon's language tags.
    public static let languages: [(tesseract: String, lexicon: String)] = [
        ("eng", "en"), ("deu", "de"), ("fra", "fr"), ("spa", "es"), ("ita", "it"),
    ]

    /// Menu function words per language, folded (lower case, no diacritics).
    static let stopWords: [String: Set<String>] = [
        "eng": ["the", "and", "with", "of", "or", "served", "our", "your", "for", "on", "in", "from", "choice",
                "fresh", "topped", "side", "add", "homemade", "all", "any", "each", "daily"],
        "deu": ["und", "mit", "der", "die", "das", "dem", "den", "von", "vom", "auf", "aus", "oder", "im", "zum",
                "zur", "dazu", "nach", "art", "ein", "eine", "fur", "hausgemacht", "hausgemachte", "frisch",
                "frischem", "frischen", "beilage", "wahl", "gebraten", "gebratene", "uberbacken", "sosse"],
        "fra": ["et", "avec", "de", "du", "des", "la", "le", "les", "au", "aux", "sur", "ou", "notre", "nos",
                "maison", "frais", "fraiche", "servi", "servie", "garni", "garnie", "facon", "sa", "son", "ses"],
        "spa": ["y", "con", "de", "del", "la", "el", "los", "las", "al", "en", "o", "nuestro", "nuestra", "casero",
                "casera", "fresco", "fresca", "servido", "acompanado", "salsa", "su", "sus", "racion"],
        "ita": ["e", "con", "di", "del", "della", "dello", "dei", "delle", "al", "alla", "alle", "ai", "il", "lo",
                "gli", "i", "in", "nostro", "nostra", "fatto", "fatta", "casa", "fresco", "fresca", "servito", "salsa"],
    ]

    /// Letters (lower case) that point to a language.
    static let diacritics: [String: Set<Character>] = [
        "deu": ["ä", "ö", "ü", "ß"],
        "fra": ["é", "è", "ê", "ë", "à", "â", "ç", "î", "ï", "ô", "û", "œ"],
        "spa": ["ñ", "á", "í", "ó", "ú", "¿", "¡", "é"],
        "ita": ["à", "è", "é", "ì", "ò", "ù"],
    ]

    /// Hits another language needs before a second read is worth its time.
    public static let minimumHits = 4
    /// A diacritic counts this much of a word hit (one word can carry several).
    static let diacriticWeight = 0.5

    /// Folded single-word allergen terms per Tesseract language, four letters
    /// or more, and only those no other language's lexicon or stop words hold.
    let lexiconWords: [String: Set<String>]

    public init(lexicon: AllergenLexicon?) {
        var words: [String: Set<String>] = [:]
        let tag = Dictionary(uniqueKeysWithValues: Self.languages.map { ($0.lexicon, $0.tesseract) })
        // Allergen words only: dish names are tagged with their language of origin
        // ("margherita", "croissant") and print on menus of every language.
        for entry in lexicon?.entries ?? [] where entry.table == .lexicon && entry.words.count == 1 && entry.words[0].count >= 4 {
            guard let code = tag[entry.lang] else { continue }
            words[code, default: []].insert(entry.words[0])
        }
        var shared: [String: Int] = [:]
        for (code, set) in words { for w in set.union(Self.stopWords[code] ?? []) { shared[w, default: 0] += 1 } }
        lexiconWords = words.mapValues { $0.filter { shared[$0] == 1 } }
    }

    /// Per-language evidence on a read.
    public struct Scores: Codable, Equatable, Sendable {
        /// Words of two letters or more that were read.
        public var words: Int
        /// Hits (stop words + lexicon words + weighted diacritics) per language.
        public var hits: [String: Double]
        /// Hits per word read.
        public var scores: [String: Double]
    }

    public func score(_ page: OCRPage) -> Scores {
        let raw = page.words.filter { ($0.confidence ?? 0) >= 0.3 }.map(\.text)
        return score(words: raw)
    }

    public func score(words raw: [String]) -> Scores {
        var hits: [String: Double] = [:]
        var count = 0
        for word in raw {
            let lower = word.lowercased()
            let folded = TextFold.fold(lower).filter { $0.isLetter }
            guard folded.count >= 1, lower.contains(where: \.isLetter) else { continue }
            if folded.count >= 2 || ["y", "o", "e", "i"].contains(folded) { count += 1 }
            for (code, _) in Self.languages {
                if Self.stopWords[code]?.contains(folded) == true || lexiconWords[code]?.contains(folded) == true {
                    hits[code, default: 0] += 1
                }
                if let marks = Self.diacritics[code] {
                    let n = lower.filter { marks.contains($0) }.count
                    if n > 0 { hits[code, default: 0] += Self.diacriticWeight * Double(min(n, 2)) }
                }
            }
        }
        let denominator = Double(max(count, 20))
        var scores: [String: Double] = [:]
        for (code, _) in Self.languages {
            let h = hits[code] ?? 0
            hits[code] = h
            scores[code] = (h / denominator * 1000).rounded() / 1000
        }
        return Scores(words: count, hits: hits, scores: scores)
    }

    /// The language to read again with, or nil to keep the English read:
    /// the best-scoring installed language other than English, when it beats
    /// English and has at least `minimumHits` hits.
    public func choose(_ s: Scores, installed: Set<String>) -> String? {
        let eng = s.scores["eng"] ?? 0
        let best = Self.languages.map(\.tesseract).filter { $0 != "eng" && installed.contains($0) }
            .max { (s.scores[$0] ?? 0, $1) < (s.scores[$1] ?? 0, $0) }
        guard let best, (s.hits[best] ?? 0) >= Double(Self.minimumHits), (s.scores[best] ?? 0) > eng else { return nil }
        return best
    }
}

/// What `--lang auto` did on a photo (written as `ocr.languageDetection`).
public struct LanguageChoice: Codable, Equatable, Sendable {
    /// The language(s) of the read that was kept, e.g. "eng" or "deu+eng".
    public var chosen: String
    /// Scores of the first (English) read.
    public var first: LanguageDetector.Scores
    /// True when the photo was read a second time.
    public var reread: Bool
    /// `LanguageReread.lines`: lines of the kept read whose words are the
    /// English read's (absent for a combined second read or none).
    public var englishLines: Int?
}

/// How `--lang auto` reads a photo again when its English read scores as
/// another language L.
public enum LanguageReread: String, Codable, Sendable, CaseIterable {
    /// The whole page again on `L+eng` (Tesseract tries both models on every
    /// line it does not accept at once: about 1.5–2× an English read).
    case combined
    /// The whole page again on `L` alone; a line keeps the first, English
    /// read of it only where that read holds more English evidence than the
    /// L read holds evidence of L (`LanguageMerge`). The English read is not
    /// thrown away, so only the second model runs again.
    case merge
    /// No second page read: each line of the English read that may be in L
    /// (it has letters and no more English than L evidence) is read again
    /// alone on `L+eng` within its box; the page's layout stays the first
    /// read's (`LanguageMerge.rereadBoxes`).
    case lines
}

extension LanguageDetector {
    /// `LanguageReread.lines`: whether a line keeps its English read rather
    /// than its read on `language`: when the English read's English hits
    /// (menu function words, allergen words) outnumber the other read's hits
    /// of `language` (its function words, allergen words and diacritics).
    /// Confidence is not compared: the English model is confident on German
    /// words it misreads ("grinem Pfeffer and Ananas").
    public func prefersEnglish(_ english: OCRLine, over second: OCRLine, language: String) -> Bool {
        let e = score(words: english.words.map(\.text)).hits["eng"] ?? 0
        let o = score(words: second.words.map(\.text)).hits[language] ?? 0
        return e > o
    }
}

/// Merges a page read on a second language with the first English read of
/// the same image, line by line (`LanguageReread.merge`, `.lines`).
public enum LanguageMerge {
    /// `LanguageReread.lines`: the lines of the English read to read again
    /// (their indices in `page.lines`) and the box each is read in: the
    /// line's box padded by a quarter of its height (as line recovery pads),
    /// within `bounds`. A line is read again when it has a letter and
    /// `mayBeOther` says it may be in the other language.
    public static func rereadBoxes(_ page: OCRPage, bounds: Box,
                                   mayBeOther: (OCRLine) -> Bool) -> [(line: Int, box: Box)] {
        var out: [(line: Int, box: Box)] = []
        for (i, line) in page.lines.enumerated() {
            guard line.words.contains(where: { $0.text.contains(where: \.isLetter) }), mayBeOther(line) else { continue }
            let pad = max(2, line.box.height / 4)
            guard let box = Box(left: line.box.x - pad, top: line.box.y - pad,
                                right: line.box.maxX + pad, bottom: line.box.maxY + pad).intersection(bounds),
                  box.width > 0, box.height > 0 else { continue }
            out.append((i, box))
        }
        return out
    }

    /// The page with the words of line `line` (index in `page.lines`)
    /// replaced by `words` for each pair; other lines and the layout stay.
    public static func replacing(_ page: OCRPage, _ reads: [Int: [OCRWord]]) -> OCRPage {
        guard !reads.isEmpty else { return page }
        var out = page
        var index = 0
        for b in out.blocks.indices {
            for l in out.blocks[b].lines.indices {
                if let words = reads[index], !words.isEmpty { out.blocks[b].lines[l].words = words }
                index += 1
            }
        }
        return out
    }

    /// Two reads' lines are the same line when their boxes overlap this much
    /// (intersection over union). Tesseract's layout does not depend on the
    /// language model, so the lines of the two reads mostly coincide.
    public static let sameLineIoU = 0.5

    /// The second read's layout with, on each of its lines, the words of the
    /// English line at the same place when `prefersEnglish(englishLine,
    /// secondLine)`. English lines that overlap no line of the second read
    /// (the second model read nothing there) are added. `englishLines`: lines
    /// whose English words were kept or added.
    public static func merge(second: OCRPage, english: OCRPage,
                             prefersEnglish: (OCRLine, OCRLine) -> Bool) -> (page: OCRPage, englishLines: Int) {
        let englishLines = english.lines
        var used = [Bool](repeating: false, count: englishLines.count)
        var page = second
        var kept = 0
        for b in page.blocks.indices {
            for l in page.blocks[b].lines.indices {
                let line = page.blocks[b].lines[l]
                var best: (index: Int, iou: Double)?
                for (i, other) in englishLines.enumerated() {
                    let iou = line.box.iou(other.box)
                    if iou >= sameLineIoU, iou > (best?.iou ?? 0) { best = (i, iou) }
                }
                guard let best else { continue }
                used[best.index] = true
                let other = englishLines[best.index]
                if prefersEnglish(other, line) {
                    page.blocks[b].lines[l].words = other.words
                    kept += 1
                }
            }
        }
        let secondLines = second.lines
        let missing = englishLines.indices.filter { i in
            !used[i] && !englishLines[i].words.isEmpty
                && !secondLines.contains { $0.box.intersection(englishLines[i].box) != nil }
        }.map { englishLines[$0] }
        if !missing.isEmpty { page = page.inserting(missing) }
        return (page, kept + missing.count)
    }
}
