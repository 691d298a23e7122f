import Foundation

/// What MenuScan made of a PDF page's text layer (written as `source.textLayer`).
public struct TextLayerReport: Codable, Equatable, Sendable {
    /// Letters and digits in the layer.
    public var characters: Int
    /// Share of the layer's words (two letters or more) that look like words:
    /// a vowel, no run of five consonants, no letters glued to odd symbols.
    public var wordLikeShare: Double
    /// Share of characters that are replacement, control or private-use code points.
    public var junkShare: Double
    /// Share of the page covered by images (a scan with an OCR layer covers most of it).
    public var imageCoverage: Double
    /// True when the words and boxes came from the layer (no OCR).
    public var used: Bool
    /// Why the layer was not used (nil when used).
    public var reason: String?
}

/// Turns a page's text layer into OCR-like words, lines and blocks, and decides
/// whether it is worth using instead of OCR.
public enum PDFTextLayer {
    /// Letters and digits a usable layer needs (R4 asks 10 of a photo; a menu
    /// page with fewer than 20 is a scan with a caption or a page number).
    public static let minimumCharacters = 20
    /// Share of word-like words a usable layer needs.
    public static let minimumWordLikeShare = 0.6
    /// Share of junk code points a usable layer may hold at most.
    public static let maximumJunkShare = 0.05

    /// Judges `text`: used only when it has enough characters, little junk
    /// and mostly word-like words. A scan's invisible OCR layer of garbage
    /// fails the word test and the page is OCRed instead.
    public static func judge(_ text: String, imageCoverage: Double) -> TextLayerReport {
        let scalars = text.unicodeScalars.filter { !CharacterSet.whitespacesAndNewlines.contains($0) }
        let alnum = scalars.filter { CharacterSet.alphanumerics.contains($0) }.count
        let junk = scalars.filter { s in
            s.value == 0xFFFD || CharacterSet.controlCharacters.contains(s) || (0xE000...0xF8FF).contains(s.value)
        }.count
        let junkShare = scalars.isEmpty ? 0 : Double(junk) / Double(scalars.count)
        let words = text.split(whereSeparator: { $0.isWhitespace }).map(String.init)
            .filter { $0.unicodeScalars.filter { CharacterSet.letters.contains($0) }.count >= 2 }
        let wordLike = words.filter(looksLikeWord).count
        let share = words.isEmpty ? 0 : Double(wordLike) / Double(words.count)
        var report = TextLayerReport(characters: alnum, wordLikeShare: (share * 1000).rounded() / 1000,
                                     junkShare: (junkShare * 1000).rounded() / 1000,
                                     imageCoverage: (imageCoverage * 1000).rounded() / 1000, used: false, reason: nil)
        if alnum < minimumCharacters {
            report.reason = "too little text (\(alnum) letters and digits, \(minimumCharacters) needed)"
        } else if junkShare > maximumJunkShare {
            report.reason = "unmapped glyphs (\(report.junkShare) of the characters)"
        } else if share < minimumWordLikeShare {
            report.reason = "not language (\(report.wordLikeShare) of the words look like words)"
        } else {
            report.used = true
        }
        return report
    }

    static let vowels = Set("aeiouyàáâãäåæèéêëìíîïòóôõöøùúûüýÿœаеёиоуыэюяіїєαεηιουω")

    /// A token that reads as a word in a Latin, Cyrillic or Greek script menu:
    /// its letters hold a vowel, no five consonants in a row, and at most one
    /// symbol that is neither a letter, digit nor common punctuation.
    static func looksLikeWord(_ token: String) -> Bool {
        let lower = token.lowercased()
        var hasVowel = false, run = 0, maxRun = 0, odd = 0
        for ch in lower {
            if ch.isLetter {
                if vowels.contains(ch) { hasVowel = true; run = 0 } else { run += 1; maxRun = max(maxRun, run) }
            } else {
                run = 0
                if !(ch.isNumber || ".,;:!?'’\"()-–/&%€$£*+".contains(ch)) { odd += 1 }
            }
        }
        return hasVowel && maxRun < 5 && odd <= 1
    }

    /// Words, lines and blocks from the layer's text and per-scalar boxes
    /// (points), in pixels at `dpi` clamped to the page (`width`×`height` px).
    /// Lines are the layer's lines; a new block starts where the gap to the
    /// previous line exceeds 1.2 line heights or the lines do not overlap
    /// horizontally. Every word's confidence is 1.0 (the text is the document's own).
    public static func page(text: String, boxes: [PDFRect], dpi: Double, width: Int, height: Int) -> OCRPage {
        let scale = dpi / 72
        let scalars = Array(text.unicodeScalars)
        guard scalars.count == boxes.count, width > 0, height > 0 else { return OCRPage(blocks: []) }
        let bounds = Box(x: 0, y: 0, width: width, height: height)
        func pixelBox(_ r: PDFRect) -> Box? {
            let left = Int((min(r.x1, r.x2) * scale).rounded(.down)), right = Int((max(r.x1, r.x2) * scale).rounded(.up))
            let top = Int((min(r.y1, r.y2) * scale).rounded(.down)), bottom = Int((max(r.y1, r.y2) * scale).rounded(.up))
            guard right > left, bottom > top else { return nil }
            return Box(left: left, top: top, right: right, bottom: bottom).intersection(bounds)
        }
        var lines: [OCRLine] = []
        var words: [OCRWord] = []
        var current = String.UnicodeScalarView()
        var currentBox: Box?
        func endWord() {
            if !current.isEmpty, let box = currentBox {
                words.append(OCRWord(text: String(current), confidence: 1.0, box: box))
            }
            current = String.UnicodeScalarView()
            currentBox = nil
        }
        func endLine() {
            endWord()
            if let first = words.first {
                let box = words.dropFirst().reduce(first.box) { $0.union($1.box) }
                lines.append(OCRLine(box: box, words: words))
            }
            words = []
        }
        for (s, r) in zip(scalars, boxes) {
            if s == "\n" || s == "\r" {
                endLine()
            } else if CharacterSet.whitespaces.contains(s) || CharacterSet.controlCharacters.contains(s) {
                endWord()
            } else {
                current.append(s)
                if let b = pixelBox(r) { currentBox = currentBox.map { $0.union(b) } ?? b }
            }
        }
        endLine()
        var blocks: [OCRBlock] = []
        var group: [OCRLine] = []
        func endBlock() {
            if let first = group.first {
                blocks.append(OCRBlock(box: group.dropFirst().reduce(first.box) { $0.union($1.box) }, lines: group))
            }
            group = []
        }
        for line in lines {
            if let last = group.last {
                let gap = line.box.y - last.box.maxY
                let overlaps = line.box.x < last.box.maxX && last.box.x < line.box.maxX
                if Double(gap) > 1.2 * Double(max(last.box.height, line.box.height)) || !overlaps || gap < -last.box.height {
                    endBlock()
                }
            }
            group.append(line)
        }
        endBlock()
        return OCRPage(blocks: blocks)
    }

    /// The resolution a page without a usable text layer is rendered at for
    /// OCR: 300 dpi for a page whose long side is 11 in (A4, Letter), where
    /// 10 pt body text has an x-height of about 20 px, Tesseract's sweet spot;
    /// larger pages (posters, A3) carry larger type and get proportionally
    /// fewer dots, smaller ones (cards) more; 150…450 dpi, and never more
    /// pixels than `maxMegapixels`. The preprocessing step's own text-height
    /// rescale then corrects pages whose type is unusually large or small.
    public static func ocrDPI(widthPoints: Double, heightPoints: Double, maxMegapixels: Double) -> Double {
        let longInches = max(widthPoints, heightPoints) / 72
        guard longInches > 0, widthPoints > 0, heightPoints > 0 else { return 300 }
        var dpi = min(450, max(150, 300 * 11 / longInches))
        let megapixels = widthPoints / 72 * dpi * heightPoints / 72 * dpi / 1_000_000
        if megapixels > maxMegapixels { dpi *= (maxMegapixels / megapixels).squareRoot() }
        return dpi.rounded(.down)
    }

    /// A page whose images cover at least this share is treated as a scan:
    /// it is rendered at no more than its largest image's own resolution.
    public static let scannedPageCoverage = 0.3
    /// ... but at least this many dots per inch.
    public static let minimumScanDPI = 72.0

    /// The resolution of a text-layer page's frame (boxes, hotspots, overlay):
    /// 150 dpi, enough for an overlay to be read, cheap to render.
    public static let textFrameDPI = 150.0
}
