/// Finds areas of the upright photo that hold text-like ink but no
/// confidently read words (SPEC R5), by image analysis with leptonica:
///
/// 1. Work on a gray copy whose long side is at most `workingLongSide`.
/// 2. Ink = pixels at least `minimumContrast` gray levels darker than the
///    local background (a gray closing with a brick 1/25 of the long side):
///    robust to uneven light, and out-of-focus text still leaves smudges
///    darker than the paper around them.
/// 3. Connected components; keep the character-sized ones (height between
///    0.5 % and 8 % of the long side, not wider than 25 heights or half the photo).
/// 4. Drop the components whose centre lies in a hotspot box (grown by a
///    quarter of its height): that ink was read.
/// 5. Text-line structure: paint the remaining components into a mask and
///    close it horizontally (brick 1.5 median character heights wide), so the
///    characters of one line join; a line candidate is text-like when it holds
///    at least 2.5 times as wide as tall and at most 2.5 median character
///    heights tall, measured across the line's own slant (`band`: a page
///    photographed in perspective slants its lines; pictures and stray marks fail this; out-of-focus words
///    fuse into one component each, so no per-line component count is asked).
/// 6. Lines close to each other (vertical gap under 2.5 line heights,
///    overlapping or near horizontally) merge into regions, unless the merged
///    rectangle would cover a quarter or more of a hotspot; a region needs
///    `minimumLines` lines or `minimumComponents` components in all. Overlapping regions merge, and at
///    most `maximumRegions` remain (the pair whose union adds the least area
///    merges first).
/// 7. Reason: ink in the region touching the photo edge → `cut_off`; overlapping a line that OCR
///    read below the hotspot floor → `low_confidence`; otherwise `no_words`.
public struct TextRegionAnalyzer: Sendable, Equatable {
    public var workingLongSide = 1200
    public var minimumComponents = 6
    public var minimumLines = 2
    public var maximumRegions = 12
    /// Gray levels below the local background that count as ink.
    public var minimumContrast = 24
    /// Ruling lines: at least this share of the working copy's long side
    /// long (text strokes are far shorter) and at most this share thick.
    public var ruleMinimumLength = 1.0 / 30
    public var ruleMaximumThickness = 1.0 / 200

    public init() {}

    /// `hotspotBoxes` and `lowConfidenceBoxes` are in upright photo pixels;
    /// so are the regions returned.
    public func unrecognizedRegions(in image: Bitmap, hotspotBoxes: [Box],
                                    lowConfidenceBoxes: [Box]) -> [UnrecognizedRegion] {
        analyze(image, hotspotBoxes: hotspotBoxes, lowConfidenceBoxes: lowConfidenceBoxes).regions
    }

    /// The regions, and the unread text lines they were made of (upright pixels).
    public struct Analysis: Equatable, Sendable {
        public var regions: [UnrecognizedRegion] = []
        /// Boxes of the text-like lines that no hotspot covers (before merging
        /// into regions); their union area is the unread text area.
        public var unreadLines: [Box] = []
        /// Every unread text-like line, also those too small to make a region
        /// (an isolated price): what a second OCR pass may try to read.
        public var candidateLines: [Box] = []
        /// Each candidate line's band (photo pixels): a slanted one is read turned level.
        public var candidateBands: [Band] = []
    }

    /// Steps 1–3, the costly part, which depends on the photo alone: its
    /// character-sized ink components. Computed once per photo and shared by
    /// the second OCR pass and the hotspot stage.
    public struct InkMap: Equatable, Sendable {
        /// The photo's size, and the working copy's.
        public var width: Int, height: Int
        public var workWidth: Int, workHeight: Int
        /// Working copy = photo × factor.
        public var factor: Double
        /// Character-sized ink components, in working-copy pixels.
        public var characters: [Box]
        /// Ruling lines (column dividers, table and frame borders), in photo
        /// pixels: at least `ruleMinimumLength` of the working copy's long
        /// side long, at most `ruleMaximumThickness` of it thick. Empty unless
        /// asked for (only the reading-order stage uses them).
        public var rules: [RuleLine] = []
        /// Components of character height but more than 25 heights long, in
        /// working-copy pixels: mostly a run of leader dots that the working
        /// copy's scale glued to the price it leads to ("Lasagne ........ 18"),
        /// which price recovery reads at the right end.
        public var longCharacters: [Box] = []
    }

    /// The ink map of the upright photo, or nil when the photo cannot be
    /// analysed. `findRules`: also find its ruling lines (a global threshold
    /// and a few morphological openings of the working copy).
    public func inkMap(of image: Bitmap, findRules: Bool = false) -> InkMap? {
        let width = image.width, height = image.height
        let long = max(width, height)
        guard long > 0 else { return nil }
        let factor = min(1.0, Double(workingLongSide) / Double(long))
        guard let gray = image.grayscale(),
              let work = factor < 1 ? gray.scaled(by: factor) : gray else { return nil }
        let ww = work.width, wh = work.height
        let workLong = max(ww, wh)
        guard let ink = work.darkerThanBackground(backgroundSize: workLong / 25, minContrast: minimumContrast) else { return nil }

        // 3. character-sized components
        let minH = max(5, workLong / 200), maxH = max(minH + 1, workLong * 8 / 100)
        var chars: [Box] = [], longChars: [Box] = []
        for b in ink.componentBoxes() where b.height >= minH && b.height <= maxH && b.width * 2 <= ww && b.width >= 1 {
            if b.width <= 25 * b.height { chars.append(b) } else { longChars.append(b) }
        }
        // Ruling lines, from both kinds of ink: the local-background ink
        // misses a line at the edge of a shaded panel, the global threshold
        // one on an unevenly lit photo.
        var rules: [RuleLine] = []
        if findRules {
            let ruleLength = max(20, Int(Double(workLong) * ruleMinimumLength))
            let ruleThickness = max(3, Int(Double(workLong) * ruleMaximumThickness))
            rules = RuleLineFinder.find(in: [ink] + [work.darkerThanOtsu()].compactMap { $0 }, factor: factor,
                                        minimumLength: ruleLength, maximumThickness: ruleThickness)
        }
        return InkMap(width: width, height: height, workWidth: ww, workHeight: wh, factor: factor, characters: chars, rules: rules,
                      longCharacters: longChars)
    }

    public func analyze(_ image: Bitmap, hotspotBoxes: [Box], lowConfidenceBoxes: [Box]) -> Analysis {
        analyze(inkMap(of: image), hotspotBoxes: hotspotBoxes, lowConfidenceBoxes: lowConfidenceBoxes)
    }

    /// Steps 4–7 on a photo's ink map (nil: nothing to report).
    public func analyze(_ map: InkMap?, hotspotBoxes: [Box], lowConfidenceBoxes: [Box]) -> Analysis {
        let none = Analysis()
        guard let map else { return none }
        let width = map.width, height = map.height, ww = map.workWidth, wh = map.workHeight
        let factor = map.factor, chars = map.characters

        // 4. drop what was read
        let read = hotspotBoxes.map { b -> Box in
            let s = b.scaled(by: factor)
            let grow = s.height / 4
            return Box(x: s.x - grow, y: s.y - grow, width: s.width + 2 * grow, height: s.height + 2 * grow)
        }
        let unread = chars.filter { c in
            let cx = c.x + c.width / 2, cy = c.y + c.height / 2
            return !read.contains { cx >= $0.x && cx < $0.maxX && cy >= $0.y && cy < $0.maxY }
        }
        guard unread.count >= minimumComponents else { return none }

        // 5. text lines
        let medianH = Self.median(unread.map(\.height))
        guard let mask = Bitmap.blankMask(width: ww, height: wh) else { return none }
        for c in unread { mask.setMask(c) }
        guard let joined = mask.closed(width: max(3, medianH * 3 / 2), height: 1) else { return none }
        struct Line { var box: Box; var count: Int; var band: Band }
        // Each character goes to the joined component that holds its centre (the boxes of slanted
        // lines overlap, so a box alone cannot tell).
        let (candidates, owner) = joined.components(holding: unread.map { (x: $0.x + $0.width / 2, y: $0.y + $0.height / 2) })
        var members = Array(repeating: [Box](), count: candidates.count)
        for (k, c) in unread.enumerated() where k < owner.count && candidates.indices.contains(owner[k]) {
            members[owner[k]].append(c)
        }
        let lines = candidates.indices.compactMap { i -> Line? in
            let b = candidates[i]
            // A line photographed at a slant (a page in perspective) has a tall box but a thin band.
            let band = Self.band(members[i])
            let t = min(b.height, band.thickness)
            guard !members[i].isEmpty, b.width * 2 >= t * 5, t * 2 <= medianH * 5 else { return nil }
            return Line(box: b, count: members[i].count, band: band)
        }
        guard !lines.isEmpty else { return none }

        // 6. lines → regions
        var groups = lines.map { (box: $0.box, count: $0.count, lines: 1, lineHeight: max(1, min($0.box.height, $0.band.thickness))) }
        var merged = true
        while merged {
            merged = false
            outer: for i in groups.indices {
                for j in groups.indices where j > i {
                    let u = groups[i].box.union(groups[j].box)
                    // Never merge across text that was read: regions stay on unread text.
                    let lineHeight = max(groups[i].lineHeight, groups[j].lineHeight)
                    if Self.near(groups[i].box, groups[j].box, lineHeight: lineHeight), !read.contains(where: { Self.swallows(u, $0) }) {
                        groups[i] = (groups[i].box.union(groups[j].box), groups[i].count + groups[j].count,
                                     groups[i].lines + groups[j].lines, lineHeight)
                        groups.remove(at: j)
                        merged = true
                        break outer
                    }
                }
            }
        }
        let kept = groups.filter { $0.lines >= minimumLines || $0.count >= minimumComponents }
        var regions = kept.map(\.box)
        let keptLines = lines.filter { l in kept.contains { $0.box.intersection(l.box) == l.box } }
        while regions.count > maximumRegions {
            var best = (i: 0, j: 1, cost: Int.max)
            for i in regions.indices {
                for j in regions.indices where j > i {
                    let u = regions[i].union(regions[j])
                    let cost = u.area - regions[i].area - regions[j].area
                    if cost < best.cost { best = (i, j, cost) }
                }
            }
            regions[best.i] = regions[best.i].union(regions[best.j])
            regions.remove(at: best.j)
        }
        regions.sort { ($0.y, $0.x) < ($1.y, $1.x) }

        // 7. back to upright pixels, with a reason
        let edge = 2, reach = max(3, medianH * 3 / 2)
        let lowBoxes = lowConfidenceBoxes
        // A slanted line's text is its band, not its box: pieces of it, each about two band heights long.
        let unreadLines = keptLines.flatMap { Self.pieces(of: $0.box, along: $0.band) }
            .map { Self.clamp($0.scaled(by: 1 / factor), width: width, height: height) }
        let out = regions.map { r in
            // judged on the ink itself (closing may pull a line's box back from the edge)
            let touches = unread.contains { c in
                // the closing can erode a line's end at the border: look a brick width further
                let grown = Box(x: r.x - reach, y: r.y, width: r.width + 2 * reach, height: r.height)
                return grown.intersection(c) != nil && (c.x <= edge || c.y <= edge || c.maxX >= ww - edge || c.maxY >= wh - edge)
            }
            let up = Self.clamp(r.scaled(by: 1 / factor), width: width, height: height)
            let reason: UnrecognizedReason
            if touches {
                reason = .cutOff
            } else if lowBoxes.contains(where: { $0.intersection(up) != nil }) {
                reason = .lowConfidence
            } else {
                reason = .noWords
            }
            return UnrecognizedRegion(box: up, reason: reason)
        }
        let candidateLines = lines.map { Self.clamp($0.box.scaled(by: 1 / factor), width: width, height: height) }
        let toPhoto = factor > 0 ? 1 / factor : 1
        let candidateBands = lines.map { l in
            Band(slant: l.band.slant, through: (l.band.through.x * toPhoto, l.band.through.y * toPhoto),
                 thickness: Int((Double(l.band.thickness) * toPhoto).rounded(.up)))
        }
        return Analysis(regions: out, unreadLines: unreadLines, candidateLines: candidateLines, candidateBands: candidateBands)
    }

    /// One line's band: its characters' least-squares slant (the slope of their centres, at most
    /// `maximumSlant`, about 15°), a point its middle runs through, and its height measured across
    /// that slant. A level line's band is its box height; a line at 5° across 450 px is still one
    /// character tall, where its box is four. Fewer than three characters: level, the box height.
    public struct Band: Equatable, Sendable {
        public var slant: Double
        public var through: (x: Double, y: Double)
        public var thickness: Int

        public static func == (a: Band, b: Band) -> Bool {
            a.slant == b.slant && a.through == b.through && a.thickness == b.thickness
        }
    }

    static func band(_ chars: [Box]) -> Band {
        let box = chars.dropFirst().reduce(chars.first ?? Box(x: 0, y: 0, width: 0, height: 0)) { $0.union($1) }
        let level = Band(slant: 0, through: (Double(box.x) + Double(box.width) / 2, Double(box.y) + Double(box.height) / 2),
                         thickness: box.height)
        guard chars.count >= 3 else { return level }
        let n = Double(chars.count)
        let xs = chars.map { Double($0.x) + Double($0.width) / 2 }, ys = chars.map { Double($0.y) + Double($0.height) / 2 }
        let mx = xs.reduce(0, +) / n, my = ys.reduce(0, +) / n
        var sxx = 0.0, sxy = 0.0
        for k in chars.indices { sxx += (xs[k] - mx) * (xs[k] - mx); sxy += (xs[k] - mx) * (ys[k] - my) }
        guard sxx > 0 else { return level }
        let slope = min(maximumSlant, max(-maximumSlant, sxy / sxx))
        var top = Double.infinity, bottom = -Double.infinity
        for (k, c) in chars.enumerated() {
            let shift = slope * (xs[k] - mx)
            top = min(top, Double(c.y) - shift)
            bottom = max(bottom, Double(c.maxY) - shift)
        }
        guard top.isFinite, bottom.isFinite, bottom > top else { return level }
        let thickness = min(box.height, Int((bottom - top).rounded(.up)))
        return Band(slant: slope, through: (mx, (top + bottom) / 2), thickness: thickness)
    }

    /// `box` (a line's) cut across into pieces about two band heights long, each as tall as the band
    /// is there: their union is the line's band, where the box of a slanted line is far more. A level
    /// line is its box.
    static func pieces(of box: Box, along band: Band) -> [Box] {
        let t = band.thickness
        guard band.slant != 0, t > 0, t < box.height, box.width > 0 else { return [box] }
        let step = 2 * t
        var out: [Box] = []
        var x = box.x
        while x < box.maxX {
            let x1 = min(box.maxX, x + step)
            let mid = band.through.y + band.slant * (Double(x + x1) / 2 - band.through.x)
            let rise = abs(band.slant) * Double(x1 - x) / 2
            let top = Int((mid - Double(t) / 2 - rise).rounded(.down)), bottom = Int((mid + Double(t) / 2 + rise).rounded(.up))
            if let piece = Box(left: x, top: top, right: x1, bottom: bottom).intersection(box) { out.append(piece) }
            x = x1
        }
        return out.isEmpty ? [box] : out
    }

    /// tan 15°: the steepest slant `band` takes out.
    static let maximumSlant = 0.27

    /// `region` covers at least a quarter of the read box `read`.
    static func swallows(_ region: Box, _ read: Box) -> Bool {
        guard let i = region.intersection(read) else { return false }
        return i.area * 4 >= read.area
    }

    /// Two text boxes belong together: vertical gap under 2.5 line heights (a
    /// price column skips the description lines) and
    /// horizontal gap under 2 line heights (or they overlap).
    static func near(_ a: Box, _ b: Box, lineHeight h: Int) -> Bool {
        let vgap = max(a.y, b.y) - min(a.maxY, b.maxY)
        let hgap = max(a.x, b.x) - min(a.maxX, b.maxX)
        return vgap < h * 5 / 2 && hgap < h * 2
    }

    static func clamp(_ b: Box, width: Int, height: Int) -> Box {
        let l = max(0, b.x), t = max(0, b.y)
        return Box(left: l, top: t, right: min(width, b.maxX), bottom: min(height, b.maxY))
    }

    static func median(_ values: [Int]) -> Int {
        guard !values.isEmpty else { return 0 }
        let s = values.sorted()
        return s[s.count / 2]
    }
}

