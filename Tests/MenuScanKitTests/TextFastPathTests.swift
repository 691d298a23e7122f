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
}
