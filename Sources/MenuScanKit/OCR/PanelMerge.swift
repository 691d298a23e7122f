import Foundation

/// A dark panel's light text read as a page of its own, from a copy with the panel inverted, merged
/// into the page pass (issue 16, round 29). The page pass reads a panel as photographed, with
/// Tesseract's per-line inverted retry; that retry works on the lines the page layout found, and on a
/// textured panel the layout misses whole columns (a price column beside the names, left unread).
/// Read alone and inverted, the panel gets its own layout, without the columns outside it (reading
/// the page with the panel inverted let the layout merge the columns on either side of it: CER
/// 0.487 → 0.788 on a real menu, round 28).
///
/// The merge keeps the page pass's reading wherever it read well: a panel word is taken where no word
/// of the page pass lies, or where every page word it overlaps was read with a confidence lower than
/// its own by `margin` (those page words are then dropped). Panel words under `minimumConfidence`
/// are never taken.
public enum PanelMerge {
    /// A panel word is taken only when read with at least this confidence.
    public static let minimumConfidence = 0.6
    /// …and it replaces page words only when each was read at least this much less confidently.
    public static let margin = 0.15
    /// Two words overlap when their intersection is at least this share of the smaller one.
    static let overlapShare = 0.3

    /// `page` with the panel's lines merged in (their words marked `recovered`), the number of lines
    /// that brought words, and how many page words were replaced.
    public static func merge(_ page: OCRPage, panel: [OCRLine]) -> (page: OCRPage, lines: Int, replaced: Int) {
        let pageWords = page.words
        var dropped = Set<Int>()   // indices into pageWords
        var taken: [OCRLine] = []
        for line in panel {
            var words: [OCRWord] = []
            for w in line.words {
                guard let c = w.confidence, c >= minimumConfidence, w.box.width > 0, w.box.height > 0,
                      w.text.contains(where: { $0.isLetter || $0.isNumber }) else { continue }
                let under = pageWords.indices.filter { overlaps(pageWords[$0].box, w.box) }
                guard under.allSatisfy({ (pageWords[$0].confidence ?? 0) + margin <= c }) else { continue }
                dropped.formUnion(under)
                words.append(OCRWord(text: w.text, confidence: c, box: w.box, recovered: true))
            }
            guard let first = words.first else { continue }
            taken.append(OCRLine(box: words.dropFirst().reduce(first.box) { $0.union($1.box) }, words: words))
        }
        guard !taken.isEmpty else { return (page, 0, 0) }
        return (removing(dropped, from: page).inserting(taken), taken.count, dropped.count)
    }

    /// Whether two boxes overlap by at least `overlapShare` of the smaller one's area.
    static func overlaps(_ a: Box, _ b: Box) -> Bool {
        guard let i = a.intersection(b), i.width > 0, i.height > 0 else { return false }
        let smaller = min(a.area, b.area)
        return smaller > 0 && Double(i.area) >= overlapShare * Double(smaller)
    }

    /// `page` without the words at `indices` (of `page.words`); lines and blocks left empty are
    /// dropped, the others' boxes shrink to what remains.
    static func removing(_ indices: Set<Int>, from page: OCRPage) -> OCRPage {
        guard !indices.isEmpty else { return page }
        var index = 0
        var out = page
        out.blocks = page.blocks.compactMap { block in
            var b = block
            b.lines = block.lines.compactMap { line in
                var kept: [OCRWord] = []
                for w in line.words {
                    if !indices.contains(index) { kept.append(w) }
                    index += 1
                }
                guard let first = kept.first else { return nil }
                guard kept.count != line.words.count else { return line }
                return OCRLine(box: kept.dropFirst().reduce(first.box) { $0.union($1.box) }, words: kept)
            }
            guard let first = b.lines.first else { return nil }
            if b.lines != block.lines { b.box = b.lines.dropFirst().reduce(first.box) { $0.union($1.box) } }
            return b
        }
        return out
    }
}
