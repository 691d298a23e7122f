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

    /// `substitution` for ASCII pairs, precomputed (the distance's inner loop): only the
    /// pairs inside a similar set differ from 1, so only those are computed (filling all
    /// 16,384 through `substitution(Character, Character)` cost 57 M instructions a process).
    private static let asciiTable: [Double] = {
        var t = [Double](repeating: 1, count: 128 * 128)
        for a in 0..<128 { t[a * 128 + a] = 0 }
        for set in similar {
            for x in set { for y in set where x != y {
                guard let a = x.asciiValue, let b = y.asciiValue else { continue }
                t[Int(a) * 128 + Int(b)] = substitution(x, y)
            } }
        }
        return t
    }()

    static func substitution(_ a: UInt32, _ b: UInt32) -> Double {
        if a == b { return 0 }
        if a < 128 && b < 128 { return asciiTable[Int(a) * 128 + Int(b)] }
        guard let x = Unicode.Scalar(a), let y = Unicode.Scalar(b) else { return 1 }
        return substitution(Character(x), Character(y))
    }

    private static let scalarPairs: [(UInt32, UInt32, UInt32)] = pairs.map { two, one in
        let t = Array(two.unicodeScalars)
        return (t[0].value, t[1].value, one.unicodeScalars.first?.value ?? 0)
    }

    /// The single letters a two-letter confusion can stand for (m, d, w, n, h, u): a
    /// cell whose letters are none of them needs no look at `scalarPairs`.
    private static let pairTargets: [Bool] = {
        var t = [Bool](repeating: false, count: 128)
        for (_, _, one) in scalarPairs where one < 128 { t[Int(one)] = true }
        return t
    }()

    /// `scalarPairs` by the single letter they stand for: the two letters of the pairs for
    /// ASCII letter `c` are `pairLetters[pairStart[c]..<pairStart[c + 1]]` (first, second),
    /// so a cell looks only at the pairs its letter can take part in ("m": rn, in, nn, iu).
    private static let (pairStart, pairLetters): ([Int], [(UInt32, UInt32)]) = {
        var start = [Int](repeating: 0, count: 129)
        var letters: [(UInt32, UInt32)] = []
        for c in 0..<128 {
            start[c] = letters.count
            for (t0, t1, one) in scalarPairs where one == UInt32(c) { letters.append((t0, t1)) }
        }
        start[128] = letters.count
        return (start, letters)
    }()


    /// Text as the distance reads it: one value per Unicode scalar.
    static func scalars(_ s: String) -> [UInt32] { s.unicodeScalars.map(\.value) }

    /// `substitution` in tenths for ASCII pairs (the distance's inner loop).
    private static let asciiTenths: [Int32] = asciiTable.map { Int32(($0 * 10).rounded()) }

    @inline(__always)
    private static func substitutionTenths(_ a: UInt32, _ b: UInt32) -> Int32 {
        if a == b { return 0 }
        if a < 128 && b < 128 { return asciiTenths[Int(a &* 128 &+ b)] }
        return Int32((substitution(a, b) * 10).rounded())
    }

    /// Weighted distance between an observed token and a lexicon word, on scalars,
    /// in tenths of an edit (all costs are: 1, 0.6, 0.3), so sums are exact:
    /// three rolling rows (transpositions and two-letter confusions reach back two rows)
    /// on the stack, read through pointers; stops once two rows in a row are all over
    /// `limit` and returns the smaller of their minimums then.
    /// (`OCRFuzzyBoundTests` checks it against the plain array version it replaced.)
    static func distanceTenths(_ a: [UInt32], _ b: [UInt32], limit: Int32) -> Int32 {
        let n = a.count, m = b.count
        if n == 0 { return Int32(clamping: m * 10) }
        if m == 0 { return Int32(clamping: n * 10) }
        let one: Int32 = 10, confusion = Int32((confusionCost * 10).rounded())
        // Statics read once a call, not once a cell (each read of a static checks its initialisation).
        let table = asciiTenths, targets = pairTargets, pairStart = pairStart, pairLetters = pairLetters
        return withUnsafeTemporaryAllocation(of: Int32.self, capacity: 3 * (m + 1)) { rows -> Int32 in
            guard let base = rows.baseAddress else { return Int32.max }
            var back2 = base, back1 = base + (m + 1), row = base + 2 * (m + 1)
            for j in 0...m { back2[j] = 0; back1[j] = Int32(clamping: j * 10); row[j] = 0 }
            return a.withUnsafeBufferPointer { ap in b.withUnsafeBufferPointer { bp in
                table.withUnsafeBufferPointer { tp in targets.withUnsafeBufferPointer { gp in
                    @inline(__always) func sub(_ x: UInt32, _ y: UInt32) -> Int32 {
                        if x == y { return 0 }
                        if x < 128 && y < 128 { return tp[Int(x &* 128 &+ y)] }
                        return substitutionTenths(x, y)
                    }
                    @inline(__always) func isTarget(_ c: UInt32) -> Bool { c < 128 && gp[Int(c)] }
                    var previousRowMin: Int32 = 0
                    for i in 1...n {
                        row[0] = Int32(clamping: i * 10)
                        var rowMin = Int32.max
                        let ai = ap[i - 1]
                        let aiPair = isTarget(ai)
                        let ai2: UInt32? = i >= 2 ? ap[i - 2] : nil
                        for j in 1...m {
                            let bj = bp[j - 1]
                            var v = min(back1[j] + one, row[j - 1] + one, back1[j - 1] + sub(ai, bj))
                            if j >= 2, let ai2, ai == bp[j - 2], ai2 == bj {
                                v = min(v, back2[j - 2] + one)
                            }
                            // Two letters of `a` read for the one of `b` (ai2 ai → bj), and two of
                            // `b` for the one of `a` (bp[j-2] bj → ai): only the pairs for that
                            // one letter can apply.
                            if isTarget(bj), let ai2 {
                                for k in pairStart[Int(bj)]..<pairStart[Int(bj) + 1] where pairLetters[k] == (ai2, ai) {
                                    v = min(v, back2[j - 1] + confusion)
                                }
                            }
                            if aiPair, j >= 2 {
                                let bj2 = bp[j - 2]
                                for k in pairStart[Int(ai)]..<pairStart[Int(ai) + 1] where pairLetters[k] == (bj2, bj) {
                                    v = min(v, back1[j - 2] + confusion)
                                }
                            }
                            row[j] = v
                            rowMin = min(rowMin, v)
                        }
                        // Two-letter confusions (rn→m) reach back two rows: stop only when
                        // both rows are over the limit.
                        if rowMin > limit && previousRowMin > limit { return min(rowMin, previousRowMin) }
                        previousRowMin = rowMin
                        (back2, back1, row) = (back1, row, back2)
                    }
                    return back1[m]
                } }
            } }
        }
    }

    /// The largest cost still accepted as the same word. Short words are never
    /// fuzzed (egg, soy, oat, nut, rye); words up to seven letters only through
    /// OCR confusions (masala is not marsala); longer words allow one ordinary edit.
    static func maxCost(forLength len: Int) -> Double { Double(maxCostTenths(forLength: len)) / 10 }

    /// `maxCost` in tenths (the distance's unit: every cost is a whole number of tenths).
    static func maxCostTenths(forLength len: Int) -> Int32 {
        switch len {
        case ..<5: return 0
        case 5: return 6
        case 6...7: return 7
        case 8...10: return 10
        default: return 16
        }
    }

    /// Letter classes for a lower bound on `distanceTenths` that costs two popcounts.
    /// Every letter that takes part in a cheap edit — a two-letter confusion (`pairs`) or a
    /// similar-letter swap with one of them — counts for nothing; the other `similar` sets
    /// share a class (o 0 q g 9 a; s 5; b 8 6; z 2); every other character has a bit of its
    /// own (or shares one: sharing only weakens the bound). A class in one word and not the
    /// other can only be explained by an ordinary edit (10 tenths), and one edit removes at
    /// most one such class from each side.
    static func letterClasses(_ s: [UInt32]) -> UInt64 {
        var mask: UInt64 = 0
        for c in s { mask |= classBit(c) }
        return mask
    }

    /// Each ASCII character's class bit, derived from `similar` and `pairs` so the bound
    /// follows any change to the costs: similar sets are joined into classes, and a class
    /// holding a letter of a two-letter confusion counts for nothing (0).
    private static let asciiClassBits: [UInt64] = {
        var root = Array(0..<128)
        func find(_ x: Int) -> Int { var x = x; while root[x] != x { x = root[x] }; return x }
        for set in similar {
            let codes = set.compactMap { $0.asciiValue.map(Int.init) }
            for c in codes.dropFirst() { root[find(c)] = find(codes[0]) }
        }
        var free = Set<Int>()
        for (two, one) in pairs {
            for ch in two + String(one) { if let a = ch.asciiValue { free.insert(find(Int(a))) } }
        }
        return (0..<128).map { c in
            let r = find(c)
            return free.contains(r) ? 0 : 1 << UInt64(r % 64)
        }
    }()

    @inline(__always)
    private static func classBit(_ c: UInt32) -> UInt64 {
        c < 128 ? asciiClassBits[Int(c)] : 1 << UInt64(44 + c % 20)
    }

    /// The number of letter classes: the bit positions of `letterClasses`.
    static let classCount = 64

    /// How many characters of `s` fall in each class (`classCount` counts; characters that
    /// count for nothing are not counted), saturating at 255.
    static func classCounts(_ s: [UInt32]) -> [UInt8] {
        var counts = [UInt8](repeating: 0, count: classCount)
        for c in s {
            let bit = classBit(c)
            guard bit != 0 else { continue }
            let k = bit.trailingZeroBitCount
            if counts[k] < 255 { counts[k] += 1 }
        }
        return counts
    }

    /// A lower bound on `distanceTenths(a, b)` from the class counts of both words
    /// (`classCounts`, `classCount` entries each) over the classes in `classes` (the union of
    /// their `letterClasses`): an edit that costs a full 10 tenths (insertion, deletion,
    /// substitution of unlike letters) removes at most one surplus character on each side,
    /// and a cheap edit (similar letters, two-letter confusions) changes no count, so the
    /// larger surplus, times 10, is a bound. It counts what `lowerBoundTenths` only sees as
    /// present or absent ("pistachio" against "pastiches": two surplus letters, not one).
    @inline(__always)
    static func countBoundTenths(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, classes: UInt64) -> Int32 {
        var surplusA: Int32 = 0, surplusB: Int32 = 0
        var bits = classes
        while bits != 0 {
            let k = bits.trailingZeroBitCount
            bits &= bits &- 1
            guard k < a.count, k < b.count else { continue }
            let d = Int32(a[k]) - Int32(b[k])
            if d > 0 { surplusA += d } else { surplusB -= d }
        }
        return max(surplusA, surplusB) * 10
    }

    /// A lower bound on `distanceTenths(a, b)` from their `letterClasses`.
    @inline(__always)
    static func lowerBoundTenths(_ a: UInt64, _ b: UInt64) -> Int32 {
        Int32(max((a & ~b).nonzeroBitCount, (b & ~a).nonzeroBitCount)) * 10
    }

    /// "crumbled" is an inflection of "crumble", not a misreading: a word that
    /// only adds or drops letters at the end of a lexicon word is not fuzzed.
    static func isInflection(_ observed: [UInt32], _ target: [UInt32]) -> Bool {
        let n = min(observed.count, target.count)
        for k in 0..<n where observed[k] != target[k] { return false }
        return true
    }
}
