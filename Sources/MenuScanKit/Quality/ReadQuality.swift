import Foundation

/// What a read looks like, compared with what the photo holds (issue 17).
/// Tesseract's word confidences say how sure it is of what it read, nothing
/// of what it missed; these features compare the read with the photo.
public struct ReadQualityFeatures: Codable, Sendable, Equatable {
    /// Mean word confidence (0…1); 0 when nothing was read.
    public var meanConfidence: Double
    /// Share of words read below 0.6.
    public var lowConfidenceShare: Double
    /// Standard deviation of the word confidences.
    public var confidenceSpread: Double
    /// Share of the read tokens that are known words (models/read-quality/words.txt)
    /// or numbers/prices; nil without the word list or with fewer than 3 tokens.
    public var lexiconShare: Double?
    /// Tokens the lexicon share counts.
    public var lexiconTokens: Int
    /// Unread text-like area / (read + unread) text area (`TextCoverage`, any region).
    public var unreadShare: Double
    /// Text rows the photo's edge cuts through (characters touching the edge).
    public var cutOffLines: Int
    /// Share of the text area hidden under something that is neither paper
    /// nor text (a hand, a plate) with text on both sides of it.
    public var coveredShare: Double
    /// Words read.
    public var words: Int
    /// Smallest gap between a word read with confidence ≥ 0.3 and the
    /// photo's edge, in median word heights, capped at 3 (3 when none): text
    /// right at the edge often continues beyond it.
    public var edgeMargin: Double = 3
    /// Sides of the photo where the paper runs on out of the photo and text
    /// comes within `ReadQualityStage.openEdgeReach` character heights of
    /// it (`ReadQualityStage.openEdges`): the menu may go on beyond the edge.
    public var openEdges: Int = 0
}

/// The photo-level read assessment written into the JSON as `readQuality`.
public struct ReadQuality: Codable, Sendable, Equatable {
    /// Calibrated probability-like estimate of the share of the menu's words
    /// that were read (word recall); nil without the calibration model.
    public var readConfidence: Double?
    /// R6 level of `readConfidence`.
    public var level: ConfidenceLevel?
    public var features: ReadQualityFeatures
    /// Why the status or messages changed: "cut_off", "covered", "non_words",
    /// "low_read_confidence", "small_text".
    public var findings: [String]
}

/// Known words: the lexicon behind `lexiconShare`, in the languages MenuScan
/// reads (eng, deu, fra, ita, spa) plus the food tables' words
/// (`Benchmarks/build_wordlist.py`). Words are kept folded (`fold`: lower
/// case, no accents, ß → ss), so a token matches whether or not the OCR
/// model kept its accents. Stored as one sorted UTF-8 buffer searched by
/// bisection: about 900,000 words in ~12 MB, loaded without hashing.
public struct WordList: Sendable {
    /// The words' folded UTF-8, back to back, in byte order.
    private let bytes: [UInt8]
    /// Where each word starts in `bytes`, plus the end.
    private let starts: [Int32]

    /// Number of words.
    public var count: Int { max(0, starts.count - 1) }

    public init(words: Set<String>) {
        self.init(folded: words.map { Array(Self.fold($0).utf8) })
    }

    /// Parses one word per line (`#` lines are comments), plain or
    /// front-coded as `build_wordlist.py` writes it: leading digits = bytes
    /// shared with the previous word, then the rest.
    public init(text: String) {
        self.init(utf8: Array(text.utf8))
    }

    /// `init(text:)` on the file's bytes: one pass, the words written straight into
    /// `bytes` (no string or array a line: the 900,000-word list loads in a few
    /// milliseconds instead of about a second a worker). Lines that need Unicode
    /// (a non-ASCII plain word to fold, non-ASCII space to trim) take the string path.
    public init(utf8 data: [UInt8]) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(data.count)
        var starts: [Int32] = []
        var previous = 0..<0  // the previous word's range in `bytes`
        var sorted = true
        func isLineBreak(_ c: UInt8) -> Bool { c == 0x0A || c == 0x0D || c == 0x0B || c == 0x0C }
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 }
        var lineStart = 0
        while lineStart < data.count {
            var lineEnd = lineStart
            while lineEnd < data.count, !isLineBreak(data[lineEnd]) { lineEnd += 1 }
            defer { lineStart = lineEnd + 1 }
            guard lineEnd > lineStart, data[lineStart] != UInt8(ascii: "#") else { continue }
            var shared = 0, i = lineStart
            while i < lineEnd, data[i] >= 48, data[i] <= 57, shared <= Int(Int32.max / 10) {
                shared = shared * 10 + Int(data[i] - 48)
                i += 1
            }
            guard shared <= previous.count else { continue }  // malformed line: skip, never trap
            var restStart = i, restEnd = lineEnd
            while restStart < restEnd, isSpace(data[restStart]) { restStart += 1 }
            while restEnd > restStart, isSpace(data[restEnd - 1]) { restEnd -= 1 }
            let ascii = !data[restStart..<restEnd].contains { $0 >= 0x80 }
            // Non-ASCII lines (few) take the string path; ASCII ones are
            // copied byte by byte, without an array a line.
            let unicode: [UInt8] = ascii ? [] : {
                let text = String(decoding: data[restStart..<restEnd], as: UTF8.self).trimmingCharacters(in: .whitespaces)
                return Array((shared > 0 ? text : Self.fold(text)).utf8)
            }()
            guard shared > 0 || (ascii ? restEnd > restStart : !unicode.isEmpty) else { continue }
            let start = bytes.count
            for k in previous.lowerBound..<(previous.lowerBound + shared) { bytes.append(bytes[k]) }
            if !ascii {
                bytes.append(contentsOf: unicode)
            } else if shared == 0 {
                for k in restStart..<restEnd {
                    let c = data[k]
                    bytes.append(c >= 0x41 && c <= 0x5A ? c + 0x20 : c)
                }
            } else {
                bytes.append(contentsOf: data[restStart..<restEnd])
            }
            let word = start..<bytes.count
            if sorted, !starts.isEmpty, !bytes[previous].lexicographicallyPrecedes(bytes[word]) { sorted = false }
            starts.append(Int32(clamping: start))
            previous = word
        }
        starts.append(Int32(clamping: bytes.count))
        if sorted {
            self.init(sortedBytes: bytes, starts: starts)
        } else {
            let list = zip(starts, starts.dropFirst()).map { Array(bytes[Int($0)..<Int($1)]) }
            self.init(folded: list)
        }
    }

    private init(sortedBytes: [UInt8], starts: [Int32]) {
        self.bytes = sortedBytes
        self.starts = starts
    }

    private init(folded: [[UInt8]]) {
        var list = folded
        if !zip(list, list.dropFirst()).allSatisfy({ $0.lexicographicallyPrecedes($1) }) {
            list = Array(Set(list.map { $0 })).sorted { $0.lexicographicallyPrecedes($1) }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(list.reduce(0) { $0 + $1.count })
        var starts: [Int32] = []
        starts.reserveCapacity(list.count + 1)
        for w in list {
            starts.append(Int32(bytes.count))
            bytes += w
        }
        starts.append(Int32(bytes.count))
        self.bytes = bytes
        self.starts = starts
    }

    /// Lower case, accents dropped (canonical decomposition without its
    /// combining marks), ß → ss, æ → ae, œ → oe: what `build_wordlist.py` does.
    public static func fold(_ word: String) -> String {
        var out = String.UnicodeScalarView()
        for s in word.lowercased().decomposedStringWithCanonicalMapping.unicodeScalars {
            switch s.properties.generalCategory {
            case .nonspacingMark: continue
            default: break
            }
            switch s {
            case "ß": out.append(contentsOf: "ss".unicodeScalars)
            case "æ": out.append(contentsOf: "ae".unicodeScalars)
            case "œ": out.append(contentsOf: "oe".unicodeScalars)
            case "ø": out.append("o")
            case "ł": out.append("l")
            case "đ": out.append("d")
            case "ı": out.append("i")
            default: out.append(s)
            }
        }
        return String(out)
    }

    /// Whether the list holds `word` (folded first).
    public func contains(_ word: String) -> Bool {
        let key = Array(Self.fold(word).utf8)
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            let a = Int(starts[mid]), b = Int(starts[mid + 1])
            let c = Self.compare(bytes[a..<b], key)
            if c == 0 { return true }
            if c < 0 { lo = mid + 1 } else { hi = mid }
        }
        return false
    }

    private static func compare(_ a: ArraySlice<UInt8>, _ b: [UInt8]) -> Int {
        var i = a.startIndex, j = 0
        while i < a.endIndex, j < b.count {
            if a[i] != b[j] { return a[i] < b[j] ? -1 : 1 }
            i += 1; j += 1
        }
        return (a.endIndex - a.startIndex) - b.count
    }

    /// models/read-quality/words.txt, loaded once per process; nil when absent.
    public static let shared: WordList? = {
        guard let url = ModelLocator.file("read-quality/words.txt"),
              let data = try? Data(contentsOf: url) else { return nil }
        return WordList(utf8: [UInt8](data))
    }()

    /// Known or not for one token; nil when the token says nothing (a single
    /// letter, a bullet). Numbers and prices are known; tokens of punctuation
    /// or mixed letters, digits and symbols are not.
    public func isKnown(_ raw: String) -> Bool? {
        let trimSet = CharacterSet(charactersIn: ".,:;!?()[]{}\"'`*•·-–—…")
        let token = raw.lowercased().trimmingCharacters(in: trimSet)
        if token.isEmpty { return raw.count >= 2 ? false : nil }
        let letters = token.unicodeScalars.filter { CharacterSet.letters.contains($0) }.count
        let digits = token.unicodeScalars.filter { CharacterSet.decimalDigits.contains($0) }.count
        if letters == 0, digits > 0 {
            // a number or price: digits with separators and currency signs
            let allowed = CharacterSet.decimalDigits.union(CharacterSet(charactersIn: ".,:/-%$€£x"))
            return token.unicodeScalars.allSatisfy { allowed.contains($0) }
        }
        if letters == token.unicodeScalars.count {
            if letters < 2 { return token == "a" || token == "i" ? true : nil }
            if contains(token) { return true }
            // compounds joined by a hyphen or slash: every part known
            return false
        }
        if token.contains("-") || token.contains("/") || token.contains("'") {
            let parts = token.split(whereSeparator: { "-/'".contains($0) }).map(String.init)
            return !parts.isEmpty && parts.allSatisfy { $0.count < 2 || contains($0) || Double($0) != nil }
        }
        return false
    }

    /// Share of known tokens and how many tokens counted.
    public func knownShare(_ tokens: [String]) -> (share: Double, counted: Int) {
        var known = 0, counted = 0
        for t in tokens {
            guard let k = isKnown(t) else { continue }
            counted += 1
            if k { known += 1 }
        }
        return (counted > 0 ? Double(known) / Double(counted) : 0, counted)
    }
}

/// `readConfidence` = 1 / (1 + exp(−(intercept + Σ weight·feature))), fitted
/// by `Benchmarks/fit_read_confidence.py` on the tune part of the generated
/// and real photos (models/read-quality/calibration.json).
public struct ReadConfidenceModel: Codable, Sendable, Equatable {
    public var intercept: Double
    public var weights: [String: Double]

    public init(intercept: Double, weights: [String: Double]) {
        self.intercept = intercept
        self.weights = weights
    }

    /// The model's inputs, by name.
    public static func inputs(_ f: ReadQualityFeatures) -> [String: Double] {
        [
            "meanConfidence": f.meanConfidence,
            "lowConfidenceShare": f.lowConfidenceShare,
            "confidenceSpread": f.confidenceSpread,
            "lexiconShare": f.lexiconShare ?? 0.5,
            "unreadShare": f.unreadShare,
            "cutOff": min(Double(f.cutOffLines), 10) / 10,
            "coveredShare": f.coveredShare,
            "fewWords": f.words < 20 ? 1 : 0,
            "edgeMargin": min(max(f.edgeMargin, 0), 3) / 3,
            "openEdges": Double(min(max(f.openEdges, 0), 2)) / 2,
        ]
    }

    public func predict(_ f: ReadQualityFeatures) -> Double {
        guard f.words > 0 else { return 0 }
        var z = intercept
        for (name, x) in Self.inputs(f) { z += (weights[name] ?? 0) * x }
        return 1 / (1 + exp(-z))
    }

    /// models/read-quality/calibration.json, loaded once; nil when absent or unreadable.
    public static let shared: ReadConfidenceModel? = {
        guard let url = ModelLocator.file("read-quality/calibration.json"),
              let data = try? Data(contentsOf: url) else { return nil }
        return try? JSONDecoder().decode(ReadConfidenceModel.self, from: data)
    }()
}

/// Measures a read against the photo and decides what the status must say
/// (issue 17). Pure: value in, value out.
public struct ReadQualityStage: Sendable {
    /// Text rows cut by the photo's edge that make a photo partial.
    public var cutOffMinimumLines = 2
    /// Share of the text area covered that makes a photo partial.
    public var coveredMinimumShare = 0.05
    /// Lexicon share below which (with at least `lexiconMinimumTokens`, and a
    /// mean confidence below `nonWordsBelowConfidence`) the read is mostly non-words.
    public var minimumLexiconShare = 0.5
    public var lexiconMinimumTokens = 8
    /// Below this share of known words a read is mostly non-words whatever
    /// its confidence. (0.2 while the list was English only; with the five
    /// languages, real tune photos read 0.56 or more: 0.4 leaves a margin.)
    public var minimumLexiconShareAlone = 0.4
    /// Between the two shares, only when the mean word confidence is below this.
    public var nonWordsBelowConfidence = 0.8
    /// Text below this median height (px of the photo; the gate rejects below
    /// 6) is read, but the result is flagged: enlarging the OCR copy adds no
    /// detail, and every generated phone-downscaled photo (text 4–8 px) has it.
    public var smallTextHeight = 8.5
    /// Text this many median character heights from a side where the paper
    /// runs out of the photo makes that side open.
    public var openEdgeReach = 2.5
    public var words: WordList?
    public var model: ReadConfidenceModel?

    public init(words: WordList? = WordList.shared, model: ReadConfidenceModel? = ReadConfidenceModel.shared) {
        self.words = words
        self.model = model
    }

    /// What the assessment adds: the read quality, regions to add, whether
    /// the photo is partial and whether its read is low-confidence.
    public struct Outcome: Sendable, Equatable {
        public var quality: ReadQuality
        public var regions: [UnrecognizedRegion]
        public var partial: Bool
        public var lowConfidence: Bool
    }

    /// `textHeight`: the photo's median text height (px), when measured.
    public func assess(page: OCRPage, image: Bitmap, inkMap: TextRegionAnalyzer.InkMap?,
                       coverage: TextCoverage?, textHeight: Double? = nil) -> Outcome {
        let all = page.words
        let confidences = all.map { $0.confidence ?? 0 }
        let n = Double(max(1, confidences.count))
        let mean = confidences.reduce(0, +) / n
        let spread = (confidences.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / n).squareRoot()
        let known = words.map { $0.knownShare(all.map(\.text)) }
        let cut = inkMap.map { Self.cutOff($0, words: all.map(\.box)) } ?? (lines: 0, regions: [])
        let small = inkMap.flatMap { map in image.grayImage(scale: min(1, 400 / Double(max(1, max(map.width, map.height))))) }
        let covered = inkMap.flatMap { map in small.map { Self.covered(map, gray: $0) } } ?? (share: 0, region: nil)
        let open = inkMap.flatMap { map in small.map { Self.openEdges(map, gray: $0, reach: openEdgeReach) } } ?? 0
        let features = ReadQualityFeatures(
            meanConfidence: confidences.isEmpty ? 0 : mean,
            lowConfidenceShare: confidences.isEmpty ? 0 : Double(confidences.filter { $0 < 0.6 }.count) / n,
            confidenceSpread: spread,
            lexiconShare: known.flatMap { $0.counted >= 3 ? $0.share : nil },
            lexiconTokens: known?.counted ?? 0,
            unreadShare: coverage?.unrecognizedShare ?? 0,
            cutOffLines: cut.lines, coveredShare: covered.share, words: all.count,
            edgeMargin: Self.edgeMargin(all.filter { ($0.confidence ?? 0) >= 0.3 }.map(\.box), width: image.width, height: image.height),
            openEdges: open)
        var readConfidence = model.map { ($0.predict(features) * 1000).rounded() / 1000 }
        var findings: [String] = []
        // Text running up to a side where the page goes on beyond the photo:
        // whether more of the menu lies there cannot be seen (a cut between
        // two rows leaves no character cut), so the read is never called
        // complete with high confidence.
        if open > 0 {
            findings.append("text_at_open_edge")
            if let c = readConfidence, c > ConfidenceLevel.highAbove { readConfidence = ConfidenceLevel.highAbove }
        }
        var regions: [UnrecognizedRegion] = []
        if cut.lines >= cutOffMinimumLines {
            findings.append("cut_off")
            regions += cut.regions
        }
        if covered.share >= coveredMinimumShare, let r = covered.region {
            findings.append("covered")
            regions.append(r)
        }
        // The word list covers the five languages we read, but not every
        // name, brand or abbreviation: a share of known words between the two
        // thresholds flags only a read whose confidence is low too.
        let nonWords = (known.map { k in
            k.counted >= lexiconMinimumTokens
                && (k.share < minimumLexiconShareAlone || (k.share < minimumLexiconShare && mean < nonWordsBelowConfidence))
        }) ?? false
        if nonWords { findings.append("non_words") }
        let lowRead = readConfidence.map { ConfidenceLevel(confidence: $0) == .low } ?? false
        if lowRead { findings.append("low_read_confidence") }
        let smallText = textHeight.map { $0 < smallTextHeight } ?? false
        if smallText { findings.append("small_text") }
        let quality = ReadQuality(readConfidence: readConfidence, level: readConfidence.map(ConfidenceLevel.init(confidence:)),
                                  features: features, findings: findings)
        return Outcome(quality: quality, regions: regions, partial: !regions.isEmpty, lowConfidence: nonWords || lowRead || smallText)
    }

    /// Sides of the photo (0…4) where the page runs on out of the photo and
    /// text comes close to the edge: the outermost 2 % of the photo along
    /// that side is mostly (≥ 60 %) paper (at least the paper level, the 90th
    /// percentile of `gray`, less 40), and at least 3 characters of typical
    /// height lie within `reach` median character heights of it. A photo of
    /// the whole menu shows the table or the menu's own margin there.
    static func openEdges(_ map: TextRegionAnalyzer.InkMap, gray: GrayImage, reach: Double = 2.5) -> Int {
        let chars = map.characters
        guard chars.count >= 10, gray.width >= 16, gray.height >= 16, map.workWidth > 0, map.workHeight > 0 else { return 0 }
        let heights = chars.map(\.height).sorted()
        let medianH = heights[heights.count / 2]
        let typical = chars.filter { $0.height * 2 >= medianH && $0.height <= medianH * 2 }
        var histogram = [Int](repeating: 0, count: 256)
        for v in gray.pixels { histogram[Int(v)] += 1 }
        let paper = Int(QualityAnalysis.percentile(histogram, gray.pixels.count, 90))
        let limit = Int((Double(medianH) * reach).rounded())
        let ww = map.workWidth, wh = map.workHeight
        var open = 0
        for side in 0..<4 {
            let horizontal = side < 2  // top, bottom
            let depth = max(2, (horizontal ? gray.height : gray.width) / 50)
            var paperPixels = 0, total = 0
            let ys = side == 0 ? 0..<depth : side == 1 ? (gray.height - depth)..<gray.height : 0..<gray.height
            let xs = side == 2 ? 0..<depth : side == 3 ? (gray.width - depth)..<gray.width : 0..<gray.width
            for y in ys {
                for x in xs {
                    total += 1
                    if Int(gray.pixels[y * gray.width + x]) >= paper - 40 { paperPixels += 1 }
                }
            }
            guard total > 0, paperPixels * 5 >= total * 3 else { continue }
            let near = typical.filter { c in
                switch side {
                case 0: return c.y <= limit
                case 1: return wh - c.maxY <= limit
                case 2: return c.x <= limit
                default: return ww - c.maxX <= limit
                }
            }
            if near.count >= 3 { open += 1 }
        }
        return open
    }

    /// Smallest gap between a box and the photo's edge in median box heights,
    /// capped at 3 (3 without boxes).
    static func edgeMargin(_ boxes: [Box], width: Int, height: Int) -> Double {
        guard !boxes.isEmpty, width > 0, height > 0 else { return 3 }
        let heights = boxes.map(\.height).sorted()
        let h = Double(max(1, heights[heights.count / 2]))
        let gap = boxes.map { min($0.x, $0.y, width - $0.maxX, height - $0.maxY) }.min() ?? 0
        return min(3, max(0, Double(gap) / h))
    }

    /// Text rows cut by the photo's edge: character-sized ink components (of
    /// typical text height) touching the left or right edge beside a word OCR
    /// read up to that edge (`words`, upright pixels), grouped into rows, plus
    /// two per top or bottom edge touched by at least three.
    /// Regions: a strip along each cut edge over the cut characters.
    static func cutOff(_ map: TextRegionAnalyzer.InkMap, words: [Box]) -> (lines: Int, regions: [UnrecognizedRegion]) {
        let chars = map.characters
        guard chars.count >= 10 else { return (0, []) }
        let heights = chars.map(\.height).sorted()
        let medianH = heights[heights.count / 2]
        let ww = map.workWidth, wh = map.workHeight
        let typical = chars.filter { $0.height * 2 >= medianH && $0.height <= medianH * 2 }
        var lines = 0
        var regions: [UnrecognizedRegion] = []
        func region(_ boxes: [Box]) -> UnrecognizedRegion? {
            guard var u = boxes.first else { return nil }
            for b in boxes.dropFirst() { u = u.union(b) }
            let up = u.scaled(by: 1 / map.factor)
            let clamped = Box(left: max(0, up.x), top: max(0, up.y), right: min(map.width, up.maxX), bottom: min(map.height, up.maxY))
            return clamped.width > 0 && clamped.height > 0 ? UnrecognizedRegion(box: clamped, reason: .cutOff) : nil
        }
        // left and right: rows of cut characters, each on a line OCR read up
        // to the edge (a scanner's dark border or a table edge breaks into
        // character-sized pieces too, but no word is read there)
        let reach = max(2, medianH / 2)
        let read = words.map { $0.scaled(by: map.factor) }
        for side in [0, 1] {
            let touching = typical.filter { c in
                guard side == 0 ? c.x <= 1 : c.maxX >= ww - 1 else { return false }
                return read.contains { w in
                    (side == 0 ? w.x <= reach : w.maxX >= ww - reach) && w.y < c.maxY && c.y < w.maxY
                }
            }.sorted { $0.y < $1.y }
            var rows = 0, lastBottom = Int.min
            for c in touching where c.y > lastBottom {
                rows += 1
                lastBottom = c.maxY
            }
            if rows >= 1, touching.count >= 1 {
                lines += rows
                if rows >= 2, let r = region(touching) { regions.append(r) }
            }
        }
        // top and bottom: a row cut through counts twice (the rows beyond it
        // are gone whole, where a side cut leaves part of every row)
        for side in [0, 1] {
            let touching = typical.filter { side == 0 ? $0.y <= 1 : $0.maxY >= wh - 1 }
            if touching.count >= 3 {
                lines += 2
                if let r = region(touching) { regions.append(r) }
            }
        }
        return (lines, regions)
    }

    /// The largest area inside the text area that is neither paper nor text
    /// and has text on both sides of it (left and right, or above and
    /// below): a hand or a plate over the menu. Tiles of two character
    /// heights; a tile is text when a character's centre lies in it, paper
    /// when its bright pixels (90th percentile) reach the paper level (the
    /// median of the text tiles' 90th percentiles) less 45, else foreign. A
    /// foreign area whose inner tiles often reach the paper level (99th
    /// percentile ≥ paper − 20: light text on a dark panel) is not a cover.
    /// Tiles blown out to white (10th percentile ≥ 250) where the paper is
    /// not (paper level ≤ 240) are foreign too: glare over the text.
    static func covered(_ map: TextRegionAnalyzer.InkMap, gray: GrayImage) -> (share: Double, region: UnrecognizedRegion?) {
        let chars = map.characters
        guard chars.count >= 20, gray.width >= 16, gray.height >= 16 else { return (0, nil) }
        let toGray = Double(gray.width) / Double(max(1, map.workWidth))
        let heights = chars.map(\.height).sorted()
        let tile = max(4, Int((Double(heights[heights.count / 2]) * 2 * toGray).rounded()))
        let cols = gray.width / tile, rows = gray.height / tile
        guard cols >= 4, rows >= 4 else { return (0, nil) }
        // text tiles
        var text = [Bool](repeating: false, count: cols * rows)
        var xs: [Int] = [], ys: [Int] = []
        for c in chars {
            let cx = Int(Double(c.x) * toGray + Double(c.width) * toGray / 2) / tile
            let cy = Int(Double(c.y) * toGray + Double(c.height) * toGray / 2) / tile
            guard cx >= 0, cx < cols, cy >= 0, cy < rows else { continue }
            text[cy * cols + cx] = true
            xs.append(cx); ys.append(cy)
        }
        xs.sort(); ys.sort()
        guard xs.count >= 20 else { return (0, nil) }
        // the text area: 2nd to 98th percentile of the character tiles
        let x0 = xs[xs.count / 50], x1 = xs[xs.count - 1 - xs.count / 50]
        let y0 = ys[ys.count / 50], y1 = ys[ys.count - 1 - ys.count / 50]
        guard x1 - x0 >= 3, y1 - y0 >= 3 else { return (0, nil) }
        // bright level per tile
        var p90 = [Int](repeating: 0, count: cols * rows), p99 = [Int](repeating: 0, count: cols * rows)
        var p10 = [Int](repeating: 0, count: cols * rows)
        var histogram = [Int](repeating: 0, count: 256)
        for ty in 0..<rows {
            for tx in 0..<cols {
                for i in histogram.indices { histogram[i] = 0 }
                for y in (ty * tile)..<((ty + 1) * tile) {
                    let row = y * gray.width
                    for x in (tx * tile)..<((tx + 1) * tile) { histogram[Int(gray.pixels[row + x])] += 1 }
                }
                p90[ty * cols + tx] = Int(QualityAnalysis.percentile(histogram, tile * tile, 90))
                p99[ty * cols + tx] = Int(QualityAnalysis.percentile(histogram, tile * tile, 99))
                p10[ty * cols + tx] = Int(QualityAnalysis.percentile(histogram, tile * tile, 10))
            }
        }
        let textLevels = (0..<(cols * rows)).filter { text[$0] }.map { p90[$0] }.sorted()
        guard !textLevels.isEmpty else { return (0, nil) }
        let paper = textLevels[textLevels.count / 2]
        var foreign = [Bool](repeating: false, count: cols * rows)
        for ty in y0...y1 {
            for tx in x0...x1 where !text[ty * cols + tx] {
                // darker than paper throughout (a hand, a plate), or blown
                // out where the paper is not (glare over the text)
                let blown = paper <= 240 && p10[ty * cols + tx] >= max(250, paper + 8)
                if p90[ty * cols + tx] < paper - 45 || blown { foreign[ty * cols + tx] = true }
            }
        }
        // 4-connected components of foreign tiles; keep those with text on both sides
        var seen = [Bool](repeating: false, count: cols * rows)
        var best: (count: Int, box: Box)? = nil
        for start in 0..<(cols * rows) where foreign[start] && !seen[start] {
            var stack = [start], members: [Int] = []
            seen[start] = true
            while let p = stack.popLast() {
                members.append(p)
                let px = p % cols, py = p / cols
                for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                    let nx = px + dx, ny = py + dy
                    guard nx >= x0, nx <= x1, ny >= y0, ny <= y1 else { continue }
                    let q = ny * cols + nx
                    if foreign[q] && !seen[q] { seen[q] = true; stack.append(q) }
                }
            }
            let mxs = members.map { $0 % cols }, mys = members.map { $0 / cols }
            guard let minX = mxs.min(), let maxX = mxs.max(), let minY = mys.min(), let maxY = mys.max() else { continue }
            // text on both sides along some row or column crossing the component
            var sandwiched = false
            for ty in minY...maxY where !sandwiched {
                let left = (x0..<minX).contains { text[ty * cols + $0] }
                let right = maxX < x1 && ((maxX + 1)...x1).contains { text[ty * cols + $0] }
                sandwiched = left && right
            }
            for tx in minX...maxX where !sandwiched {
                let above = (y0..<minY).contains { text[$0 * cols + tx] }
                let below = maxY < y1 && ((maxY + 1)...y1).contains { text[$0 * cols + tx] }
                sandwiched = above && below
            }
            guard sandwiched else { continue }
            // A dark panel of light text (a menu design) is not a cover: its
            // inner tiles hold bright strokes; a hand or a plate's food is
            // even inside (judged on tiles whose four neighbours are foreign
            // too, or on all its tiles when fewer than 3 are inner).
            let memberSet = Set(members)
            let inner = members.filter { p in
                let px = p % cols, py = p / cols
                return px > 0 && px < cols - 1 && py > 0 && py < rows - 1
                    && [p - 1, p + 1, p - cols, p + cols].allSatisfy { memberSet.contains($0) }
            }
            let judged = (inner.count >= 3 ? inner : members).filter { p10[$0] < 250 }  // blown tiles are bright by nature
            if !judged.isEmpty, judged.filter({ p99[$0] >= paper - 20 }).count * 5 >= judged.count { continue }
            if members.count > (best?.count ?? 0) {
                best = (members.count, Box(x: minX * tile, y: minY * tile, width: (maxX - minX + 1) * tile, height: (maxY - minY + 1) * tile))
            }
        }
        guard let best else { return (0, nil) }
        let area = Double((x1 - x0 + 1) * (y1 - y0 + 1))
        let toPhoto = Double(map.width) / Double(gray.width)
        let up = best.box.scaled(by: toPhoto)
        let clamped = Box(left: max(0, up.x), top: max(0, up.y), right: min(map.width, up.maxX), bottom: min(map.height, up.maxY))
        return (Double(best.count) / area, UnrecognizedRegion(box: clamped, reason: .covered))
    }
}
