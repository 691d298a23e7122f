import Foundation
import PropertyBased
import Testing
@testable import MenuScanKit

// The structurer's and classifier's fast text helpers (Support/Trim.swift) must
// give exactly the answers of the Foundation / standard-library calls they
// replace, on any text: random strings of ASCII, Latin-1, every Unicode space
// and line separator, combining marks, emoji and CJK, from a fixed seed.
@Suite("Fast text helpers agree with Foundation")
struct TextFastPathTests {
    private static let pieces = [
        " ", "\t", "\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{A0}", "\u{1680}", "\u{2000}", "\u{2009}",
        "\u{200B}", "\u{2028}", "\u{2029}", "\u{202F}", "\u{205F}", "\u{3000}", "\u{FEFF}", "e\u{301}", "🍕", "寿司",
        "Käse", "ß", "Ⅻ", "٣", "²", "Σ", "ǅ", "A", "z", "0", "9", ".", "|", "(", ",",
    ]
    private static let gen = zip(Gen.element(of: pieces), Gen.latin1.string(of: 0...3), Gen.int(in: 0...2))
        .map { piece, random, pick in pick == 0 ? random : (piece ?? "") }
        .array(of: 0...12)
        .map { $0.joined() }

    @Test("trimmingSpaces / trimmingWhitespace = trimmingCharacters(in: .whitespaces / .whitespacesAndNewlines)")
    func trimming() {
        var rng = Xoshiro(seed: (17, 0x9E37_79B9_7F4A_7C15, 541, 0xD1B5_4A32_D192_ED03))
        for i in 0..<3000 {
            let s = Self.gen.run(using: &rng)
            #expect(s.trimmingSpaces() == s.trimmingCharacters(in: .whitespaces), "iteration \(i): \(s.debugDescription)")
            #expect(s.trimmingWhitespace() == s.trimmingCharacters(in: .whitespacesAndNewlines), "iteration \(i): \(s.debugDescription)")
            let sub = Substring(s)
            #expect(sub.trimmingSpaces() == s.trimmingCharacters(in: .whitespaces))
        }
    }

    @Test("isLetterFast / isNumberFast / isUppercaseFast = isLetter / isNumber / isUppercase")
    func characterTests() {
        var rng = Xoshiro(seed: (29, 0x9E37_79B9_7F4A_7C15, 887, 0xD1B5_4A32_D192_ED03))
        var all = Set<Character>((0..<256).compactMap { Unicode.Scalar($0).map(Character.init) })
        for _ in 0..<1000 { all.formUnion(Self.gen.run(using: &rng)) }
        all.insert("\r\n")
        for c in all {
            #expect(c.isLetterFast == c.isLetter, "\(c.unicodeScalars.map(\.value))")
            #expect(c.isNumberFast == c.isNumber, "\(c.unicodeScalars.map(\.value))")
            #expect(c.isUppercaseFast == c.isUppercase, "\(c.unicodeScalars.map(\.value))")
        }
    }

    /// The tokenizer reads plain-ASCII words on bytes; any other word through Characters.
    /// A trailing no-break space (no letter, no token, only an end of word) sends a word
    /// through the Character path: both must give the same tokens on any ASCII text.
    @Test("Tokenizer: the ASCII byte path = the Character path")
    func tokenizerPaths() {
        let ascii = Array("aZ09.,;:!?&/|+()-*'\" \t\n\r#%$_eE5")
        let gen = Gen.element(of: ascii).map { $0 ?? "a" }.array(of: 0...14).map { String($0) }
        var rng = Xoshiro(seed: (41, 0x9E37_79B9_7F4A_7C15, 997, 0xD1B5_4A32_D192_ED03))
        func key(_ t: [Token]) -> [String] { t.map { "\($0.norm)|\($0.raw)|\($0.kind)|\($0.word)|\($0.sentence)" } }
        for i in 0..<3000 {
            let words = (0..<3).map { _ in gen.run(using: &rng) }
            let fast = Tokenizer.tokenize(words.map { SourceWord(text: $0, confidence: nil) })
            let slow = Tokenizer.tokenize(words.map { SourceWord(text: $0 + "\u{A0}", confidence: nil) })
            #expect(key(fast) == key(slow), "iteration \(i): \(words.debugDescription)")
        }
    }
}
