import Foundation
import PropertyBased
import Testing
@testable import MenuScanKit


private func page(_ lines: [OCRLine]) -> OCRPage {
    OCRPage(blocks: lines.map { OCRBlock(box: $0.box, lines: [$0]) })
}

@Suite struct LineRoleTests {
    /// A menu's headings share one style: a lower-case "heading" among headings in capitals is
    /// a dish's name read tall; with no majority in capitals nothing changes (round 12).
    @Test func aLowerCaseHeadingAmongCapitalHeadingsIsADishName() {
        let texts = ["ENTRADAS", "Empanada de humita", "Provoleta", "Chorizo criollo", "POSTRES", "VINOS", "Morcilla"]
        var roles: [LineRole] = [.header, .name, .header, .name, .header, .header, .header]
        var probs: [[LineRole: Double]] = roles.map { [$0: 0.6] }
        MenuAnalyzer.harmoniseHeadings(roles: &roles, probabilities: &probs, texts: texts)
        #expect(roles == [.header, .name, .name, .name, .header, .header, .name])
        #expect(probs[2][.name] == 0.6)
        // Title-case headings (the menu's style) stay headings.
        let titled = ["Starters", "Soup", "Mains", "DRINKS"]
        var titledRoles: [LineRole] = [.header, .name, .header, .header]
        var titledProbs: [[LineRole: Double]] = titledRoles.map { [$0: 0.6] }
        MenuAnalyzer.harmoniseHeadings(roles: &titledRoles, probabilities: &titledProbs, texts: titled)
        #expect(titledRoles == [.header, .name, .header, .header])
    }

    /// Lines with given roles, one under another (`tline` boxes at x 40, 20 high), through the
    /// role structurer.
    private func structure(_ rows: [(String, LineRole, Int)], headingsInCapitals: Bool = false) -> RoleStructurer.Output {
        structure(placed: rows.map { ($0.0, $0.1, 40, $0.2, 20) }, headingsInCapitals: headingsInCapitals)
    }

    /// Lines with given roles and boxes (text, role, x, y, height) through the role structurer.
    private func structure(placed rows: [(String, LineRole, Int, Int, Int)], headingsInCapitals: Bool = false) -> RoleStructurer.Output {
        let lines = rows.map { text, _, x, y, h in StructLine(text: text, words: [], ocrWords: tline(text, x: x, y: y, h: h).words) }
        return RoleStructurer(lines: lines, runs: [Array(lines.indices)], legendLines: [], roles: rows.map(\.1),
                              nameProbability: rows.map { $0.1 == .name ? 0.8 : 0.1 },
                              headingsInCapitals: headingsInCapitals).run()
    }

    /// The analysis of a page of one block whose lines all start at x 20: (text, y, height).
    private func analyzed(height: Int, _ rows: [(String, Int, Int)]) -> MenuAnalysis {
        analyzer.analyze(page: block(height: height, rows.map { tline($0.0, x: 20, y: $0.1, h: $0.2) }), profile: nil)
    }

    /// One block of lines on a page 800 wide and `height` high.
    private func block(height: Int, _ lines: [OCRLine]) -> OCRPage {
        OCRPage(blocks: [OCRBlock(box: Box(x: 0, y: 0, width: 800, height: height), lines: lines)])
    }

    /// A centred menu prints each price on a line of its own under the dish (round 25): a line set
    /// larger than the priced names with a statement about its dishes under it, right before a
    /// dish, is their heading ("FRIDAY FISH FRY" / "Fish fry dinners add coleslaw…"), and so is one in
    /// the names' size with a statement for its section under it; a bare line in the names' size is
    /// a dish whose price was not read.
    @Test func aCentredPageHeadingWithItsNoteBeforeDishesPricedUnderThem() {
        func page(headingHeight: Int) -> RoleStructurer.Output {
            structure(placed: [("BEER CHEESE SOUP", .name, 300, 0, 20), ("cup or bowl", .description, 330, 26, 14), ("9.50", .price, 370, 46, 14),
                               ("FRIDAY FISH FRY", .name, 280, 90, headingHeight),
                               ("Fish fry dinners add coleslaw, rye and tartar sauce", .description, 220, 90 + headingHeight + 6, 14),
                               ("BEER-BATTERED COD", .name, 300, 160, 20), ("6.50", .price, 370, 186, 14),
                               ("LAKE PERCH", .name, 320, 220, 20), ("lightly breaded", .description, 330, 246, 14), ("22", .price, 375, 266, 14),
                               ("BROILED WALLEYE", .name, 300, 300, 20), ("lemon butter", .description, 330, 326, 14), ("14", .price, 375, 346, 14)])
        }
        let heading = page(headingHeight: 30)
        #expect(heading.items.map(\.name) == ["BEER CHEESE SOUP", "BEER-BATTERED COD", "LAKE PERCH", "BROILED WALLEYE"])
        #expect(heading.items.dropFirst().allSatisfy { $0.section == "FRIDAY FISH FRY" && $0.noteLines == [4] })
        #expect(heading.items.map(\.price) == ["9.50", "6.50", "22", "14"])
        let dish = page(headingHeight: 20)
        #expect(dish.items.map(\.name).contains("FRIDAY FISH FRY"))
        // In the names' size, a statement about the section under it makes it a heading by its words…
        let stated = structure(placed: [("KUSHIKATSU", .name, 300, 0, 20),
                                        ("Batter: wheat flour, egg and milk, rolled in panko.", .description, 220, 26, 14),
                                        ("Our dipping sauce is made with soy sauce.", .description, 230, 46, 14),
                                        ("EBI (PRAWN)", .name, 320, 80, 20), ("22", .price, 370, 106, 14),
                                        ("IKA (SQUID)", .name, 320, 140, 20), ("12", .price, 370, 166, 14),
                                        ("GYU (BEEF)", .name, 320, 200, 20), ("15", .price, 370, 226, 14)])
        #expect(stated.items.map(\.name) == ["EBI (PRAWN)", "IKA (SQUID)", "GYU (BEEF)"])
        #expect(stated.items.allSatisfy { $0.section == "KUSHIKATSU" && $0.noteLines == [1, 2] })
        // …a bare line in their size is a dish whose price was not read.
        let bare = structure(placed: [("WALKERS READY SALTED", .name, 300, 0, 20),
                                      ("MIXED NUTS", .name, 320, 40, 20), ("3.50", .price, 370, 66, 14),
                                      ("FLAPJACK", .name, 320, 100, 20), ("2.80", .price, 370, 126, 14),
                                      ("SHORTBREAD", .name, 320, 160, 20), ("2.50", .price, 370, 186, 14)])
        #expect(bare.items.map(\.name) == ["WALKERS READY SALTED", "MIXED NUTS", "FLAPJACK", "SHORTBREAD"])
    }

    /// On a priced page an unpriced "dish" with only a statement about its section under it
    /// ("Alle Eierspeisen werden in Butter zubereitet.") is the section's header, and the
    /// statement its note: the butter is context for every egg dish (round 13).
    @Test func aHeaderWithAStatementUnderItOpensASectionWithItsNote() {
        let out = structure([("EIERSPEISEN", .name, 0), ("Alle Eierspeisen werden in Butter zubereitet.", .description, 30),
                             ("RÜHREI 5", .name, 70), ("OMELETT 6", .name, 100), ("SPIEGELEI 4", .name, 130)])
        #expect(out.items.map(\.name) == ["RÜHREI", "OMELETT", "SPIEGELEI"])
        #expect(out.items.allSatisfy { $0.section == "EIERSPEISEN" && $0.noteLines == [1] })
        #expect(out.sectionNotes.map(\.lines) == [[1]])
        // A description that says nothing for the section leaves the dish a dish.
        let dish = structure([("SOUP OF THE DAY", .name, 0), ("roasted tomato with basil and bread", .description, 30),
                              ("RÜHREI 5", .name, 70), ("OMELETT 6", .name, 100), ("SPIEGELEI 4", .name, 130)])
        #expect(dish.items.map(\.name) == ["SOUP OF THE DAY", "RÜHREI", "OMELETT", "SPIEGELEI"])
        #expect(dish.items[0].descriptionParts == ["roasted tomato with basil and bread"])
    }

    /// On a page that prints no prices, "Margherita — rocket and basil" is a dish with its
    /// description beside it, also where the model read the line as a description: under a
    /// heading, after another such dish, or after a dish whose description is already there. Under
    /// a bare name such a line is that name's description (round 23: such dishes became the
    /// section's notes).
    @Test func aNameBesideItsDescriptionOnAPageWithoutPricesIsADish() {
        let out = structure([("Wood-Fired Pizza", .header, 0), ("Margherita — rocket and celeriac purée", .description, 40),
                             ("Calzone — mustard and walnuts with a side of ham", .description, 70),
                             ("On the Side", .header, 110), ("Turkey Fillet", .name, 150),
                             ("Mayonnaise and gherkins with black beans", .description, 176),
                             ("Seasonal Greens — avocado and basil", .description, 206),
                             ("Sweet Potato Fries", .name, 240),
                             ("Smoked Paprika – with a side of garlic mayonnaise", .description, 266)])
        #expect(out.items.map(\.name) == ["Margherita", "Calzone", "Turkey Fillet", "Seasonal Greens", "Sweet Potato Fries"])
        #expect(out.items[0].descriptionParts == ["rocket and celeriac purée"])
        #expect(out.items[0].section == "Wood-Fired Pizza")
        #expect(out.items[4].descriptionParts == ["Smoked Paprika – with a side of garlic mayonnaise"])
        #expect(out.sectionNotes.isEmpty)
        // Where the page prints prices, the line needs its own price to stand alone (`besideDish`).
        let priced = structure([("PIZZA", .header, 0), ("Marinara 8.00", .name, 40), ("tomato and garlic", .description, 66),
                                ("Seasonal Greens — avocado and basil", .description, 96), ("Diavola 9.00", .name, 130)])
        #expect(priced.items.map(\.name) == ["Marinara", "Diavola"])
    }

    /// Where a page prints its dishes in capitals, a line in lower case right under a priced
    /// dish describes it, also where the model read it as a name; and where its headings are
    /// in capitals, such a line is never promoted to a heading (round 13).
    @Test func aLowerCaseLineUnderACapitalDishDescribesIt() {
        let rows: [(String, LineRole, Int)] = [
            ("AUFSCHNITT & KÄSE", .header, 0), ("SCHINKENPLATTE 22", .name, 40),
            ("Kochschinken, Schwarzwälder Schinken", .name, 66), ("KÄSEAUSWAHL 11", .name, 100),
            ("Bergkäse, Gouda, Camembert", .name, 126), ("FLEISCHSALAT 24", .name, 160)]
        for capitals in [false, true] {
            let out = structure(rows, headingsInCapitals: capitals)
            #expect(out.items.map(\.name) == ["SCHINKENPLATTE", "KÄSEAUSWAHL", "FLEISCHSALAT"])
            #expect(out.items.map(\.descriptionParts) == [["Kochschinken, Schwarzwälder Schinken"], ["Bergkäse, Gouda, Camembert"], []])
            #expect(out.items.allSatisfy { $0.section == "AUFSCHNITT & KÄSE" })
        }
        // And a priced line in capitals there is a dish, also where the model read it as a price
        // or a description.
        let misread = structure([("SANDES", .header, 0), ("PREGO NO PÃO 12", .name, 40), ("bife, alho, no papo-seco", .description, 66),
                                 ("TOSTA MISTA 9 160 Cal", .price, 100), ("BIFANA 7", .name, 130), ("FRANCESINHA 14", .description, 160),
                                 ("CHOURIÇO ASSADO 8", .name, 190)])
        #expect(misread.items.map(\.name) == ["PREGO NO PÃO", "TOSTA MISTA", "BIFANA", "FRANCESINHA", "CHOURIÇO ASSADO"])
        #expect(misread.items.map(\.price) == ["12", "9", "7", "14", "8"])
        // Names in title case: a bare line before a priced name is still a header in body type,
        // unless the page's headings are in capitals.
        let titled: [(String, LineRole, Int)] = [("Burgers", .name, 0), ("Classic Burger 12", .name, 40),
                                                 ("Cheese Burger 13", .name, 70), ("Sides", .name, 110), ("Fries 4", .name, 140)]
        #expect(structure(titled).items.map(\.section) == ["Burgers", "Burgers", "Sides"])
        #expect(structure(titled, headingsInCapitals: true).items.map(\.name) == ["Burgers", "Classic Burger", "Cheese Burger", "Sides", "Fries"])
    }

    /// A heading found only by the priced-page rule (a bare line in body type before priced
    /// dishes) sits under the heading the model read: the dishes under it keep that heading
    /// as context ("ÆG OG REJER", a dish whose price was lost, under SMØRREBRØD) (round 13).
    @Test func aHeadingInBodyTypeIsNestedInTheHeadingAboveIt() {
        let out = structure([("SMØRREBRØD", .header, 0), ("All smørrebrød are served on rye bread with butter.", .note, 40),
                             ("KARRYSILD 13", .name, 70), ("ÆG OG REJER", .name, 100), ("LEVERPOSTEJ 12", .name, 130),
                             ("TATAR 18", .name, 160), ("DRINKS", .header, 200), ("PILSNER 6", .name, 240)])
        #expect(out.items.map(\.name) == ["KARRYSILD", "LEVERPOSTEJ", "TATAR", "PILSNER"])
        #expect(out.items.map(\.section) == ["SMØRREBRØD", "ÆG OG REJER", "ÆG OG REJER", "DRINKS"])
        #expect(out.items.map(\.parentSectionLine) == [nil, 0, 0, nil])
        #expect(out.items.map(\.parentNoteLines) == [[], [1], [1], []])
        #expect(out.items[0].noteLines == [1] && out.items[1].noteLines.isEmpty)
    }

    let analyzer = AllergenFixtures.analyzer

    @Test func nameLinesGiveUpPricesCaloriesAndSideDescriptions() {
        var p = RoleStructurer.parseNameLine("LATTE 4")
        #expect(p.name == "LATTE" && p.price == "4")
        p = RoleStructurer.parseNameLine("Chicken Wrap 450 Cal")
        #expect(p.name == "Chicken Wrap" && p.price == nil && p.rest == ["450 Cal"])
        p = RoleStructurer.parseNameLine("Soup – roasted tomato and basil broth 6.5")
        #expect(p.name == "Soup" && p.price == "6.5" && p.rest == ["roasted tomato and basil broth"])
        p = RoleStructurer.parseNameLine("Pancakes 8 · 620 Cal")
        #expect(p.name == "Pancakes" && p.price == "8")
        // The unit as OCR misreads it.
        p = RoleStructurer.parseNameLine("STICKY TOFFEE PUDDING $26 830 Ca")
        #expect(p.name == "STICKY TOFFEE PUDDING" && p.price == "$26" && p.rest == ["830 Ca"])
        p = RoleStructurer.parseNameLine("OMELETTE $14 690 Cai")
        #expect(p.name == "OMELETTE" && p.price == "$14")
        // "Ca" inside a line is no unit: "12 Caesar" stays.
        #expect(RoleStructurer.splitCalories("Salad 12 Caesar").1.isEmpty)
    }

    @Test func aDescriptionGivesItsPriceAlsoBeforeItsCalories() {
        // A price column read onto the description's row, with its calorie count.
        let menu = analyzed(height: 200, [
            ("DESSERTS", 0, 34),
            ("CHEESECAKE", 50, 24),
            ("Parmesan and rosemary on a bed of tomato 12.00 580 Cal", 80, 18),
            ("AFFOGATO", 120, 24),
            ("Vanilla ice cream and espresso 6.50 210 Cal", 150, 18),
        ])
        #expect(menu.items.map(\.name) == ["CHEESECAKE", "AFFOGATO"])
        #expect(menu.items.map(\.price) == ["12.00", "6.50"])
        #expect(menu.items.map(\.description) == ["Parmesan and rosemary on a bed of tomato 580 Cal", "Vanilla ice cream and espresso 210 Cal"])
    }

    /// When the price-keyed structure replaces the role structure (round 17's rule).
    @Test func thePriceKeyedStructureWinsWithFewerPricesLeftAlone() {
        func wins(_ p: Int, pO: Int = 0, rO: Int = 1, named: Int? = nil, lines: Int? = nil) -> Bool {
            MenuAnalyzer.pricedStructureWins(pricedItems: p, pricedOrphans: pO, roleOrphans: rO,
                                             pricedOpeningOnNames: named ?? p, priceLines: lines ?? p)
        }
        #expect(wins(17))                          // every price placed, the role structure left one
        #expect(!wins(17, pO: 1, rO: 1))           // no fewer prices left alone
        #expect(!wins(2, rO: 2))                   // too few items to be a price-keyed page
        #expect(!wins(24, named: 11, lines: 24))   // 13 of 24 open on descriptions…
        #expect(wins(24, rO: 7, named: 11, lines: 24)) // …unless the role structure left 7 of 24 prices alone
        #expect(wins(24, named: 12, lines: 24))    // half on names
    }

    /// A list's dishes come out of the analysis with the list's price (round 17).
    @Test func aListsDishesHaveItsPriceInTheAnalysis() {
        let menu = analyzed(height: 400, [
            ("BURGERS", 0, 34),
            ("Cheeseburger £9.50", 50, 22),
            ("Bacon Burger £10.50", 80, 22),
            ("Veggie Burger £9.00", 110, 22),
            ("CHOCOLATE BARS £2 each", 160, 34),
            ("Mars", 210, 22),
            ("Twix", 240, 22),
            ("Bounty", 270, 22),
        ])
        let price = Dictionary(menu.items.map { ($0.name, $0.price) }, uniquingKeysWith: { a, _ in a })
        #expect(price["Cheeseburger"] == "£9.50", "\(menu.items.map { ($0.name, $0.price) })")
        #expect(["Mars", "Twix", "Bounty"].allSatisfy { price[$0] == "£2" }, "\(menu.items.map { ($0.name, $0.price) })")
    }

    /// Prices ending descriptions under names of their own: one description that OCR put before
    /// its name leaves its price outside the role structure, but the price-keyed structure,
    /// whose items would open on description lines, does not replace it (round 17).
    @Test func descriptionsThatEndInPricesAreNoDishNames() {
        let menu = analyzed(height: 520, [
            ("SIGNATURE DISHES", 0, 34),
            ("BRAISED PRAWN RISOTTO", 50, 24),
            ("Chilli and avocado served with parmesan, thyme, black beans £11", 80, 18),
            ("Salsa verde and chickpeas topped with coriander, olives £15", 118, 18),
            ("STICKY LAMB WRAP", 120, 24),
            ("TURKEY CROQUETTES", 170, 24),
            ("Basil and aioli served with feta and mint £16.00", 200, 18),
            ("MACKEREL KEBAB", 240, 24),
            ("Pickled cabbage, chilli, gherkins, capers and black beans £14.00", 270, 18),
            ("HONEY DUCK CONFIT", 310, 24),
            ("Butter, mayonnaise, pine nuts, mint and lime £26.00", 340, 18),
        ])
        let names = Set(menu.items.map(\.name))
        #expect(["BRAISED PRAWN RISOTTO", "TURKEY CROQUETTES", "MACKEREL KEBAB", "HONEY DUCK CONFIT"].allSatisfy(names.contains),
                "\(menu.items.map(\.name))")
    }

    @Test func aPlainPriceAfterAGutterEndingADescriptionRowIsThePrice() {
        // "aioli and rocket        12 550 Cal": a price column (plain numbers, calories)
        // read onto the description's row; a number in the text (no gutter) is no price.
        func row(_ text: String, _ column: String?, y: Int) -> OCRLine {
            let a = tline(text, x: 20, y: y, h: 18)
            guard let column else { return a }
            let b = tline(column, x: 700, y: y, h: 18)
            return OCRLine(box: a.box.union(b.box), words: a.words + b.words)
        }
        let page = block(height: 300, [
            tline("DESSERTS", x: 20, y: 0, h: 34),
            tline("AFFOGATO", x: 20, y: 50, h: 24),
            row("vanilla ice cream and rocket", "12 550 Cal", y: 80),
            tline("CHEESECAKE", x: 20, y: 120, h: 24),
            row("baked and shared between 2", nil, y: 150),
            tline("SORBET", x: 20, y: 190, h: 24),
            row("lemon and lime with mint", "9", y: 220),
        ])
        let menu = analyzer.analyze(page: page, profile: nil)
        #expect(menu.items.map(\.name) == ["AFFOGATO", "CHEESECAKE", "SORBET"])
        #expect(menu.items.map(\.price) == ["12", nil, "9"])
        #expect(menu.items.first?.description == "vanilla ice cream and rocket 550 Cal")
        let words = row("Lemon and lime with mint", "9", y: 0).words
        #expect(RoleStructurer.endsInColumn(words, token: "9"))
        #expect(!RoleStructurer.endsInColumn(tline("Baked and shared between 2", x: 0, y: 0).words, token: "2"))
        #expect(!RoleStructurer.endsInColumn([], token: "2") && !RoleStructurer.endsInColumn(Array(words.suffix(1)), token: "9"))
    }

    @Test func aPlainNumberEndsADescriptionAsItsPriceWhereDescriptionsEndInPrices() {
        // Descriptions end in their prices on this page ("… tomato 14,00"): there "… spring
        // onion 11" ends in its price too; "… shared for 2" counts, and stays text.
        let menu = analyzed(height: 400, [
            ("SOUPS", 0, 34),
            ("Gazpacho", 50, 24),
            ("rocket, mustard, thyme and mint 6,50", 80, 18),
            ("Minestrone", 120, 24),
            ("Yoghurt and mushrooms with spring onion 11", 150, 18),
            ("Fish Stew", 190, 24),
            ("Cod and mussels in a saffron broth 14,00", 220, 18),
            ("Seafood Platter", 260, 24),
            ("Oysters, prawns and crab shared for 2", 290, 18),
        ])
        #expect(menu.items.map(\.name) == ["Gazpacho", "Minestrone", "Fish Stew", "Seafood Platter"])
        #expect(menu.items.map(\.price) == ["6,50", "11", "14,00", nil])
        #expect(menu.items.map(\.description)[1] == "Yoghurt and mushrooms with spring onion")
        #expect(RoleStructurer.plainPriceEnding("Yoghurt and mushrooms with spring onion 11") == 11)
        for counted in ["shared for 2", "wings 6 or 12", "12 18", "0", "onion 1234", "onion 0", "baked and shared between 2", ""] {
            #expect(RoleStructurer.plainPriceEnding(counted) == nil, "\(counted)")
        }
        // Plain numbers alone are no evidence (they may all count); one strong price and two more are.
        #expect(!RoleStructurer.descriptionsEndInPrices(["spring onion 11", "lemon and mint 9", "rocket 12"]))
        #expect(RoleStructurer.descriptionsEndInPrices(["spring onion 11", "lemon and mint 9.50", "rocket 12"]))
        #expect(!RoleStructurer.descriptionsEndInPrices(["spring onion 11", "lemon and mint 9.50"]))
    }

    @Test func aShortLineInDescriptionTypeDescribesTheDishAbove() {
        // "Döner im Brot" / "Kalbfleisch" (smaller type, read as a name) / "3€": one dish; the
        // next dishes are name-sized. Roles as the model gave them on a drawn tune page.
        func structure(_ rows: [(String, LineRole, Int, Int)]) -> RoleStructurer.Output {
            self.structure(placed: rows.map { ($0.0, $0.1, 40, $0.2, $0.3) })
        }
        let out = structure([("DÖNER & DÜRÜM", .header, 0, 40), ("Döner im Brot", .name, 60, 22), ("Kalbfleisch", .name, 92, 15),
                             ("3€", .price, 117, 16), ("Falafel-Dürüm", .name, 150, 24), ("9.50 €", .price, 184, 16),
                             ("Iskender Kebap", .name, 215, 24), ("22€", .price, 249, 16), ("Lahmacun", .name, 280, 24),
                             ("16€", .price, 314, 16)])
        #expect(out.items.map(\.name) == ["Döner im Brot", "Falafel-Dürüm", "Iskender Kebap", "Lahmacun"])
        #expect(out.items.first?.price == "3€" && out.items.first?.descriptionParts == ["Kalbfleisch"])
        // Dishes all in one size: each line its own dish.
        let even = structure([("PIZZA", .header, 0, 40), ("Margherita", .name, 60, 22), ("Funghi", .name, 92, 22),
                              ("9€", .price, 117, 16), ("Diavola", .name, 150, 22), ("10€", .price, 184, 16)])
        #expect(even.items.map(\.name) == ["Margherita", "Funghi", "Diavola"])
        #expect(RoleStructurer.describesInSmallerType(height: 15, above: 22, names: 24))
        // A normal-sized name under a featured dish, a small dish under a small one, no page sizes: items.
        #expect(!RoleStructurer.describesInSmallerType(height: 23, above: 34, names: 24))
        #expect(!RoleStructurer.describesInSmallerType(height: 15, above: 16, names: 24))
        #expect(!RoleStructurer.describesInSmallerType(height: 15, above: 22, names: nil))
        #expect(!RoleStructurer.describesInSmallerType(height: 0, above: 22, names: 24))
        #expect(LineFeatures.medianHeight([3, .nan, 1, 2, -1]) == 2 && LineFeatures.medianHeight([]) == nil)
    }

    /// A name cut off by its line's end goes on in the line under it, whatever role the model
    /// gave that line; a heading ending in a joining word is such a name. A capital letter or a
    /// word in capitals ending a name is the name's own, and a line of the next column that
    /// reading order put next is not joined (round 16).
    @Test func aNameCutOffAtAJoiningWordGoesOnUnderIt() {
        func structure(_ rows: [(String, LineRole, Int, Int)]) -> RoleStructurer.Output {
            self.structure(placed: rows.map { ($0.0, $0.1, $0.2, $0.3, 20) })
        }
        let out = structure([("SALATE", .header, 40, 0), ("Großer Salatteller mit", .name, 40, 40), ("Räucherlachs 12,50", .name, 40, 66),
                             ("Reibeplätzchen mit", .header, 40, 100), ("Apfelkompott 6,50", .description, 40, 126),
                             ("Vanilleeis mit warmer Schokoladen-", .name, 40, 160), ("sauce und Sahne 6,50", .description, 40, 186)])
        #expect(out.items.map(\.name) == ["Großer Salatteller mit Räucherlachs", "Reibeplätzchen mit Apfelkompott",
                                          "Vanilleeis mit warmer Schokoladensauce und Sahne"])
        #expect(out.items.map(\.price) == ["12,50", "6,50", "6,50"])
        #expect(out.sections == ["SALATE"])
        // "Menu A", "CA PHE SUA DA" and a line of the next column stay apart.
        let apart = structure([("Menu A", .name, 40, 0), ("soup, roast chicken 18", .description, 40, 26),
                               ("CA PHE SUA DA", .name, 40, 60), ("iced coffee with condensed milk 4", .description, 40, 86),
                               ("Chicken with", .name, 40, 120), ("Pfefferlendchen 13,50", .name, 600, 140)])
        #expect(apart.items.map(\.name) == ["Menu A", "CA PHE SUA DA", "Chicken with", "Pfefferlendchen"])
        #expect(apart.items.first.map { $0.descriptionParts == ["soup, roast chicken 18"] || $0.price == "18" } == true)
    }

    /// A page that sets its headings in capitals and its dishes in Title Case, each price on a line
    /// of its own under its dish (round 27, a drawn tune page): a bare line in capitals the model
    /// read as a name, with a dish's name right under it, is the heading of the dishes after it,
    /// not a dish with the next dish as its description. A dish in capitals over its own price,
    /// or over a line in capitals, stays a dish.
    @Test func aBareLineInCapitalsOverADishIsAHeadingWhereHeadingsAreInCapitals() {
        let rows: [(String, LineRole, Int, Int, Int)] = [
            ("BURGERS", .header, 514, 831, 25), ("Hamburger", .name, 531, 902, 21), ("$26", .price, 570, 932, 15),
            ("PIES & ROLLS", .name, 480, 1157, 24), ("Four'N Twenty Meat Pie", .name, 471, 1201, 21), ("$7", .price, 573, 1231, 15),
            ("Sausage Roll", .name, 524, 1268, 20), ("$13", .price, 568, 1297, 14),
            ("SWEETS & DRINKS", .header, 445, 1356, 22), ("CHOC TOP", .name, 505, 1425, 21), ("$6.50", .price, 560, 1455, 14),
            ("Thick Shake", .name, 522, 1493, 15), ("$8", .price, 560, 1520, 14)]
        let out = structure(placed: rows, headingsInCapitals: true)
        #expect(out.items.map(\.name) == ["Hamburger", "Four'N Twenty Meat Pie", "Sausage Roll", "CHOC TOP", "Thick Shake"])
        #expect(out.items.map(\.price) == ["$26", "$7", "$13", "$6.50", "$8"])
        #expect(out.sections == ["BURGERS", "PIES & ROLLS", "SWEETS & DRINKS"])
        // Where headings are not known to be in capitals, the line stays as the model read it.
        #expect(!structure(placed: rows, headingsInCapitals: false).sections.contains("PIES & ROLLS"))
    }

    /// A centred page (each dish's price on a line of its own after its description) whose dishes'
    /// names the model read in part as headings (round 27, a drawn tune page): a "heading" in the
    /// dishes' size with a description and then its own price under it is a dish; the headings
    /// set larger, and a heading over a dish, stay headings.
    @Test func aCentredDishReadAsAHeadingIsADish() {
        let rows: [(String, LineRole, Int, Int, Int)] = [
            ("SMALL PLATES", .header, 540, 280, 50), ("SUOVAS", .header, 650, 390, 27),
            ("cold-smoked reindeer, thinly sliced", .description, 520, 430, 20), ("14", .price, 690, 470, 19),
            ("GAHKKU & BUTTER", .name, 580, 520, 31), ("26,00", .price, 680, 570, 20),
            ("COLD-SMOKED RAVDU", .header, 560, 605, 30), ("Arctic char on rye crisp, dill", .description, 525, 655, 24),
            ("10", .price, 700, 687, 19), ("FRIED VENDACE", .name, 605, 740, 26), ("rye-crumbed, garlic mayonnaise", .description, 570, 783, 22),
            ("4", .price, 700, 813, 18), ("SOUPS", .header, 600, 890, 45), ("BIDUS", .header, 670, 965, 23),
            ("reindeer stew with potato and swede", .description, 530, 1008, 21), ("9,5", .price, 696, 1037, 21),
            ("SALMON SOUP", .name, 620, 1084, 25), ("salmon, potato, leek, cream", .description, 580, 1127, 20), ("6,50", .price, 690, 1156, 20)]
        let out = structure(placed: rows)
        #expect(out.items.map(\.name) == ["SUOVAS", "GAHKKU & BUTTER", "COLD-SMOKED RAVDU", "FRIED VENDACE", "BIDUS", "SALMON SOUP"])
        #expect(out.items.map(\.price) == ["14", "26,00", "10", "4", "9,5", "6,50"])
        #expect(out.sections == ["SMALL PLATES", "SOUPS"])
    }

    /// Dishes set over two or three lines with the price ending the last, each dish set apart from
    /// the next by a gap (round 27, an unlabelled German menu): the lines after a dish's priced
    /// line that sit close to the next priced line are that dish, also when they open in lower case
    /// or with a count ("4 halbe Eier …"). Roles and boxes as the model and OCR gave them. Lines
    /// set evenly stay the description of the dish above.
    @Test func aDishSetApartOverLinesEndingInItsPriceIsOneDish() {
        func structure(_ rows: [(String, LineRole, Int)]) -> RoleStructurer.Output {
            self.structure(placed: rows.map { ($0.0, $0.1, 72, $0.2, 16) })
        }
        let out = structure([("Handkäs mit Musik € 4,50", .name, 328),
                             ("Bratwurst mit Soße, Pommes frites oder Bratkartoffeln", .description, 375),
                             ("und gemischtem Salatteller € 7,50", .description, 399),
                             ("Bauernsülze mit Frankfurter Grüner Soße", .name, 446), ("und Bratkartoffeln € 7,00", .description, 470),
                             ("4 halbe Eier mit Frankfurter grüner Soße", .description, 517), ("und Bratkartoffeln € 7,50", .description, 541),
                             ("Hackbraten mit Zwiebeln oder Rahmsoße,", .name, 589),
                             ("Bratkartoffeln und gemischtem Salatteller € 9,50", .description, 612),
                             ("pochierter Tafelspitz mit Frankfurter Grüner Soße oder", .description, 657),
                             ("Meerrettichrahm, Bratkartoffeln", .name, 684), ("und gemischtem Salatteller € 13,60", .description, 708)])
        #expect(out.items.map(\.name) == ["Handkäs mit Musik", "Bratwurst mit Soße, Pommes frites oder Bratkartoffeln",
                                          "Bauernsülze mit Frankfurter Grüner Soße", "4 halbe Eier mit Frankfurter grüner Soße",
                                          "Hackbraten mit Zwiebeln oder Rahmsoße, Bratkartoffeln und gemischtem Salatteller",
                                          "pochierter Tafelspitz mit Frankfurter Grüner Soße oder Meerrettichrahm, Bratkartoffeln"])
        #expect(out.items.map(\.price) == ["€ 4,50", "€ 7,50", "€ 7,00", "€ 7,50", "€ 9,50", "€ 13,60"])
        #expect(out.items.first?.descriptionParts.isEmpty == true)
        #expect(out.looseLines.isEmpty)
        // Set evenly (no gap sets the lines apart from the priced dish above): its description.
        let even = structure([("Steak 24", .name, 0), ("pepper sauce, onion rings", .description, 22), ("and chips 26", .description, 44),
                              ("Burger 14", .name, 80), ("4 onion rings and", .description, 102), ("fries 5", .description, 124)])
        #expect(even.items.map(\.name) == ["Steak", "Burger"])
        #expect(even.items.map(\.descriptionParts) == [["pepper sauce, onion rings", "and chips 26"], ["4 onion rings and", "fries 5"]])
    }

    /// Names set over two lines, as generated menus print them since round 17: a joining word
    /// in capitals or a comma ends the first line, or one opens the second; the first line read
    /// as a description of the dish above (after its price) is the next dish's name, also with
    /// the price on a line of its own; a priced line that sets a short name beside its
    /// description is a dish of its own (round 17).
    @Test func aNameOverTwoLinesIsOneDish() {
        func structure(_ rows: [(String, LineRole, Int)]) -> RoleStructurer.Output {
            self.structure(placed: rows.map { ($0.0, $0.1, 40, $0.2, 20) })
        }
        let caps = structure([("CLUB SANDWICH ON TOMATO WITH", .name, 0), ("TOASTED ALMONDS $22", .name, 26),
                              ("brioche, peppers and walnuts", .description, 52),
                              ("SHAKSHUKA WITH CHICKPEAS,", .name, 90), ("MUSTARD $24", .name, 116),
                              ("DOUBLE SMASH BURGER ON CHICKPEAS", .name, 150), ("WITH GINGER $18", .name, 176)])
        #expect(caps.items.map(\.name) == ["CLUB SANDWICH ON TOMATO WITH TOASTED ALMONDS", "SHAKSHUKA WITH CHICKPEAS, MUSTARD",
                                           "DOUBLE SMASH BURGER ON CHICKPEAS WITH GINGER"])
        #expect(caps.items.map(\.price) == ["$22", "$24", "$18"])
        let read = structure([("Capricciosa 4€", .name, 0), ("Tahini and soy on a bed of capers", .description, 26),
                              ("Bianca in Chickpeas Sauce with", .description, 56), ("Yoghurt 16€", .name, 82),
                              ("Leek and Potato Soup in", .description, 116), ("Black Beans Sauce 6€", .description, 142),
                              ("Miso Soup on Jalapeños with Tomato", .description, 176), ("11,00", .price, 202),
                              ("Lentil Soup – spring onion and parmesan $12.00", .description, 236)])
        #expect(read.items.map(\.name) == ["Capricciosa", "Bianca in Chickpeas Sauce with Yoghurt", "Leek and Potato Soup in Black Beans Sauce",
                                           "Miso Soup on Jalapeños with Tomato", "Lentil Soup"])
        #expect(read.items.map(\.price) == ["4€", "16€", "6€", "11,00", "$12.00"])
        #expect(read.items.first?.descriptionParts == ["Tahini and soy on a bed of capers"])
        #expect(read.items.last?.descriptionParts == ["spring onion and parmesan"])
        // A description that goes on under an unpriced dish stays its description ("with" opening
        // a description line is no name), and so does a wrapped description tail.
        let desc = structure([("Grilled Salmon", .name, 0), ("with lemon butter and", .description, 26),
                              ("new potatoes $14", .description, 52), ("Burger 12", .name, 86),
                              ("Served with fries and", .description, 112), ("coleslaw", .description, 138)])
        #expect(desc.items.map(\.name) == ["Grilled Salmon", "Burger"])
        #expect(desc.items.map(\.price) == ["$14", "12"])
        #expect(desc.items.last?.descriptionParts == ["Served with fries and", "coleslaw"])
        // Words of a priced dish's description stay its own unless a priced name goes on from them:
        // not before an unpriced "with …" line, and not before a supplement.
        let kept = structure([("Burger 12", .name, 0), ("Beef patty, Cheese", .description, 26), ("with Onions", .name, 52),
                              ("Fries 4", .name, 86), ("Add Cheese and", .description, 112), ("Bacon +2", .name, 138)])
        #expect(kept.items.first?.descriptionParts == ["Beef patty, Cheese"])
        #expect(kept.items.map(\.name).contains("Fries") && !kept.items.map(\.name).contains("Add Cheese and Bacon"), "\(kept.items.map { ($0.name, $0.descriptionParts) })")
    }

    /// Under a line that prices a list ("CHOCOLATE BARS £10 each"), short names the model read as
    /// headings are all its dishes, up to a line set taller (the next heading), and a dish of the
    /// list without a price of its own has the list's; without it, the first of three is the
    /// heading (round 17).
    @Test func namesUnderAListPriceAreDishes() {
        let out = structure(placed: [("CHOCOLATE BARS £10 each", .other, 40, 0, 30), ("GALAXY", .header, 40, 40, 20),
                                     ("CRUNCHIE", .header, 40, 70, 20), ("SNICKERS", .header, 40, 100, 20),
                                     ("DESSERTS", .header, 40, 140, 30), ("Cheesecake £6", .name, 40, 180, 20)])
        #expect(out.items.map(\.name) == ["GALAXY", "CRUNCHIE", "SNICKERS", "Cheesecake"])
        #expect(RoleStructurer.pricesAList("All £5 any") && RoleStructurer.pricesAList("Soft Drinks 2,50 €"))
        #expect(!RoleStructurer.pricesAList("Add cheese +1") && !RoleStructurer.pricesAList("Open daily 12-22 h"))
        // The list's dishes have its price; "… each" over unpriced names is the list's heading.
        #expect(out.items.prefix(3).allSatisfy { $0.price == nil && $0.listPrice == "£10" } && out.items.last?.price == "£6")
        let each = structure([("CHOCOLATE BARS 7,00 each", .name, 0), ("Bounty", .name, 30), ("Rolo", .name, 60),
                              ("DIPS", .header, 100), ("All £1.50", .note, 130), ("Ketchup", .name, 160),
                              ("BURGERS", .header, 200), ("Add fries for £2.50", .note, 230), ("Cheeseburger", .name, 260)])
        #expect(each.items.map(\.name) == ["Bounty", "Rolo", "Ketchup", "Cheeseburger"])
        #expect(each.items.map { $0.price ?? $0.listPrice } == ["7,00", "7,00", "£1.50", nil])
        #expect(RoleStructurer.listPrice("Add fries for £2.50", heading: false) == nil)
        #expect(RoleStructurer.listPrice("PIZZAS £8.95", heading: true) == "£8.95")
        let plain = structure([("CHIPPER", .header, 0), ("SPICE BAG", .header, 30), ("CURRY CHIPS", .header, 60)])
        #expect(plain.items.map(\.name) == ["SPICE BAG", "CURRY CHIPS"])
    }

    /// On a priced page a bare name line with a priced name line right under it, no gap between
    /// them, in the same type and case, is one name ("Apple Strudel with Werther's Original" /
    /// "Karamel and Vanilla Sauce 3.50"); with a dish's gap, or a heading's size, it is not (round 17).
    @Test func aBareNameWithNoGapToAPricedNameIsOneName() {
        let out = structure(placed: [("Roast Bratwurst in a Pretzel Roll 4.75", .name, 40, 0, 20),
                                     ("Apple Strudel with Werther's Original", .name, 40, 40, 20),
                                     ("Karamel and Vanilla Sauce 3.50", .name, 40, 62, 20),
                                     ("Pretzel 2.50", .name, 40, 100, 20)])
        #expect(out.items.map(\.name) == ["Roast Bratwurst in a Pretzel Roll", "Apple Strudel with Werther's Original Karamel and Vanilla Sauce", "Pretzel"])
        let apart = structure(placed: [("Soup 4.75", .name, 40, 0, 20), ("Apple Strudel", .name, 40, 40, 20),
                                       ("Vanilla Sauce 3.50", .name, 40, 75, 20), ("Desserts", .name, 40, 110, 30),
                                       ("Pretzel 2.50", .name, 40, 142, 20), ("Fries 3", .name, 40, 170, 20)])
        #expect(!apart.items.map(\.name).contains("Apple Strudel Vanilla Sauce"))
        #expect(!apart.items.map(\.name).contains("Desserts Pretzel"))
    }

    /// A lone price under a line is that line's own when its top is under the line's middle, also
    /// where OCR grew the line's box down over it (round 17).
    @Test func aPriceUnderATallLineBoxIsThatLinesOwn() {
        let out = structure(placed: [("Omelette £4", .name, 40, 0, 20), ("cream and chives", .description, 40, 26, 20),
                                     ("Full Breakfast - ginger, roasted peppers", .description, 40, 60, 52),
                                     ("£5", .price, 40, 94, 19)])
        #expect(out.items.map(\.name) == ["Omelette", "Full Breakfast"])
        #expect(out.items.map(\.price) == ["£4", "£5"])
    }

    /// A description ending in its price that reading order cut off from its dish (another
    /// column came between them) goes to the unpriced dish it sits right under (round 17).
    @Test func aPricedDescriptionCutOffFromItsDishFindsIt() {
        let rows: [(String, LineRole, Int, Int, Int)] = [
            ("Mustard Mash", .name, 40, 0, 20), ("Lemon Tart $9", .name, 600, 10, 20),
            ("Butter and mint tossed in aioli $24.00", .description, 40, 26, 20)]
        let lines = rows.map { text, _, x, y, h in StructLine(text: text, words: [], ocrWords: tline(text, x: x, y: y, h: h).words) }
        let out = RoleStructurer(lines: lines, runs: [[0], [1], [2]], legendLines: [], roles: rows.map(\.1),
                                 nameProbability: rows.map { $0.1 == .name ? 0.8 : 0.1 }, headingsInCapitals: false).run()
        #expect(out.items.map(\.name) == ["Mustard Mash", "Lemon Tart"])
        #expect(out.items.map(\.price) == ["$24.00", "$9"])
        #expect(out.looseLines.isEmpty)
    }

    /// Under a heading, a capitalised line the model read as a description with its price on the
    /// next line is a dish ("Buffalo (mild, hot)" / "10€"), not the section's note; a statement
    /// without a price below stays the note, and so does a lower-case description tail (round 16).
    @Test func aCapitalisedLineOverItsOwnPriceIsADishNotANote() {
        let rows: [(String, LineRole, Int)] = [
            ("SAUCES", .header, 0), ("All wings come with celery sticks.", .description, 40),
            ("Buffalo (mild, medium, hot)", .description, 70), ("10€", .price, 96), ("Garlic Parm", .name, 130), ("11€", .price, 156)]
        let out = structure(rows)
        #expect(out.items.map(\.name) == ["Buffalo (mild, medium, hot)", "Garlic Parm"])
        #expect(out.items.map(\.price) == ["10€", "11€"])
        #expect(out.sectionNotes.map(\.lines) == [[1]])
        let tail = structure([("SALADS", .header, 0), ("aioli and capers", .description, 40), ("$8", .price, 66),
                              ("Caesar", .name, 100), ("$9", .price, 126)])
        #expect(tail.items.map(\.name) == ["Caesar"])
        // A long line that sets a short name beside its description, over its own price (round 17).
        let beside = structure([("TEAS", .header, 0), ("Earl Grey — capers, sesame, bacon and yoghurt", .description, 40),
                                ("£19.00", .price, 66), ("Green Tea", .name, 100), ("£7", .price, 126)])
        #expect(beside.items.map(\.name) == ["Earl Grey", "Green Tea"])
        #expect(beside.items.map(\.price) == ["£19.00", "£7"])
    }

    /// Three "headings" or more in a row are a heading and the dishes listed under it whose
    /// prices were not read; two in a row (a heading over a sub-heading) stay headings (round 16).
    @Test func headingsInARowAreAHeadingAndItsDishes() {
        let out = structure([("CHIPPER", .header, 0), ("SPICE BAG", .header, 30), ("CURRY CHIPS", .header, 60),
                             ("GARLIC CHEESE CHIPS", .header, 90), ("BATTERED SAUSAGE 6.50", .name, 120), ("SNACK BOX 6.50", .name, 150)])
        #expect(out.items.map(\.name) == ["SPICE BAG", "CURRY CHIPS", "GARLIC CHEESE CHIPS", "BATTERED SAUSAGE", "SNACK BOX"])
        #expect(out.items.allSatisfy { $0.section == "CHIPPER" })
        let nested = structure([("MAINS", .header, 0), ("Vegetarian", .header, 30), ("Bean chilli 9", .name, 60), ("Dal 8", .name, 90)])
        #expect(nested.sections == ["MAINS", "Vegetarian"])
        #expect(RoleStructurer.dishesReadAsHeadings(runs: [[0, 1, 2, 9, -1]], roles: [.header, .header, .header], legendLines: []) == [1, 2])
    }

    @Test func featuresNeverIndexPastThePage() {
        // A run naming lines the page does not have (before: its neighbours were
        // looked up unchecked and trapped).
        let words = tline("Soup of the day 5.00", x: 0, y: 0).words
        let v = LineFeatures.vectors(lines: [words, words], texts: ["Soup of the day 5.00", "Soup of the day 5.00"],
                                     runs: [[0, 7, 1], [-3, 1]])
        #expect(v.count == 2)
        #expect(v.allSatisfy { $0.count == LineFeatures.names.count })
    }

    @Test func theRoleModelLoadsAndMatchesTheFeatures() throws {
        let model = try #require(RoleModel.shared)
        #expect(model.features == LineFeatures.names)
        #expect(Set(model.roles) == Set(LineRole.allCases.map(\.rawValue)))
        var broken = model
        broken.features.removeLast()
        let data = try JSONEncoder().encode(broken)
        #expect(throws: MenuScanError.self) { try RoleModel.decode(data) }
        let probs = model.probabilities([Double](repeating: 0, count: LineFeatures.names.count))
        #expect(abs(probs.values.reduce(0, +) - 1) < 1e-9)
    }

    @Test func itemsWithoutPricesFromTypography() {
        // Header large, names in capitals, descriptions in smaller lowercase type; no prices.
        var lines = [tline("Breakfast", x: 40, y: 0, h: 40)]
        var y = 70
        for (name, desc) in [("PANCAKES", "buttermilk stack with maple syrup and berries"),
                             ("EGGS BENEDICT", "poached eggs on an english muffin with hollandaise"),
                             ("GRANOLA", "oats, honey and toasted almonds with yoghurt")] {
            lines.append(tline(name, x: 40, y: y, h: 22)); y += 32
            lines.append(tline(desc, x: 40, y: y, h: 17)); y += 45
        }
        let a = analyzer.analyze(page: page(lines), profile: nil)
        #expect(a.items.map(\.name) == ["PANCAKES", "EGGS BENEDICT", "GRANOLA"])
        #expect(a.items.allSatisfy { $0.section == "Breakfast" && $0.price == nil && !$0.description.isEmpty })
    }

    @Test func pricesInAColumnOfTheirOwnJoinTheirRow() {
        var lines: [OCRLine] = []
        for (k, (name, price)) in [("Garlic Bread", "4.50"), ("Tomato Soup", "6.00"), ("Caesar Salad", "9.50")].enumerated() {
            lines.append(tline(name, x: 40, y: 60 * k, h: 22))
            lines.append(tline("fresh and seasonal with herbs", x: 40, y: 60 * k + 28, h: 17))
            lines.append(tline(price, x: 900, y: 60 * k, h: 20))
        }
        let a = analyzer.analyze(page: page(lines), profile: nil)
        #expect(a.items.map(\.name) == ["Garlic Bread", "Tomato Soup", "Caesar Salad"])
        #expect(a.items.map(\.price) == ["4.50", "6.00", "9.50"])
    }

    @Test func sectionNotesAreExposedForTheirSection() {
        let lines = [
            tline("BURGERS", x: 40, y: 0, h: 40),
            tline("All burgers come on a toasted brioche bun, please ask for gluten free", x: 40, y: 55, h: 16),
            tline("Classic Burger 12", x: 40, y: 100, h: 22),
            tline("beef patty, cheddar, pickles and onion", x: 40, y: 130, h: 17),
            tline("Chicken Burger 11", x: 40, y: 175, h: 22),
            tline("crispy chicken, slaw and mayonnaise", x: 40, y: 205, h: 17),
            tline("Veggie Burger 10", x: 40, y: 250, h: 22),
            tline("black bean patty, avocado and salsa", x: 40, y: 280, h: 17),
        ]
        let a = analyzer.analyze(page: page(lines), profile: nil)
        #expect(a.items.map(\.name) == ["Classic Burger", "Chicken Burger", "Veggie Burger"])
        #expect(a.items.allSatisfy { $0.section == "BURGERS" })
        #expect(a.notes(forSection: "BURGERS") == ["All burgers come on a toasted brioche bun, please ask for gluten free"])
        // The note is context for every item of the section: brioche → gluten, eggs, milk.
        #expect(a.items.allSatisfy { item in item.allergens.contains { $0.id == .gluten } })
    }

    @Test func mostTextInNoItemIsNotHighConfidence() {
        // Two items, then a long prose block that is no item: the structure explains
        // little of the page, so the menu is low and asks for verification.
        var lines = [tline("Tomato Soup 6.50", x: 40, y: 0, h: 22), tline("Green Salad 7.00", x: 40, y: 40, h: 22)]
        for k in 0..<14 {
            lines.append(tline("Our story began in a small kitchen by the harbour where the family cooked for friends every", x: 40, y: 100 + 28 * k, h: 18))
        }
        let a = analyzer.analyze(page: page(lines), profile: nil)
        let level = a.confidenceLevel, confidence = a.confidence, verify = a.requiresUserVerification
        let warned = a.warnings.contains(.lowConfidenceResults)
        #expect(level != .high)
        #expect(confidence < 0.65)
        #expect(warned)
        #expect(verify)
        // The same two items alone are a well-explained page.
        let alone = analyzer.analyze(page: page(Array(lines.prefix(2))), profile: nil).confidenceLevel
        #expect(alone == .high)
    }

    @Test func coverageCountsItemsAndHeadersFullyNotesHalf() {
        let lines = ["SOUPS", "Tomato 5", "a note here", "stray"].map { StructLine(text: $0, words: [], ocrWords: []) }
        let item = RawItem(section: "SOUPS", sectionLine: 0, name: "Tomato", price: "5", lines: [1])
        let c = MenuAnalyzer.structureCoverage(lines: lines, runs: [[0, 1, 2, 3]], items: [item], notes: [2], legendLines: [])
        // chars: SOUPS 5, Tomato5 7, anotehere 9, stray 5 → (5 + 7 + 4.5) / 26
        #expect(abs(c - 16.5 / 26) < 1e-9)
    }

    /// A dish number before the name ("21. Bami goreng") is no price: the role model reads the line
    /// without it (round 26: on an unpriced numbered menu "21." made lines prices and notes).
    @Test func aDishNumberIsNoPrice() {
        let numbered = ["21. Bami goreng": "Bami goreng", "12) Pad Thai": "Pad Thai", "A3. Gỏi cuốn": "Gỏi cuốn",
                        "No. 7 Brisket": "Brisket", "#14 Pho Tai": "Pho Tai", "  3. Saté ajam (4 stokjes)": "Saté ajam (4 stokjes)"]
        for (line, rest) in numbered { #expect(LineFeatures.withoutItemNumber(line) == rest, "\(line)") }
        for line in ["12.50 Margherita", "2 pcs chicken wings", "1/2 roast chicken", "Pizza 12.", "2019 Riesling", "9.", "No sugar", "1. 50"] {
            #expect(LineFeatures.withoutItemNumber(line) == line, "\(line)")
        }
        let plain = LineFeatures.facts("Bami goreng"), withNumber = LineFeatures.facts("21. Bami goreng")
        #expect(withNumber.plainEnd == plain.plainEnd && withNumber.priceOnly == 0 && withNumber.digitShare == 0)
        // Any text: what is left is the line's end (never a trap on odd input).
        let pieces = ["21.", "A3)", "No.", "#", "7", " ", "Pho", "ǅ", "é", "12.50", "€", "寿司", "\u{0}", "(", "1/2", "N"]
        var rng = Xoshiro(seed: (26, 0x9E37_79B9_7F4A_7C15, 813, 0xD1B5_4A32_D192_ED03))
        let gen = Gen.element(of: pieces).map { $0 ?? "" }.array(of: 0...8).map { $0.joined() }
        for _ in 0..<2000 {
            let s = gen.run(using: &rng)
            #expect(s.hasSuffix(LineFeatures.withoutItemNumber(s)))
        }
    }
}

@Suite struct ItemsOutputTests {
    static func menu() -> MenuAnalysis {
        let item = MenuItem(section: "MAINS", name: "Fish, chips", description: "cod in \"beer\" batter", price: "12.50",
                            box: Box(x: 1, y: 2, width: 30, height: 40), words: [], confidence: 0.9,
                            allergens: [AllergenFinding(id: .fish, evidence: ["cod"], source: .explicit, confidence: 0.95, fuzzy: false)],
                            mayContain: [.milk], declaredAbsent: [], declaredAbsentEvidence: [], dietary: .not_vegetarian,
                            dietaryEvidence: [], safety: .unsafe, safetyReasons: [])
        return MenuAnalysis(confidence: 0.9, requiresUserVerification: true, sections: ["MAINS"], items: [item], profile: [.fish],
                            menuMayContain: [], warnings: [], sectionNotes: [SectionNote(section: "MAINS", text: ["Served with <peas>"])])
    }

    @Test func itemsCSVQuotesAndHasEveryColumn() {
        let rows = ItemsCSV.rows(photo: "a/menu.jpg", menu: Self.menu())
        #expect(ItemsCSV.header == "photo,section,name,description,price,allergens,may_contain,dietary,safety,confidence,box\r\n")
        #expect(rows == "a/menu.jpg,MAINS,\"Fish, chips\",\"cod in \"\"beer\"\" batter\",12.50,fish,milk,not_vegetarian,unsafe,0.900,1 2 30 40\r\n")
    }

    @Test func sectionNotesRoundTripThroughJSON() throws {
        let data = try JSONEncoder().encode(Self.menu())
        let back = try JSONDecoder().decode(MenuAnalysis.self, from: data)
        #expect(back.sectionNotes == Self.menu().sectionNotes)
        #expect(back.notes(forSection: "MAINS") == ["Served with <peas>"])
    }

    @Test func reportShowsItemsBesideTheOverlay() {
        let html = HTMLReport.itemsPanel(Self.menu())
        #expect(html.contains("<b>Fish, chips</b>"))
        #expect(html.contains("12.50"))
        #expect(html.contains("Served with &lt;peas&gt;"))
        #expect(html.contains("contains: fish · may contain: milk"))
        #expect(html.contains("class=\"safety unsafe\""))
        #expect(HTMLReport.itemsPanel(nil).isEmpty)
    }
}
