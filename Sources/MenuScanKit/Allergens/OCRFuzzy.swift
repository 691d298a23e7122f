/// Edit distance whose costs favour the confusions OCR engines make: rn↔m,
/// cl↔d, vv↔w, ri↔n, li↔h, in↔m; l/1/i/!, O/0, S/5, B/8, g/9/q, e/c, u/v.
/// Plain substitutions, insertions, deletions and transpositions cost 1.
enum OCRFuzzy {
    static let confusionCost = 0.3

    private static let similar: [Set<Character>] = [
        ["l", "1", "i", "!", "|", "j", "t"], ["o", "0", "q"], ["s", "5"], ["b", "8", "6"],
        ["g", "9", "q"], ["e", "c"], ["u", "v"], ["z", "2"], ["a", "o"], ["n", "h"],
    ]
    private static let pairs: [(String, Character)] = [
        ("rn", "m"), ("cl", "d"), ("vv", "w"), ("ri", "n"), ("li", "h"), ("in", "m"),
        ("ii", "u"), ("nn", "m"), ("iu", "m"), ("rt", "n"),
    ]

    static func substitution(_ a: Character, _ b: Character) -> Double {
        if a == b { return 0 }
        for s in similar where s.contains(a) && s.contains(b) {
            // l↔t is frequent in degraded print but weaker evidence: cost a bit more.
            return (a == "t" || b == "t" || a == "a" || b == "a" || a == "n" || b == "n") ? 0.6 : confusionCost
        }
        return 1
    }

    /// Weighted distance between an observed token and a lexicon word.
    static func distance(_ observed: String, _ target: String, limit: Double = .infinity) -> Double {
        let a = Array(observed), b = Array(target)
        let n = a.count, m = b.count
        if n == 0 { return Double(m) }
        if m == 0 { return Double(n) }
        var d = Array(repeating: Array(repeating: 0.0, count: m + 1), count: n + 1)
        for i in 0...n { d[i][0] = Double(i) }
        for j in 0...m { d[0][j] = Double(j) }
        var previousRowMin = 0.0
        for i in 1...n {
            var rowMin = Double.infinity
            for j in 1...m {
                var v = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + substitution(a[i - 1], b[j - 1]))
                if i >= 2 && j >= 2 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    v = min(v, d[i - 2][j - 2] + 1)
                }
                for (two, one) in pairs {
                    let t = Array(two)
                    if i >= 2 && a[i - 2] == t[0] && a[i - 1] == t[1] && b[j - 1] == one {
                        v = min(v, d[i - 2][j - 1] + confusionCost)
                    }
                    if j >= 2 && b[j - 2] == t[0] && b[j - 1] == t[1] && a[i - 1] == one {
                        v = min(v, d[i - 1][j - 2] + confusionCost)
                    }
                }
                d[i][j] = v
                rowMin = min(rowMin, v)
            }
            // Two-letter confusions (rn→m) reach back two rows: stop only when
            // both rows are over the limit.
            if rowMin > limit && previousRowMin > limit { return min(rowMin, previousRowMin) }
            previousRowMin = rowMin
        }
        return d[n][m]
    }

    /// The largest cost still accepted as the same word. Short words are never
    /// fuzzed (egg, soy, oat, nut, rye); words up to seven letters only through
    /// OCR confusions (masala is not marsala); longer words allow one ordinary edit.
    static func maxCost(forLength len: Int) -> Double {
        switch len {
        case ..<5: return 0
        case 5: return 0.6
        case 6...7: return 0.7
        case 8...10: return 1.0
        default: return 1.6
        }
    }

    /// "crumbled" is an inflection of "crumble", not a misreading: a word that
    /// only adds or drops letters at the end of a lexicon word is not fuzzed.
    static func isInflection(_ observed: String, _ target: String) -> Bool {
        observed.hasPrefix(target) || target.hasPrefix(observed)
    }
}
