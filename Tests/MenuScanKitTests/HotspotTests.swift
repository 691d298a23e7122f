import Testing
@testable import MenuScanKit

private func word(_ text: String, _ c: Double?, _ x: Int, _ y: Int = 10, w: Int = 40, h: Int = 20) -> OCRWord {
    OCRWord(text: text, confidence: c, box: Box(x: x, y: y, width: w, height: h))
}

private func line(_ words: [OCRWord]) -> OCRLine {
    OCRLine(box: words.dropFirst().reduce(words[0].box) { $0.union($1.box) }, words: words)
}

@Suite("Hotspots: building, levels, ids, partial rule")
struct HotspotTests {
    @Test("R6 levels: high > 0.85, medium > 0.65, otherwise low; none is low")
    func levels() {
        #expect(ConfidenceLevel(0.86) == .high)
        #expect(ConfidenceLevel(0.85) == .medium)
        #expect(ConfidenceLevel(0.66) == .medium)
        #expect(ConfidenceLevel(0.65) == .low)
        #expect(ConfidenceLevel(0.0) == .low)
        #expect(ConfidenceLevel(nil) == .low)
    }

    @Test("line hotspots: mean word confidence, state from level, floor 0.3, lines without letters or digits skipped")
    func lineHotspots() {
        let page = OCRPage(blocks: [OCRBlock(box: Box(x: 0, y: 0, width: 500, height: 300), lines: [
            line([word("Salmon", 0.9, 10), word("Risotto", 0.78, 60)]),         // 0.84 → medium, recognized
            line([word("Soup", 0.5, 10, 50), word("6.50", 0.7, 60, 50)]),        // 0.6 → low, low_confidence
            line([word("xq#", 0.2, 10, 90), word("zz", 0.3, 60, 90)]),           // 0.25 < 0.3 → no hotspot
            line([word("...", 0.95, 10, 130), word("|", 0.95, 60, 130)]),        // no letters/digits → none
            line([word("Tart", nil, 10, 170)]),                                  // no confidence → none
        ])])
        let builder = HotspotBuilder()
        let spots = builder.build(page: page)
        #expect(spots.count == 2)
        #expect(spots[0].text == "Salmon Risotto" && spots[0].kind == .line)
        #expect(abs((spots[0].confidence ?? 0) - 0.84) < 1e-9)
        #expect(spots[0].level == .medium && spots[0].state == .recognized)
        #expect(spots[0].box == Box(x: 10, y: 10, width: 90, height: 20))
        #expect(spots[1].level == .low && spots[1].state == .lowConfidence)
        #expect(spots.allSatisfy { $0.allergens == nil && $0.safety == nil })
        let rejected = builder.rejectedLines(page: page)
        #expect(rejected.map(\.text) == ["xq# zz", "Tart"])
    }

    @Test("item hotspots are used when items exist, with their classification; lines otherwise")
    func itemLevel() {
        let page = OCRPage(blocks: [OCRBlock(box: Box(x: 0, y: 0, width: 100, height: 40), lines: [
            line([word("Burrata", 0.95, 10)]),
        ])])
        let items = [HotspotItem(box: Box(x: 5, y: 5, width: 200, height: 60), text: "Burrata tomato pesto", confidence: 0.9,
                                 allergens: ["milk"], dietary: "vegetarian", safety: "unsafe"),
                     HotspotItem(box: Box(x: 5, y: 80, width: 200, height: 30), text: "??", confidence: 0.1)]
        let spots = HotspotBuilder().build(page: page, items: items)
        #expect(spots.count == 1)
        #expect(spots[0].kind == .item && spots[0].allergens == ["milk"] && spots[0].safety == "unsafe")
        #expect(HotspotBuilder().build(page: page, items: []).first?.kind == .line)
        #expect(OverlayStyle.color(of: spots[0]) == OverlayStyle.unsafe)
    }

    @Test("ids are stable, depend on box and text, and stay unique for identical lines")
    func ids() {
        let a = line([word("Espresso", 0.9, 10)])
        let page = OCRPage(blocks: [OCRBlock(box: Box(x: 0, y: 0, width: 100, height: 100), lines: [a, a])])
        let first = HotspotBuilder().build(page: page), second = HotspotBuilder().build(page: page)
        #expect(first == second)
        #expect(first[0].id.hasPrefix("h-") && first[0].id.count == 10)
        #expect(first[1].id == first[0].id + "-2")
        let moved = HotspotBuilder.stableID(kind: .line, box: Box(x: 11, y: 10, width: 40, height: 20), text: "Espresso")
        #expect(moved != first[0].id)
        #expect(HotspotBuilder.stableID(kind: .line, box: a.box, text: "Espresso") == first[0].id)
    }

    @Test("union area counts overlaps once")
    func unionArea() {
        #expect(Box.unionArea([]) == 0)
        #expect(Box.unionArea([Box(x: 0, y: 0, width: 10, height: 10)]) == 100)
        #expect(Box.unionArea([Box(x: 0, y: 0, width: 10, height: 10), Box(x: 5, y: 5, width: 10, height: 10)]) == 175)
        #expect(Box.unionArea([Box(x: 0, y: 0, width: 10, height: 10), Box(x: 0, y: 0, width: 10, height: 10)]) == 100)
        #expect(Box.unionArea([Box(x: 0, y: 0, width: 10, height: 10), Box(x: 20, y: 0, width: 5, height: 4)]) == 120)
    }

    @Test("partial rule: ok becomes partial at ≥ 15 % unread text with a region; other statuses stay")
    func partialRule() {
        let spot = Hotspot(id: "h-00000000", kind: .line, box: Box(x: 0, y: 0, width: 100, height: 100), text: "A",
                           confidence: 0.9, level: .high, state: .recognized)
        let region = UnrecognizedRegion(box: Box(x: 0, y: 200, width: 100, height: 100), reason: .noWords)
        let stage = HotspotStage()
        let below = stage.decide(hotspots: [spot], regions: [region], unreadTextArea: 1700, status: .ok)  // 14.5 %
        #expect(below.status == .ok && below.message == nil)
        let at = stage.decide(hotspots: [spot], regions: [region], unreadTextArea: 1765, status: .ok)     // 15.0 %
        #expect(at.status == .partial)
        #expect(at.message?.code == "MSG-PARTIAL-001")
        #expect(at.message?.message == "Some menu items could not be recognized. Tap to retake.")
        #expect(at.message?.severity == .low && at.message?.recoverable == true)
        #expect(abs(at.coverage.unrecognizedShare - 1765.0 / 11765.0) < 1e-12)
        #expect(stage.decide(hotspots: [spot], regions: [], unreadTextArea: 5000, status: .ok).status == .ok)
        #expect(stage.decide(hotspots: [spot], regions: [region], unreadTextArea: 9000, status: .failed).status == .failed)
        let none = stage.decide(hotspots: [], regions: [], unreadTextArea: 0, status: .failed)
        #expect(none.coverage.unrecognizedShare == 0)
    }

    @Test("partial rule with item hotspots: the read lines' area counts, not the items' boxes")
    func partialRuleCountsReadLines() {
        // One small item hotspot; the page also read a title and a footer outside any item.
        let item = Hotspot(id: "h-00000001", kind: .item, box: Box(x: 0, y: 100, width: 50, height: 20), text: "Soup",
                           confidence: 0.9, level: .high, state: .recognized)
        let region = UnrecognizedRegion(box: Box(x: 0, y: 400, width: 100, height: 40), reason: .noWords)
        let lines = [Box(x: 0, y: 0, width: 300, height: 40), Box(x: 0, y: 100, width: 50, height: 20),
                     Box(x: 0, y: 300, width: 300, height: 40)]
        let stage = HotspotStage()
        // Against the item alone 1000 unread px would be half the text; against what was read, 3.9 %.
        #expect(stage.decide(hotspots: [item], regions: [region], unreadTextArea: 1000, status: .ok).status == .partial)
        let outcome = stage.decide(hotspots: [item], regions: [region], unreadTextArea: 1000, status: .ok, readBoxes: lines)
        #expect(outcome.status == .ok)
        #expect(outcome.coverage.recognizedArea == 25_000)
        #expect(outcome.hotspots == [item])
    }
}
