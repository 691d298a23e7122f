import Foundation

/// Text accuracy metrics, defined to agree with `shared/eval/tools/score.py`
/// (the script behind the reference figures in `shared/eval/BASELINES.md`).
///
/// - Normalisation: Unicode NFKC, then whitespace folding: every run of
///   whitespace becomes one space and leading/trailing whitespace is dropped.
///   "Whitespace" is what Python's `str.split()` splits on: the Unicode
///   White_Space property plus U+001C…U+001F.
/// - Characters are Unicode scalars (Python code points), not grapheme clusters.
/// - CER compares the normalised texts case-sensitively.
/// - Words are the normalised text split at the spaces and lower-cased as
///   Python does (with the Greek final-sigma rule); WER and
///   word recall/precision compare words exactly (scalar by scalar), so they
///   are case-insensitive.
/// - Edit distance is Levenshtein with unit costs (insert, delete, substitute).
/// - A rate divides by the reference length, or by 1 when the reference is
///   empty (so an empty reference gives the hypothesis length as the rate).
public enum TextMetrics {
    /// True for the scalars whitespace folding treats as whitespace.
    public static func isFoldedWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || (0x1C...0x1F).contains(scalar.value)
    }

    /// NFKC, then whitespace folded to single spaces and trimmed.
    public static func normalise(_ text: String) -> String {
        let nfkc = text.precomposedStringWithCompatibilityMapping
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in nfkc.unicodeScalars {
            if isFoldedWhitespace(scalar) {
                pendingSpace = !out.isEmpty
            } else {
                if pendingSpace { out.append(" ") }
                pendingSpace = false
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// The words of a text: normalised, lower-cased, split at whitespace.
    public static func words(_ text: String) -> [String] {
        words(normalised: normalise(text))
    }

    /// Levenshtein distance with unit costs between two sequences.
    public static func editDistance<T: Equatable>(_ a: [T], _ b: [T]) -> Int {
        // Common prefix and suffix cost nothing; strip them first.
        var start = 0
        while start < a.count, start < b.count, a[start] == b[start] { start += 1 }
        var endA = a.count, endB = b.count
        while endA > start, endB > start, a[endA - 1] == b[endB - 1] { endA -= 1; endB -= 1 }
        let x = a[start..<endA], y = b[start..<endB]
        if x.isEmpty { return y.count }
        if y.isEmpty { return x.count }
        // Two-row dynamic programme over the shorter side.
        let (long, short) = x.count >= y.count ? (Array(x), Array(y)) : (Array(y), Array(x))
        var previous = Array(0...short.count)
        var current = [Int](repeating: 0, count: short.count + 1)
        for i in 1...long.count {
            current[0] = i
            let item = long[i - 1]
            for j in 1...short.count {
                let substitution = previous[j - 1] + (item == short[j - 1] ? 0 : 1)
                current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
            }
            swap(&previous, &current)
        }
        return previous[short.count]
    }

    /// Character error rate: character edit distance over the normalised
    /// reference's length in scalars (or 1 when it is empty).
    public static func cer(ref: String, hyp: String) -> Double {
        compare(ref: ref, hyp: hyp).cer
    }

    /// Word error rate: word edit distance over the reference's word count
    /// (or 1 when it has none).
    public static func wer(ref: String, hyp: String) -> Double {
        compare(ref: ref, hyp: hyp).wer
    }

    /// Order-free word recall and precision: the size of the multiset
    /// intersection of the two word lists over the reference's (recall) and
    /// the hypothesis's (precision) word count, each over 1 when empty.
    public static func wordRecallPrecision(ref: String, hyp: String) -> (recall: Double, precision: Double) {
        let c = compare(ref: ref, hyp: hyp)
        return (c.wordRecall, c.wordPrecision)
    }

    /// Every count behind the metrics of one reference/hypothesis pair.
    public static func compare(ref: String, hyp: String) -> TextComparison {
        let r = normalise(ref), h = normalise(hyp)
        let rs = scalars(r), hs = scalars(h)
        var vocabulary = WordVocabulary()
        let rw = vocabulary.ids(words(normalised: r)), hw = vocabulary.ids(words(normalised: h))
        return TextComparison(
            characterErrors: editDistance(rs, hs), referenceCharacters: rs.count, hypothesisCharacters: hs.count,
            wordErrors: editDistance(rw, hw), referenceWords: rw.count, hypothesisWords: hw.count,
            matchedWords: multisetIntersectionCount(rw, hw))
    }

    /// The size of the multiset intersection of two lists.
    public static func multisetIntersectionCount<T: Hashable>(_ a: [T], _ b: [T]) -> Int {
        var remaining: [T: Int] = [:]
        for x in a { remaining[x, default: 0] += 1 }
        var hits = 0
        for y in b where remaining[y, default: 0] > 0 {
            remaining[y]! -= 1
            hits += 1
        }
        return hits
    }

    /// `x / max(1, n)`, the rate convention of score.py.
    static func rate(_ x: Int, over n: Int) -> Double { Double(x) / Double(max(1, n)) }

    static func scalars(_ s: String) -> [UInt32] { s.unicodeScalars.map(\.value) }

    /// Words of an already normalised text.
    static func words(normalised: String) -> [String] {
        normalised.split(separator: " ").map { lowercased(Substring($0)) }
    }

    /// Lower-cases like Python's `str.lower()`: Swift's `lowercased()` plus the
    /// Final_Sigma rule (Σ becomes ς at the end of a word, σ elsewhere), which
    /// Swift does not apply. The context never crosses a space, so applying it
    /// word by word gives the same result as on the whole text.
    static func lowercased(_ word: Substring) -> String {
        let scalars = Array(word.unicodeScalars)
        guard scalars.contains("\u{03A3}") else { return word.lowercased() }
        func casedNeighbour(from start: Int, step: Int) -> Bool {
            var i = start
            while i >= 0, i < scalars.count {
                let p = scalars[i].properties
                if !p.isCaseIgnorable { return p.isCased }
                i += step
            }
            return false
        }
        var out = ""
        for (i, scalar) in scalars.enumerated() {
            if scalar == "\u{03A3}" {
                let final = casedNeighbour(from: i - 1, step: -1) && !casedNeighbour(from: i + 1, step: 1)
                out += final ? "\u{03C2}" : "\u{03C3}"
            } else {
                out += String(scalar).lowercased()
            }
        }
        return out
    }
}

/// Maps words to small integers by their exact scalars, so that comparisons
/// are code point by code point as in Python (Swift's `String ==` would treat
/// canonically equivalent spellings as equal).
struct WordVocabulary {
    private var table: [[UInt32]: Int] = [:]

    mutating func id(_ word: String) -> Int {
        let key = TextMetrics.scalars(word)
        if let id = table[key] { return id }
        let id = table.count
        table[key] = id
        return id
    }

    mutating func ids(_ words: [String]) -> [Int] { words.map { id($0) } }
}

/// The counts from comparing one hypothesis with its reference, and the rates
/// derived from them (see `TextMetrics` for the definitions).
public struct TextComparison: Codable, Sendable, Equatable {
    public var characterErrors: Int
    public var referenceCharacters: Int
    public var hypothesisCharacters: Int
    public var wordErrors: Int
    public var referenceWords: Int
    public var hypothesisWords: Int
    /// Size of the multiset intersection of reference and hypothesis words.
    public var matchedWords: Int

    public init(characterErrors: Int, referenceCharacters: Int, hypothesisCharacters: Int,
                wordErrors: Int, referenceWords: Int, hypothesisWords: Int, matchedWords: Int) {
        self.characterErrors = characterErrors
        self.referenceCharacters = referenceCharacters
        self.hypothesisCharacters = hypothesisCharacters
        self.wordErrors = wordErrors
        self.referenceWords = referenceWords
        self.hypothesisWords = hypothesisWords
        self.matchedWords = matchedWords
    }

    public var cer: Double { TextMetrics.rate(characterErrors, over: referenceCharacters) }
    public var wer: Double { TextMetrics.rate(wordErrors, over: referenceWords) }
    public var wordRecall: Double { TextMetrics.rate(matchedWords, over: referenceWords) }
    public var wordPrecision: Double { TextMetrics.rate(matchedWords, over: hypothesisWords) }

    /// Counts added up (for micro-averaged totals).
    public static func + (a: TextComparison, b: TextComparison) -> TextComparison {
        TextComparison(
            characterErrors: a.characterErrors + b.characterErrors,
            referenceCharacters: a.referenceCharacters + b.referenceCharacters,
            hypothesisCharacters: a.hypothesisCharacters + b.hypothesisCharacters,
            wordErrors: a.wordErrors + b.wordErrors,
            referenceWords: a.referenceWords + b.referenceWords,
            hypothesisWords: a.hypothesisWords + b.hypothesisWords,
            matchedWords: a.matchedWords + b.matchedWords)
    }

    public static let zero = TextComparison(characterErrors: 0, referenceCharacters: 0, hypothesisCharacters: 0,
                                            wordErrors: 0, referenceWords: 0, hypothesisWords: 0, matchedWords: 0)
}
