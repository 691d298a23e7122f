import Foundation
import PropertyBased
import Testing
@testable import MenuScanKit

@Suite struct MenuSafetyTests {
    let analyzer = AllergenFixtures.analyzer
    let milk = AllergenProfile(allergens: [.milk])
    let peanuts = AllergenProfile(allergens: [.peanuts])

    @Test func unsafeCautionSafe() {
        #expect(AllergenFixtures.item("Butter chicken", profile: milk).safety == .unsafe)
        #expect(AllergenFixtures.item("Butter chicken", profile: milk).safetyReasons == ["contains:milk"])
        // A prepared food names no dish: on its own line its heading ("WRAPS") is missing.
        #expect(AllergenFixtures.item("Grilled chicken with lemon", profile: milk).safetyReasons == ["needs_heading"])
        #expect(AllergenFixtures.item("Chicken souvlaki", profile: peanuts).safety == .safe)
        // Foods joined by "and", one a plain ingredient, are a filling or topping: under WAFFLES or
        // TRAMEZZINI a heading names the dish (round 16). Dishes joined stay dishes.
        let gluten = AllergenProfile(allergens: [.gluten])
        #expect(AllergenFixtures.item("Nutella & Banana", profile: gluten).safetyReasons.contains("needs_heading"))
        #expect(AllergenFixtures.item("Prosciutto cotto e funghi", profile: gluten).safetyReasons.contains("needs_heading"))
        #expect(!AllergenFixtures.item("Burger & Fries", profile: peanuts).safetyReasons.contains("needs_heading"))
        // an implied allergen is still contained
        #expect(AllergenFixtures.item("Chicken satay", profile: peanuts).safety == .unsafe)
        // other allergens do not matter to this profile
        #expect(AllergenFixtures.item("Shrimp tempura", profile: milk).safety == .safe)
        #expect(AllergenFixtures.item("Butter chicken").safety == nil) // no profile, no verdict
    }

    @Test func crossContactIsCaution() {
        let item = AllergenFixtures.item("Brownie. May contain peanuts.", profile: peanuts)
        #expect(item.safety == .caution)
        #expect(item.safetyReasons.contains("may_contain:peanuts"))
        let fryer = AllergenFixtures.item("Fries cooked in a shared fryer", profile: peanuts)
        #expect(fryer.safety == .caution)
        #expect(fryer.mayContain.count == AllergenID.allCases.count)
    }

    @Test func fuzzyAndWeakEvidenceIsCautionNotSafe() {
        let fuzzy = AllergenFixtures.item("Pad see ew with peanuls", profile: peanuts)
        #expect(fuzzy.safety == .caution)
        #expect(fuzzy.safetyReasons.contains("fuzzy_evidence:peanuts"))
        let weak = AllergenFixtures.item("Dark chocolate bar", profile: milk) // dark chocolate: milk is common, not certain
        #expect(weak.safety == .caution)
        #expect(weak.safetyReasons.contains("weak_evidence:milk") || weak.safetyReasons.contains("may_contain:milk"))
        // Sauces that are usually, not always, made with cream or egg: never "safe".
        let eggs = AllergenProfile(allergens: [.eggs])
        #expect(AllergenFixtures.item("Steak frites, sirloin, pepper sauce, fries", profile: milk).safety != .safe)
        #expect(AllergenFixtures.item("Fillet au poivre", profile: milk).safety == .caution)
        #expect(AllergenFixtures.item("Battered cod, mushy peas, tartare", profile: eggs).safety == .caution)
        #expect(AllergenFixtures.item("Fish and chips with tartare sauce", profile: eggs).safety == .unsafe)
    }

    @Test func declaredAbsentCanBeSafe() {
        let item = AllergenFixtures.item("Dairy-free chocolate mousse", profile: milk)
        #expect(item.declaredAbsent == [.milk])
        #expect(item.safety == .safe)
        #expect(item.safetyReasons == ["declared_absent:milk"])
        #expect(item.declaredAbsentEvidence.first?.evidence.first?.lowercased().contains("dairy") == true)
    }

    /// An item that declares its allergens in words ("(Gluten) (Milk)", "Contains: Wheat, Milk")
    /// holds what it declares; what the dish table only implies beyond it becomes "may contain"
    /// (a school custard made without egg). One allergen named alone is a warning, not a list.
    @Test func aDeclarationInWordsOutranksTheDishTable() {
        let eggs = AllergenProfile(allergens: [.eggs])
        let crumble = AllergenFixtures.item("Apple Crumble & Custard (Gluten) (Milk)", profile: eggs)
        #expect(AllergenFixtures.ids(crumble).isSuperset(of: [.gluten, .milk]) && !AllergenFixtures.ids(crumble).contains(.eggs))
        #expect(crumble.mayContain.contains(.eggs) && crumble.safety == .caution)
        #expect(AllergenFixtures.ids(AllergenFixtures.item("Apple crumble and custard")).contains(.eggs))
        let baklava = AllergenFixtures.item("Baklava, contains nuts")
        #expect(AllergenFixtures.ids(baklava).isSuperset(of: [.gluten, .tree_nuts]))
    }

    /// Foods joined by "or" are one or the other: what not every one holds the dish may hold,
    /// it does not surely hold ("unsafe" becomes "caution", never "safe").
    @Test func aChoiceOfFoodsMayHoldWhatOnlySomeHold() {
        let gluten = AllergenProfile(allergens: [.gluten])
        for text in ["Grilled chicken, served with rice or spaghetti", "Grilled chicken with plain rice (basmati) or pasta (penne)",
                     "Baccalà, su crostino di pane o polenta"] {
            let item = AllergenFixtures.item(text, profile: gluten)
            #expect(!AllergenFixtures.ids(item).contains(.gluten) && item.mayContain.contains(.gluten), "\(text)")
            #expect(item.safety == .caution, "\(text)")
        }
        let latte = AllergenFixtures.item("Latte with soy or oat milk", profile: AllergenProfile(allergens: [.soybeans]))
        #expect(latte.mayContain.contains(.soybeans) && latte.safety == .caution)
        // What every choice holds stays: spaghetti or penne are both wheat.
        #expect(AllergenFixtures.ids(AllergenFixtures.item("Grilled chicken, served with spaghetti or penne")).contains(.gluten))
        // Rice or spaghetti with no "or": both are served.
        #expect(AllergenFixtures.ids(AllergenFixtures.item("Grilled chicken, served with rice and spaghetti")).contains(.gluten))
    }

    /// Round 20's readers — choices, declarations, note clauses, superscript codes and key
    /// tails — slice tokens, words and characters: random menus of their trigger words trap nowhere.
    @Test("property: choices, declarations, clauses, superscripts and key tails never trap")
    func roundTwentyReadersNeverTrap() {
        let pieces = ["or", "o", "(", ")", "(Gluten)", "(Milk)", "rice", "spaghetti", "pasta (penne)", "di", "pane", "Contains:",
                      "CONTÉM", "TRIGO,", "egg.", ";", "¹", "⁷", "¹²", "Fr. 27.–", "35:-", "with", "without", "cheese", "All",
                      "burgers", "contain", "BURGERS", "Allergene:", "· ²", "Krebstiere", "(inkl.", "Laktose)", "12m²", "Σπανακόπιτα", ""]
        let line = Gen.element(of: pieces).array(of: 0...9).map { $0.compactMap { $0 }.joined(separator: " ") }
        let menu = line.array(of: 1...6).map { $0.joined(separator: "\n") }
        var rng = Xoshiro(seed: (20, 0x9E37_79B9_7F4A_7C15, 20 &* 31 &+ 7, 0xD1B5_4A32_D192_ED03))
        let profile = AllergenProfile(allergens: [.gluten, .milk])
        for i in 0..<250 {
            let text = menu.run(using: &rng)
            for perLine in [false, true] {
                let a = AllergenFixtures.analyzer.analyze(text: text, perLine: perLine, profile: profile)
                #expect(a.items.allSatisfy { $0.safety != nil }, "iteration \(i): \(text)")
                // What an item holds it does not "may contain", nor is it declared absent.
                for item in a.items {
                    let held = Set(item.allergens.map(\.id))
                    #expect(held.isDisjoint(with: item.mayContain) && held.isDisjoint(with: item.declaredAbsent),
                            "iteration \(i): \(item.name)")
                }
            }
            _ = MenuAnalyzer.expandingSuperscriptCodes(text)
        }
    }

    /// "With or without" offers a choice: what it names may be in the dish, it is not declared
    /// absent ("Beef burger, with or without cheese" was "safe" for milk); nor does "without
    /// cheese" declare the burger free of milk.
    @Test func withOrWithoutIsAnOptionNotADeclaration() {
        for text in ["Beef burger, with or without cheese", "Beef burger, with/without cheese",
                     "Hamburger mit oder ohne Käse", "Burger avec ou sans fromage"] {
            let item = AllergenFixtures.item(text, profile: milk)
            #expect(item.safety == .caution, "\(text)")
            #expect(item.mayContain.contains(.milk) && !item.declaredAbsent.contains(.milk), "\(text)")
        }
        // "No" before a food takes the food away; only before an allergen's own name ("dairy")
        // does it declare the dish free of it: a burger's bun may still hold milk.
        let noCheese = AllergenFixtures.item("Beef burger, without cheese", profile: milk)
        #expect(noCheese.declaredAbsent.isEmpty && noCheese.mayContain.contains(.milk) && noCheese.safety == .caution)
        #expect(AllergenFixtures.item("Beef burger, no dairy", profile: milk).declaredAbsent == [.milk])
        #expect(AllergenFixtures.item("Beef burger, no dairy", profile: milk).safety == .safe)
    }

    /// A "-free" declaration covers the allergens it names, not the dish before it:
    /// a cashew cheesecake that is dairy-free still holds cashew, and nothing says it is egg-free.
    @Test func freeFromCoversOnlyWhatItNames() {
        let nuts = AllergenProfile(allergens: [.tree_nuts])
        let eggs = AllergenProfile(allergens: [.eggs])
        for text in ["Raw cashew cheesecake dairy-free", "Raw cashew cheesecake, dairy-free", "Cashew cheesecake (dairy free)"] {
            let n = AllergenFixtures.item(text, profile: nuts)
            #expect(n.safety == .unsafe, "\(text)")
            #expect(!n.declaredAbsent.contains(.tree_nuts), "\(text)")
            #expect(n.declaredAbsent.contains(.milk), "\(text)")   // the dish yields what the menu declares
            #expect(AllergenFixtures.item(text, profile: eggs).safety != .safe, "\(text)")
        }
        // a real list still declares every member
        let list = AllergenFixtures.item("Chocolate torte, egg, dairy and nut free")
        #expect(Set(list.declaredAbsent) == [.eggs, .milk, .tree_nuts])
        #expect(AllergenFixtures.ids(list) == [.gluten]) // a torte's wheat was not declared away
        // a declaration before a noun modifies that noun only
        let bun = AllergenFixtures.item("Burger on a gluten-free bun, side of pasta salad", profile: AllergenProfile(allergens: [.gluten]))
        #expect(bun.safety == .unsafe)
        // "without" scopes a list joined by connectors, not the dish after it
        let noOnion = AllergenFixtures.item("Cheese omelette without onion", profile: eggs)
        #expect(noOnion.safety == .unsafe)
    }

    /// A short name under a heading is a kind of what the heading names: read together,
    /// "Lemon Ginger" under DRESSINGS is a ginger dressing (often soy sauce), which neither
    /// part says alone. What each part says alone is not added twice. (Round 25's tables know
    /// "sesame ginger dressing" by name, as soy sauce: that one is `unsafe` for soy.)
    @Test func nameAndHeadingReadTogether() {
        let soy = AllergenProfile(allergens: [.soybeans])
        let a = analyzer.analyze(text: "DRESSINGS\nLemon Ginger 1.50\nHouse Vinaigrette 1.50\n", perLine: false, profile: soy)
        #expect(a.items.count == 2)
        let ginger = a.items.first { $0.name == "Lemon Ginger" }
        #expect(ginger?.safety == .caution)
        #expect(ginger?.mayContain.contains(.soybeans) == true)
        #expect(ginger?.mayContainEvidence.first { $0.id == .soybeans }?.evidence.first?.contains("under") == true)
        #expect(a.items.first { $0.name == "House Vinaigrette" }?.safety == .safe)
        // the same words with no heading say nothing about soy
        #expect(AllergenFixtures.item("Lemon Ginger", profile: soy).mayContain.contains(.soybeans) == false)
    }

    @Test func askYourServerIsNeverSafe() {
        let item = AllergenFixtures.item("Soup of the day, please ask your server", profile: milk)
        #expect(item.safety == .caution)
        #expect(item.safetyReasons.contains("ask_server"))
    }

    @Test func lowTextConfidenceIsNeverSafe() throws {
        // Nothing allergenic was read, but the words were read poorly: absence cannot be trusted.
        let page = PageBuilder.page([PageBuilder.line("Grilled chicken with rice 5.00", x: 0, y: 0, confidence: 0.55)])
        let a = analyzer.analyze(page: page, profile: milk)
        let ai = try #require(a.items.first)
        #expect(ai.allergens.isEmpty)
        #expect(ai.safety == .caution)
        #expect(ai.safetyReasons.contains("low_text_confidence"))
        #expect(a.confidenceLevel == .low)
        #expect(a.requiresUserVerification)
        #expect(a.warnings.map(\.code) == [MenuScanError.lowConfidenceResults.code])
        // One badly read word in an otherwise good item is enough for caution.
        let one = PageBuilder.page([PageBuilder.line("Green salad with dressing 5.00", x: 0, y: 0, confidence: 0.97,
                                                     confidences: ["dressing": 0.3])])
        let b = try #require(analyzer.analyze(page: one, profile: milk).items.first)
        #expect(b.confidenceLevel != .low) // mean 0.836: medium
        #expect(b.safety == .caution)
        #expect(b.safetyReasons.contains("low_confidence_words"))
        // Medium confidence is not enough for "safe" either: only text read with high confidence.
        let medium = PageBuilder.page([PageBuilder.line("Grilled chicken with rice 5.00", x: 0, y: 0, confidence: 0.8)])
        #expect(try #require(analyzer.analyze(page: medium, profile: milk).items.first).safetyReasons == ["low_text_confidence"])
        let good = PageBuilder.page([PageBuilder.line("Grilled chicken with rice 5.00", x: 0, y: 0, confidence: 0.97)])
        // Read well: no reading reason. (A lone line is a weak menu structure, which the
        // role model may doubt; the photo pipeline test shows items reaching "safe".)
        let goodItem = try #require(analyzer.analyze(page: good, profile: milk).items.first)
        #expect(!goodItem.safetyReasons.contains("low_text_confidence") && !goodItem.safetyReasons.contains("low_confidence_words"))
        #expect(goodItem.safetyReasons.allSatisfy { $0 == "weak_menu_structure" }, "reasons: \(goodItem.safetyReasons)")
    }

    /// A line read on its own has no heading: foods alone ("Sour cherry" under PIEROGI, "Smoked
    /// jackfruit" under BURGERS) may be the filling or the patty of the heading's dish, which
    /// brings its own allergens. Per line they are `caution` (`needs_heading`); a line naming its
    /// dish is not, and in the whole menu the reason does not apply.
    @Test func perLineFoodsAloneNeedTheirHeading() throws {
        // A sauce names no dish either: shrimps with remoulade are a roll's filling under FISCHBRÖTCHEN.
        for line in ["Sour cherry", "Smoked jackfruit", "Lamb chops", "Nordseekrabben mit Remoulade", "Smoked tofu, BBQ sauce"] {
            let a = analyzer.analyze(text: line, perLine: true, profile: milk)
            let item = try #require(a.items.first, "\(line)")
            #expect(item.safety == .caution, "\(line)")
            #expect(item.safetyReasons.contains("needs_heading"), "\(line): \(item.safetyReasons)")
        }
        let dish = try #require(analyzer.analyze(text: "Chicken tikka masala", perLine: true, profile: peanuts).items.first)
        #expect(!dish.safetyReasons.contains("needs_heading"), "\(dish.safetyReasons)")
        let menu = analyzer.analyze(text: "PIEROGI\n\nSour cherry 8.00\nPotato and onion 8.00\n", perLine: false, profile: milk)
        #expect(!menu.items.isEmpty)
        #expect(menu.items.allSatisfy { !$0.safetyReasons.contains("needs_heading") })
    }

    @Test func userVerificationWhenAnyItemIsUnsafe() {
        let a = analyzer.analyze(text: "Shrimp tempura 5.00\nCheese board 9.00", perLine: true, profile: milk)
        #expect(a.items.map(\.safety) == [.safe, .unsafe])
        #expect(a.requiresUserVerification)
        let b = analyzer.analyze(text: "Shrimp tempura 5.00", perLine: true, profile: milk)
        #expect(!b.requiresUserVerification)
        #expect(b.warnings.isEmpty)
    }

    /// A statement outside the items that names an allergen as an ingredient ("cooked in peanut
    /// oil") was read for its cross-contact words only, and every item stayed "safe" for peanuts.
    /// Which items it reaches is not read: it is "may contain" for all, with the line as evidence.
    @Test func menuStatementsNamingAnIngredientReachEveryItem() {
        for note in ["All our dishes are cooked in peanut oil", "Everything from the fryer is cooked in peanut oil",
                     "We fry in peanut oil"] {
            let text = "\(note)\n\nFROM THE FRYER\n\nFried catfish 12.50\n\nSIDES\n\nGrilled chicken with lemon 5.00\n"
            let a = analyzer.analyze(text: text, perLine: false, profile: peanuts)
            #expect(a.items.count == 2, "\(note)")
            #expect(a.menuMayContain.contains(.peanuts), "\(note)")
            for item in a.items {
                #expect(item.safety != .safe, "\(note): \(item.name)")
                #expect(item.mayContainEvidence.first { $0.id == .peanuts }?.evidence == ["menu: \(note)"], "\(note): \(item.name)")
            }
        }
        // Without such a statement the plain dish is still safe for peanuts.
        let plain = analyzer.analyze(text: "SIDES\n\nGrilled chicken with lemon 5.00\n", perLine: false, profile: peanuts)
        #expect(plain.items.map(\.safety) == [.safe])
        // Read straight after the last item (no blank line), a statement that names the menu's
        // dishes still reaches every item…
        let glued = analyzer.analyze(text: "MAINS\nGrilled chicken with lemon 12.00\nBoiled potatoes 8.00\nAll our dishes are cooked in peanut oil",
                                     perLine: false, profile: peanuts)
        #expect(glued.items.count == 2)
        #expect(glued.items.allSatisfy { $0.safety != .safe })
        #expect(glued.items.first?.mayContain.contains(.peanuts) == true)
        // …while a dish whose name holds a word that can speak for the menu ("alle", "our")
        // keeps what it contains to itself.
        let dish = analyzer.analyze(text: "PRIMI\nSpaghetti alle vongole 13.00\nOur peanut noodles 9.00\nGrilled chicken with lemon 12.00",
                                    perLine: false, profile: AllergenProfile(allergens: [.molluscs, .peanuts]))
        #expect(dish.items.count == 3)
        #expect(!dish.menuMayContain.contains(.molluscs) && !dish.menuMayContain.contains(.peanuts))
        #expect(dish.items.last?.safety == .safe)
    }

    /// A dish line that speaks for the menu only by a word ("Our classic burger") reaches every
    /// item with what a cross-contact statement in it names, not with what its dish may hold
    /// (the burger's seeded bun: before round 21 every item of the menu read "may contain sesame").
    @Test func aDishLineSpreadsOnlyItsCrossContactStatement() {
        let profile = AllergenProfile(allergens: [.sesame, .peanuts])
        let plain = analyzer.analyze(text: "MAINS\nOur classic burger 12.00\nGrilled chicken with lemon 12.00\n",
                                     perLine: false, profile: profile)
        #expect(plain.items.count == 2)
        #expect(plain.items.first?.mayContain.contains(.sesame) == true)
        #expect(plain.menuMayContain.isEmpty)
        #expect(plain.items.last?.safety == .safe)
        let statement = analyzer.analyze(text: "MAINS\nOur classic burger, may contain peanuts 12.00\nGrilled chicken with lemon 12.00\n",
                                         perLine: false, profile: profile)
        #expect(statement.menuMayContain == [.peanuts])
        #expect(statement.items.last?.mayContain.contains(.peanuts) == true)
        #expect(statement.items.last?.safety == .caution)
    }

    @Test func menuLevelStatementsApplyToEveryItem() {
        let text = """
        MAINS
        Grilled chicken 12.00
        with lemon and parsley
        New potatoes 8.00
        with parsley

        Please note: all dishes may contain traces of nuts and sesame.
        """
        let a = analyzer.analyze(text: text, perLine: false, profile: AllergenProfile(allergens: [.sesame]))
        #expect(a.items.count == 2)
        #expect(a.menuMayContain == [.tree_nuts, .sesame])
        for item in a.items {
            #expect(item.mayContain == [.tree_nuts, .sesame])
            #expect(item.safety == .caution)
        }
        #expect(a.warnings.contains { $0.code == MenuScanError.potentialCrossContamination.code && $0.severity == .critical })
        // Read straight after the last item (no blank line, as OCR gives it), the statement
        // still speaks for the whole menu.
        let glued = analyzer.analyze(text: "MAINS\nGrilled chicken 12.00\nwith lemon\nNew potatoes 8.00\nAll our dishes may contain traces of sesame.",
                                     perLine: false, profile: AllergenProfile(allergens: [.sesame]))
        #expect(glued.items.count == 2)
        #expect(glued.items.allSatisfy { $0.mayContain == [.sesame] && $0.safety == .caution })
        // …while a dish's own "may contain" stays with the dish.
        let own = analyzer.analyze(text: "Brownie 4.00\nMay contain walnuts.\nFruit salad 5.00\nfresh fruit",
                                   perLine: false, profile: nil)
        #expect(own.items[0].mayContain.contains(.tree_nuts))
        #expect(own.items[1].mayContain == [])
        // A general "cannot guarantee" statement names nothing: every group may be present.
        let g = analyzer.analyze(text: "Rice 3.00\nBeans 4.00\n\nWe cannot guarantee that any dish is allergen free.",
                                 perLine: false, profile: nil)
        #expect(g.items.allSatisfy { $0.mayContain.count == 14 })
    }
}

@Suite struct MenuDietaryTests {
    @Test(arguments: [
        ("Grilled salmon with dill", Dietary.not_vegetarian),
        ("Beef burger", .not_vegetarian),
        ("Caesar salad", .not_vegetarian),          // anchovies
        ("Margherita pizza", .vegetarian),          // cheese, no meat
        ("Honey glazed carrots", .vegetarian),
        ("Spaghetti with tomato sauce (V)", .vegetarian),
        ("Lentil curry (VG)", .vegan),
        ("Vegan burger with vegan cheese", .vegan),
        ("The Vegan BLT: zucchini bacon, vegan mayo", .vegan),
        ("Vegetarian sausage roll", .vegetarian),
        ("Tofu and soy chorizo tacos", .unknown),   // no meat, nothing animal, no label
        ("Vegan pancakes with butter", .vegetarian), // butter contradicts the label
        ("Pasta without bacon", .unknown),
        ("Mixed green salad", .unknown),
        ("Hähnchenbrust mit Reis", .not_vegetarian),
        ("Poulet rôti", .not_vegetarian),
        ("Risotto ai funghi, vegetariano", .vegetarian),
    ])
    func dietary(_ text: String, _ expected: Dietary) {
        let item = AllergenFixtures.item(text)
        #expect(item.dietary == expected, "\(text): \(item.dietary) \(item.dietaryEvidence)")
        if expected != .unknown { #expect(!item.dietaryEvidence.isEmpty) }
    }
}
