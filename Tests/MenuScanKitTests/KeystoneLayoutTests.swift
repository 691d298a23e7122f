import Foundation
import PropertyBased
import Testing
@testable import MenuScanKit

/// Round 14: a photo taken from below or above the page's centre tilts its rows by different
/// amounts (keystone), so a far-right price column drifts from its names by a different
/// amount on each row; and a dish whose price was not read is no heading on a page whose
/// headings stand out by size.
@Suite struct KeystoneLayoutTests {
    /// Lines (text, role, y, text height) one under another through the role structurer.
    private func structure(_ rows: [(String, LineRole, Int, Int)]) -> RoleStructurer.Output {
        let lines = rows.map { text, _, y, h in StructLine(text: text, words: [], ocrWords: tline(text, x: 40, y: y, h: h).words) }
        return RoleStructurer(lines: lines, runs: [Array(lines.indices)], legendLines: [], roles: rows.map(\.1),
                              nameProbability: rows.map { $0.1 == .name ? 0.8 : 0.1 }).run()
    }

    /// A line whose words move `rise(y)` px down per px right of x = 100.
    private func keystoned(_ text: String, x: Int, y: Int, rise: (Int) -> Double) -> OCRLine {
        PageBuilder.tilted(text, x: x, y: y, rise: rise(y))
    }

    /// The top rows rise 0.045 px a px to the right, the bottom ones 0.005: a price 750 px right
    /// of its name sits 34 px above it at the top and 4 px at the bottom. One slope for the page
    /// puts the top prices a row off; the slope read down the page keeps every price on its row.
    @Test func pricesFollowTheSlopeOfTheirOwnRow() {
        let rise: (Int) -> Double = { y in -0.045 + 0.00005 * Double(y - 100) }
        let rows: [(String, String, Int)] = [("Garlic Prawns", "11.00", 100), ("Burrata", "10.50", 190), ("Falafel", "8.00", 280),
                                             ("Lamb Kofta", "14.00", 370), ("Sea Bass", "18.00", 460), ("Risotto", "13.00", 550),
                                             ("Tiramisu", "6.00", 640), ("Panna Cotta", "6.50", 730), ("Affogato", "5.00", 820)]
        var lines: [OCRLine] = []
        for (name, _, y) in rows {
            lines.append(keystoned(name, x: 100, y: y, rise: rise))
            lines.append(keystoned("chilli, white wine, sourdough, garlic", x: 120, y: y + 30, rise: rise))
        }
        let prices = rows.map { keystoned($0.1, x: 850, y: $0.2, rise: rise) }
        lines += prices
        let page = PageBuilder.page(lines)
        let a = MenuAnalyzer(lexicon: AllergenFixtures.lexicon).analyze(page: page, profile: nil)
        #expect(a.items.map(\.name) == rows.map(\.0))
        #expect(a.items.map(\.price) == rows.map(\.1))
        // The page's one median slope would have missed the top rows' prices.
        let segments = lines.map { l in PageLayout.Segment(words: l.words, box: l.box, region: 0) }
        let flat = PageLayout.attachLonePrices(segments, slope: .init(a: PageLayout.slope(of: page)))
        #expect(flat.contains { $0.words.map(\.text) == ["Garlic", "Prawns", "11.00"] } == false)
    }

    /// The slope is read from runs of text, not from lines Tesseract read across to a price of
    /// another row, and a run the first fit misses by far is left out of the second.
    @Test func theFieldFollowsTheRunsAndIgnoresAStrayOne() {
        let truth: (Double) -> Double = { y in -0.03 + 0.00004 * (y - 100) }
        var samples = stride(from: 100.0, through: 900.0, by: 100.0).map {
            PageLayout.SlopeField.Sample(slope: truth($0), y: $0, weight: 40_000)
        }
        samples.append(.init(slope: 0.09, y: 300, weight: 200_000))   // a line across two rows
        let field = PageLayout.SlopeField(samples: samples, top: 80, bottom: 940)
        for y in [100.0, 500.0, 900.0] { #expect(abs(field.value(y) - truth(y)) < 0.002, "y \(y)") }
        // Too few runs, or runs bunched at one height: one slope, the runs' median.
        let few = PageLayout.SlopeField(samples: Array(samples.prefix(3)), top: 80, bottom: 940)
        #expect(few.b == 0 && few.a == samples[1].slope)
        let bunched = PageLayout.SlopeField(samples: samples.map { .init(slope: $0.slope, y: 100 + $0.y / 100, weight: $0.weight) },
                                            top: 0, bottom: 1000)
        #expect(bunched.b == 0)
        // On an untilted page with a run of three words: the slope is that run's.
        let words = tline("Grilled sea bass", x: 40, y: 200).words
        #expect(PageLayout.SlopeField.Sample(words: words)?.slope == 0)
        #expect(PageLayout.SlopeField.Sample(words: Array(words.prefix(2))) == nil)
    }

    /// Any runs at all — zero, huge and negative weights and heights, flat or vertical — give a
    /// finite fit, and a slope within ±0.1 everywhere, without a trap.
    @Test func theFieldIsAlwaysFiniteAndBounded() {
        let sample = zip(Gen.int(in: -2000...2000), Gen.int(in: -5000...5000), Gen.int(in: 0...4))
            .map { s, y, w in PageLayout.SlopeField.Sample(slope: Double(s) / 1000, y: Double(y), weight: [0, 1e-9, 1, 5e4, 1e12][w]) }
        let gen = zip(sample.array(of: 0...20), Gen.int(in: -5000...5000), Gen.int(in: -6000...6000))
        var rng = Xoshiro(seed: (41, 0x9E37_79B9_7F4A_7C15, 41 &* 31 &+ 7, 0xD1B5_4A32_D192_ED03))
        for i in 0..<500 {
            let (runs, top, y) = gen.run(using: &rng)
            let field = PageLayout.SlopeField(samples: runs, top: Double(top), bottom: Double(top) + 900)
            // The fit itself is finite (`value` would clamp a NaN to 0 and hide it).
            #expect(field.a.isFinite && field.b.isFinite && field.y0.isFinite, "iteration \(i)")
            let v = field.value(Double(y))
            #expect(v.isFinite && abs(v) <= 0.1, "iteration \(i)")
        }
    }

    /// Headings that stand out by size (BREAD, CAKES over names in body type): a name line
    /// without a price between priced ones is a dish whose price was not read, not a heading.
    /// Where the headings are set like the names, such a line still opens a section (round 12's
    /// "STARTERS" in body type).
    @Test func aDishWithoutItsPriceIsNoHeadingWhereHeadingsStandOut() {
        let bakery: [(String, LineRole, Int, Int)] = [
            ("BREAD", .header, 0, 32), ("COUNTRY SOURDOUGH 6", .name, 50, 20), ("SEEDED RYE 7", .name, 80, 20),
            ("BAGUETTE", .name, 110, 20), ("SPELT LOAF 7", .name, 140, 20),
            ("CAKES", .header, 190, 32), ("CARROT CAKE 4", .name, 240, 20), ("BROWNIE 3", .name, 270, 20)]
        let out = structure(bakery)
        #expect(out.items.map(\.name) == ["COUNTRY SOURDOUGH", "SEEDED RYE", "BAGUETTE", "SPELT LOAF", "CARROT CAKE", "BROWNIE"])
        #expect(out.items.map(\.section) == ["BREAD", "BREAD", "BREAD", "BREAD", "CAKES", "CAKES"])
        // The same page with its headings in body type: the bare line is a heading, as before.
        let flat = structure(bakery.map { ($0.0, $0.1, $0.2, 20) })
        #expect(flat.items.map(\.name) == ["COUNTRY SOURDOUGH", "SEEDED RYE", "SPELT LOAF", "CARROT CAKE", "BROWNIE"])
        #expect(flat.items[2].section == "BAGUETTE")
        // The test itself: a heading-sized line may be one; a name-sized one may not.
        let sizes = RoleStructurer.headingSizes(headings: [32, 30], pricedNames: [20, 21, 19])
        #expect(sizes?.headings == [30, 32] && sizes?.name == 20)
        #expect(RoleStructurer.mayBeHeading(height: 31, sizes: sizes) && !RoleStructurer.mayBeHeading(height: 20, sizes: sizes)
                && !RoleStructurer.mayBeHeading(height: 24, sizes: sizes))
        // A title among the headings: a heading the size of the smaller ones still may be one.
        let titled = RoleStructurer.headingSizes(headings: [60, 26], pricedNames: [20, 20])
        #expect(RoleStructurer.mayBeHeading(height: 26, sizes: titled) && !RoleStructurer.mayBeHeading(height: 21, sizes: titled))
        #expect(RoleStructurer.headingSizes(headings: [22, 22], pricedNames: [20, 20]) == nil)
        #expect(RoleStructurer.headingSizes(headings: [32], pricedNames: [20, 20]) == nil)
        #expect(RoleStructurer.mayBeHeading(height: 20, sizes: nil))
    }

    /// A heading set large whose note carries a supplement ("Sub a gluten-free bun +$2"), or
    /// opens with the heading's word ("Wings are served with…"), is the section's heading and
    /// the note its note: the burgers inherit the brioche bun (found on the drawn tune photos).
    @Test func aLargeHeadingOverItsNoteOpensTheSection() {
        let rows: [(String, LineRole, Int, Int)] = [
            ("STARTERS", .header, 0, 32), ("ONION RINGS 6", .name, 50, 20), ("FRIES 4", .name, 80, 20),
            ("BURGERS", .name, 130, 32), ("All burgers come on a toasted brioche bun with house sauce", .description, 180, 20),
            ("Sub a gluten-free bun +$2", .description, 205, 20), ("THE CLASSIC 13", .name, 240, 20),
            ("GARDEN BURGER 15", .name, 270, 20),
            ("WINGS", .name, 320, 32), ("Wings are served with celery sticks and blue cheese", .description, 370, 20),
            ("BUFFALO WINGS 12", .name, 400, 20), ("DRY RUB WINGS 9", .name, 430, 20),
            ("DRINKS", .header, 480, 32), ("LEMONADE 4", .name, 530, 20)]
        let out = structure(rows)
        #expect(out.items.map(\.name) == ["ONION RINGS", "FRIES", "THE CLASSIC", "GARDEN BURGER", "BUFFALO WINGS", "DRY RUB WINGS", "LEMONADE"])
        #expect(out.items.map(\.section) == ["STARTERS", "STARTERS", "BURGERS", "BURGERS", "WINGS", "WINGS", "DRINKS"])
        #expect(out.items[2].noteLines == [4, 5] && out.items[4].noteLines == [9])
        // The same lines in body type: "Wings are served…" has no "all" or "our", so WINGS
        // stays a dish there, as before (a dish's description may open with its name's word).
        let flat = structure(rows.map { ($0.0, $0.1, $0.2, 20) })
        #expect(flat.items.map(\.name).contains("WINGS"))
    }

    /// A two-column list of dishes in capitals with prices under them, under a tall title that
    /// crosses the gutter: the names that share their left edge make the columns, the title and
    /// a centred heading do not, so each column is read on its own (found on the drawn tune photos).
    @Test func capitalNamesThatShareTheirLeftEdgeMakeColumns() {
        func seg(_ text: String, x: Int, y: Int, h: Int = 20) -> PageLayout.Segment {
            let l = tline(text, x: x, y: y, h: h)
            return PageLayout.Segment(words: l.words, box: l.box)
        }
        // The title ends a few pixels right of the left column's longest line and runs into the
        // right column: with the names left out of the coverage, nothing showed a gutter.
        var segs = [seg("Maple & Rye", x: 575, y: 0, h: 70)]
        let left = [("HOUSE LAGER", "15"), ("HEFEWEIZEN", "12.50"), ("PALE ALE", "22"), ("DRY CIDER", "12")]
        let right = [("GIN & TONIC", "18"), ("NEGRONI", "11"), ("MOJITO", "4"), ("BLOODY MARY", "26")]
        segs.append(seg("SPIRITS & COCKTAILS", x: 860, y: 100, h: 30))
        for (k, (name, price)) in left.enumerated() {
            segs.append(seg(name, x: 100 + k * 4, y: 160 + 80 * k)); segs.append(seg(price, x: 100 + k * 4, y: 190 + 80 * k))
        }
        for (k, (name, price)) in right.enumerated() {
            segs.append(seg(name, x: 800 + k * 4, y: 170 + 80 * k)); segs.append(seg(price, x: 800 + k * 4, y: 200 + 80 * k))
        }
        let description = "brewed with barley, gluten-reduced to 20ppm"
        segs.append(seg(description, x: 108, y: 335))
        let runs = PageLayout.runs(within: segs)
        let texts = runs.map { $0.map { segs[$0].words.map(\.text).joined(separator: " ") } }
        // Every left-column line in one run, in order, apart from every right-column line.
        var leftTexts = left.flatMap { [$0.0, $0.1] }
        leftTexts.insert(description, at: 5)
        let rightTexts = right.flatMap { [$0.0, $0.1] }
        #expect(texts.contains { Array($0.filter(leftTexts.contains)) == leftTexts && !$0.contains(where: rightTexts.contains) })
        #expect(texts.contains { Array($0.filter(rightTexts.contains)) == rightTexts && !$0.contains(where: leftTexts.contains) })
    }

    /// Columns stand side by side: a centred title, its tagline and a short heading set one under
    /// another, alternating from left to right with a gap between the two short ones, are read in
    /// order as one run (round 27, an unlabelled German menu read its heading "Suppen" before its
    /// title). Two lines side by side do make columns.
    @Test func linesStackedOneUnderAnotherMakeNoColumns() {
        func seg(_ text: String, x: Int, y: Int, h: Int) -> PageLayout.Segment {
            let l = tline(text, x: x, y: y, h: h)
            return PageLayout.Segment(words: l.words, box: l.box)
        }
        let segs = [seg("Gundelhard", x: 159, y: 17, h: 38), seg("Waldgasthof", x: 243, y: 74, h: 18), seg("Suppen", x: 178, y: 115, h: 14)]
        let runs = PageLayout.runs(within: segs)
        #expect(runs == [[0, 1, 2]])
        let box = { (x: Int, y: Int) in Box(x: x, y: y, width: 50, height: 20) }
        #expect(!PageLayout.sideBySide([[box(0, 0), box(0, 100)], [box(100, 50)]]))
        #expect(PageLayout.sideBySide([[box(0, 0), box(0, 100)], [box(100, 105)]]))
        #expect(!PageLayout.sideBySide([[box(0, 0)], [box(100, 15)]]))
        #expect(!PageLayout.sideBySide([[box(0, 0)]]) && !PageLayout.sideBySide([]))
    }
}
