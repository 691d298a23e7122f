import Foundation

/// Prices Tesseract's layout analysis dropped.
///
/// A column of short numbers set apart from the dish names ("Minestrone …
/// 12") is often discarded by Tesseract's page layout as noise: the names are
/// read, the prices are not, and the line-recovery pass does not look at them
/// either (a price like "12" is too short to look like a text line). This
/// stage proposes, from the photo's ink components, the short unread clusters
/// of ink that sit on the row of a line that *was* read (or on a line of
/// their own just under its start: prices printed under the name); the pipeline reads
/// each as a single line, and `accepts` keeps only readings that are prices
/// and that line up with another price (recovered or read) in a column — two
/// pieces of evidence texture on a photo rarely gives together.
///
/// Pure (value in, value out): boxes in upright photo pixels.
public struct PriceRecovery: Sendable, Equatable {
    /// A cluster's characters join when the gap between them is under this many character heights.
    public var joinGap = 0.9
    /// A candidate's height against the height of the read line on its row.
    public var minimumHeightShare = 0.45
    public var maximumHeightShare = 1.6
    /// A price is short: at most this many heights wide, at most this many ink components.
    public var maximumAspect = 6.0
    public var maximumComponents = 9
    /// At most this many candidates are read (each is one small Tesseract call).
    public var maximumCandidates = 60
    /// A candidate the page copy does not read as a price is read again from crops of its
    /// own (LineCrop) at these scales of the photo, until one reads as a price.
    public var cropScales = [1.0, 2.0]
    /// A crop's stretch turns any texture into strokes: a crop is read only when its 1st and
    /// 99th percentile differ by this many gray levels.
    public var cropContrast = 64
    /// A leader glued to its price is read at its right end, this many heights wide.
    public var tailAspect = 6.0
    /// Accepted readings: mean word confidence at least this.
    public var minimumConfidence = 0.5
    /// A price under its name: its top at most this many line heights below the read line.
    public var underGap = 1.5
    /// Column alignment: left, right or centre within this many line heights.
    public var alignment = 1.0

    public init() {}

    /// A short token the page pass read as a line of its own that is no price and no
    /// confident word ("2)", "@", "it" where the photo shows "5", "7"): Tesseract's
    /// page pass guesses a lone digit badly, the single-line re-read gets it right.
    /// At most this many characters, below this confidence (or with no letter or digit
    /// other than at most one).
    public var misreadLength = 3
    /// From this page slope (about 1°) recovered prices are not inserted into rows.
    static let tiltedSlope = 0.02
    public var misreadConfidence = 0.9

    /// The one-word lines of `page` that may be a misread price (see `misreadLength`).
    public func misreadTokens(_ page: OCRPage) -> [OCRWord] {
        page.lines.compactMap { line in
            guard line.words.count == 1, let w = line.words.first else { return nil }
            let t = w.text.trimmingCharacters(in: .whitespaces)
            guard !t.isEmpty, t.count <= misreadLength, !Self.isPrice(t), w.box.width > 0, w.box.height > 0 else { return nil }
            return (w.confidence ?? 0) < misreadConfidence ? w : nil
        }
    }

    /// Unread short ink clusters on the rows of read lines, and misread short tokens
    /// placed the same way (upright photo pixels, padded for reading).
    public func candidates(page: OCRPage, ink: TextRegionAnalyzer.InkMap) -> [Box] {
        let f = ink.factor
        guard f > 0 else { return [] }
        // Rows are stretches of words, not Tesseract's lines: a row read across a gutter
        // ("WAFFLES ........" and the next column's dish as one line) is cut at its wide
        // gaps (PageLayout.segments), so a price printed in the gutter is beside its name.
        let segments = PageLayout.segments(of: page).filter { !$0.words.isEmpty }
        guard !segments.isEmpty else { return [] }
        // Read words (any confidence) in working-copy pixels, grown a little: their ink was read.
        func grown(_ w: OCRWord) -> Box {
            let s = w.box.scaled(by: f)
            let g = max(1, s.height / 4)
            return Box(x: s.x - g, y: s.y - g, width: s.width + 2 * g, height: s.height + 2 * g)
        }
        let words = page.lines.flatMap(\.words)
        let read: [Box] = words.map(grown)
        let rows: [Box] = segments.map { $0.box.scaled(by: f) }.filter { $0.height > 0 }
        // A row follows the page's slope: on a tilted photo a price printed far right of its
        // name sits higher or lower than the name's box (PageLayout.slope, as the structure
        // attaches lone prices).
        let slope = PageLayout.slope(of: page)
        func onRowOf(_ r: Box, x: Int, y: Int) -> Bool {
            let shift = Int((slope * Double(x - (r.x + r.width / 2))).rounded())
            return y >= r.y + shift && y < r.maxY + shift
        }
        // Unread characters on the row of a read line beside it, or just under its start.
        let unread = ink.characters.filter { c in
            let cx = c.x + c.width / 2, cy = c.y + c.height / 2
            guard rows.contains(where: { r in
                (onRowOf(r, x: cx, y: cy) && (cx < r.x || cx >= r.maxX))
                    || (cy >= r.maxY && Double(cy - r.maxY) <= underGap * Double(r.height) && cx >= r.x - r.height && cx < r.maxX)
            }) else { return false }
            return !read.contains { cx >= $0.x && cx < $0.maxX && cy >= $0.y && cy < $0.maxY }
        }.sorted { ($0.x, $0.y) < ($1.x, $1.y) }

        // Horizontal clusters: characters that overlap vertically and are close.
        var clusters: [(box: Box, count: Int)] = []
        for c in unread {
            var joined = false
            for k in clusters.indices.reversed() {
                let b = clusters[k].box
                let h = max(b.height, c.height, 1)
                let overlap = min(b.maxY, c.maxY) - max(b.y, c.y)
                let gap = c.x - b.maxX
                if overlap * 2 >= min(b.height, c.height), Double(gap) < joinGap * Double(h), gap > -h {
                    clusters[k] = (b.union(c), clusters[k].count + 1)
                    joined = true
                    break
                }
            }
            if !joined { clusters.append((c, 1)) }
            if clusters.count > 4 * maximumCandidates + 200 { break }
        }

        var out: [Box] = []
        for cluster in clusters where cluster.count <= maximumComponents {
            let b = cluster.box
            guard b.height > 0, Double(b.width) <= maximumAspect * Double(b.height) else { continue }
            let cy = b.y + b.height / 2, cx = b.x + b.width / 2
            // A read line on its row, beside it (not over it), of a comparable height.
            let onRow = rows.contains { r in
                guard onRowOf(r, x: cx, y: cy), b.maxX <= r.x || b.x >= r.maxX else { return false }
                let share = Double(b.height) / Double(r.height)
                return share >= minimumHeightShare && share <= maximumHeightShare
            }
            // Or on a line of its own just under a read line, starting where it starts
            // ("Onion Rings" / "18,00" under it), and on no read line's row.
            let under = !onRow && !rows.contains { onRowOf($0, x: cx, y: cy) } && rows.contains { r in
                b.y >= r.maxY - r.height / 4 && Double(b.y - r.maxY) <= underGap * Double(r.height)
                    && abs(b.x - r.x) <= r.height
                    && Double(b.height) / Double(r.height) >= minimumHeightShare
                    && Double(b.height) / Double(r.height) <= maximumHeightShare
            }
            guard onRow || under else { continue }
            let pad = max(2, b.height / 4)
            let photo = Box(left: b.x - pad, top: b.y - pad, right: b.maxX + pad, bottom: b.maxY + pad)
                .scaled(by: 1 / f)
                .intersection(Box(x: 0, y: 0, width: ink.width, height: ink.height))
            if let photo, photo.width > 0, photo.height > 0 { out.append(photo) }
            if out.count >= maximumCandidates { break }
        }
        // Leaders glued to their price: the working copy's scale joins a dotted leader to the
        // price it leads to, one component far too long for a price. Its right end, when that
        // is unread and beside the end of a row, is read (the reading's leaders are trimmed).
        // (Leaders Tesseract read as a word of garbage, "....ccscsc", hide no price.)
        let solid: [Box] = words.filter { !Self.isLeaderGarbage($0) }.map(grown)
        let glued = ink.characters.filter { Double($0.width) > maximumAspect * Double($0.height) } + ink.longCharacters
        for b in glued where out.count < maximumCandidates && b.height > 0 {
            let tail = Box(left: max(b.x, b.maxX - Int((tailAspect * Double(b.height)).rounded())), top: b.y,
                           right: b.maxX, bottom: b.maxY)
            let cx = tail.x + tail.width / 2, cy = tail.y + tail.height / 2
            guard !solid.contains(where: { cx >= $0.x && cx < $0.maxX && cy >= $0.y && cy < $0.maxY }),
                  rows.contains(where: { r in
                      guard onRowOf(r, x: cx, y: cy), b.maxX >= r.maxX + r.height / 2 else { return false }
                      let share = Double(b.height) / Double(r.height)
                      return share >= minimumHeightShare && share <= maximumHeightShare
                  }) else { continue }
            let pad = max(2, b.height / 4)
            if let photo = Box(left: tail.x - pad, top: tail.y - pad, right: tail.maxX + pad, bottom: tail.maxY + pad)
                .scaled(by: 1 / f)
                .intersection(Box(x: 0, y: 0, width: ink.width, height: ink.height)), photo.width > 0, photo.height > 0 {
                out.append(photo)
            }
        }
        // Misread tokens on the row of another read line, beside it, or on a line of their own
        // under one (left, right or centre aligned with it: a centred menu prints "5" centred
        // under the description).
        for w in misreadTokens(page) where out.count < maximumCandidates {
            let b = w.box
            let cy = b.y + b.height / 2
            let others = segments.filter { !($0.words.count == 1 && $0.words[0].box == b) }
            let share: (Box) -> Bool = { r in
                let s = Double(b.height) / Double(max(1, r.height))
                return s >= minimumHeightShare && s <= maximumHeightShare
            }
            let onRow = others.contains { l in
                let r = l.box
                return cy >= r.y && cy < r.maxY && (b.maxX <= r.x || b.x >= r.maxX) && share(r)
            }
            let under = !onRow && others.contains { l in
                let r = l.box
                let h = Double(r.height)
                guard b.y >= r.maxY - r.height / 4, Double(b.y - r.maxY) <= underGap * h, share(r) else { return false }
                let centre = abs(Double(b.x + b.maxX - r.x - r.maxX)) / 2
                return Double(abs(b.x - r.x)) <= h || Double(abs(b.maxX - r.maxX)) <= h || centre <= h
            }
            guard onRow || under else { continue }
            let pad = max(2, b.height / 4)
            if let photo = Box(left: b.x - pad, top: b.y - pad, right: b.maxX + pad, bottom: b.maxY + pad)
                .intersection(Box(x: 0, y: 0, width: ink.width, height: ink.height)), photo.width > 0, photo.height > 0 {
                out.append(photo)
            }
        }
        return out.sorted { ($0.y, $0.x) < ($1.y, $1.x) }
    }

    /// The recovered prices merged into `page`: `readings` (single-line reads of the
    /// candidates, upright photo pixels) are put in price form (`PriceToken.normalised`);
    /// those on ink no read word covers, and those over a misread token (and no other read
    /// word), are kept when `accepts` keeps them. A kept re-read replaces its misread
    /// token in place; the others are inserted into their rows (`OCRPage.inserting`).
    /// Returns the page and how many prices were added or replaced.
    public func merge(_ readings: [OCRLine], into page: OCRPage) -> (page: OCRPage, count: Int) {
        let misread = misreadTokens(page)
        let misreadBoxes = Set(misread.map(\.box))
        let readWords = page.lines.flatMap(\.words).filter { !Self.isLeaderGarbage($0) }
        func covers(_ w: OCRWord, _ line: OCRLine) -> Bool {
            w.box.iou(line.box) > 0.3 || (w.box.intersection(line.box)?.area ?? 0) * 2 > line.box.area
        }
        var fresh: [OCRLine] = []
        var replaces: [Box: Box] = [:]   // reading box → misread token box
        for raw in readings {
            guard let line = Self.cleaned(raw) else { continue }
            let covering = readWords.filter { covers($0, line) }
            if covering.isEmpty {
                fresh.append(line)
            } else if covering.count == 1, misreadBoxes.contains(covering[0].box), replaces.values.contains(covering[0].box) == false {
                replaces[line.box] = covering[0].box
                fresh.append(line)
            }
        }
        let kept = accepts(fresh, page: page)
        guard !kept.isEmpty else { return (page, 0) }
        var out = page
        var inserted: [OCRLine] = []
        for line in kept {
            guard let old = replaces[line.box] else { inserted.append(line); continue }
            var done = false
            for b in out.blocks.indices where !done {
                for l in out.blocks[b].lines.indices where out.blocks[b].lines[l].words.count == 1 && out.blocks[b].lines[l].words[0].box == old {
                    out.blocks[b].lines[l].words = line.words
                    out.blocks[b].lines[l].box = line.box
                    out.blocks[b].box = out.blocks[b].box.union(line.box)
                    done = true
                    break
                }
            }
            if !done { inserted.append(line) }
        }
        // On a tilted page a price's row in the photo is not its name's row: row insertion
        // would put it into a neighbour's line. There it stays a line of its own, and the
        // structure joins it to its name along the slope (PageLayout.attachLonePrices).
        if abs(PageLayout.slope(of: page)) >= Self.tiltedSlope {
            for line in inserted { out.blocks.append(OCRBlock(box: line.box, lines: [line])) }
        } else if !inserted.isEmpty {
            out = out.inserting(inserted)
        }
        return (out, kept.count)
    }

    /// A word Tesseract made of leader dots: a run of leaders ("........", "....ccscsc"),
    /// read at low confidence.
    static func isLeaderGarbage(_ w: OCRWord) -> Bool {
        (w.confidence ?? 0) < 0.3 && w.text.filter { leaderCharacters.contains($0) }.count >= 3
    }

    private static let leaderCharacters = PageLayout.leaderChars

    /// A reading without the leader dots before its price: leading words of dots and
    /// punctuation only ("....", "-", ":") are dropped, and dots glued to the first
    /// remaining word ("...22") are cut off (its box keeps them).
    static func trimmingLeaders(_ words: [OCRWord]) -> [OCRWord] {
        let filler: Set<Character> = leaderCharacters.union(["-", "–", "—", ":", ",", "'", "`", "~", "‘", "’", "*"])
        var rest = Array(words.drop { w in w.text.allSatisfy { filler.contains($0) || $0.isWhitespace } })
        guard var first = rest.first, first.text.first.map({ leaderCharacters.contains($0) }) == true else { return rest }
        let cut = String(first.text.drop { leaderCharacters.contains($0) })
        guard !cut.isEmpty else { return rest }
        first.text = cut
        rest[0] = first
        return rest
    }

    /// A reading in price form: leaders trimmed (`trimmingLeaders`), each word put in
    /// price form (`PriceToken.normalised`) and marked recovered; nil when nothing is left.
    public static func cleaned(_ raw: OCRLine) -> OCRLine? {
        let words = trimmingLeaders(raw.words).map { w in
            OCRWord(text: PriceToken.normalised(w.text), confidence: w.confidence, box: w.box, recovered: true)
        }.filter { !$0.text.isEmpty }
        guard let head = words.first else { return nil }
        return OCRLine(box: words.dropFirst().reduce(head.box) { $0.union($1.box) }, words: words)
    }

    /// A (cleaned) reading that is one price, read with at least `minimumConfidence`.
    public func isConfidentPrice(_ line: OCRLine) -> Bool {
        // A price printed with its calorie count ("12  550 Cal") is read as one line:
        // the price's own words decide.
        let own = line.words.filter { RoleStructurer.splitCalories($0.text).1.isEmpty && !Self.isCalorieUnit($0.text) }
        let confidence = own.isEmpty ? 0 : own.map { $0.confidence ?? 0 }.reduce(0, +) / Double(own.count)
        return confidence >= minimumConfidence && Self.isPriceReading(line.text)
    }

    /// The readings to keep: one price each ("12", "9.50", "€7", "12/18",
    /// "+3"), confident, and aligned in a column with another recovered price
    /// or with a price the page already holds at the end of a line.
    public func accepts(_ readings: [OCRLine], page: OCRPage) -> [OCRLine] {
        let prices = readings.filter { isConfidentPrice($0) }
        guard !prices.isEmpty else { return [] }
        // Prices already on the page: the last word of a row (a line cut at its gutters)
        // when it is a price.
        let readPrices: [Box] = PageLayout.segments(of: page).compactMap { l in
            guard let w = l.words.last, Self.isPrice(w.text) else { return nil }
            return w.box
        }
        return prices.filter { p in
            let others = prices.filter { $0.box != p.box }.map(\.box) + readPrices.filter { $0 != p.box }
            return others.contains { aligned(p.box, $0) }
        }
    }

    func aligned(_ a: Box, _ b: Box) -> Bool {
        let h = Double(max(a.height, b.height, 1)) * alignment
        let left = abs(Double(a.x - b.x)), right = abs(Double(a.maxX - b.maxX))
        let centre = abs(Double(a.x + a.maxX - b.x - b.maxX)) / 2
        // Same column, on another row.
        let sameRow = min(a.maxY, b.maxY) - max(a.y, b.y) > min(a.height, b.height) / 2
        return !sameRow && min(left, right, centre) <= h
    }

    private static let priceText = try! NSRegularExpression(
        pattern: #"^\+?\s?[$€£¥]?\s?\d{1,4}(?:[.,]\d{1,2})?\s?[$€£¥]?(?:\s?/\s?\+?[$€£¥]?\d{1,4}(?:[.,]\d{1,2})?)*$"#)

    /// One price, alone or followed by its calorie count ("12 550 Cal").
    public static func isPriceReading(_ text: String) -> Bool {
        if isPrice(text) { return true }
        let (rest, cals) = RoleStructurer.splitCalories(text)
        return !cals.isEmpty && isPrice(rest)
    }

    /// "Cal", "kcal" read as a word of their own after the count.
    static func isCalorieUnit(_ w: String) -> Bool {
        ["cal", "kcal", "kj", "calories", "cai", "ca1", "ca"].contains(w.lowercased().trimmingCharacters(in: .punctuationCharacters))
    }

    /// One price, nothing else: "12", "9.50", "€7", "12,50 €", "12/18", "+3".
    public static func isPrice(_ text: String) -> Bool {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard !t.isEmpty, t.count <= 16 else { return false }
        return priceText.firstMatch(in: t, range: NSRange(t.startIndex..., in: t)) != nil
    }
}
