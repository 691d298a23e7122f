import Foundation
import PropertyBased
import Testing
@testable import MenuScanKit

/// The fuzzy matcher skips a lexicon candidate when its letter classes alone prove the
/// OCR edit distance is over the limit. The bound must never exceed the distance, or a
/// misreading that matched before would be missed.
@Suite struct OCRFuzzyBoundTests {
    @Test func lowerBoundNeverExceedsTheDistance() {
        // Letters of every confusion set and pair, plus a few others and non-ASCII.
        let letters = Array("rnmcldvwihut1!|jeo0qg9as5b86z2fkpxy37äöüßé")
        let word = Gen.element(of: letters).map { $0 ?? "a" }.array(of: 0...9).map { String($0) }
        var rng = Xoshiro(seed: (11, 0x9E37_79B9_7F4A_7C15, 313, 0xD1B5_4A32_D192_ED03))
        var pruned = 0
        for i in 0..<20000 {
            let a = OCRFuzzy.scalars(word.run(using: &rng))
            // half the pairs: b is a with a few edits, so close distances are tried too
            var b = OCRFuzzy.scalars(word.run(using: &rng))
            if i % 2 == 0 {
                b = a
                for _ in 0..<(i % 3) where !b.isEmpty {
                    let k = Int(UInt(bitPattern: i &* 7919) % UInt(b.count))
                    b[k] = OCRFuzzy.scalars(String(letters[(i / 2) % letters.count]))[0]
                }
            }
            let d = OCRFuzzy.distanceTenths(a, b, limit: 1000)
            let lb = OCRFuzzy.lowerBoundTenths(OCRFuzzy.letterClasses(a), OCRFuzzy.letterClasses(b))
            #expect(lb <= d, "\(a) \(b)")
            if lb > 16 { pruned += 1 }
        }
        #expect(pruned > 1000) // the bound does rule candidates out
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
