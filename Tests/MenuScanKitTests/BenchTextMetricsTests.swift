import Testing
@testable import MenuScanKit

@Suite struct BenchTextMetricsTests {
    @Test func normaliseFoldsWhitespaceAndTrims() {
        #expect(TextMetrics.normalise("  a\t\tb \n c  ") == "a b c")
        #expect(TextMetrics.normalise("a\r\n\r\nb") == "a b")
        // NBSP, em space, ideographic space, and U+001C (Python's str.split() splits on it).
        #expect(TextMetrics.normalise("x\u{00A0}y\u{2003}z\u{3000}w\u{1C}v") == "x y z w v")
        #expect(TextMetrics.normalise(" \n\t ") == "")
    }

    @Test func normaliseAppliesNFKC() {
        #expect(TextMetrics.normalise("\u{FB01}sh") == "fish")            // ﬁ ligature
        #expect(TextMetrics.normalise("\u{FF23}\u{FF41}\u{FF46}\u{FF45}") == "Cafe") // full-width
        let composed = TextMetrics.normalise("cafe\u{0301}")
        #expect(composed.unicodeScalars.map(\.value) == [0x63, 0x61, 0x66, 0xE9])
        #expect(TextMetrics.normalise("\u{2460}") == "1")                 // circled digit one
    }

    @Test func editDistanceKnownPairs() {
        func d(_ a: String, _ b: String) -> Int { TextMetrics.editDistance(Array(a), Array(b)) }
        #expect(d("kitten", "sitting") == 3)
        #expect(d("flaw", "lawn") == 2)
        #expect(d("", "abc") == 3)
        #expect(d("abc", "") == 3)
        #expect(d("same", "same") == 0)
        #expect(d("abcdef", "azcdxf") == 2)
        #expect(TextMetrics.editDistance([1, 2, 3, 4], [4, 3, 2, 1]) == 4)
    }

    @Test func cerOfKnownStrings() {
        #expect(TextMetrics.cer(ref: "kitten", hyp: "sitting") == 0.5)
        #expect(TextMetrics.cer(ref: "Soup", hyp: "soup") == 0.25)             // case-sensitive
        #expect(TextMetrics.cer(ref: "a  b\n", hyp: " a b") == 0)              // whitespace folded
        #expect(TextMetrics.cer(ref: "caf\u{E9}", hyp: "cafe\u{301}") == 0)     // NFKC composes
        #expect(TextMetrics.cer(ref: "\u{FB01}sh", hyp: "fish") == 0)          // NFKC ligature
        #expect(TextMetrics.cer(ref: "", hyp: "ab") == 2)                       // divides by max(1, 0)
        #expect(TextMetrics.cer(ref: "abc", hyp: "") == 1)
        // Unicode scalars, not grapheme clusters: a flag is two scalars.
        let flag = TextMetrics.compare(ref: "\u{1F1E9}\u{1F1EA}", hyp: "")
        #expect(flag.referenceCharacters == 2 && flag.characterErrors == 2)
        // "fish and chips" → "Fish chips": f→F and four deletions.
        #expect(TextMetrics.compare(ref: "fish and chips", hyp: "Fish chips").characterErrors == 5)
    }

    @Test func werOfKnownStrings() {
        // sat→sit and a deleted "the": 2 errors over 6 words.
        #expect(TextMetrics.wer(ref: "the cat sat on the mat", hyp: "the cat sit on mat") == 2.0 / 6)
        #expect(TextMetrics.wer(ref: "Soup of the Day", hyp: "soup OF the day") == 0) // lower-cased
        #expect(TextMetrics.wer(ref: "x y z", hyp: "z y x") == 2.0 / 3)
        #expect(TextMetrics.wer(ref: "", hyp: "one two") == 2)
        #expect(TextMetrics.wer(ref: "\u{FB01}sh  and\tchips", hyp: "fish and chips") == 0)
    }

    @Test func wordsLowerCaseAsPython() {
        #expect(TextMetrics.words("Soup  of the\nDAY") == ["soup", "of", "the", "day"])
        // Final sigma, as Python's str.lower(): ΟΔΟΣ → οδος, ΣΑ → σα, a lone Σ → σ.
        #expect(TextMetrics.words("ΟΔΟΣ ΣΑ Σ ΟΔΟΣ.") == ["οδος", "σα", "σ", "οδος."])
        #expect(TextMetrics.words("\u{130}stanbul") == ["i\u{307}stanbul"])
    }

    @Test func wordRecallPrecisionAreMultisets() {
        // ref {a:2, b, c}, hyp {a, b:2, d, e}: overlap a + b = 2.
        let rp = TextMetrics.wordRecallPrecision(ref: "a a b c", hyp: "a b b d e")
        #expect(rp.recall == 0.5)
        #expect(rp.precision == 0.4)
        let reordered = TextMetrics.wordRecallPrecision(ref: "x y z", hyp: "Z Y X")
        #expect(reordered.recall == 1 && reordered.precision == 1)
        let empty = TextMetrics.wordRecallPrecision(ref: "a b", hyp: "")
        #expect(empty.recall == 0 && empty.precision == 0)
        #expect(TextMetrics.multisetIntersectionCount([1, 1, 1, 2], [1, 1, 3]) == 2)
    }

    @Test func comparisonCountsAddUp() {
        let a = TextMetrics.compare(ref: "fish and chips", hyp: "Fish chips")
        let b = TextMetrics.compare(ref: "soup", hyp: "x")
        let t = a + b
        #expect(t == TextComparison(characterErrors: 9, referenceCharacters: 18, hypothesisCharacters: 11,
                                    wordErrors: 2, referenceWords: 4, hypothesisWords: 3, matchedWords: 2))
        #expect(t.cer == 0.5 && t.wer == 0.5 && t.wordRecall == 0.5 && t.wordPrecision == 2.0 / 3)
    }
}
