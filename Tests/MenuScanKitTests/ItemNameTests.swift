import Foundation
import PropertyBased
import Testing
@testable import MenuScanKit

/// Dish names without dot-leader garbage and ornaments (`ItemName`).
@Suite struct ItemNameTests {
    @Test(arguments: [
        ("Soup ...... ee", "Soup"),
        ("— ~ Salad", "Salad"),
        ("@ Apple Strudel with Werther's’ Original", "Apple Strudel with Werther's’ Original"),
        ("Aperol Royal ...0...0.0cccccsccsseee", "Aperol Royal"),
        ("Krdutercreme an Salat........0....", "Krdutercreme an Salat"),
        ("Schinken Nudel SOOOSSOSSSSSHSSHHSSSSHSOSSSOOHOOSOSE", "Schinken Nudel"),
        ("Rhabarberschorie ...", "Rhabarberschorie"),
        ("Honest Kids Super Fruit Punch onnnso #", "Honest Kids Super Fruit Punch"),
        ("Pasta ...... al forno", "Pasta al forno"),
    ])
    func cleans(_ read: String, _ name: String) {
        #expect(ItemName.clean(read) == name)
    }

    @Test("real words, prices, fractions and signs inside a name stay")
    func keeps() {
        for n in ["Osso buco", "Cocoa Mousse", "Sesame Chicken", "Fish & Chips", "1/2 pounder", "Cassava fries",
                  "B.L.T.", "Mac 'n' Cheese", "Soup of the day", "...", "— ~", "Kaffee", "Moussaka"] {
            #expect(ItemName.clean(n) == n, "\(n)")
        }
    }

    @Test("garbage words of a line: leaders, leading ornaments, scraps after leaders up to the price")
    func garbage() {
        #expect(ItemName.garbageIndices(["—", "~", "Salad", "5.00"]) == [0, 1])
        #expect(ItemName.garbageIndices(["Soup", "......", "ee", "6"]) == [1, 2])
        #expect(ItemName.garbageIndices(["Soup", "......", "ee", "oe", "ea", "6"]) == [1])  // three words are no scrap
        #expect(ItemName.garbageIndices(["Salat........0....", "7,50"]).isEmpty)        // a word glued to leaders is kept
        // Codes, marks and real words after leaders are no scraps.
        #expect(ItemName.garbageIndices(["Pesto", "pasta", "......", "(N)", "9.50"]) == [2])
        #expect(ItemName.garbageIndices(["Soup", "......", "a,c", "6"]) == [1])
        #expect(ItemName.garbageIndices(["Soup", "......", "egg", "6"]) == [1])
        let words = ["Tomato", "soup", "......", "ee", "6.50"].map { SourceWord(text: $0, confidence: 0.9) }
        #expect(ItemName.withoutGarbage(words).map(\.text) == ["Tomato", "soup", ".", "6.50"])
        // Signs stay for classification (they scope qualifiers).
        let signs = ["+", "Walnuts", "SOOOSSSS", "1.50"].map { SourceWord(text: $0, confidence: 0.9) }
        #expect(ItemName.withoutGarbage(signs).map(\.text) == ["+", "Walnuts", ".", "1.50"])
    }

    @Test("on a photo, leader garbage is neither in the name nor an unknown term")
    func analyzer() {
        let page = PageBuilder.page([
            PageBuilder.line("Tomato soup ...... ee 6.50", x: 20, y: 0),
            PageBuilder.line("— ~ Green salad 5.00", x: 20, y: 40),
            PageBuilder.line("Chips SOOOSSOSSSSSHSS 3.00", x: 20, y: 80),
        ])
        let a = AllergenFixtures.analyzer.analyze(page: page, profile: nil)
        #expect(a.items.map(\.name) == ["Tomato soup", "Green salad", "Chips"])
        for it in a.items {
            #expect(!it.unknownTerms.contains { ["ee", "SOOOSSOSSSSSHSS", "......", "—", "~"].contains($0) }, "\(it.name): \(it.unknownTerms)")
        }
    }

    @Test("property: idempotent, words only removed or shortened, nothing traps")
    func properties() {
        let pieces = ["Soup", "ee", "......", "...0.0ccc", "SOOOSSSS", "—", "~", "@", "&", "Salat....", "6.50", "al", "onnnso", "1/2", "", "x"]
        let gen = Gen.element(of: pieces).array(of: 0...7).map { $0.compactMap { $0 }.joined(separator: " ") }
        var rng = Xoshiro(seed: (13, 0x9E37_79B9_7F4A_7C15, 13 &* 31 &+ 7, 0xD1B5_4A32_D192_ED03))
        for i in 0..<3000 {
            let t = gen.run(using: &rng)
            let c = ItemName.clean(t)
            #expect(ItemName.clean(c) == c, "iteration \(i): \(t)")
            #expect(c.count <= t.count, "iteration \(i): \(t)")
            let words = t.split(separator: " ").map(String.init)
            #expect(ItemName.garbageIndices(words).allSatisfy { $0 >= 0 && $0 < words.count }, "iteration \(i): \(t)")
        }
    }
}
