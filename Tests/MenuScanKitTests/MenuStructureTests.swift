import Foundation
import Testing
@testable import MenuScanKit

/// Builds OCR pages for tests: each line is placed at (x, y); words get boxes
/// 10 px per character with 10 px spaces, height 20.
enum PageBuilder {
    static func line(_ text: String, x: Int, y: Int, confidence: Double? = 0.95,
                     confidences: [String: Double] = [:]) -> OCRLine {
        var words: [OCRWord] = []
        var cx = x
        for w in text.split(separator: " ") {
            let width = 10 * w.count
            words.append(OCRWord(text: String(w), confidence: confidences[String(w)] ?? confidence,
                                 box: Box(x: cx, y: y, width: width, height: 20)))
            cx += width + 10
        }
        let box = words.dropFirst().reduce(words[0].box) { $0.union($1.box) }
        return OCRLine(box: box, words: words)
    }

    /// One row Tesseract read across two columns: `left` from x = 20, `right`
    /// from `rightX`, and `between` (a divider read as a word) in between.
    static func acrossColumns(_ left: String, _ right: String, rightX: Int, y: Int, between: [OCRWord] = []) -> OCRLine {
        let l = line(left, x: 20, y: y), r = line(right, x: rightX, y: y)
        return OCRLine(box: l.box.union(r.box), words: l.words + between + r.words)
    }

    /// `line` on a tilted photo: each word moved `rise` px down per px right of x = 100
    /// (negative: up).
    static func tilted(_ text: String, x: Int, y: Int, rise: Double) -> OCRLine {
        let words = line(text, x: x, y: y).words.map { w in
            OCRWord(text: w.text, confidence: w.confidence,
                    box: Box(x: w.box.x, y: w.box.y + Int(rise * Double(w.box.x - 100)), width: w.box.width, height: w.box.height))
        }
        return OCRLine(box: words.dropFirst().reduce(words[0].box) { $0.union($1.box) }, words: words)
    }

    static func page(_ lines: [OCRLine]) -> OCRPage {
        OCRPage(blocks: [OCRBlock(box: lines.dropFirst().reduce(lines[0].box) { $0.union($1.box) }, lines: lines)])
    }

    /// The text of each segment the page layout makes of these lines.
    static func segmentTexts(_ lines: [OCRLine]) -> [String] {
        PageLayout.segments(of: page(lines)).map { $0.words.map(\.text).joined(separator: " ") }
    }
}

@Suite struct MenuPriceTests {
    @Test(arguments: [
        ("Soup of the day $4.50", "Soup of the day", "$4.50"),
        ("Soupe à l'oignon 7,50 €", "Soupe à l'oignon", "7,50 €"),
        ("Frittatensuppe A,C,G 3,20", "Frittatensuppe A,C,G", "3,20"),
        ("Fish & Chips £12", "Fish & Chips", "£12"),
        ("Ramen ¥850", "Ramen", "¥850"),
        ("Mercimek çorbası 45 TL", "Mercimek çorbası", "45 TL"),
        ("Minestrone .......... 6.00", "Minestrone", "6.00"),
        ("Radeberger Pilsner 3.50 6.75 12.25", "Radeberger Pilsner", "3.50 6.75 12.25"),
        ("Nachos $11.50 (+ $2 for chicken)", "Nachos", "$11.50"),
        ("Add fries + $3.50", "Add fries", "+ $3.50"),
        ("€12", "", "€12"),
        ("the EGG SANDWICH S4", "the EGG SANDWICH", "S4"),            // OCR read "$" as "S"
        ("TRADITIONAL IRISH STEW C16", "TRADITIONAL IRISH STEW", "C16"),  // OCR read "€" as "C"
        ("JH Selbach Riesling Classic 00000000 3.00", "JH Selbach Riesling Classic", "3.00"), // leaders misread
        // Leaders as Tesseract reads them on a real menu photo (../shared/eval/menus).
        ("Schinken Nudel SOOOSSOSSSSSSSSHHSSSSHSSSSHOOSSOSOOS 3.25 #", "Schinken Nudel", "3.25"),   // "#": an icon
        ("Selbach-Oster Riesling Spaitlese.......eeeeeeseee 4.50", "Selbach-Oster Riesling Spaitlese", "4.50"),
        ("JH Selbach Riesling Classi€.cvccccssccveccveauvccss 3.00", "JH Selbach Riesling Classi€", "3.00"),
        ("Altenmiinster Dunkel ...cceseseeeee 3.50", "Altenmiinster Dunkel", "3.50"),
        // Words that only look like leaders stay.
        ("Osso buco 14.00", "Osso buco", "14.00"),
        ("Swiss cheese 5.00", "Swiss cheese", "5.00"),
        ("Mississippi mud pie 6.00", "Mississippi mud pie", "6.00"),
        ("Crème brûlée 7.00", "Crème brûlée", "7.00"),
        ("Eggs Benedict 9.00", "Eggs Benedict", "9.00"),
        // Sizes: a one-decimal first size, a second size written short after a slash.
        ("Penne Arrabbiata 4,5/8", "Penne Arrabbiata", "4,5/8"),
        ("Pizza Diavola €12.50/18", "Pizza Diavola", "€12.50/18"),
        ("Tomato Soup 6.5", "Tomato Soup", "6.5"),
        // Plain sizes, the currency printed once after the last ("15/21 €").
        ("Wild rice and lime with olives 15/21 €", "Wild rice and lime with olives", "15/21 €"),
        ("Pizza Margherita 9/15/19 EUR", "Pizza Margherita", "9/15/19 EUR"),
        // Pence.
        ("Add Cheese to any Burger 25p", "Add Cheese to any Burger", "25p"),
        ("Chocolate Doughnuts .... 70p", "Chocolate Doughnuts", "70p"),
        // Whole francs or euros ("12.–", "9,-") and Swiss francs before the sum.
        ("Raclette Fr. 27.–", "Raclette", "Fr. 27.–"),
        ("Bratwurst mit Rösti CHF 19", "Bratwurst mit Rösti", "CHF 19"),
        ("Rösti mit Spiegelei 22.–", "Rösti mit Spiegelei", "22.–"),
        ("Schnitzel 9,-", "Schnitzel", "9,-"),
        ("Kanelbulle 35:-", "Kanelbulle", "35:-"),
        // The world's other currencies, after the sum and before it, and thousands in groups.
        ("Шопска салата · 8,90 лв.", "Шопска салата", "8,90 лв."),
        ("Svíčková na smetaně 245 Kč", "Svíčková na smetaně", "245 Kč"),
        ("Pierogi ruskie 28 zł", "Pierogi ruskie", "28 zł"),
        ("Gulyásleves 1 850 Ft", "Gulyásleves", "1 850 Ft"),
        ("Smørbrød med reker 189,- kr", "Smørbrød med reker", "189,- kr"),
        ("Raggmunk kr 145", "Raggmunk", "kr 145"),
        ("Phở bò 65.000 ₫", "Phở bò", "65.000 ₫"),
        ("Classic hummus ₪32", "Classic hummus", "₪32"),
        ("Nasi lemak RM 7", "Nasi lemak", "RM 7"),
        ("Masala dosa Rs. 180", "Masala dosa", "Rs. 180"),
        ("Coxinha R$ 8,50", "Coxinha", "R$ 8,50"),
        ("Bibimbap ₩12,000", "Bibimbap", "₩12,000"),
        ("Couscous royal 3.500 DT", "Couscous royal", "3.500 DT"),
    ])
    func trailingPrices(_ line: String, _ before: String, _ price: String) throws {
        let f = try #require(PriceParser.find(in: line, allowPlain: false))
        #expect(f.before == before)
        #expect(f.price == price)
    }

    /// "4.5" read "45": the printed point made the word wider than the page's other numbers.
    @Test func aLostPointIsSeenInTheWordsWidth() {
        func word(_ t: String, width: Int) -> OCRWord { OCRWord(text: t, confidence: 0.9, box: Box(x: 0, y: 0, width: width, height: 20)) }
        let page = [word("12", width: 24), word("18", width: 25), word("9", width: 12), word("26", width: 25), word("14", width: 23)]
        let prices: [String?] = ["12", "18", "9", "45", "26", "14", "65", nil]
        let words: [OCRWord?] = [page[0], page[1], page[2], word("45", width: 34), page[3], page[4], word("65", width: 26), nil]
        let out = PriceSeparatorRepair.repairLostPoints(prices, priceWords: words, pageWords: page)
        // 45: 1.4 times as wide a digit, and far above the page's prices: 4.5. 65 is as wide as the rest.
        #expect(out == ["12", "18", "9", "4.5", "26", "14", "65", nil])
        // Not 5 last ("24" wide), not far above the prices, or too few numbers to compare: as read.
        #expect(PriceSeparatorRepair.repairLostPoints(["12", "24"], priceWords: [page[0], word("24", width: 34)], pageWords: page) == ["12", "24"])
        #expect(PriceSeparatorRepair.repairLostPoints(["35", "25"], priceWords: [word("35", width: 34), page[1]], pageWords: page) == ["35", "25"])
        #expect(PriceSeparatorRepair.repairLostPoints(["12", "45"], priceWords: [page[0], word("45", width: 34)], pageWords: Array(page.prefix(2))) == ["12", "45"])
        // Mismatched lengths and empty input do not trap.
        #expect(PriceSeparatorRepair.repairLostPoints(["45", "12"], priceWords: [], pageWords: page) == ["45", "12"])
        #expect(PriceSeparatorRepair.repairLostPoints([], priceWords: words, pageWords: []).isEmpty)
    }

    @Test(arguments: ["24,925 BAPTISMS", "1/2 ROAST CHICKEN", "Half 1/2 chicken", "Served 12/18 with fries", "Served 12 to 3/4", "Pasta 4,5 / x", "Served with 2 eggs", "(1, 15)", "8oz CHEESE BURGER",
                      "Spicy (1, 9, 13) / BBQ (1, 9, 13)", "IN THE YEARS FROM 1700 TO 1900 WERE:",
                      "Open until 11pm", "Soup", "Available from 5p.m.", "Pasta 125p", "Chips 2pa",
                      "Served with 2 kroketten", "Soup of the day 2 Krabben", "Walk 5 KMs", "Since 1 200 years"])
    func notPrices(_ line: String) {
        #expect(PriceParser.find(in: line, allowPlain: false) == nil)
    }

    /// Superscript codes ("Gerstensuppe ¹ ⁷ ⁹") are a code list, a superscript key before its
    /// name a number; a key may end in statements that still speak for the menu (round 20).
    @Test func superscriptCodesAndAKeyThatEndsInStatements() throws {
        #expect(MenuAnalyzer.expandingSuperscriptCodes("Raclette ⁷  Fr. 27.–") == "Raclette (7)  Fr. 27.–")
        #expect(MenuAnalyzer.expandingSuperscriptCodes("Zuger Kirschtorte¹,³,⁷,⁸") == "Zuger Kirschtorte (1, 3, 7, 8)")
        #expect(MenuAnalyzer.expandingSuperscriptCodes("Allergene: ¹ Gluten · ¹⁰ Senf") == "Allergene: 1 Gluten · 10 Senf")
        #expect(MenuAnalyzer.expandingSuperscriptCodes("Room 12m² 4⁵") == "Room 12m² 4⁵")
        let text = """
        Bündner Gerstensuppe ¹ ⁷ ⁹  9.50
        mit Rohschinken

        Raclette ⁷  Fr. 27.–

        Allergene: ¹ glutenhaltiges Getreide · ² Krebstiere · ³ Eier · ⁴ Fisch · ⁵ Erdnüsse · ⁶ Soja · ⁷ Milch (inkl. Laktose) · ⁸ Schalenfrüchte · ⁹ Sellerie · ¹⁰ Senf · ¹¹ Sesam · ¹² Schwefeldioxid und Sulfite · ¹³ Lupinen · ¹⁴ Weichtiere. Gerichte ohne Ziffern enthalten keines dieser Allergene. Kann Spuren von Nüssen enthalten.
        """
        let a = AllergenFixtures.analyzer.analyze(text: text, perLine: false, profile: AllergenProfile(allergens: [.tree_nuts]))
        let soup = try #require(a.items.first { $0.name == "Bündner Gerstensuppe" })
        #expect(Set(soup.allergens.filter { $0.source == .code }.map(\.id)) == [.gluten, .milk, .celery])
        // The statement after the key still speaks for every dish.
        #expect(soup.mayContain.contains(.tree_nuts) && soup.safety == .caution)
        let raclette = try #require(a.items.first { $0.name == "Raclette" })
        #expect(raclette.price == "Fr. 27.–" && raclette.allergens.contains { $0.id == .milk && $0.source == .code })
    }

    /// Superscript cents ("7⁹⁵") are decimals; other superscripts are left alone (round 8).
    @Test func superscriptCentsAreDecimals() {
        #expect(PriceParser.expandingSuperscriptCents("Beef Burger 7⁹⁵") == "Beef Burger 7.95")
        #expect(PriceParser.expandingSuperscriptCents("Meal only £2⁵⁰") == "Meal only £2.50")
        #expect(PriceParser.expandingSuperscriptCents("Any 3 Kebab Meats 12⁰⁰") == "Any 3 Kebab Meats 12.00")
        #expect(PriceParser.expandingSuperscriptCents("Water 500ml 1.00") == "Water 500ml 1.00")
        #expect(PriceParser.expandingSuperscriptCents("Area 12 m² and x³") == "Area 12 m² and x³")
        #expect(PriceParser.expandingSuperscriptCents("E=mc² 2³ 4⁵⁶⁷ ⁵⁰") == "E=mc² 2³ 4⁵⁶⁷ ⁵⁰")
        #expect(PriceParser.expandingSuperscriptCents("9⁵⁰") == "9.50")
        // The byte pre-check finds every superscript digit and passes €, £ and ’ by.
        for (sup, _) in PriceParser.superscriptDigits { #expect(PriceParser.mayHoldSuperscriptDigit("x\(sup)"), "\(sup)") }
        #expect(!PriceParser.mayHoldSuperscriptDigit("Chef’s burger £5 · €6,50 – ½"))
        let menu = AllergenFixtures.analyzer.analyze(text: "BURGERS\nBeef Burger 7⁹⁵\nChicken Wrap 6⁵⁰\n", perLine: false, profile: nil)
        #expect(menu.items.map(\.price) == ["7.95", "6.50"])
    }

    @Test func plainNumbersOnlyWhenTheMenuHasNoOtherPrices() {
        #expect(PriceParser.find(in: "Pasta al pomodoro 9", allowPlain: true)?.price == "9")
        #expect(PriceParser.find(in: "Pasta al pomodoro 9", allowPlain: false) == nil)
        let plain = AllergenFixtures.analyzer.analyze(text: "PASTA\nPomodoro 9\nCarbonara 11\n", perLine: false, profile: nil)
        #expect(plain.items.map(\.price) == ["9", "11"])
        // on a menu with decimal prices, an address's "Dublin 1" is not a price
        let mixed = AllergenFixtures.analyzer.analyze(
            text: "MAINS\nStew €16.00\nPie €14.00\nCurry €15.50\nThe Church, Dublin 1", perLine: false, profile: nil)
        #expect(mixed.items.count == 3)
    }
}

@Suite struct MenuStructureTests {
    let analyzer = AllergenFixtures.analyzer

    @Test func nameAndPriceThenDescription() {
        let text = """
        STARTERS
        SOUP OF THE DAY €5
        Served with homemade brown bread
        (1, 15)
        CALAMARI €12
        Deep fried squid with garlic aioli
        MAINS
        FISH & CHIPS €18
        Beer battered cod, tartar sauce
        LIST OF ALLERGENS
        1 Celery
        2 Gluten
        15 Wheat
        """
        let a = analyzer.analyze(text: text, perLine: false, profile: nil)
        #expect(a.items.map(\.name) == ["SOUP OF THE DAY", "CALAMARI", "FISH & CHIPS"])
        #expect(a.items.map(\.price) == ["€5", "€12", "€18"])
        #expect(a.items.map(\.section) == ["STARTERS", "STARTERS", "MAINS"])
        #expect(a.sections.starts(with: ["STARTERS", "MAINS"]))
        #expect(a.items[0].description == "Served with homemade brown bread") // the code line is evidence, not description
        // numeric codes read through the printed legend
        let soup = a.items[0].allergens
        #expect(soup.first { $0.id == .celery }?.source == .code)
        #expect(Set(soup.map(\.id)) == [.celery, .gluten])
        // squid, aioli (eggs), and the dish table's "calamari: usually floured or battered and fried"
        #expect(Set(a.items[1].allergens.map(\.id)) == [.molluscs, .eggs, .gluten])
        #expect(Set(a.items[2].allergens.map(\.id)).isSuperset(of: [.fish, .gluten, .eggs]))
    }

    @Test func nameThenDescriptionWithPriceAtTheEnd() {
        let text = """
        APPETIZERS
        Vive la Poutine!
        Freshly seasoned fries | Real Québec cheese curds
        Vegan/gluten-free gravy  $6.50
        Loaded Poutine
        Freshly seasoned fries | Cheese curds
        Sautéed peppers and onions  $7.50
        Chicken Quesadilla
        Tex-Mex Cheese | Chicken | Peppers  $8.50
        """
        let a = analyzer.analyze(text: text, perLine: false, profile: nil)
        #expect(a.items.map(\.name) == ["Vive la Poutine!", "Loaded Poutine", "Chicken Quesadilla"])
        #expect(a.items.map(\.price) == ["$6.50", "$7.50", "$8.50"])
        #expect(a.items[0].description.contains("gravy"))
        // The gravy is declared gluten-free, but poutine itself (fries, shared fryers) keeps
        // the dish table's gluten: a declaration about one part does not clear the dish.
        #expect(a.items[0].allergens.first { $0.id == .gluten }?.evidence.contains { $0.lowercased().contains("poutine") } == true)
        #expect(a.items[0].allergens.first { $0.id == .gluten }?.evidence.contains { $0.lowercased().contains("gravy") } == false)
        #expect(a.items[0].allergens.contains { $0.id == .milk })
        #expect(a.items[2].dietary == .not_vegetarian)
    }

    /// A page that sets its headers in capitals and each dish as a block of its own, a Title
    /// Case name over a short description that ends in the price: the name is no header and
    /// the priced line no dish ("Havrelatte" / "Oatly · 42:-" made a section "Havrelatte" with
    /// a dish "Oatly", and every later dish of the page went under it). A Title Case line over
    /// several priced lines stays a header.
    /// A priced line whose text before the price is only a quantity names no dish: it is the price
    /// line of the name above ("Greek Salad" / "350 g · 8.90 €"), whatever the script (round 24).
    @Test func aQuantityBeforeThePriceIsNoName() {
        let text = """
        All salads come with or without grated cheese.

        SALADS

        Greek Salad
        350 g · 8.90 €

        Snow White
        strained yoghurt, cucumber · 7.50 €

        НАПИТКИ

        Сливова ракия
        50 мл · 4,50 лв.

        Боза
        2,50 лв.

        """
        let a = analyzer.analyze(text: text, perLine: false, profile: nil)
        #expect(a.items.map(\.name) == ["Greek Salad", "Snow White", "Сливова ракия", "Боза"])
        #expect(a.items.map(\.section) == ["SALADS", "SALADS", "НАПИТКИ", "НАПИТКИ"])
        #expect(a.items.map(\.description) == ["350 g", "strained yoghurt, cucumber", "50 мл", ""])
        #expect(["350 g", "0,5 l", "3 бр.", "(6 pcs)", "33 CL", "1/2 l", "200"].allSatisfy(MenuStructurer.isQuantity))
        #expect(!["7 Up", "Soup", "2 Eggs Benedict", "350 grams of beef", "12 oz Ribeye", ""].contains(where: MenuStructurer.isQuantity))
    }

    @Test func aTitleCaseNameOverItsPricedDescriptionOnAPageOfCapitalHeaders() {
        let text = """
        FIKA

        Kanelbulle
        32:-

        Semla
        vetebulle, mandelmassa, vispgrädde · 45:-

        ATT DRICKA

        Havrelatte
        Oatly · 42:-

        Saft
        hallon eller fläder · 15:-

        Trocadero
        33 cl · 25:-

        """
        let a = analyzer.analyze(text: text, perLine: false, profile: nil)
        #expect(a.items.map(\.name) == ["Kanelbulle", "Semla", "Havrelatte", "Saft", "Trocadero"])
        #expect(a.items.map(\.price) == ["32:-", "45:-", "42:-", "15:-", "25:-"])
        #expect(a.items[2].description == "Oatly")
        #expect(a.items[4].description == "33 cl")
        #expect(a.items.map(\.section) == ["FIKA", "FIKA", "ATT DRICKA", "ATT DRICKA", "ATT DRICKA"])
        let wines = analyzer.analyze(text: "STARTERS\n\nSoup 5.00\n\nBREWS\n\nWines\nRiesling Classic 9.00\nRiesling Spätlese 11.00\n",
                                     perLine: false, profile: nil)
        #expect(wines.items.map(\.name) == ["Soup", "Riesling Classic", "Riesling Spätlese"])
        #expect(wines.items.last?.section == "Wines")
    }

    @Test func priceOnTheNextLine() {
        let text = "DESSERTS\nApple strudel with cream\n4.20\nChocolate mousse\n5.10\n"
        let a = analyzer.analyze(text: text, perLine: false, profile: nil)
        #expect(a.items.map(\.name) == ["Apple strudel with cream", "Chocolate mousse"])
        #expect(a.items.map(\.price) == ["4.20", "5.10"])
    }

    @Test func codeListsLeaveNamesButAbbreviationsStay() {
        #expect(MenuStructurer.stripCodes("Frittatensuppe a,c,c") == "Frittatensuppe")
        #expect(MenuStructurer.stripCodes("Mozart Palatschinken A,C,G,H") == "Mozart Palatschinken")
        #expect(MenuStructurer.stripCodes("the CLASSIC B.L.T") == "the CLASSIC B.L.T")
        #expect(MenuStructurer.stripCodes("Soup (1, 15)") == "Soup")
    }

    @Test func aDividerReadAsABarIsNotPartOfAName() {
        #expect(MenuStructurer.stripCodes("| Tomato Salad") == "Tomato Salad")
        #expect(MenuStructurer.stripCodes("Prawn Cocktail ¦") == "Prawn Cocktail")
        #expect(MenuStructurer.stripCodes("Fish | Chips") == "Fish | Chips")
    }

    @Test func dottedLeadersAndLetterCodesWithoutLegend() {
        let text = "SUPPEN\nFrittatensuppe A,C,G ........ 3,20\nGulaschsuppe L,M ........ 4,50\n"
        let a = analyzer.analyze(text: text, perLine: false, profile: nil)
        #expect(a.items.map(\.name) == ["Frittatensuppe", "Gulaschsuppe"])
        #expect(a.items.map(\.price) == ["3,20", "4,50"])
        // Austrian default codes: A gluten, C eggs, G milk, L celery, M mustard
        #expect(Set(a.items[0].allergens.filter { $0.source == .code }.map(\.id)) == [.gluten, .eggs, .milk])
        #expect(Set(a.items[1].allergens.filter { $0.source == .code }.map(\.id)) == [.celery, .mustard])
    }

    @Test func printedLetterLegendWinsOverDefaults() {
        // a menu whose own legend says G is mustard and M is milk
        let text = "Dish one (G, M) 9.00\nDish two (E) 8.00\nE = Eggs / G = Mustard / M = Milk\n"
        let a = analyzer.analyze(text: text, perLine: false, profile: nil)
        #expect(a.items.count == 2)
        #expect(Set(a.items[0].allergens.map(\.id)) == [.mustard, .milk])
        #expect(Set(a.items[1].allergens.map(\.id)) == [.eggs])
    }

    /// A British key: codes of one to three letters on one line behind a title, entries split by
    /// middle dots and a full stop, diet marks among them ("V vegetarian", "VG vegan"). Item codes
    /// read through it; "(VG)" is a diet mark; a code the key lacks leaves the item caution (round 16).
    @Test func aKeyOfTwoLetterCodesReadsItsItemsCodes() throws {
        let key = "Allergen key: Ce celery · G cereals containing gluten · E egg · Mi milk · Mu mustard · N tree nuts · "
            + "So soya · Su sulphites. V vegetarian · VG vegan."
        let text = "Chicken Tikka Masala (Mi, N, Mu) 5.50\nThree Bean Chilli (VG) (Ce) 4.50\nBeef Lasagne (G, E, Mi, Ce) 5.00\n"
            + "Chips (V) 2.00\nFish Pie (F, Mi) 6.00\n\(key)\n"
        let a = analyzer.analyze(text: text, perLine: false, profile: AllergenProfile(allergens: [.celery]))
        try #require(a.items.count == 5)
        func coded(_ k: Int) -> Set<AllergenID> { Set(a.items[k].allergens.filter { $0.source == .code }.map(\.id)) }
        #expect(coded(0) == [.milk, .tree_nuts, .mustard])
        #expect(coded(1) == [.celery] && a.items[1].safety == .unsafe)
        #expect(coded(2) == [.gluten, .eggs, .milk, .celery])
        // The name loses its whole code list, not its one-letter codes only ("Beef Lasagne ( , Mi, Ce)").
        #expect(a.items[2].name == "Beef Lasagne" && a.items[0].name == "Chicken Tikka Masala")
        #expect(MenuStructurer.stripCodes("Wings (Hot, Mild)") == "Wings (Hot, Mild)")
        #expect(!a.items[3].safetyReasons.contains("unresolved_allergen_codes"))
        #expect(a.items[4].safetyReasons.contains("unresolved_allergen_codes") && a.items[4].safety != .safe)
        #expect(MenuAnalyzer.legendParts("Allergen key: Ce celery · Su sulphites. V vegan.") == ["Ce celery", "Su sulphites", "V vegan"])
        #expect(MenuAnalyzer.legendParts("A. Gluten / B. Crustaceans") == ["A. Gluten", "B. Crustaceans"])
        // Lines of a menu are no key: "Egg Noodles", "Hot milk" have no separator and stand alone.
        let menu = analyzer.analyze(text: "Egg Noodles 5.00\nHot milk 2.00\nTea (Mi) 1.00\nPie Mustard 3.00\n", perLine: false, profile: nil)
        #expect(menu.items.map(\.name).prefix(2) == ["Egg Noodles", "Hot milk"])
        // Hyphenated words and descriptions are no entries ("Pan-fried Dumplings and scrambled Eggs").
        let words = analyzer.analyze(text: "Pan-fried Dumplings 5.00\nOat-milk latte 3.00\nRed-eye coffee 2.00\n"
                                     + "Pan-fried Dumplings and scrambled Eggs served 6.00\nMi - milk\nCe - celery\nMu: mustard\n",
                                     perLine: false, profile: nil)
        #expect(words.items.map(\.name) == ["Pan-fried Dumplings", "Oat-milk latte", "Red-eye coffee",
                                           "Pan-fried Dumplings and scrambled Eggs served"])
    }

    /// A German additive key ("Zusatzstoffe: 1 = mit Farbstoff, …, 5 = geschwefelt") reads the
    /// items' numbers: no longer unresolved codes, sulphites from "geschwefelt", and no allergen
    /// declaration (the words still decide; an item without numbers is not "missing codes").
    @Test func anAdditiveKeyReadsTheNumbersButDeclaresNoAllergens() throws {
        let key = "Zusatzstoffe: 1 = mit Farbstoff, 2 = mit Konservierungsstoff, 3 = mit Antioxidationsmittel, 5 = geschwefelt, 6 = mit Phosphat"
        let text = "Bratwurst (3,6) 4,50\nmit Senf und Brötchen\n\nWeinschorle (5) 3,50\n\nApfelschorle 3,00\n\nFanta (1,2) 2,50\n\n\(key)\n"
        let a = analyzer.analyze(text: text, perLine: false, profile: AllergenProfile(allergens: [.sulphites, .milk]))
        try #require(a.items.map(\.name) == ["Bratwurst", "Weinschorle", "Apfelschorle", "Fanta"])
        #expect(a.items.allSatisfy { !$0.safetyReasons.contains("unresolved_allergen_codes") && !$0.safetyReasons.contains("missing_allergen_codes") })
        #expect(AllergenFixtures.ids(a.items[1]).contains(.sulphites))
        // The dish table still speaks for the sausage: its numbers declare additives only.
        #expect(AllergenFixtures.ids(a.items[0]).isSuperset(of: [.gluten, .mustard]))
        #expect(MenuAnalyzer.additiveAllergens("mit Farbstoff") == [] && MenuAnalyzer.additiveAllergens("geschwefelt") == [.sulphites])
        #expect(MenuAnalyzer.additiveAllergens("Milch") == nil)
        #expect(MenuAnalyzer.splitAtKeyedCommas("1 = mit Farbstoff, 2 = mit Phosphat, 5 = geschwefelt").count == 3)
        #expect(MenuAnalyzer.splitAtKeyedCommas("A gluten (wheat, oats), B crustaceans").count == 1)
        // A key line that ends in a number whose name the next line holds is read as the
        // comma split reads it ("…, 6 = mit Phosphat, 8" / "= mit Süßungsmittel"): before, the
        // split kept the bare "8" and the legend then refused the whole line.
        let wrapped = "Zusatzstoffe: 1 = mit Farbstoff, 2 = mit Konservierungsstoff, 3 = mit Antioxidationsmittel, 5 = geschwefelt, 8"
        let b = analyzer.analyze(text: "Fanta (1,2) 2,50\n\nWeinschorle (5) 3,50\n\n\(wrapped)\n= mit Süßungsmittel\n",
                                 perLine: false, profile: AllergenProfile(allergens: [.sulphites]))
        try #require(b.items.count >= 2)
        #expect(!b.items[0].safetyReasons.contains("unresolved_allergen_codes"))
        #expect(AllergenFixtures.ids(b.items[1]).contains(.sulphites))
        #expect(MenuAnalyzer.isBareKey("8") && MenuAnalyzer.isBareKey(" P ") && !MenuAnalyzer.isBareKey("Pa") && !MenuAnalyzer.isBareKey("123"))
    }

    /// A numbered menu is no allergen key (round 26). "1. Prawn crackers", "2. Spring rolls", "10. Egg
    /// fried rice" are numbered dishes whose words name allergens (prawn, egg): read as a key's
    /// entries, they left the menu's structure, and "(1, 3)" elsewhere would have read as codes. A
    /// legend entry names an allergen by a food's name, never by a dish's; a food's name that is a
    /// dish's too ("Weizen", "latte") stays a food's.
    @Test func numberedDishesAreNoAllergenKey() {
        let lexicon = AllergenFixtures.lexicon
        #expect(lexicon.allergens(forLegendName: "Prawn crackers") == nil)
        #expect(lexicon.allergens(forLegendName: "Egg fried rice") == nil)
        #expect(lexicon.allergens(forLegendName: "Tomato & Egg") == nil)
        #expect(lexicon.allergens(forLegendName: "Pork & Chinese Cabbage") == nil)
        #expect(lexicon.allergens(forLegendName: "Chicken wings") == nil)
        #expect(lexicon.allergens(forLegendName: "Soya beans") == [.soybeans])
        #expect(lexicon.allergens(forLegendName: "Milk (including lactose)") == [.milk])
        #expect(lexicon.allergens(forLegendName: "Crustaceans") == [.crustaceans])
        #expect(lexicon.allergens(forLegendName: "Weizen") == [.gluten])
        #expect(lexicon.allergens(forLegendName: "latte") == [.milk])
        #expect(lexicon.allergens(forLegendName: "Cereals containing gluten")?.contains(.gluten) == true)
        let texts = ["STARTERS", "1. Prawn crackers", "2. Spring rolls", "3. Chicken satay", "MAINS",
                     "10. Egg fried rice", "11. Beef chow mein", "12. Kung pao chicken", "with peanuts and chilli"]
        let page = PageBuilder.page(texts.enumerated().map { PageBuilder.line($1, x: 40, y: 40 * $0) })
        let a = analyzer.analyze(page: page, profile: nil)
        for dish in texts where dish.first?.isNumber == true {
            #expect(a.items.contains { $0.name.hasSuffix(String(dish.drop { $0 != " " }.dropFirst())) }, "\(dish)")
        }
    }

    /// Keys as two more kinds of menu print them (round 18): a numbered key whose fourteenth
    /// entry is sulphites (before, "Sulphites" was read as an additive, the key had no 14 and
    /// "(1, 2, 5, 7, 14)" stayed unresolved), and a German key of lower-case letters closed by a
    /// bracket, entries parted by spaces only, its codes ending the dish's line before the price.
    @Test func aNumberedKeyWithSulphitesAndABracketKeyOfLowerCaseLetters() throws {
        let numbered = "ALLERGEN KEY: 1 Celery · 2 Cereals containing gluten · 3 Crustaceans · 4 Eggs · 5 Fish · 6 Lupin · "
            + "7 Milk · 8 Molluscs · 9 Mustard · 10 Tree nuts · 11 Peanuts · 12 Sesame · 13 Soya · 14 Sulphites"
        let a = analyzer.analyze(text: "HOT MEALS\nCottage Pie (1, 2, 5, 7, 14)  11.50\nBattered Cod (2, 5)  13.50\n\(numbered)\n",
                                 perLine: false, profile: AllergenProfile(allergens: [.sulphites]))
        try #require(a.items.map(\.name) == ["Cottage Pie", "Battered Cod"])
        #expect(AllergenFixtures.ids(a.items[0]).isSuperset(of: [.celery, .gluten, .fish, .milk, .sulphites]))
        #expect(a.items[0].safety == .unsafe && !a.items[0].safetyReasons.contains("unresolved_allergen_codes"))
        let german = "Allergene: a) glutenhaltiges Getreide b) Krebstiere c) Eier d) Fisch e) Erdnüsse f) Soja g) Milch/Laktose "
            + "h) Schalenfrüchte i) Sellerie j) Senf k) Sesam l) Schwefeldioxid/Sulfite m) Lupinen n) Weichtiere"
        #expect(MenuAnalyzer.legendParts(german).count == 14)
        #expect(MenuAnalyzer.legendParts(german)[6] == "g) Milch and Laktose")
        #expect(MenuAnalyzer.mayOpenWithKey(german) && MenuAnalyzer.mayBeLegendSegment("g) Milch"))
        let b = analyzer.analyze(text: "SUPPEN\nLeberknödelsuppe a,c,g,i  11.50\nBROTZEIT\nWurstsalat a,j,l  13.50\nmit Bauernbrot\n\(german)\n",
                                 perLine: false, profile: AllergenProfile(allergens: [.milk, .mustard]))
        try #require(b.items.map(\.name) == ["Leberknödelsuppe", "Wurstsalat"])
        #expect(AllergenFixtures.ids(b.items[0]).isSuperset(of: [.gluten, .eggs, .milk, .celery]))   // i = Sellerie here, not the A–R letters
        #expect(AllergenFixtures.ids(b.items[1]).isSuperset(of: [.gluten, .mustard, .sulphites]))
        // Without its key, a lower-case list before the price is still read (through the A–R
        // letters, which have no "i": unresolved), never left out.
        let c = analyzer.analyze(text: "SUPPEN\nLeberknödelsuppe a,c,g,i  11.50\n", perLine: false, profile: AllergenProfile(allergens: [.milk]))
        #expect(c.items.first?.safetyReasons.contains("unresolved_allergen_codes") == true)
        #expect(MenuAnalyzer.splitAtBracketKeys("see a) and b) below").count == 1)
    }

    /// Two more key forms (round 19): a key of two capital letters whose last entry joins two
    /// names with a slash ("SU sulphur dioxide/sulphites"; before, that one entry made the whole
    /// key no key), and a key numbered 1 to 14 in a language MenuScan does not read, taken in
    /// Annex II's order because the names it reads sit at their Annex II places — and not taken
    /// when a read name contradicts the order, or when the numbers are not exactly 1 to 14.
    @Test func aTwoCapitalKeyWithASlashAndANumberedKeyInAnnexIIOrder() throws {
        let key = "ALLERGEN KEY: CE celery · EG eggs · GL cereals containing gluten · MI milk · MU mustard · SU sulphur dioxide/sulphites"
        #expect(MenuAnalyzer.legendParts(key).last == "SU sulphur dioxide and sulphites")
        #expect(MenuAnalyzer.legendParts("A-GLUTEN / B-CRUSTACEANS / G-MILK").count == 3)
        let a = analyzer.analyze(text: "Full Irish (GL, EG, MI, SU)  9.50\n\nPorridge (GL, MI)  4.00\n\n\(key)\n",
                                 perLine: false, profile: AllergenProfile(allergens: [.milk]))
        try #require(a.items.map(\.name) == ["Full Irish (GL, EG, MI, SU)", "Porridge (GL, MI)"])
        #expect(AllergenFixtures.ids(a.items[0]) == [.gluten, .eggs, .milk, .sulphites])
        #expect(a.items[1].safety == .unsafe && !a.items[1].safetyReasons.contains("unresolved_allergen_codes"))

        let polish = "Alergeny: 1 – zboża zawierające gluten, 2 – skorupiaki, 3 – jaja, 4 – ryby, 5 – orzeszki ziemne, "
            + "6 – soja, 7 – mleko, 8 – orzechy, 9 – seler, 10 – gorczyca, 11 – nasiona sezamu, "
            + "12 – dwutlenek siarki i siarczyny, 13 – łubin, 14 – mięczaki"
        let menu = "ZUPY\nŻurek z jajkiem (1, 3, 9)  12.00\nPierogi ruskie (1, 3, 7)  18.00\n\(polish)\n"
        let b = analyzer.analyze(text: menu, perLine: false, profile: AllergenProfile(allergens: [.milk]))
        try #require(b.items.count == 2)
        func coded(_ x: MenuAnalysis, _ k: Int) -> Set<AllergenID> { Set(x.items[k].allergens.filter { $0.source == .code }.map(\.id)) }
        #expect(coded(b, 0) == [.gluten, .eggs, .celery] && coded(b, 1) == [.gluten, .eggs, .milk])
        #expect(!b.items[1].safetyReasons.contains("unresolved_allergen_codes"))
        // A read name out of its Annex II place ("6 – gluten"): no key; nor with a number missing.
        let swapped = polish.replacingOccurrences(of: "6 – soja", with: "6 – gluten")
        let c = analyzer.analyze(text: menu.replacingOccurrences(of: polish, with: swapped), perLine: false,
                                 profile: AllergenProfile(allergens: [.milk]))
        #expect(c.items.allSatisfy { $0.safetyReasons.contains("unresolved_allergen_codes") })
        let gap = polish.replacingOccurrences(of: "13 – łubin, ", with: "")
        let d = analyzer.analyze(text: menu.replacingOccurrences(of: polish, with: gap), perLine: false,
                                 profile: AllergenProfile(allergens: [.milk]))
        #expect(d.items.allSatisfy { $0.safetyReasons.contains("unresolved_allergen_codes") })
        #expect(MenuAnalyzer.isAnnexIIOrder(read: [1: [.gluten], 6: [.soybeans]], unnamed: [2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14], additives: []))
        #expect(!MenuAnalyzer.isAnnexIIOrder(read: [1: [.gluten]], unnamed: Array(2...14), additives: []))
        #expect(MenuAnalyzer.annexIIOrder.count == 14 && Set(MenuAnalyzer.annexIIOrder).count == 14)
    }

    /// An Austrian key listed with commas over two lines ("Allergene gemäß EU-VO 1169/2011: A Gluten,
    /// …, G Milch/Laktose, …, O Sulfite, P" / "Lupinen, R Weichtiere") is read, its second line is
    /// no dish, and a lone code letter ending a dish's line ("Jagatee O") is read through it (round 16).
    @Test func aCommaKeyOverTwoLinesAndALoneCodeLetter() throws {
        let text = "Frittatensuppe A,C,G,L 5,00\n\nJagatee O 4,50\n\nAlmdudler 3,50\n\n"
            + "Allergene gemäß EU-VO 1169/2011: A Gluten, B Krebstiere, C Ei, D Fisch, E Erdnuss, F Soja, G Milch/Laktose, "
            + "H Schalenfrüchte, L Sellerie, M Senf, N Sesam, O Sulfite, P\nLupinen, R Weichtiere\n"
        let a = analyzer.analyze(text: text, perLine: false, profile: AllergenProfile(allergens: [.sulphites]))
        #expect(a.items.map(\.name).prefix(3) == ["Frittatensuppe", "Jagatee O", "Almdudler"])
        try #require(a.items.count == 3)
        func coded(_ k: Int) -> Set<AllergenID> { Set(a.items[k].allergens.filter { $0.source == .code }.map(\.id)) }
        #expect(coded(0) == [.gluten, .eggs, .milk, .celery])
        #expect(coded(1) == [.sulphites] && a.items[1].safety == .unsafe)
        #expect(MenuAnalyzer.legendParts("Allergene: A Gluten, B Krebstiere, G Milch/Laktose, P").contains("G Milch and Laktose"))
        #expect(MenuAnalyzer.splitAtKeyedCommas("Ham, Egg, Cheese").count == 1)
    }

    @Test func misreadCodeListsMakeItemsCaution() {
        let legend = "A-GLUTEN / C-EGG / G-MILK / H-NUTS"
        let milk = AllergenProfile(allergens: [.milk])
        // OCR read "A,C,G" as "a,c,c": milk is missing and the repeat shows it
        let a = analyzer.analyze(text: "Fiakergulasch a,c,c 11,90\nBeef goulash\n\(legend)", perLine: false, profile: milk)
        #expect(Set(a.items[0].allergens.map(\.id)) == [.gluten, .eggs])
        #expect(a.items[0].safety == .caution)
        #expect(a.items[0].safetyReasons.contains("unresolved_allergen_codes"))
        let b = analyzer.analyze(text: "Fiakergulasch a,c,g 11,90\nBeef goulash\n\(legend)", perLine: false, profile: milk)
        #expect(b.items[0].safety == .unsafe)
    }

    @Test func itemWithoutCodesOnACodedMenuIsCaution() {
        let text = "Soup (1) 5.00\nStew (1, 2) 9.00\nPie 8.00 (2)\nSteamed rice 3.00\n1 Celery\n2 Gluten\n3 Milk\n"
        let a = analyzer.analyze(text: text, perLine: false, profile: AllergenProfile(allergens: [.milk]))
        #expect(a.items.map(\.name) == ["Soup", "Stew", "Pie", "Steamed rice"])
        #expect(a.items.map(\.safety) == [.safe, .safe, .safe, .caution])
        #expect(a.items.last?.safetyReasons == ["missing_allergen_codes"])
    }

    @Test func itemWithoutCodesIsCautionEvenWhenTheLegendWasNotRead() {
        // The legend is missing (unreadable on a photo): the coded items are
        // caution for their unresolved codes, the uncoded one for its missing codes.
        let text = "Soup (1, 3) 5.00\nStew (1, 2) 9.00\nPie 8.00 (2, 3)\nSteamed rice 3.00\n"
        let a = analyzer.analyze(text: text, perLine: false, profile: AllergenProfile(allergens: [.milk]))
        #expect(a.items.map(\.name) == ["Soup", "Stew", "Pie", "Steamed rice"])
        #expect(a.items.allSatisfy { $0.safety == .caution })
        #expect(a.items.last?.safetyReasons == ["missing_allergen_codes"])
    }

    @Test func codeListsThatLostTheirBracketsMakeItemsCaution() {
        let legend = "1 Celery\n2 Gluten\n3 Milk\n4 Eggs\n"
        let milk = AllergenProfile(allergens: [.milk])
        let a = analyzer.analyze(text: "Tortilla chips with salsa 01, 2, 4, 3) 10.00\n\(legend)", perLine: false, profile: milk)
        #expect(a.items[0].safety == .caution)
        #expect(a.items[0].safetyReasons.contains("unresolved_allergen_codes"))
        // A price with a decimal comma, or two numbers, is not a code list.
        let b = analyzer.analyze(text: "Soup of the day 4,50\nServed with 2, 3 slices of bread\n\(legend)", perLine: false, profile: milk)
        #expect(b.items.allSatisfy { !$0.safetyReasons.contains("unresolved_allergen_codes") })
    }

    @Test func numericCodesWithoutLegendMakeItemsCaution() {
        let a = analyzer.analyze(text: "Plain rice (3, 7) 4.00", perLine: false,
                                 profile: AllergenProfile(allergens: [.milk]))
        #expect(a.items[0].allergens.isEmpty)
        #expect(a.items[0].safety == .caution)
        #expect(a.items[0].safetyReasons.contains("unresolved_allergen_codes"))
    }

    /// Layout A with names wrapped over two lines, the price ending the second: a comma or a
    /// joining word ends the first line, or the second starts in lower case.
    @Test func wrappedNamesEndInThePrice() {
        let text = """
        TARTES FLAMBÉES
        Forestière avec champignons,
        lardons et crème 11,50
        Gratinée aux oignons 9,00
        Croque-monsieur avec
        Salade verte 8,50
        Quiche lorraine 7,00
        """
        let a = analyzer.analyze(text: text, perLine: false, profile: nil)
        #expect(a.items.map(\.name) == ["Forestière avec champignons", "Gratinée aux oignons", "Croque-monsieur avec", "Quiche lorraine"])
        #expect(a.items.map(\.price) == ["11,50", "9,00", "8,50", "7,00"])
        #expect(a.items[0].description == "lardons et crème")
        #expect(a.items[0].section == "TARTES FLAMBÉES")
        #expect(a.items[2].description == "Salade verte")
    }

    /// Right under "NAME PRICE", a description line stays the item's even when an add-on
    /// priced in lower case follows.
    @Test func descriptionBeforeALowerCaseAddOnStaysWithItsItem() {
        let text = "SALADS\nCaesar Salad 9.00\nRomaine, parmesan, croutons\nadd chicken 4.00\nGreek Salad 8.50\nFeta, olives, cucumber\n"
        let a = analyzer.analyze(text: text, perLine: false, profile: nil)
        #expect(a.items.first?.name == "Caesar Salad")
        #expect(a.items.first?.description.contains("Romaine") == true)
        #expect(a.items.contains { $0.name == "Greek Salad" })
    }

    /// A price for every item of a list: after a name ("Apple Pie 3.50 each") or on a line of
    /// its own under the list's header; the list ends at its note or at an item with its own
    /// price, and a header above a priced item is no member.
    @Test func groupPricesGoToEveryItemOfTheirList() {
        let text = """
        PUDDINGS
        Apple Pie 3.50 each
        Sticky Toffee Pudding
        Bread and Butter Pudding
        Served with custard or cream.
        Sides
        Onion Rings 2.80
        SOFT DRINKS
        2.20 each
        Choose from our fridge:
        Cola
        Lemonade
        Ginger Beer
        """
        let a = analyzer.analyze(text: text, perLine: false, profile: nil)
        #expect(a.items.map(\.name) == ["Apple Pie", "Sticky Toffee Pudding", "Bread and Butter Pudding", "Onion Rings",
                                         "Cola", "Lemonade", "Ginger Beer"])
        #expect(a.items.map(\.price) == ["3.50 each", "3.50 each", "3.50 each", "2.80", "2.20 each", "2.20 each", "2.20 each"])
        #expect(a.items.map(\.section) == ["PUDDINGS", "PUDDINGS", "PUDDINGS", "Sides", "SOFT DRINKS", "SOFT DRINKS", "SOFT DRINKS"])
    }

    @Test(arguments: [("Cake 2.95 any", "Cake 2.95", "any"), ("Tea £1.80 each", "Tea £1.80", "each"), ("Kugel 1,50 je", "Kugel 1,50", "je"),
                      ("Apple each", "Apple each", nil), ("Serves any", "Serves any", nil), ("each", "each", nil), ("", "", nil)])
    func groupWordsFollowAPrice(_ line: String, _ rest: String, _ word: String?) {
        let s = MenuStructurer.splittingGroupWord(line)
        #expect(s.text == rest)
        #expect(s.groupWord == word)
    }

    /// A menu that writes its names in lower case: a lower-case start is no wrap there.
    @Test func lowerCaseNamesAreNotWraps() {
        let text = "Starters\nburrata 9\nsoup of the day 6\nbruschetta 7\nSmall Plates\ncalamari 8\nolives 4\n"
        let a = analyzer.analyze(text: text, perLine: false, profile: nil)
        #expect(a.items.map(\.name) == ["burrata", "soup of the day", "bruschetta", "calamari", "olives"])
    }

    /// Layout B (name, description, price at its end) with Title Case headers: a header above
    /// a one-line item on a page that has one-line items, and a header with a tagline ending
    /// in "!" above an item.
    @Test func titleCaseHeadersInLayoutB() {
        let text = """
        Aus dem Ofen
        immer frisch!
        Käsespätzle
        mit Röstzwiebeln und Bergkäse 10,50
        Ofenkartoffel
        mit Kräuterquark 7,20
        Suppen
        Kartoffelsuppe 4,80
        Tomatensuppe 4,50
        Gulaschsuppe 5,90
        Rinderbrühe
        mit Flädle und Schnittlauch 5,20
        Apfelstrudel
        mit Vanillesoße 5,50
        """
        let a = analyzer.analyze(text: text, perLine: false, profile: nil)
        #expect(a.items.map(\.name) == ["Käsespätzle", "Ofenkartoffel", "Kartoffelsuppe", "Tomatensuppe", "Gulaschsuppe", "Rinderbrühe", "Apfelstrudel"])
        #expect(a.items.map(\.section) == ["Aus dem Ofen", "Aus dem Ofen", "Suppen", "Suppen", "Suppen", "Suppen", "Suppen"])
        #expect(a.items.map(\.price) == ["10,50", "7,20", "4,80", "4,50", "5,90", "5,20", "5,50"])
    }

    @Test func sectionNotesApplyToTheSectionsItems() {
        let text = """
        PIZZAS
        All our pizzas are cooked on a thin crust.
        The Veg
        Cheese | Peppers | Olives  $11.00
        The Classic
        Pepperoni | Cheese  $11.00
        """
        let a = analyzer.analyze(text: text, perLine: false, profile: nil)
        #expect(a.items.map(\.name) == ["The Veg", "The Classic"])
        for item in a.items { #expect(item.allergens.contains { $0.id == .gluten }, "\(item.name)") }
        #expect(a.items[0].dietary == .vegetarian)
        #expect(a.items[1].dietary == .not_vegetarian)
    }

    @Test func sectionHeaderIsContextForItsItems() {
        let text = "Hot SANDWICHES\nthe CUBAN $9.5\nbraised pork, muenster cheese\nSALADS\nthe GREEN $7\nlettuce, cucumber\n"
        let a = analyzer.analyze(text: text, perLine: false, profile: nil)
        #expect(a.items.map(\.name) == ["the CUBAN", "the GREEN"])
        #expect(Set(a.items[0].allergens.map(\.id)) == [.gluten, .milk])
        #expect(a.items[0].allergens.first { $0.id == .gluten }?.evidence == ["SANDWICHES"])
        #expect(a.items[1].allergens.isEmpty)
    }

    @Test func textWithoutMenuStructureIsOneDish() {
        let a = analyzer.analyze(text: "Chicken satay\nwith peanut sauce and rice", perLine: false, profile: nil)
        #expect(a.items.count == 1)
        #expect(a.items[0].name == "Chicken satay")
        #expect(a.items[0].description == "with peanut sauce and rice")
        #expect(a.items[0].allergens.map(\.id) == [.peanuts])
    }

    @Test func perLineMakesEveryLineAnItem() {
        let a = analyzer.analyze(text: "Butter chicken\n\nPeanut salad $5\nWater", perLine: true, profile: nil)
        #expect(a.items.map(\.name) == ["Butter chicken", "Peanut salad", "Water"])
        #expect(a.items[1].price == "$5")
        #expect(a.items.allSatisfy { $0.confidence == 1 && $0.confidenceLevel == .high })
        #expect(a.items.allSatisfy { $0.box == nil && $0.words.isEmpty })
    }
}

@Suite struct MenuPageTests {
    let analyzer = AllergenFixtures.analyzer

    @Test func columnsSplitByADividerKeepTheirDescriptions() {
        // Two columns 10 px apart with a ruling line between them, which OCR
        // read as "|" on some rows: no gutter for the structurer's own column
        // finder, which reads the rows across. The reading-order regions keep
        // each column's items and descriptions apart.
        let rows: [(String, String, Int)] = [
            ("Prawn cocktail 9.50", "Tofu rice bowl 8.50", 0),
            ("prawns, marie rose sauce", "rice, tofu, spring onion", 40),
            ("Cheese board 11.00", "Fruit plate 5.50", 200),
            ("cheddar, brie, crackers", "melon, grapes, mint", 240),
        ]
        let lines = rows.enumerated().map { n, row in
            let bar = n % 2 == 0 ? [OCRWord(text: "|", confidence: 0.5, box: Box(x: 258, y: row.2, width: 4, height: 20))] : []
            return PageBuilder.acrossColumns(row.0, row.1, rightX: 270, y: row.2, between: bar)
        }
        let divider = RuleLine(axis: .vertical, position: 265, start: -10, end: 300)
        let merged = analyzer.analyze(page: PageBuilder.page(lines), profile: nil)
        #expect(merged.items.count < 4)  // what the structurer alone makes of it: rows read across merge
        let page = ReadingOrder().apply(to: PageBuilder.page(lines), rules: [divider]).page
        let a = analyzer.analyze(page: page, profile: AllergenProfile(allergens: [.crustaceans, .milk]))
        #expect(!a.items.contains { $0.name.contains("|") })  // the divider glyph is not part of a name
        let byName = Dictionary(a.items.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(a.items.count == 4)
        #expect(byName["Tofu rice bowl"]?.description == "rice, tofu, spring onion")
        #expect(byName["Tofu rice bowl"]?.safety == .safe)
        #expect(byName["Fruit plate"]?.description == "melon, grapes, mint")
        #expect(byName["Fruit plate"]?.safety == .safe)
        #expect(byName["Cheese board"]?.safety == .unsafe)
        #expect(byName["Prawn cocktail"]?.safety == .unsafe)
    }

    @Test func twoColumnsDoNotMergeItems() {
        // Tesseract read each row across both columns as one line.
        let rows: [(String, String, Int)] = [
            ("STARTERS", "DESSERTS", 0),
            ("Prawn cocktail 7.50", "Almond tart 5.00", 40),
            ("with marie rose sauce", "with custard", 70),
            ("Tomato soup 5.50", "Fruit salad 4.00", 110),
            ("with basil", "fresh seasonal fruit", 140),
        ]
        let lines = rows.map { PageBuilder.acrossColumns($0.0, $0.1, rightX: 600, y: $0.2) }
        let a = analyzer.analyze(page: PageBuilder.page(lines), profile: nil)
        #expect(a.items.map(\.name) == ["Prawn cocktail", "Tomato soup", "Almond tart", "Fruit salad"])
        #expect(a.items.map(\.section) == ["STARTERS", "STARTERS", "DESSERTS", "DESSERTS"])
        let prawn = a.items[0], tart = a.items[2], fruit = a.items[3]
        #expect(Set(prawn.allergens.map(\.id)) == [.crustaceans, .eggs]) // marie rose sauce is mayonnaise-based
        #expect(Set(tart.allergens.map(\.id)) == [.tree_nuts, .gluten, .eggs, .milk])
        #expect(fruit.allergens.isEmpty)
        // boxes stay within their column
        #expect(prawn.box!.maxX < 600)
        #expect(tart.box!.x >= 600)
        #expect(tart.words.map(\.text) == ["Almond", "tart", "5.00", "with", "custard"])
    }

    @Test("on a photo tilted 2°, a price read a line higher still joins its item")
    func tiltedPhotoPricesJoinTheirItems() {
        // y rises 0.035 px per px to the right: prices at x 850 sit ~25 px above their names.
        func tilted(_ text: String, x: Int, y: Int) -> OCRLine { PageBuilder.tilted(text, x: x, y: y, rise: -0.035) }
        let rows: [(String, String, Int)] = [("Garlic Prawns", "11.00", 100), ("Burrata", "10.50", 190), ("Falafel", "8.00", 280)]
        var lines: [OCRLine] = []
        for (name, _, y) in rows {
            lines.append(tilted(name, x: 100, y: y))
            lines.append(tilted("chilli, white wine, sourdough, garlic", x: 120, y: y + 30))
        }
        lines += rows.map { tilted($0.1, x: 850, y: $0.2) }
        let a = analyzer.analyze(page: PageBuilder.page(lines), profile: nil)
        #expect(a.items.map(\.name) == ["Garlic Prawns", "Burrata", "Falafel"])
        #expect(a.items.map(\.price) == ["11.00", "10.50", "8.00"])
        #expect(PageLayout.slope(of: PageBuilder.page(lines)) < -0.03)
    }

    @Test("a price printed with its calorie count in a column of its own joins its tilted row")
    func priceAndCaloriesColumnJoinTheirItems() {
        func tilted(_ text: String, x: Int, y: Int) -> OCRLine { PageBuilder.tilted(text, x: x, y: y, rise: 0.035) }
        let rows: [(String, String, Int)] = [("BEEF FRITTERS", "15 650 Cal", 100), ("TOFU STEW", "3 640 Cal", 190),
                                             ("CHICKEN GRATIN", "12.5 530 Cal", 280)]
        var lines: [OCRLine] = []
        for (name, _, y) in rows {
            lines.append(tilted(name, x: 100, y: y))
            lines.append(tilted("chilli, white wine, sourdough, garlic", x: 120, y: y + 30))
        }
        lines += rows.map { tilted($0.1, x: 850, y: $0.2) }
        // The page layout puts each price (and its calories) on its name's line.
        let segs = PageBuilder.segmentTexts(lines)
        #expect(segs.contains("BEEF FRITTERS 15 650 Cal"))
        #expect(segs.contains("CHICKEN GRATIN 12.5 530 Cal"))
        let a = analyzer.analyze(page: PageBuilder.page(lines), profile: nil)
        #expect(a.items.map(\.name) == ["BEEF FRITTERS", "TOFU STEW", "CHICKEN GRATIN"])
        #expect(a.items.map(\.price) == ["15", "3", "12.5"])
        #expect(PageLayout.isLonePriceOrCalories("15 650 Cal"))
        #expect(!PageLayout.isLonePriceOrCalories("640 Cal"))  // calories alone stay where they are
    }

    /// Three columns read across as one row, the leader dots of the first not read: the wide
    /// gap splits the row, and the price that starts the middle part is its left name's.
    @Test func aPriceThatStartsThePartAfterAWideGapIsItsLeftNamesPrice() {
        func w(_ t: String, _ x: Int) -> OCRWord { OCRWord(text: t, confidence: 0.9, box: Box(x: x, y: 100, width: 10 * t.count, height: 20)) }
        let words = [w("Gulaschsuppe", 20), w("5,80", 300), w("Gebackener", 360), w("Kibbeling", 470), w("mit", 570),
                     w("Strindberg", 800)]
        let line = OCRLine(box: words.dropFirst().reduce(words[0].box) { $0.union($1.box) }, words: words)
        let segs = PageBuilder.segmentTexts([line])
        #expect(segs == ["Gulaschsuppe 5,80", "Gebackener Kibbeling mit", "Strindberg"])
        // Ordinary word spacing after a price inside one dish's line keeps the line whole.
        #expect(PageLayout.splitLeadingPrice([w("5,80", 0), w("Served", 45), w("with", 110)]).count == 1)
        #expect(PageLayout.splitLeadingPrice([w("5,80", 0), w("Served", 60), w("with", 125)]).count == 2)
        // Leaders, a word or a lower-case continuation are not a price and a dish.
        #expect(PageLayout.splitLeadingPrice([w(".....", 0), w("Served", 80), w("with", 145)]).count == 1)
        #expect(PageLayout.splitLeadingPrice([w("5,80", 0), w("served", 80), w("with", 145)]).count == 1)
    }

    /// Two columns, each dish's price printed under its name: a price at the start of the
    /// right column's lines is its own dish's, not the left column's row beside it (round 12).
    @Test func aPriceUnderItsDishStaysInItsColumn() {
        let lines = [
            PageBuilder.line("Soup of the day", x: 20, y: 70),
            PageBuilder.line("served with bread and butter", x: 20, y: 100),
            PageBuilder.line("7.50", x: 20, y: 130),
            PageBuilder.line("Lentil Soup", x: 600, y: 70),
            PageBuilder.line("18.00", x: 600, y: 100),
            PageBuilder.line("Green Salad", x: 600, y: 160),
            PageBuilder.line("9.00", x: 600, y: 190),
        ]
        let segs = PageBuilder.segmentTexts(lines)
        #expect(segs.contains("served with bread and butter"))
        #expect(segs.contains("18.00"))
        let a = analyzer.analyze(page: PageBuilder.page(lines), profile: nil)
        #expect(a.items.map(\.name) == ["Soup of the day", "Lentil Soup", "Green Salad"])
        #expect(a.items.map(\.price) == ["7.50", "18.00", "9.00"])
    }

    @Test func priceFarRightStaysWithItsName() {
        let name = PageBuilder.line("Garlic bread", x: 20, y: 0)
        let price = PageBuilder.line("4.50", x: 700, y: 0)
        let l1 = OCRLine(box: name.box.union(price.box), words: name.words + price.words)
        let l2 = PageBuilder.line("Pesto pasta", x: 20, y: 40)
        let l3 = PageBuilder.line("9.00", x: 700, y: 40)
        let a = analyzer.analyze(page: PageBuilder.page([l1, l2, l3]), profile: nil)
        #expect(a.items.map(\.name) == ["Garlic bread", "Pesto pasta"])
        #expect(a.items.map(\.price) == ["4.50", "9.00"])
    }

    @Test func itemAndMenuConfidenceComeFromWordConfidences() {
        let lines = [
            PageBuilder.line("Cheese omelette 7.00", x: 0, y: 0, confidence: 0.9),
            PageBuilder.line("Green salad 5.00", x: 0, y: 40, confidence: 0.6),
            PageBuilder.line("Tomato soup 5.00", x: 0, y: 80, confidence: nil, confidences: ["Tomato": 0.8, "soup": 0.7, "5.00": 0.9]),
        ]
        let a = analyzer.analyze(page: PageBuilder.page(lines), profile: nil)
        #expect(a.items.count == 3)
        #expect(abs(a.items[0].confidence - 0.9) < 1e-9)
        #expect(a.items[0].confidenceLevel == .high)
        #expect(a.items[1].confidenceLevel == .low)
        #expect(abs(a.items[2].confidence - 0.8) < 1e-9)
        #expect(a.items[2].confidenceLevel == .medium)
        #expect(abs(a.confidence - (0.9 + 0.6 + 0.8) / 3) < 0.001)
        #expect(a.confidenceLevel == .medium)
        #expect(a.items[0].box == Box(x: 0, y: 0, width: 200, height: 20))
    }

    @Test func confidenceLevelThresholds() {
        #expect(ConfidenceLevel(confidence: 0.86) == .high)
        #expect(ConfidenceLevel(confidence: 0.85) == .medium)
        #expect(ConfidenceLevel(confidence: 0.66) == .medium)
        #expect(ConfidenceLevel(confidence: 0.65) == .low)
    }

    @Test func lowOCRConfidenceLowersEvidenceConfidence() {
        let good = PageBuilder.line("Peanut satay 9.00", x: 0, y: 0, confidence: 0.95)
        let weak = PageBuilder.line("Peanut satay 9.00", x: 0, y: 0, confidence: 0.95, confidences: ["Peanut": 0.5])
        let g = analyzer.analyze(page: PageBuilder.page([good]), profile: nil).items[0]
        let w = analyzer.analyze(page: PageBuilder.page([weak]), profile: nil).items[0]
        let gc = g.allergens.first { $0.id == .peanuts }!.confidence
        let wc = w.allergens.first { $0.id == .peanuts }!.confidence
        #expect(wc < gc)
    }
}

/// A heading in capitals with an annotation in lower case (round 29): its items are under it, and
/// a note about its kind speaks for them.
@Suite struct AnnotatedHeadingTests {
    @Test("the head of an annotated line", arguments: [
        ("PASTIES (Large / Medium)", "PASTIES"), ("FISH (regular / large)", "FISH"),
        ("PLATES – with red rice & finadene", "PLATES"), ("PIZZA [30 cm]", "PIZZA"),
        ("SOUPS", nil), ("(Large)", nil), ("PIZZA (30)", nil), ("Fish - 12.50", nil),
    ] as [(String, String?)])
    func head(line: String, head: String?) {
        #expect(MenuStructurer.annotatedHead(line) == head)
    }

    @Test("items under an annotated heading in capitals are in its section, and its kind's note applies")
    func sectionAndNote() {
        let text = """
        All our pasties are made with shortcrust pastry (wheat flour, butter, lard) and glazed with egg.

        PASTIES (Large / Medium)

        Traditional Cornish  11.50
        beef skirt, potato, swede, onion

        PLATES – with red rice

        Fried Reef Fish  17.50

        DRINKS

        Apple Juice  3.50
        """
        let items = AllergenFixtures.analyzer.analyze(text: text, perLine: false,
                                                      profile: AllergenProfile(allergens: [.gluten, .eggs])).items
        let pasty = items.first { $0.name == "Traditional Cornish" }
        #expect(pasty?.section == "PASTIES (Large / Medium)")
        let held: Set<AllergenID> = Set(pasty?.allergens.map(\.id) ?? [])
        #expect(held.isSuperset(of: [.gluten, .eggs, .milk]))
        #expect(items.first { $0.name == "Fried Reef Fish" }?.section == "PLATES – with red rice")
        // the juice is under DRINKS, which the pasties' note does not name
        #expect(items.first { $0.name == "Apple Juice" }?.allergens.isEmpty == true)
    }
}
