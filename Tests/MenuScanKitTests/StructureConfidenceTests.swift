import Foundation
import Testing
@testable import MenuScanKit


private func onePage(_ lines: [OCRLine]) -> OCRPage {
    OCRPage(blocks: [OCRBlock(box: lines.dropFirst().reduce(lines[0].box) { $0.union($1.box) }, lines: lines)])
}

@Suite struct StructureConfidenceTests {
    let analyzer = AllergenFixtures.analyzer

    @Test func linesHoldingTwoDishesAreRecognised() {
        #expect(StructureConfidence.holdsTwoItems("Gulaschsuppe ........ 5,80 Gebackener Kibbeling mit"))
        #expect(StructureConfidence.holdsTwoItems("Pomegranate and new ............ MUSHROOM KEBAB"))
        #expect(StructureConfidence.holdsTwoItems("Remoulade u. Pommes Frites .8,50 Senf-Zwiebelkruste, Grilltomate"))
        #expect(StructureConfidence.holdsTwoItems("Tomato Soup $6.50 Grilled Salmon with dill"))
        // A menu's own lines: leaders up to the price, sizes, a note after the price.
        #expect(!StructureConfidence.holdsTwoItems("Tomato Soup .............. 5.50"))
        #expect(!StructureConfidence.holdsTwoItems("Glass 6.50 Bottle 24.00"))
        #expect(!StructureConfidence.holdsTwoItems("Pizza Margherita 9.50 / 12.50"))
        #expect(!StructureConfidence.holdsTwoItems("Burger £11.50 (add bacon +2)"))
        #expect(!StructureConfidence.holdsTwoItems("Chicken Wrap 450 Cal"))
        #expect(!StructureConfidence.holdsTwoItems("slow-cooked beef with red wine and thyme"))
    }

    @Test func factorFallsWithEachKindOfWeakEvidence() {
        let clean = StructureConfidence(coverage: 0.9, fragmented: 0.1, crossColumn: 0)
        #expect(clean.factor == 1)
        // Half the text explained.
        #expect(abs(StructureConfidence(coverage: 0.4, fragmented: 0, crossColumn: 0).factor - 0.5) < 1e-9)
        // Half the lines alone in their run.
        #expect(abs(StructureConfidence(coverage: 0.9, fragmented: 0.5, crossColumn: 0).factor - 0.7) < 1e-9)
        // One line in ten holds two dishes.
        #expect(abs(StructureConfidence(coverage: 0.9, fragmented: 0, crossColumn: 0.1).factor - 0.7) < 1e-9)
        // Never below the floor, never above 1.
        #expect(StructureConfidence(coverage: 0, fragmented: 1, crossColumn: 1).factor == StructureConfidence.floor)
    }

    @Test func fragmentationCountsTextLinesAloneInTheirRun() {
        let texts = ["SOUPS", "Tomato 5", "Leek 6", "Pea 5", "stray", "—", "end", "Bean 4", "Corn 3", "Kale 5", "Rice 2"]
        let lines = texts.map { StructLine(text: $0, words: [], ocrWords: []) }
        // 10 text lines ("—" is none); alone in their run: "stray" (with "—") and "end".
        let runs = [[0, 1, 2, 3], [4, 5], [6], [7, 8, 9, 10]]
        let f = StructureConfidence.fragmentation(lines: lines, runs: runs, legendLines: [])
        #expect(abs(f - 2.0 / 10.0) < 1e-9)
        // A page of fewer text lines: lone lines are no evidence.
        let small = StructureConfidence.fragmentation(lines: lines, runs: [[0], [1], [2], [3]], legendLines: [])
        #expect(small == 0)
    }

    /// Two columns of dishes with leaders read straight across (Tesseract's failure on a
    /// leader-filled gutter): most lines hold two dishes. Read column by column, the
    /// same dishes make a clean page.
    @Test func aPageReadAcrossItsColumnsIsNotHighConfidence() {
        let left = ["Tomato Soup", "Green Salad", "Fish Cakes", "Lamb Stew", "Beef Burger", "Apple Pie"]
        let right = ["Grilled Salmon", "Roast Chicken", "Mushroom Risotto", "Pork Belly", "Cheese Board", "Lemon Tart"]
        var across: [OCRLine] = [], columns: [OCRLine] = []
        for k in left.indices {
            // One line over both columns: the right column's dish starts after the gutter.
            let l = tline("\(left[k]) ........ \(5 + k).50", x: 40, y: 40 * k)
            let r = tline("\(right[k]) with greens ....... \(12 + k).00", x: l.box.maxX + 60, y: 40 * k)
            across.append(OCRLine(box: l.box.union(r.box), words: l.words + r.words))
            columns.append(tline("\(left[k]) ........ \(5 + k).50", x: 40, y: 40 * k))
        }
        for k in right.indices { columns.append(tline("\(right[k]) with greens ....... \(12 + k).00", x: 40, y: 40 * (k + 7))) }
        let weak = analyzer.analyze(page: onePage(across), profile: nil)
        #expect(weak.confidence < 0.65)
        #expect(weak.warnings.contains(.lowConfidenceResults))
        #expect(weak.requiresUserVerification)
        let clean = analyzer.analyze(page: onePage(columns), profile: nil)
        #expect(clean.items.count == 12)
        #expect(clean.confidenceLevel == .high)
    }

    /// A page whose layout fell apart into one-line runs: every item is explained, yet the
    /// structure cannot be trusted; the same lines in one run are a clean page.
    @Test func aPageInPiecesIsNotHighConfidence() {
        let texts = ["Tomato Soup 6.50", "Green Salad 7.00", "Fish Cakes 8.50", "Lamb Stew 14.00", "Beef Burger 12.50",
                     "Apple Pie 5.00", "Roast Chicken 13.00", "Pork Belly 15.00", "Leek Tart 9.00", "Pea Risotto 11.00"]
        let lines = texts.map { StructLine(text: $0, words: [], ocrWords: []) }
        let items = texts.indices.map { RawItem(section: nil, name: texts[$0], price: "1", lines: [$0]) }
        let pieces = StructureConfidence.measure(lines: lines, runs: texts.indices.map { [$0] }, items: items, notes: [],
                                                 legendLines: [], photo: true)
        #expect(pieces.fragmented == 1)
        #expect(pieces.factor < 0.65)
        let whole = StructureConfidence.measure(lines: lines, runs: [Array(texts.indices)], items: items, notes: [],
                                                legendLines: [], photo: true)
        #expect(whole.factor == 1)
        // Text input: runs are paragraphs of a transcription, fragmentation does not apply.
        let text = StructureConfidence.measure(lines: lines, runs: texts.indices.map { [$0] }, items: items, notes: [],
                                               legendLines: [], photo: false)
        #expect(text.factor == 1)
    }
}

@Suite struct SecondDishSplitTests {
    /// Words 20 px tall set with 10 px word spaces; "‖" stands for a column gutter (60 px).
    private func words(_ s: String) -> [OCRWord] {
        var x = 0
        var out: [OCRWord] = []
        for w in s.split(separator: " ") {
            if w == "‖" { x += 50; continue }
            let text = String(w)
            out.append(OCRWord(text: text, confidence: 0.9, box: Box(x: x, y: 0, width: 12 * text.count, height: 20)))
            x += 12 * text.count + 10
        }
        return out
    }
    private func split(_ s: String) -> [String] {
        PageLayout.splitAtSecondDish(words(s)).map { $0.map(\.text).joined(separator: " ") }
    }

    @Test func aLineReadAcrossColumnsIsCutAfterThePriceOrTheLeaders() {
        #expect(split("Gulaschsuppe .......... 5,80 ‖ Gebackener Kibbeling mit") == ["Gulaschsuppe .......... 5,80", "Gebackener Kibbeling mit"])
        #expect(split("Remoulade u. Pommes Frites .8,50 ‖ Senf-Zwiebelkruste, Grilltomate")
                == ["Remoulade u. Pommes Frites .8,50", "Senf-Zwiebelkruste, Grilltomate"])
        // After leaders no gutter is needed: the dots fill it.
        #expect(split("Pomegranate and new ............ MUSHROOM KEBAB £16.00") == ["Pomegranate and new ............", "MUSHROOM KEBAB £16.00"])
        // Three columns: cut twice.
        #expect(split("Soup £5.50 ‖ Grilled Salmon £14.00 ‖ Lemon Tart with cream").count == 3)
    }

    @Test func aPriceInsideALineIsNoCutWithoutAGutter() {
        // A price in the middle of a dish's own line, ordinary word spacing: one dish.
        #expect(split("Fish 12.50 Served with chips") == ["Fish 12.50 Served with chips"])
        #expect(!StructureConfidence.holdsTwoItems(words: words("Fish 12.50 Served with chips")))
        // The same words across a gutter: two columns read as one line.
        #expect(split("Fish 12.50 ‖ Served with chips") == ["Fish 12.50", "Served with chips"])
        #expect(StructureConfidence.holdsTwoItems(words: words("Fish 12.50 ‖ Served with chips")))
        // Without boxes (text input) the words alone decide, as before.
        #expect(StructureConfidence.holdsTwoItems("Tomato Soup $6.50 Grilled Salmon with dill"))
    }

    @Test func aMenusOwnLinesAreNotCut() {
        for s in ["Tomato Soup .............. 5.50", "Glass 6.50 Bottle 24.00", "Pizza Margherita 9.50 / 12.50",
                  "Burger £11.50 (add bacon +2)", "LATTE 4 Small", "slow-cooked beef with red wine and thyme",
                  "Two courses 30 Three courses 35", "Steak 24.00 (Rare) add sauce"] {
            #expect(split(s) == [s])
        }
    }
}
