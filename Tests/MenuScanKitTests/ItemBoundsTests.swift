import Foundation
import PropertyBased
import Testing
@testable import MenuScanKit

/// Items whose edges cut a phrase in two are never "safe": part of what the menu
/// says about them (an ingredient, the heading that names their base) is elsewhere.
@Suite struct ItemBoundsTests {
    @Test(arguments: ["und Lauch", "and leek 8.20", "with fries", "& chips", "+ salad", "mit Speck", "u. Preiselbeeren",
                      "et frites", "e mozzarella", "con queso", "al pomodoro"])
    func startsMidPhrase(_ text: String) {
        #expect(ItemBounds.startsMidPhrase(text))
    }

    @Test(arguments: ["Andouille sausage", "andouille sausage", "And now for something", "With love from Napoli",
                      "Fish and chips", "egg fried rice", "Eton mess", "", "   ", "8.50", "(v)",
                      "the EGG SANDWICH", "a taste of Rome", "la dolce vita"])
    func startsAsItsOwnPhrase(_ text: String) {
        #expect(!ItemBounds.startsMidPhrase(text))
    }

    @Test(arguments: ["Garden with tomato, rocket,", "served with", "Schinken und", "tomates et", "Sauer-",
                      "Burger &", "beef; ", "(choice of", "topped with the"])
    func endsMidPhrase(_ text: String) {
        #expect(ItemBounds.endsMidPhrase(text))
    }

    @Test(arguments: ["Fish and chips", "Burrata, tomato, basil", "Steak frites 24.00", "Eggs & soldiers", "Pad Thai",
                      "Crème brûlée.", "", "w", "and"])
    func endsAsAWholePhrase(_ text: String) {
        #expect(!ItemBounds.endsMidPhrase(text))
    }

    /// Two flatbreads whose descriptions run on to the price line: an item boundary falls
    /// inside "bacon, onion / and leek". No item that holds part of a cut phrase is safe,
    /// even for an allergen none of its words names.
    @Test func cutItemsAreNeverSafe() {
        let text = """
        FLATBREADS
        from the oven
        Farmhouse with bacon, onion
        and leek 8.20
        Garden with tomato, rocket,
        and goat cheese 8.90
        Brie with brie,
        ham and cranberries 13.20
        """
        let a = AllergenFixtures.analyzer.analyze(text: text, perLine: false, profile: AllergenProfile(allergens: [.peanuts]))
        #expect(!a.items.isEmpty)
        for item in a.items {
            #expect(item.safety != .safe, "\(item.name)")
            #expect(item.safetyReasons.contains("item_bounds_uncertain"), "\(item.name)")
        }
        // The same dishes written one per line are whole: safe for peanuts.
        let whole = AllergenFixtures.analyzer.analyze(text: """
            FLATBREADS
            Farmhouse with bacon, onion and leek 8.20
            Garden with tomato, rocket and goat cheese 8.90
            """, perLine: false, profile: AllergenProfile(allergens: [.peanuts]))
        #expect(whole.items.count == 2)
        for item in whole.items { #expect(!item.safetyReasons.contains("item_bounds_uncertain"), "\(item.name)") }
    }

    /// Per line, each line is an item of its own: only its own edges count.
    @Test func perLineOnlyOwnEdges() {
        let peanuts = AllergenProfile(allergens: [.peanuts])
        #expect(AllergenFixtures.item("Grilled chicken with lemon,", profile: peanuts).safetyReasons.contains("item_bounds_uncertain"))
        #expect(AllergenFixtures.item("and grilled chicken with lemon", profile: peanuts).safety == .caution)
        // (A prepared food alone names no dish: its heading is missing, nothing else.)
        #expect(AllergenFixtures.item("Grilled chicken with lemon", profile: peanuts).safetyReasons == ["needs_heading"])
    }

    /// Any text, any item layout: no trap, one answer per item.
    @Test func randomTextNeverTraps() {
        let pieces = ["and", "und", "&", "+", ",", ";", "(", "-", "with", " ", "\n", "8.20", "€", "Käse", "é", "🍕", "w/", "u."]
        let gen = zip(Gen.element(of: pieces), Gen.latin1.string(of: 0...3), Gen.int(in: 0...1))
            .map { piece, random, pick in pick == 0 ? random : (piece ?? "") }
            .array(of: 0...10)
            .map { $0.joined() }
        var rng = Xoshiro(seed: (3, 0x9E37_79B9_7F4A_7C15, 71, 0xD1B5_4A32_D192_ED03))
        for _ in 0..<500 {
            let texts = (0..<6).map { _ in gen.run(using: &rng) }
            let lines = texts.map { StructLine(text: $0, words: [], ocrWords: []) }
            var items: [RawItem] = []
            for k in stride(from: 0, to: texts.count, by: 2) {
                // item lines and heading indices deliberately run past the end now and then
                items.append(RawItem(section: nil, sectionLine: k == 0 ? nil : k + 5, name: texts[k], lines: [k, k + 1, k + 9]))
            }
            for perLine in [false, true] {
                #expect(ItemBounds.cutPhrases(items: items, lines: lines, perLine: perLine).count == items.count)
            }
            for t in texts { _ = ItemBounds.startsMidPhrase(t); _ = ItemBounds.endsMidPhrase(t) }
        }
    }
}
