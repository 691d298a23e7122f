import Foundation
import PropertyBased
import Testing
@testable import MenuScanKit

/// The fuzzy matcher skips a lexicon candidate when its letter classes alone prove the
/// OCR edit distance is over the limit. The bound must never exceed the distance, or a
/// misreading that matched before would be missed.
@Suite struct OCRFuzzyBoundTests {
    /// Letters of every confusion set and pair, plus a few others and non-ASCII.
    static let letters = Array("rnmcldvwihut1!|jeo0qg9as5b86z2fkpxy37äöüßé")

    /// `count` random word pairs from a fixed seed: half of them unrelated, half a word and
    /// a copy with up to `maxEdits` letters replaced, so close distances are tried too.
    static func wordPairs(seed: UInt64, count: Int, maxLength: Int, maxEdits: Int) -> [([UInt32], [UInt32])] {
        let word = Gen.element(of: letters).map { $0 ?? "a" }.array(of: 0...maxLength).map { String($0) }
        var rng = Xoshiro(seed: (seed, 0x9E37_79B9_7F4A_7C15, seed &* 61 &+ 7, 0xD1B5_4A32_D192_ED03))
        return (0..<count).map { i in
            let a = OCRFuzzy.scalars(word.run(using: &rng))
            var b = OCRFuzzy.scalars(word.run(using: &rng))
            if i % 2 == 0 {
                b = a
                for k in 0..<(i % (maxEdits + 1)) where !b.isEmpty {
                    b[(i &* 31 &+ k &* 17) % b.count] = OCRFuzzy.scalars(String(letters[(i / 2 + k) % letters.count]))[0]
                }
            }
            return (a, b)
        }
    }

    @Test func lowerBoundNeverExceedsTheDistance() {
        var pruned = 0
        for (a, b) in Self.wordPairs(seed: 11, count: 20000, maxLength: 9, maxEdits: 2) {
            let d = OCRFuzzy.distanceTenths(a, b, limit: 1000)
            let lb = OCRFuzzy.lowerBoundTenths(OCRFuzzy.letterClasses(a), OCRFuzzy.letterClasses(b))
            #expect(lb <= d, "\(a) \(b)")
            if lb > 16 { pruned += 1 }
        }
        #expect(pruned > 1000) // the bound does rule candidates out
    }

    /// The class-count bound (round 8) is a bound too, never below the class-set bound, and
    /// rests on one property of the cost tables: a substitution cheaper than an ordinary edit
    /// never changes a class count (both letters in one class, or both counting for nothing).
    @Test func countBoundNeverExceedsTheDistance() {
        for x in UInt32(0)..<128 {
            for y in UInt32(0)..<128 where OCRFuzzy.substitution(x, y) < 1 {
                #expect(OCRFuzzy.classCounts([x]) == OCRFuzzy.classCounts([y]), "\(x) \(y)")
            }
        }
        var tighter = 0
        for (a, b) in Self.wordPairs(seed: 13, count: 20000, maxLength: 11, maxEdits: 3) {
            let d = OCRFuzzy.distanceTenths(a, b, limit: 1000)
            let ca = OCRFuzzy.letterClasses(a), cb = OCRFuzzy.letterClasses(b)
            let countsA = OCRFuzzy.classCounts(a), countsB = OCRFuzzy.classCounts(b)
            let bound = countsA.withUnsafeBufferPointer { pa in countsB.withUnsafeBufferPointer { pb in
                OCRFuzzy.countBoundTenths(pa, pb, classes: ca | cb)
            } }
            #expect(bound <= d, "\(a) \(b)")
            #expect(bound >= OCRFuzzy.lowerBoundTenths(ca, cb))
            if bound > OCRFuzzy.lowerBoundTenths(ca, cb) { tighter += 1 }
        }
        #expect(tighter > 1000) // it rules out more than the class sets do
        // Buffers shorter than the classes read (never the lexicon's) weaken the bound, never trap.
        let short = [UInt8](repeating: 9, count: 3)
        let none = short.withUnsafeBufferPointer { s in OCRFuzzy.countBoundTenths(s, UnsafeBufferPointer(start: nil, count: 0), classes: ~0) }
        #expect(none == 0)
    }

    @Test func examples() {
        func lb(_ a: String, _ b: String) -> Int32 {
            OCRFuzzy.lowerBoundTenths(OCRFuzzy.letterClasses(OCRFuzzy.scalars(a)), OCRFuzzy.letterClasses(OCRFuzzy.scalars(b)))
        }
        #expect(lb("rnustard", "mustard") == 0)   // rn → m: a confusion, no class differs
        #expect(lb("pean0ts", "peanuts") == 0)
        #expect(lb("sauerkraut", "saverkraut") == 0)
        #expect(lb("pistachio", "anchovy") >= 10)
    }
}

/// The precomputed ASCII costs are `substitution` on characters, for every pair.
@Suite struct OCRFuzzyTableTests {
    @Test func asciiTableMatchesTheCharacterCosts() {
        for a in UInt32(0)..<128 {
            for b in UInt32(0)..<128 {
                guard let x = Unicode.Scalar(a), let y = Unicode.Scalar(b) else { continue }
                #expect(OCRFuzzy.substitution(a, b) == OCRFuzzy.substitution(Character(x), Character(y)))
            }
        }
    }
}

/// The distance on stack rows and pointers gives exactly what the array version gave,
/// cut-off value included, on random words of the confusable letters.
@Suite struct OCRFuzzyDistanceTests {
    /// The array version `distanceTenths` replaced (round 4), kept as the reference.
    static func reference(_ a: [UInt32], _ b: [UInt32], limit: Int32) -> Int32 {
        let n = a.count, m = b.count
        if n == 0 { return Int32(clamping: m * 10) }
        if m == 0 { return Int32(clamping: n * 10) }
        let one: Int32 = 10, confusion: Int32 = 3
        let pairs: [(String, Character)] = [
            ("rn", "m"), ("cl", "d"), ("vv", "w"), ("ri", "n"), ("li", "h"), ("in", "m"),
            ("ii", "u"), ("nn", "m"), ("iu", "m"), ("rt", "n"),
        ]
        let scalarPairs: [(UInt32, UInt32, UInt32)] = pairs.map { two, single in
            let t = Array(two.unicodeScalars)
            return (t[0].value, t[1].value, single.unicodeScalars.first?.value ?? 0)
        }
        func sub(_ x: UInt32, _ y: UInt32) -> Int32 { Int32((OCRFuzzy.substitution(x, y) * 10).rounded()) }
        var back2 = [Int32](repeating: 0, count: m + 1)
        var back1 = (0...m).map { Int32(clamping: $0 * 10) }
        var row = [Int32](repeating: 0, count: m + 1)
        var previousRowMin: Int32 = 0
        for i in 1...n {
            row[0] = Int32(clamping: i * 10)
            var rowMin = Int32.max
            let ai = a[i - 1]
            for j in 1...m {
                let bj = b[j - 1]
                var v = min(back1[j] + one, row[j - 1] + one, back1[j - 1] + sub(ai, bj))
                if i >= 2 && j >= 2 && ai == b[j - 2] && a[i - 2] == bj { v = min(v, back2[j - 2] + one) }
                for (t0, t1, single) in scalarPairs {
                    if i >= 2 && a[i - 2] == t0 && ai == t1 && bj == single { v = min(v, back2[j - 1] + confusion) }
                    if j >= 2 && b[j - 2] == t0 && bj == t1 && ai == single { v = min(v, back1[j - 2] + confusion) }
                }
                row[j] = v
                rowMin = min(rowMin, v)
            }
            if rowMin > limit && previousRowMin > limit { return min(rowMin, previousRowMin) }
            previousRowMin = rowMin
            swap(&back2, &back1)
            swap(&back1, &row)
        }
        return back1[m]
    }

    /// `maxCostTenths` is written out: it must stay `maxCost` in tenths.
    @Test func maxCostTenthsIsMaxCostInTenths() {
        for n in -2...40 { #expect(OCRFuzzy.maxCostTenths(forLength: n) == Int32((OCRFuzzy.maxCost(forLength: n) * 10).rounded())) }
        // The thresholds themselves: never under five letters, OCR confusions only up to seven,
        // one ordinary edit from eight.
        #expect([4, 5, 6, 7, 8, 10, 11].map { OCRFuzzy.maxCost(forLength: $0) } == [0, 0.6, 0.7, 0.7, 1.0, 1.0, 1.6])
    }

    @Test func sameAsTheArrayVersion() {
        let letters = Array("rnmcldvwihut1!|jeo0qg9as5b86z2fkpxy37äöüßé寿")
        let word = Gen.element(of: letters).map { $0 ?? "a" }.array(of: 0...11).map { String($0) }
        var rng = Xoshiro(seed: (13, 0x9E37_79B9_7F4A_7C15, 331, 0xD1B5_4A32_D192_ED03))
        for i in 0..<3000 {
            let a = OCRFuzzy.scalars(word.run(using: &rng))
            var b = OCRFuzzy.scalars(word.run(using: &rng))
            if i % 2 == 0 { b = a; if !b.isEmpty { b[i % b.count] = OCRFuzzy.scalars(String(letters[i % letters.count]))[0] } }
            for limit: Int32 in [0, 6, 7, 10, 16, 1000] {
                #expect(OCRFuzzy.distanceTenths(a, b, limit: limit) == Self.reference(a, b, limit: limit), "\(a) \(b) \(limit)")
            }
        }
        #expect(OCRFuzzy.distanceTenths(OCRFuzzy.scalars("rnustard"), OCRFuzzy.scalars("mustard"), limit: 16) == 3)
    }
}
