import Foundation

/// How much a photo's menu structure can be trusted (R6 confidence that means
/// something, issue #12). Three kinds of evidence, each general:
/// - **coverage**: the share of the page's text the items, headers and notes explain;
/// - **fragmentation**: the share of text lines that sit alone in a run (a column of a
///   band) — when the page layout falls apart into pieces, items (which never span runs)
///   are cut apart or glued to the wrong neighbours; titles and lone headers are ordinary,
///   so only a share beyond `ordinaryFragmentation` counts, and only on a page of at least
///   `minimumLinesForFragmentation` text lines;
/// - **two items on one line**: lines where a price is followed by the start of another
///   dish, or leader dots followed by one ("Soup …… 5,80 Baked cod with"), i.e. the OCR
///   read straight across two columns (leaders fill the gutter, so no gap splits the line).
/// Two-dish lines are counted on the OCR page as read (`readAcrossShare`) as well as on the
/// structure's lines: PageLayout splits them, but that it had to is still evidence.
/// The factor multiplies every item's confidence, so the menu's confidence stays the
/// mean of its items' (R6) and a weakly structured page is not "high".
struct StructureConfidence: Equatable {
    var coverage: Double
    var fragmented: Double
    var crossColumn: Double

    /// Coverage at or above which the structure does not lower confidence.
    static let fullCoverage = 0.8
    /// Fragmentation up to this share is ordinary (titles, lone headers, a footer).
    static let ordinaryFragmentation = 0.2
    /// A smaller page's lone lines are no evidence (a four-line card).
    static let minimumLinesForFragmentation = 10
    /// Each unit of fragmentation beyond the ordinary costs this much.
    static let fragmentationWeight = 1.0
    /// Each unit of share of lines holding two items costs this much.
    static let crossColumnWeight = 3.0
    /// The structure factor never goes below this (OCR confidence still counts).
    static let floor = 0.3

    /// The factor applied to every item's confidence (≤ 1).
    var factor: Double {
        let cov = min(1, coverage / Self.fullCoverage)
        let frag = 1 - Self.fragmentationWeight * max(0, fragmented - Self.ordinaryFragmentation)
        let cross = 1 - Self.crossColumnWeight * crossColumn
        return max(Self.floor, cov * max(0, frag) * max(0, cross))
    }

    /// Lines that carry text (two or more letters or digits): what the shares count.
    static func isTextLine(_ s: String) -> Bool {
        var n = 0
        for b in s.utf8 {
            if b >= 0x80 { return s.filter { $0.isLetter || $0.isNumber }.count >= 2 }  // not ASCII: the slow way
            if (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) {
                n += 1
                if n >= 2 { return true }
            }
        }
        return false
    }

    /// Share of the text lines (legend left out) alone in their run (0 on a page of fewer
    /// than `minimumLinesForFragmentation` text lines). Only meaningful on photos, where
    /// runs come from the page layout.
    static func fragmentation(lines: [StructLine], runs: [[Int]], legendLines: Set<Int>) -> Double {
        var total = 0, short = 0
        for run in runs {
            let n = run.filter { $0 >= 0 && $0 < lines.count && !legendLines.contains($0) && isTextLine(lines[$0].text) }.count
            total += n
            if n == 1 { short += 1 }
        }
        return total >= minimumLinesForFragmentation ? Double(short) / Double(total) : 0
    }

    /// After some text, a strong price (currency or decimals) or a run of leader dots, then a
    /// capitalised word of 4+ letters and one more word: the start of a second dish on the
    /// same line ("Gulaschsuppe …… 5,80 Gebackener Kibbeling mit", "Pomegranate and new …..
    /// MUSHROOM KEBAB"). In a menu's own layout leaders run up to a price, and a price ends
    /// its line or is followed by a note, another price or a size. The same test PageLayout
    /// cuts such lines with (`PageLayout.secondDishCuts`).
    static func holdsTwoItems(_ s: String) -> Bool {
        !PageLayout.secondDishCuts(s.split(separator: " ").map(String.init)).isEmpty
    }

    /// The same for a line's OCR words, with the gutter test their boxes allow.
    static func holdsTwoItems(words: [OCRWord]) -> Bool {
        !PageLayout.secondDishCuts(words.map(\.text), gaps: PageLayout.gaps(words)).isEmpty
    }

    /// Share of the text lines (legend left out) that hold two items.
    static func crossColumnShare(lines: [StructLine], runs: [[Int]], legendLines: Set<Int>) -> Double {
        var total = 0, two = 0
        for i in runs.joined() where i >= 0 && i < lines.count && !legendLines.contains(i) && isTextLine(lines[i].text) {
            total += 1
            let ws = lines[i].ocrWords
            if ws.isEmpty ? holdsTwoItems(lines[i].text) : holdsTwoItems(words: ws) { two += 1 }
        }
        return total > 0 ? Double(two) / Double(total) : 0
    }

    /// Share of the OCR page's text lines (as Tesseract read them, before PageLayout splits
    /// them) that hold two dishes.
    static func readAcrossShare(page: OCRPage) -> Double {
        var total = 0, two = 0
        for line in page.lines {
            let words = line.words.map(\.text)
            guard words.contains(where: { isTextLine($0) }) || isTextLine(words.joined()) else { continue }
            total += 1
            if holdsTwoItems(words: line.words) { two += 1 }
        }
        return total > 0 ? Double(two) / Double(total) : 0
    }

    /// The evidence for a photo's structure (text input passes `photo: false`: its runs are
    /// paragraphs and its lines are a transcription, so only coverage applies).
    static func measure(lines: [StructLine], runs: [[Int]], items: [RawItem], notes: [Int], legendLines: Set<Int>,
                        photo: Bool, readAcross: Double = 0) -> StructureConfidence {
        let cov = MenuAnalyzer.structureCoverage(lines: lines, runs: runs, items: items, notes: notes, legendLines: legendLines)
        guard photo else { return StructureConfidence(coverage: cov, fragmented: 0, crossColumn: 0) }
        return StructureConfidence(coverage: cov,
                                   fragmented: fragmentation(lines: lines, runs: runs, legendLines: legendLines),
                                   crossColumn: max(readAcross, crossColumnShare(lines: lines, runs: runs, legendLines: legendLines)))
    }
}
