import Foundation

/// Menu structure + allergen + dietary classification (SPEC R6–R8).
/// A pure value-in/value-out stage: no logging, no printing, no I/O.
public struct MenuAnalyzer: Sendable {
    public let lexicon: AllergenLexicon
    private let classifier: AllergenClassifier

    public init(lexicon: AllergenLexicon) {
        self.lexicon = lexicon
        self.classifier = AllergenClassifier(lexicon: lexicon)
    }

    /// Words below this OCR confidence make an item's absence of allergens untrustworthy.
    public static let lowWordConfidence = 0.5

    // MARK: Entry points

    /// Photos: the OCR page's lines, split into columns and bands.
    public func analyze(page: OCRPage, profile: AllergenProfile?) -> MenuAnalysis {
        let segs = PageLayout.segments(of: page)
        let lines = segs.map { s in
            StructLine(text: s.words.map(\.text).joined(separator: " "),
                       words: s.words.map { SourceWord(text: $0.text, confidence: $0.confidence) },
                       ocrWords: s.words)
        }
        let runs = PageLayout.runs(segs)
        let roles = RoleModel.shared.map { Self.lineRoles(segments: segs, runs: runs, model: $0) }
        // Lines Tesseract read across two columns are split into their dishes by PageLayout;
        // that they had to be is still evidence of a layout read wrongly.
        let readAcross = StructureConfidence.readAcrossShare(page: page)
        return analyze(lines: lines, runs: runs, perLine: false, exactText: false, profile: profile, roles: roles,
                       readAcross: readAcross)
    }

    /// Each line's role and its probabilities from the role model.
    struct RoleAssignment {
        var roles: [LineRole]
        var probabilities: [[LineRole: Double]]
        /// The page prints its section headings in capitals (`harmoniseHeadings`).
        var headingsInCapitals = false
    }

    static func lineRoles(segments segs: [PageLayout.Segment], runs: [[Int]], model: RoleModel) -> RoleAssignment {
        let texts = segs.map { $0.words.map(\.text).joined(separator: " ") }
        let vectors = LineFeatures.vectors(lines: segs.map(\.words), texts: texts, runs: runs)
        var probs = vectors.map { model.probabilities($0) }
        var roles = probs.map { p in LineRole.allCases.max { (p[$0] ?? 0) < (p[$1] ?? 0) } ?? .other }
        let capitals = harmoniseHeadings(roles: &roles, probabilities: &probs, texts: texts)
        return RoleAssignment(roles: roles, probabilities: probs, headingsInCapitals: capitals)
    }

    /// A menu prints its section headings in one style. Where most of them are in capitals
    /// (two at least), a line in lower case taken for a heading ("Provoleta" between ENTRADAS
    /// and POSTRES, its letters boxed tall) is a dish's name: its dish is kept, and the dishes
    /// after it stay under their real section. Returns whether the page's headings are in capitals.
    @discardableResult
    static func harmoniseHeadings(roles: inout [LineRole], probabilities probs: inout [[LineRole: Double]], texts: [String]) -> Bool {
        let headings = roles.indices.filter { roles[$0] == .header && $0 < texts.count }
        let capitals = Set(headings.filter { MenuStructurer.isMostlyCapitals(texts[$0]) })
        guard capitals.count >= 2 && 2 * capitals.count > headings.count else { return false }
        for i in headings where !capitals.contains(i) && texts[i].contains(where: \.isLowercase) {
            roles[i] = .name
            if i < probs.count { probs[i][.name] = max(probs[i][.name] ?? 0, probs[i][.header] ?? 0) }
        }
        return true
    }

    /// One line of a photo as the structure stage sees it: text, box, run,
    /// role features and the model's role (training and debugging data for
    /// Benchmarks/train_roles.py; `menuscan classify --page P --dump-lines`).
    public struct LineDump: Codable, Sendable {
        public var text: String
        public var box: Box?
        public var run: Int
        public var features: [Double]
        public var role: String?
    }

    /// The structure stage alone on a photo's page (line segments, runs, role
    /// features, roles, items), no classification: for timing benchmarks
    /// (`menuscan classify --page P --time-structure N`). Returns the item count.
    public static func structureOnly(page: OCRPage) -> Int {
        let segs = PageLayout.segments(of: page)
        let runs = PageLayout.runs(segs)
        let lines = segs.map { s in
            StructLine(text: s.words.map(\.text).joined(separator: " "),
                       words: s.words.map { SourceWord(text: $0.text, confidence: $0.confidence) }, ocrWords: s.words)
        }
        guard let model = RoleModel.shared else {
            return MenuStructurer(lines: lines, runs: runs, legendLines: []).run().items.count
        }
        let roles = lineRoles(segments: segs, runs: runs, model: model)
        let out = RoleStructurer(lines: lines, runs: runs, legendLines: [], roles: roles.roles,
                                 nameProbability: roles.probabilities.map { $0[.name] ?? 0 },
                                 headingsInCapitals: roles.headingsInCapitals).run()
        // The structure's confidence evidence is part of the stage's time.
        let evidence = StructureConfidence.measure(lines: lines, runs: runs, items: out.items, notes: [], legendLines: [],
                                                   photo: true, readAcross: StructureConfidence.readAcrossShare(page: page))
        return evidence.factor > 0 ? out.items.count : 0
    }

    public static func dumpLines(page: OCRPage) -> [LineDump] {
        let segs = PageLayout.segments(of: page)
        let runs = PageLayout.runs(segs)
        let texts = segs.map { $0.words.map(\.text).joined(separator: " ") }
        let vectors = LineFeatures.vectors(lines: segs.map(\.words), texts: texts, runs: runs)
        let roles = RoleModel.shared.map { lineRoles(segments: segs, runs: runs, model: $0).roles }
        var runOf = Array(repeating: -1, count: segs.count)
        for (r, run) in runs.enumerated() { for i in run where i >= 0 && i < segs.count { runOf[i] = r } }
        var out: [LineDump] = []
        for r in runs { for i in r where i >= 0 && i < segs.count {
            out.append(LineDump(text: texts[i], box: segs[i].box, run: runOf[i], features: vectors[i], role: roles?[i].rawValue))
        } }
        return out
    }

    /// Plain text (`menuscan classify`): one menu, or one item per line.
    public func analyze(text: String, perLine: Bool, profile: AllergenProfile?) -> MenuAnalysis {
        // (Lines and words split on the bytes: splitting them by Characters was 6 % of a long menu's analysis.)
        let lines = ScalarText.lines(text).map { raw -> StructLine in
            let t = Self.expandingSuperscriptCodes(PriceParser.expandingSuperscriptCents(raw))
            return StructLine(text: t, words: ScalarText.spaceSeparatedWords(t).map { SourceWord(text: $0, confidence: nil) },
                              ocrWords: [])
        }
        // Blank lines separate runs (an item never spans a blank line).
        var runs: [[Int]] = [[]]
        for (i, l) in lines.enumerated() {
            if l.text.trimmingSpaces().isEmpty { if !runs[runs.count - 1].isEmpty { runs.append([]) } }
            else { runs[runs.count - 1].append(i) }
        }
        return analyze(lines: lines, runs: runs.filter { !$0.isEmpty }, perLine: perLine, exactText: true, profile: profile)
    }

    /// Allergen codes printed as superscripts ("Bündner Gerstensuppe ¹ ⁷ ⁹", "Raclette⁷") written
    /// as a code list ("(1, 7, 9)"), and a superscript key before its name at the start of a
    /// line or after a separator ("Allergene: ¹ glutenhaltiges Getreide · ² Krebstiere") as its number. Consecutive superscript digits are one number
    /// ("¹²" is 12); superscripts on a word that holds a digit are left as they are ("4⁵", "12m²").
    /// Text without a superscript digit is returned as it is.
    static func expandingSuperscriptCodes(_ s: String) -> String {
        guard PriceParser.mayHoldSuperscriptDigit(s) else { return s }
        let chars = Array(s)
        let sup = PriceParser.superscriptDigits
        var out = ""
        var i = 0
        while i < chars.count {
            guard sup[chars[i]] != nil else { out.append(chars[i]); i += 1; continue }
            // (Attached to a word that holds a digit it is a unit's power: "12m²", "4⁵".)
            let word = chars[..<i].reversed().prefix { $0 != " " && sup[$0] == nil }
            guard !word.contains(where: { $0.isASCII && $0.isNumber }) else { out.append(chars[i]); i += 1; continue }
            // A run of superscript numbers, parted by spaces or commas.
            var numbers: [String] = []
            var j = i
            var end = i
            while j < chars.count {
                if let d = sup[chars[j]] {
                    var n = String(d)
                    j += 1
                    while j < chars.count, let e = sup[chars[j]] { n.append(e); j += 1 }
                    numbers.append(n)
                    end = j
                } else if chars[j] == " " || chars[j] == "," {
                    j += 1
                } else { break }
            }
            let rest = chars[end...].drop { $0 == " " }
            let before = chars[..<i].last { $0 != " " }
            if numbers.count == 1, rest.first?.isLetter == true, before.map({ !$0.isLetter && !$0.isNumber && $0 != ")" }) ?? true {
                out += numbers[0]            // a key before its name
            } else {
                if let last = out.last, last != " " { out.append(" ") }
                out += "(" + numbers.joined(separator: ", ") + ")"
            }
            i = end
        }
        return out
    }

    // MARK: Legend

    /// A legend entry with a key of one or two digits or one letter: "1 Celery", "A-GLUTEN",
    /// "a) glutenhaltiges Getreide" (a lower-case key only when a bracket closes it).
    static let legendSegment = try! NSRegularExpression(
        pattern: #"^\s*(\d{1,2}|[A-Z]|[a-z](?=\)))\s*(?:[-–—:=.)]\s*|\s+)([A-Za-zÀ-ÿ][A-Za-zÀ-ÿ '&()]*?)\s*$"#)

    /// False only where `legendSegment` cannot match: a segment that starts with a letter
    /// other than A–Z, or with A–Z followed by a letter or digit ("Chicken"). Most lines
    /// of a menu need no regular expression.
    static func mayBeLegendSegment(_ p: String) -> Bool {
        var it = p.unicodeScalars.makeIterator()
        guard let c0 = it.next() else { return true }
        func alnum(_ c: Unicode.Scalar) -> Bool { c.properties.isAlphabetic || c.properties.numericType != nil }
        if c0.value >= 65 && c0.value <= 90 {
            guard let c1 = it.next() else { return true }
            return !alnum(c1)
        }
        // "a) glutenhaltiges Getreide": a lower-case key closed by a bracket.
        if c0.value >= 97 && c0.value <= 122 { return it.next() == ")" }
        return !c0.properties.isAlphabetic
    }

    /// A legend entry with a key of two or three letters, as British keys print them ("Ce celery",
    /// "Mi - milk", "Mus: mustard", "VG vegan"): the key, whether a separator followed it, the name.
    static let multiLetterLegendSegment = try! NSRegularExpression(
        pattern: #"^\s*([A-Z][a-z]{1,2}|[A-Z]{2,3})\s*(?:([-–—:=])\s*|\s+)([A-Za-zÀ-ÿ][A-Za-zÀ-ÿ '&()]*?)\s*$"#)

    /// False only where `multiLetterLegendSegment` cannot match: the part does not open with a
    /// capital A–Z and one or two more letters before a space or a separator ("Chicken" has
    /// four). Most lines of a menu need no regular expression.
    static func mayBeMultiLetterSegment(_ p: String) -> Bool {
        guard let key = leadingKey(Substring(p).unicodeScalars, skipping: { $0.properties.isWhitespace }),
              !key.digits, key.next != nil else { return false }
        return key.length >= 2
    }

    /// The key a text opens with after the scalars `skipping` passes over: one or two decimal
    /// digits, a capital A–Z and at most two more letters, or a lower-case a–z closed by a bracket
    /// ("a) glutenhaltiges Getreide"); its length and the scalar after it (nil at the end). Nil
    /// when the text opens with something else or the run is longer.
    static func leadingKey(_ scalars: Substring.UnicodeScalarView, skipping: (Unicode.Scalar) -> Bool)
        -> (digits: Bool, length: Int, next: Unicode.Scalar?)? {
        var it = scalars.makeIterator()
        var first = it.next()
        while let c = first, skipping(c) { first = it.next() }
        guard let c = first else { return nil }
        if c.value >= 97 && c.value <= 122 {
            let next = it.next()
            return next == ")" ? (false, 1, next) : nil
        }
        // (Any decimal digit: the patterns' \d reads "٣" too.)
        let digits = c.properties.numericType == .decimal
        guard digits || (c.value >= 65 && c.value <= 90) else { return nil }
        let same: (Unicode.Scalar) -> Bool = digits ? { $0.properties.numericType == .decimal } : { $0.properties.isAlphabetic }
        var length = 1
        while let n = it.next() {
            guard same(n) else { return (digits, length, n) }
            length += 1
            if length > (digits ? 2 : 3) { return nil }
        }
        return (digits, length, nil)
    }

    /// False only where no legend entry can open the line: neither its start nor the text after
    /// its first colon (a title's, "Allergen key:") opens, after spaces and separators, with a
    /// key — one or two digits, or a capital A–Z and at most two more letters — followed by no
    /// letter or digit.
    static func mayOpenWithKey(_ text: String) -> Bool {
        let t = Substring(text)
        if opensWithKey(t.unicodeScalars) { return true }
        // (The colon found in the bytes: walking Characters to it cost more than the rest.)
        guard let colon = text.utf8.firstIndex(of: UInt8(ascii: ":")) else { return false }
        return opensWithKey(t[text.utf8.index(after: colon)...].unicodeScalars)
    }

    /// Whether `scalars` open, after spaces and the separators a part may follow ("• A Gluten",
    /// "| 1 Celery"), with a key followed by no letter (digits) or no digit (letters).
    static func opensWithKey(_ scalars: Substring.UnicodeScalarView) -> Bool {
        guard let key = leadingKey(scalars, skipping: { $0.properties.isWhitespace || keySeparators.contains($0.value) })
        else { return false }
        guard let next = key.next else { return true }
        return key.digits ? !next.properties.isAlphabetic : next.properties.numericType == nil
    }

    /// Whether a match of `multiLetterLegendSegment` in part `p` is a legend entry: on a line of
    /// several entries ("Ce celery · Mi milk · Mu mustard"), or behind a separator ("Mi - milk",
    /// "Mu: mustard") that is no hyphen joining a word ("Pan-fried", "Oat-milk").
    static func standsAsEntry(_ m: NSTextCheckingResult, in p: String, parts: Int) -> Bool {
        if parts >= 3 { return true }
        let sep = m.range(at: 2)
        guard sep.location != NSNotFound else { return false }
        let joinsWord = sep.location == NSMaxRange(m.range(at: 1)) && "-–".contains(p.substring(utf16: sep))
        return !joinsWord
    }

    /// The 14 allergens in the order of Regulation (EU) 1169/2011 Annex II, which numbered
    /// keys across Europe follow (1 cereals containing gluten … 14 molluscs).
    static let annexIIOrder: [AllergenID] = [
        .gluten, .crustaceans, .eggs, .fish, .peanuts, .soybeans, .milk,
        .tree_nuts, .celery, .mustard, .sesame, .sulphites, .lupin, .molluscs,
    ]

    /// Whether a numbered key is Annex II's list: its numbers are exactly 1 to 14, none is an
    /// additive's, the names read (`read`) say each one allergen, that of their place, and at
    /// least two are read — one name could agree by chance, and a key read in none of its
    /// names is no evidence.
    static func isAnnexIIOrder(read: [Int: [AllergenID]], unnamed: [Int], additives: Set<Int>) -> Bool {
        let numbers = Set(read.keys).union(unnamed)
        guard numbers == Set(1...14), unnamed.count == Set(unnamed).count, read.count >= 2,
              Set(read.keys).isDisjoint(with: unnamed), additives.isDisjoint(with: numbers) else { return false }
        return read.allSatisfy { n, ids in Set(ids) == [annexIIOrder[n - 1]] }
    }

    /// The number of a numbered legend entry whose name is written in letters of any alphabet
    /// ("5 – orzeszki ziemne", "12 – dwutlenek siarki i siarczyny"), or nil.
    static func numberedEntryKey(_ p: String) -> Int? {
        let range = NSRange(location: 0, length: p.utf16.count)
        guard let m = numberedEntry.firstMatch(in: p, range: range) else { return nil }
        return Int(p.substring(utf16: m.range(at: 1)))
    }

    static let numberedEntry = try! NSRegularExpression(
        pattern: #"^\s*(\d{1,2})\s*(?:[-–—:=.)]\s*|\s+)\p{L}[\p{L}\p{M} '’&()-]*$"#)

    /// "•", "·", "/", "|", ";", "*", "-", "–", "—" as scalar values.
    static let keySeparators: Set<UInt32> = [0x2022, 0xB7, 0x2F, 0x7C, 0x3B, 0x2A, 0x2D, 0x2013, 0x2014]

    /// Legend names that mark a diet, not an allergen ("V vegetarian", "VG vegan", "GF gluten
    /// free"): skipped in a legend line, never read as "contains" ("gluten free" names gluten).
    static func isDietMark(_ name: String) -> Bool {
        let words = TextFold.fold(name).split(whereSeparator: { !$0.isLetter }).map(String.init)
        return words.contains { dietMarkWords.contains($0) }
    }

    static let dietMarkWords: Set<String> = [
        "vegetarian", "vegan", "vegetarisch", "vegetarien", "vegetarienne", "vegetariano", "vegetariana", "vegano", "vegana",
        "vegane", "veganer", "halal", "kosher", "spicy", "scharf", "picante", "piccante", "epice", "free", "frei", "sans", "sin",
        "senza", "libre", "plant", "pflanzlich",
    ]

    /// What a food-additive name of a legend says of the 14 ("mit Farbstoff": nothing,
    /// "geschwefelt": sulphites), or nil when it names no additive. German menus must key their
    /// additives (the Zusatzstoff-Zulassungsverordnung's labels); English and French keys follow.
    static func additiveAllergens(_ name: String) -> [AllergenID]? {
        let words = TextFold.fold(name).split(whereSeparator: { !$0.isLetter }).map(String.init)
        if words.contains(where: { w in sulphurStems.contains { w.hasPrefix($0) } }) { return [.sulphites] }
        return words.contains(where: { w in additiveStems.contains { w.hasPrefix($0) } }) ? [] : nil
    }

    static let sulphurStems = ["geschwefelt", "schwefel", "sulfit", "sulphit", "sulfur", "sulphur"]
    static let additiveStems = [
        "farbstoff", "konservierung", "antioxidation", "geschmacksverstark", "geschwarzt", "gewachst", "phosphat",
        "sussungsmittel", "suessungsmittel", "zuckerart", "koffein", "coffein", "chinin", "phenylalanin", "taurin",
        "nitritpokelsalz", "pokelsalz", "nitrit", "nitrat", "stabilisator", "verdickungsmittel", "emulgator", "sauerungsmittel",
        "colouring", "coloring", "colour", "preservative", "antioxidant", "flavour enhancer", "enhancer", "sweetener",
        "caffeine", "quinine", "waxed", "blackened", "colorant", "conservateur", "edulcorant", "exhausteur",
    ]

    /// The words a legend line may open with before its entries ("Allergen key:", "Allergene:").
    static func droppingLegendTitle(_ s: Substring) -> Substring {
        guard let colon = s.firstIndex(of: ":") else { return s }
        let title = s[..<colon].trimmingSpaces()
        guard title.contains(where: \.isLetter), title.count > 3 || TextFold.fold(title) == "key" else { return s }
        return s[s.index(after: colon)...]
    }

    /// A legend line's entries: split at "/", "|", ";", "•", "·" and at a full stop before the
    /// next entry ("Su sulphites. V vegetarian"), without the line's title or a closing full stop.
    static func legendParts(_ text: String) -> [String] {
        // "Allergene: a) glutenhaltiges Getreide b) Krebstiere c) Eier …": keys closed by a
        // bracket part it, a slash inside an entry joins two names ("g) Milch/Laktose").
        if text.utf8.contains(UInt8(ascii: ")")) {
            let titleless = droppingLegendTitle(Substring(text))
            let byKey = splitAtBracketKeys(titleless)
            if byKey.count >= 3 {
                return byKey.map { withoutClosingStops(Substring($0.replacingOccurrences(of: "/", with: " and "))) }
                    .filter { !$0.isEmpty }
            }
        }
        // A key listed with commas ("Allergene gemäß EU-VO 1169/2011: A Gluten, B Krebstiere, …,
        // G Milch/Laktose, …"): its commas part it, a slash inside an entry joins two names.
        if text.utf8.contains(UInt8(ascii: ",")) {
            let titleless = droppingLegendTitle(Substring(text))
            let byComma = splitAtKeyedCommas(titleless)
            if byComma.count > 1 {
                return byComma.map { withoutClosingStops(Substring($0.replacingOccurrences(of: "/", with: " and "))) }
                    .filter { !$0.isEmpty }
            }
        }
        // A line without a separator's bytes ("/", "|", ";", the bullet's E2 80 A2, the middle
        // dot's C2 B7, ". ") is one part. (Compared one by one: `"/|;•".contains` searched a
        // string for every character.)
        let mayHoldSeparator = text.utf8.contains { $0 == 0x2F || $0 == 0x7C || $0 == 0x3B || $0 == 0xA2 || $0 == 0xB7 || $0 == 0x2E }
        let pieces: [Substring] = mayHoldSeparator ? entryPieces(text) : [Substring(text)]
        var parts: [String] = []
        for (k, piece) in pieces.enumerated() {
            let p = k == 0 ? droppingLegendTitle(piece) : piece
            for q in splitAtSentenceEnds(p).flatMap(splitAtKeyedCommas) {
                let t = withoutClosingStops(q)
                if !t.isEmpty { parts.append(t) }
            }
        }
        return parts
    }

    /// A legend line cut at "/", "|", ";", "•" and "·" — except that a slash followed by no key
    /// joins two names of one entry ("SU sulphur dioxide/sulphites", "G Milch/Laktose"), which
    /// stay one piece with " and " between the names. "A-GLUTEN / B-CRUSTACEANS" is two entries.
    static func entryPieces(_ text: String) -> [Substring] {
        var pieces: [Substring] = []
        var start = text.startIndex
        var i = text.startIndex
        var joined: String? = nil  // the current piece, when a slash joined names into it
        func close(at end: String.Index) {
            let piece = text[start..<end]
            if let j = joined { pieces.append(Substring(j + piece)); joined = nil } else { pieces.append(piece) }
        }
        while i < text.endIndex {
            let c = text[i]
            let isSeparator: Bool
            if let b = c.asciiByte { isSeparator = b == 0x2F || b == 0x7C || b == 0x3B } else { isSeparator = c == "•" || c == "·" }
            guard isSeparator else { i = text.index(after: i); continue }
            let next = text.index(after: i)
            let before = text[start..<i]
            if c == "/", before.contains(where: \.isLetter), next < text.endIndex,
               text[next...].first(where: { $0 != " " })?.isLetter == true, !opensWithKey(text[next...].unicodeScalars) {
                joined = (joined ?? "") + before.trimmingSpaces() + " and "
            } else {
                close(at: i)
            }
            start = next
            i = next
        }
        close(at: text.endIndex)
        return pieces.filter { !$0.isEmpty }
    }

    /// "a) Gluten b) Krebstiere c) Eier" → ["a) Gluten", "b) Krebstiere", "c) Eier"]: the text cut
    /// before each key closed by a bracket — one letter or one or two digits, at the start or after
    /// a space, followed by a space. A text with fewer than three such keys is one part.
    static func splitAtBracketKeys(_ s: Substring) -> [Substring] {
        let view = s.unicodeScalars
        var cuts: [Substring.UnicodeScalarView.Index] = []
        var previous: Unicode.Scalar? = nil
        var i = view.startIndex
        while i < view.endIndex {
            if previous?.properties.isWhitespace ?? true,
               let key = leadingKey(view[i...], skipping: { _ in false }), key.digits || key.length == 1, key.next == ")" {
                let after = view.index(view.index(i, offsetBy: key.length), offsetBy: 1)
                if after < view.endIndex, view[after].properties.isWhitespace { cuts.append(i) }
            }
            previous = view[i]
            i = view.index(after: i)
        }
        guard cuts.count >= 3 else { return [s] }
        return cuts.indices.map { k in Substring(view[cuts[k]..<(k + 1 < cuts.count ? cuts[k + 1] : view.endIndex)]) }
    }

    /// A legend entry without its spaces and closing full stops ("VG vegan." → "VG vegan").
    static func withoutClosingStops(_ s: Substring) -> String {
        var t = withoutAbbreviatedAside(s.trimmingSpaces())
        while t.hasSuffix(".") { t.removeLast(); t = t.trimmingSpaces() }
        return t
    }

    /// An entry's aside in brackets that holds a full stop ("7 Milch (inkl. Laktose)") left
    /// out: its abbreviation is no part of the name, and a key's name holds no full stop.
    static func withoutAbbreviatedAside(_ t: String) -> String {
        guard let open = t.firstIndex(of: "("), open > t.startIndex, let close = t[open...].firstIndex(of: ")"),
              t[open..<close].contains(".") else { return t }
        return (String(t[..<open]).trimmingSpaces() + " " + String(t[t.index(after: close)...]).trimmingSpaces()).trimmingSpaces()
    }

    /// "1 = mit Farbstoff, 2 = mit Konservierungsstoff, 3 = …", "A Gluten, B Krebstiere, C Ei, …"
    /// → one entry a key: commas split a part only when its pieces open with a key and a
    /// separator (a space after a one-letter or number key), three keyed pieces at least, so a
    /// name's own commas stay ("gluten (wheat, oats)"). The first piece may be the name of the
    /// entry the line above left open ("Lupinen"), the last a key whose name the next line holds
    /// ("…, O Sulfite, P").
    static func splitAtKeyedCommas(_ s: Substring) -> [Substring] {
        guard s.contains(",") else { return [s] }
        let pieces = s.split(separator: ",").filter { $0.contains(where: { !$0.isWhitespace }) }
        func keyed(_ p: Substring) -> Bool {
            let t = p.drop(while: { $0 == " " })
            guard let first = t.first else { return false }
            var rest = t.dropFirst()
            let single: Bool
            if first.isNumber { rest = rest.drop(while: \.isNumber); single = true }
            else if first.isUppercase {
                let before = rest.count
                rest = rest.drop(while: { $0.isLetter && $0.isLowercase })
                single = rest.count == before
            } else { return false }
            let spaced = rest.first == " "
            rest = rest.drop(while: { $0 == " " })
            guard let sep = rest.first else { return false }
            return "=:-–—.)".contains(sep) || (single && spaced && sep.isLetter)
        }
        guard pieces.count >= 2 else { return [s] }
        var inner = pieces[...]
        let continues = inner.first.map { !keyed($0) } ?? false
        if continues { inner = inner.dropFirst() }
        if let last = inner.last, !keyed(last), isBareKey(last) { inner = inner.dropLast() }
        guard inner.count >= 3 || (continues && inner.count >= 1), inner.allSatisfy(keyed) else { return [s] }
        return pieces
    }

    /// A key alone, its name on the next line ("…, O Sulfite, P" / "Lupinen, …"; "…, 8"): one
    /// capital, or one or two digits.
    static func isBareKey<S: StringProtocol>(_ p: S) -> Bool {
        let t = p.trimmingCharacters(in: .whitespaces)
        return (t.count == 1 && t.first?.isUppercase == true) || (1...2).contains(t.count) && t.allSatisfy(\.isNumber)
    }

    /// "Su sulphites. V vegetarian" → ["Su sulphites", "V vegetarian"]: a full stop and a space
    /// before a capital or a digit ends an entry of two words or more ("A. Gluten" is one).
    static func splitAtSentenceEnds(_ s: Substring) -> [Substring] {
        var out: [Substring] = []
        var start = s.startIndex
        var i = s.startIndex
        var depth = 0
        while i < s.endIndex {
            // (Not inside brackets: "7 Milch (inkl. Laktose)" is one entry.)
            if s[i] == "(" { depth += 1 } else if s[i] == ")" { depth = max(0, depth - 1) }
            if s[i] == ".", depth == 0, s[start..<i].trimmingSpaces().contains(" ") {
                let j = s.index(after: i)
                if j < s.endIndex, s[j] == " " {
                    let k = s[j...].firstIndex(where: { $0 != " " }) ?? s.endIndex
                    if k < s.endIndex, s[k].isUppercase || s[k].isNumber {
                        out.append(s[start..<i])
                        start = k
                        i = k
                        continue
                    }
                }
            }
            i = s.index(after: i)
        }
        out.append(s[start...])
        return out
    }

    /// Finds allergen legends ("1 Celery", "A-GLUTEN / B-CRUSTACEANS / …", "Allergen key: Ce celery
    /// · G cereals containing gluten · Mi milk · … V vegetarian"). Letter keys are kept in capitals
    /// ("Mi" as "MI": item codes are looked up in capitals).
    /// `tails`: what a legend line says after its key ("… 14 Weichtiere. Gerichte ohne Ziffern
    /// enthalten keines dieser Allergene. Kann Spuren von Nüssen enthalten."), keyed by line: the
    /// key is read, and the statements after it still speak for the menu.
    func legend(_ lines: [StructLine]) -> (CodeLegend, Set<Int>, tails: [Int: String]) {
        var tails: [Int: String] = [:]
        var numeric: [Int: [AllergenID]] = [:], letters: [String: [AllergenID]] = [:], additives: [Int: [AllergenID]] = [:]
        var numLines = Set<Int>(), letLines = Set<Int>(), addLines = Set<Int>()
        // Numbered entries that name sulphites ("14 Sulphites", "5 = geschwefelt"): an allergen
        // key's or an additive key's, as the rest of the legend decides.
        var sulphur: [(number: Int, line: Int)] = []
        // Lines of numbered entries some of whose names MenuScan does not read ("5 – orzeszki
        // ziemne"): a legend only if the whole key turns out to be Annex II's list in its order.
        var inOrderCandidates: [(line: Int, found: [(String, [AllergenID])], unnamed: [Int])] = []
        for (i, l) in lines.enumerated() {
            let afterLegend = i > 0 && (numLines.contains(i - 1) || letLines.contains(i - 1) || addLines.contains(i - 1))
            // Most lines of a menu open with no key, at their start or after a title's colon.
            guard afterLegend || Self.mayOpenWithKey(l.text) else { continue }
            let parts = Self.legendParts(l.text)
            guard !parts.isEmpty else { continue }
            var found: [(String, [AllergenID])] = []
            var additive: [(Int, [AllergenID])] = []
            var unnamed: [Int] = []
            for (k, p) in parts.enumerated() {
                let range = NSRange(location: 0, length: p.utf16.count)
                let single = Self.mayBeLegendSegment(p) ? Self.legendSegment.firstMatch(in: p, range: range) : nil
                // A line's last part may be a key whose name the next line holds ("…, P"), and a
                // line under a legend line may open with that name ("Lupinen, R Weichtiere").
                if parts.count >= 2, k == parts.count - 1, Self.isBareKey(p) { continue }
                if k == 0, afterLegend, parts.count >= 2, single == nil, lexicon.allergens(forLegendName: p) != nil { continue }
                if let m = single {
                    let name = p.substring(utf16: m.range(at: 2))
                    let key = p.substring(utf16: m.range(at: 1))
                    // An additive key ("5 = geschwefelt", "1 = mit Farbstoff") before the allergen
                    // names: "geschwefelt" is no allergen code, it declares an additive.
                    if let n = Int(key), let ids = Self.additiveAllergens(name) {
                        additive.append((n, ids))
                        if ids == [.sulphites] { sulphur.append((n, i)) }
                        continue
                    }
                    if Self.isDietMark(name) { continue }
                    if let ids = lexicon.allergens(forLegendName: name) { found.append((key.uppercased(), ids)); continue }
                }
                if Self.mayBeMultiLetterSegment(p), let m = Self.multiLetterLegendSegment.firstMatch(in: p, range: range),
                   Self.standsAsEntry(m, in: p, parts: parts.count) {
                    let name = p.substring(utf16: m.range(at: 3))
                    // ("Pan-fried Dumplings and scrambled Eggs" is a description: a name has one to
                    // three words, "and" aside — "sulphur dioxide/sulphites" is joined with one.)
                    guard name.split(separator: " ").filter({ $0 != "and" }).count <= 3 else { found = []; additive = []; unnamed = []; break }
                    if Self.isDietMark(name) { continue }
                    if let ids = lexicon.allergens(forLegendName: name) {
                        found.append((p.substring(utf16: m.range(at: 1)).uppercased(), ids)); continue
                    }
                }
                if let n = Self.numberedEntryKey(p) { unnamed.append(n); continue }
                // Sentences after a key of three entries at least end the key; they are no entry.
                if found.count + additive.count + unnamed.count >= 3, p.split(separator: " ").count >= 2,
                   !Self.mayOpenWithKey(p) {
                    tails[i] = parts[k...].joined(separator: ". ")
                    break
                }
                found = []; additive = []; unnamed = []; break
            }
            if !unnamed.isEmpty {
                // (Sulphites named as an additive is Annex II's twelfth entry if the key is its list.)
                if additive.allSatisfy({ $0.1 == [.sulphites] }) {
                    inOrderCandidates.append((i, found + additive.map { (String($0.0), $0.1) }, unnamed))
                }
                continue
            }
            // Diet marks alone make no legend.
            guard !found.isEmpty || !additive.isEmpty else { continue }
            for (n, ids) in additive { additives[n, default: []] += ids; addLines.insert(i) }
            for (key, ids) in found {
                if let n = Int(key) { numeric[n, default: []] += ids; numLines.insert(i) }
                else { letters[key, default: []] += ids; letLines.insert(i) }
            }
        }
        // A key numbered 1 to 14 whose names MenuScan reads in part ("1 – zboża zawierające gluten,
        // 2 – skorupiaki, … 6 – soja, …"): Annex II's list in its order, when every name it reads
        // is that place's allergen.
        if !inOrderCandidates.isEmpty {
            var read = numeric
            for c in inOrderCandidates { for (key, ids) in c.found { if let n = Int(key) { read[n, default: []] += ids } } }
            let unnamed = inOrderCandidates.flatMap(\.unnamed)
            if Self.isAnnexIIOrder(read: read, unnamed: unnamed, additives: Set(additives.keys)) {
                numeric = read
                for n in unnamed { numeric[n] = [Self.annexIIOrder[n - 1]] }
                numLines.formUnion(inOrderCandidates.map(\.line))
            }
        }
        // In a numbered allergen key ("1 Celery · 2 Cereals containing gluten · … · 14 Sulphites")
        // sulphites are the allergen key's fourteenth entry, not an additive.
        if numeric.count >= 3 {
            for (n, line) in sulphur where numeric[n] == nil {
                numeric[n] = [.sulphites]
                numLines.insert(line)
                additives[n] = nil
            }
        }
        var legend = CodeLegend()
        var legendLines = Set<Int>()
        if numeric.count >= 3 { legend.numeric = numeric; legendLines.formUnion(numLines) }
        if letters.count >= 3 { legend.letters = letters; legendLines.formUnion(letLines) }
        // An additive key of three numbers at least; a number the allergen key also gives is the
        // allergen key's.
        let additiveOnly = additives.filter { legend.numeric[$0.key] == nil }
        if additiveOnly.count >= 3 { legend.additives = additiveOnly; legendLines.formUnion(addLines) }
        return (legend, legendLines, tails.filter { legendLines.contains($0.key) })
    }

    // MARK: Core

    private func analyze(lines: [StructLine], runs: [[Int]], perLine: Bool, exactText: Bool,
                         profile: AllergenProfile?, roles: RoleAssignment? = nil, readAcross: Double = 0) -> MenuAnalysis {
        let (legend, legendLines, legendTails) = legend(lines)
        let memo = FuzzyMemo()
        memo.readsCompounds = Self.writesGerman(lines.lazy.map(\.text))
        memo.readByOCR = !exactText
        var raw: [RawItem] = []
        var sections: [String] = []
        var loose: [Int] = []
        var notes: [(section: String?, lines: [Int])] = []
        var nameLike: [Bool]? = nil
        if let roles, !perLine {
            // Photos: items from the role model's line roles — unless the prices on the page
            // already explain it as well: "NAME … PRICE" lines are the strongest evidence a
            // menu gives, and the price-keyed structurer reads them exactly.
            let nameP = roles.probabilities.map { $0[.name] ?? 0 }
            let out = RoleStructurer(lines: lines, runs: runs, legendLines: legendLines, roles: roles.roles,
                                     nameProbability: nameP, headingsInCapitals: roles.headingsInCapitals).run()
            let priced = MenuStructurer(lines: lines, runs: runs, legendLines: legendLines).run()
            let pricedNotes = Self.notesByHeader(priced.items)
            // Each printed price belongs to one item: a structure that leaves fewer prices
            // without their item read the page's strongest evidence better.
            let priceLines = runs.joined().filter { $0 >= 0 && $0 < lines.count && !legendLines.contains($0)
                && PriceParser.find(in: lines[$0].text, allowPlain: false) != nil }.count
            func orphanPrices(_ items: [RawItem]) -> Int { max(0, priceLines - items.filter { $0.price != nil }.count) }
            // …but not where most of its items open on lines the role model reads as descriptions
            // (prices ending descriptions under names it did not key on: "Basil and aioli served
            // with feta £16.00" is no dish's name) and the role structure left few prices (at most
            // a quarter) without their dish: one-line dishes "Garlic bread with butter 4.00" the
            // model read as descriptions leave half their prices outside its structure.
            let pricedNamed = priced.items.filter { it in
                guard let first = it.lines.first, first >= 0, first < roles.roles.count else { return false }
                return roles.roles[first] == .name || roles.roles[first] == .header
            }.count
            if Self.pricedStructureWins(pricedItems: priced.items.count,
                                        pricedOrphans: orphanPrices(priced.items), roleOrphans: orphanPrices(out.items),
                                        pricedOpeningOnNames: pricedNamed, priceLines: priceLines) {
                raw = priced.items; sections = priced.sections; loose = priced.looseLines; notes = pricedNotes
            } else {
                raw = out.items; sections = out.sections; loose = out.looseLines
                notes = out.sectionNotes; nameLike = out.nameLike
                for k in raw.indices where raw[k].price == nil { raw[k].price = raw[k].listPrice }
            }
        } else if perLine {
            for run in runs {
                for i in run {
                    let t = lines[i].text.trimmingSpaces()
                    let f = PriceParser.find(in: t, allowPlain: false)
                    let name = (f.map { $0.before.isEmpty ? t : $0.before } ?? t)
                    raw.append(RawItem(section: nil, name: name, price: f?.before.isEmpty == false ? f?.price : nil, lines: [i]))
                }
            }
        } else {
            let out = MenuStructurer(lines: lines, runs: runs, legendLines: legendLines, joinsWrappedNames: exactText).run()
            raw = out.items; sections = out.sections; loose = out.looseLines
            notes = Self.notesByHeader(raw)
            // No menu structure (no prices): the text is one dish ("Chicken satay with peanut sauce").
            let textLines = runs.flatMap { $0 }.filter { !legendLines.contains($0) }
            if raw.isEmpty, exactText, let first = textLines.first {
                raw = [RawItem(section: nil, name: lines[first].text.trimmingSpaces(),
                               descriptionParts: textLines.dropFirst().map { lines[$0].text.trimmingSpaces() },
                               lines: textLines)]
                sections = []; loose = []
            }
        }

        // Dot leaders and ornaments as OCR reads them are no part of a dish's name (ItemName).
        if !exactText {
            for k in raw.indices { raw[k].name = ItemName.clean(raw[k].name) }
        }

        // OCR drops the decimal separator of a price more than any other character.
        if !exactText, !perLine {
            let separated = PriceSeparatorRepair.repair(raw.map(\.price))
            // The word each price was read from: the item's last word that reads as it.
            let priceWords: [OCRWord?] = raw.indices.map { k in
                guard k < separated.count, let p = separated[k]?.trimmingSpaces() else { return nil }
                return raw[k].lines.lazy.filter { $0 >= 0 && $0 < lines.count }.flatMap { lines[$0].ocrWords }.last { $0.text == p }
            }
            let repaired = PriceSignRepair.repair(PriceSeparatorRepair.repairLostPoints(separated, priceWords: priceWords,
                                                                                         pageWords: lines.flatMap(\.ocrWords)))
            for k in raw.indices where k < repaired.count { raw[k].price = repaired[k] }
        }

        // Menu-level statements ("cannot guarantee…", "all fried in shared oil", "all our dishes
        // are cooked in peanut oil"): every line outside items, and lines inside items that speak
        // about the whole menu ("all our dishes may contain nuts" read as the last item's
        // description). What such a line names as a cross-contact risk may be in every item; so
        // may what it names as an ingredient (which items it reaches is not read, so it is "may
        // contain" for all), from a line outside items or one that names the menu's dishes, food
        // or kitchen: "Spaghetti alle vongole" speaks for the menu by its "alle" alone.
        var menuMay = Set<AllergenID>()
        var menuMayWhy: [AllergenID: [String]] = [:]
        let looseSet = Set(loose)
        // Notes about one kind of dish ("All sandwiches served on a toasted brioche bun") speak
        // for the items of that kind, not for the whole menu.
        let (categoryNotes, categoryClauses) = perLine ? ([:], [:]) : Self.categoryNotes(
            lines: lines, loose: loose, legendLines: legendLines, items: raw, isDishWord: { lexicon.namesDish($0) })
        let categoryNoteLines = Set(categoryNotes.values.flatMap { $0 })
        /// A statement for the whole menu: what it names as a cross-contact risk, and with
        /// `ingredients` what it names as an ingredient and what its dishes may hold, may be in
        /// every item; the statement is the evidence (three statements at most an allergen).
        func readMenuStatement(words: [SourceWord], text: String, ingredients: (ItemClassification) -> Bool) {
            let c = classifier.classify(words: words, rawText: "", legend: CodeLegend(), memo: memo)
            guard ingredients(c) else { menuMay.formUnion(c.crossContact); return }
            menuMay.formUnion(c.mayContain)
            for a in Set(c.allergens.map(\.id)) {
                menuMay.insert(a)
                if menuMayWhy[a, default: []].count < 3 { menuMayWhy[a, default: []].append("menu: " + Self.shortened(text)) }
            }
        }
        // What a legend line says after its key is a menu-wide statement like any other.
        for (_, tail) in legendTails.sorted(by: { $0.key < $1.key }) where !perLine {
            readMenuStatement(words: ScalarText.spaceSeparatedWords(tail).map { SourceWord(text: $0, confidence: nil) },
                            text: tail, ingredients: { _ in true })
        }
        for (i, line) in lines.enumerated() where !legendLines.contains(i) && !perLine && !categoryNoteLines.contains(i) {
            guard looseSet.contains(i) || Self.speaksForTheMenu(line.text) else { continue }
            readMenuStatement(words: line.words, text: line.text,
                            ingredients: { _ in looseSet.contains(i) || Self.namesTheMenu(line.text) })
        }

        // How far the structure can be trusted (R6 confidence must mean something): how much
        // of the text it explains, and on photos whether the layout fell apart or lines hold
        // two dishes (StructureConfidence).
        let pageFactor = perLine ? 1.0 : StructureConfidence.measure(
            lines: lines, runs: runs, items: raw, notes: notes.flatMap(\.lines) + categoryNoteLines.sorted(), legendLines: legendLines,
            photo: !exactText, readAcross: readAcross).factor

        // Items whose edges cut a phrase ("und Lauch") do not hold all the menu says about them.
        let cutPhrase = ItemBounds.cutPhrases(items: raw, lines: lines, perLine: perLine)
        var items: [MenuItem] = []
        var classified: [(MenuItem, ItemClassification, Bool, Double, Bool)] = []
        var contextCache: [String: ItemClassification] = [:]
        /// A heading's words (the whole heading line, or one part of it; nil: no heading) and its
        /// notes, classified once for all the items under them. `key` names the heading words.
        func contextClassification(headingWords: [SourceWord]?, key: String, notes: [Int]) -> ItemClassification {
            let cacheKey = key + "|" + notes.map(String.init).joined(separator: ",")
            if let cached = contextCache[cacheKey] { return cached }
            let dot = SourceWord(text: ".", confidence: nil)
            let words = (headingWords.map { [dot] + $0 } ?? []) + notes.flatMap { [dot] + lines[$0].words }
            let ctx = classifier.classify(words: words, rawText: notes.map { lines[$0].text }.joined(separator: "\n"),
                                          legend: legend, memo: memo)
            contextCache[cacheKey] = ctx
            return ctx
        }
        /// One clause of a note (`categoryNotes`), classified once for all the items it speaks for.
        func clauseClassification(_ words: [SourceWord], key: String) -> ItemClassification {
            if let cached = contextCache[key] { return cached }
            let ctx = classifier.classify(words: words, rawText: words.map(\.text).joined(separator: " "), legend: legend, memo: memo)
            contextCache[key] = ctx
            return ctx
        }
        /// One part of a heading that names several kinds (`headingPart`), and its notes.
        func contextClassification(headingPart part: [String], notes: [Int]) -> ItemClassification {
            contextClassification(headingWords: part.map { SourceWord(text: $0, confidence: nil) },
                                  key: "part " + part.joined(separator: " "), notes: notes)
        }
        var splitHeadings: [Int: [[String]]] = [:]
        /// The part of heading `h` an item's name names, when the heading's parts together say
        /// all the whole heading says: a heading that is one dish ("FISH & CHIPS", "MAC &
        /// CHEESE") carries more than its parts and is never split.
        func headingPart(_ h: Int, name: String) -> [String]? {
            let parts: [[String]]
            if let known = splitHeadings[h] { parts = known } else {
                var p = Self.headingParts(lines[h].text)
                if p.count >= 2 {
                    let whole = contextClassification(heading: h, notes: [])
                    let each = p.map { contextClassification(headingPart: $0, notes: []) }
                    let contains = Set(each.flatMap { $0.allergens.map(\.id) })
                    let any = contains.union(each.flatMap(\.mayContain))
                    if !Set(whole.allergens.map(\.id)).isSubset(of: contains) || !whole.mayContain.isSubset(of: any)
                        || each.contains(where: \.askServer) != whole.askServer { p = [] }
                }
                splitHeadings[h] = p; parts = p
            }
            return Self.headingPart(parts, name: name)
        }
        var everyKind: [Int: Set<AllergenID>?] = [:]
        /// What every kind heading `h` names holds, when it is split into kinds (`headingPart`
        /// has read it); nil for a heading of one kind.
        func heldByEveryKind(_ h: Int) -> Set<AllergenID>? {
            if let known = everyKind[h] { return known }
            var common: Set<AllergenID>? = nil
            if let parts = splitHeadings[h], parts.count >= 2 {
                let kinds = parts.map { Set(contextClassification(headingPart: $0, notes: []).allergens.map(\.id)) }
                common = kinds.dropFirst().reduce(kinds[0]) { $0.intersection($1) }
            }
            everyKind[h] = common
            return common
        }
        /// A heading line and its notes (the heading alone is `heading: h, notes: []`).
        func contextClassification(heading: Int?, notes: [Int]) -> ItemClassification {
            contextClassification(headingWords: heading.map { lines[$0].words }, key: heading.map { "line \($0)" } ?? "",
                                  notes: notes)
        }
        /// The food roles of an item's name alone (once per name).
        var nameRoles: [String: Set<LexiconEntry.Role>] = [:]
        func rolesOfName(_ name: String) -> Set<LexiconEntry.Role> {
            if let known = nameRoles[name] { return known }
            let words = name.split(separator: " ").map { SourceWord(text: String($0), confidence: nil) }
            let found = Set(classifier.termRoles(of: words, memo: memo)).intersection(AllergenClassifier.foodRoles)
            nameRoles[name] = found
            return found
        }
        func namesADish(_ name: String) -> Bool { rolesOfName(name).contains(.dish) }
        for (k, r) in raw.enumerated() {
            let own = r.lines
            // (Leader garbage is no word of the dish: left in, it would be an unknown term.)
            var c = classifier.classify(words: own.flatMap { exactText ? lines[$0].words : ItemName.withoutGarbage(lines[$0].words) },
                                        rawText: own.map { lines[$0].text }.joined(separator: "\n"), legend: legend, memo: memo)
            // A name that names no food ("The Classic", "Number One") over a list of what the item
            // holds ("beef patty, cheddar, pickles") says what is on it, not what it is: a burger,
            // a pizza, a wrap. Only a heading that names its kind makes it understood.
            if !perLine, c.understoodFood, !c.namesDish,
               !r.descriptionParts.isEmpty, rolesOfName(r.name).isEmpty {
                c.understoodFood = false
            }
            // The section header and its notes are context for the item: "SANDWICHES" → bread,
            // "All our pizzas are cooked on a thin crust." → gluten, "WINES" → sulphites.
            // "Steamed Rice" under RICE & NOODLES is rice, not noodles.
            let part = r.sectionLine.flatMap { h in h >= 0 && h < lines.count ? headingPart(h, name: r.name) : nil }
            func fromSection(_ name: String?) -> String { name.map { "from section “\($0)”" } ?? "from the section" }
            func fromNote(_ name: String?) -> String { name.map { "from the note of section “\($0)”" } ?? "from the section's note" }
            // A dish its description names ("cheese, corn, mochi" under OKONOMIYAKI) is a part of
            // the item, not what it is: the headings say what it is, and their guesses are the
            // item's own unless the item's name is itself a dish MenuScan knows.
            let headingNamesIt = (r.sectionLine != nil || r.parentSectionLine != nil) && c.roles.contains(.dish)
                && !r.descriptionParts.isEmpty && !namesADish(r.name)
            if let h = r.sectionLine {
                var ctx = part.map { contextClassification(headingPart: $0, notes: []) }
                    ?? contextClassification(heading: h, notes: [])
                let mayOnly = Self.heldOnlyBySomeKinds(heading: Set(ctx.allergens.map(\.id)),
                                                       everyKind: part == nil ? heldByEveryKind(h) : nil,
                                                       own: Set(c.allergens.map(\.id)))
                ctx.allergens.removeAll { mayOnly.contains($0.id) }
                ctx.mayContain.formUnion(mayOnly)
                c.inherit(ctx, from: fromSection(r.section), sameDish: headingNamesIt)
                c.headingUnknownTerms = ctx.unknownTerms
                let label = r.section ?? (h >= 0 && h < lines.count ? lines[h].text : "")
                for a in mayOnly where c.mayContain.contains(a) && (c.mayContainWhy[a] ?? []).isEmpty {
                    c.mayContainWhy[a] = ["some of the kinds the heading “\(label)” names hold it"]
                }
            }
            // A section's note says what its dishes are served with ("All moules come with frites
            // and homemade mayonnaise"): what that usually holds is the dish's own, as for a
            // note on the item's kind, not a guess a known dish overrides.
            if !r.noteLines.isEmpty {
                c.inherit(contextClassification(heading: nil, notes: r.noteLines), from: fromNote(r.section), sameDish: true)
            }
            // A heading in body type sits under a heading: that heading and its notes speak for
            // the item too ("Æg og rejer" read as a heading under SMØRREBRØD: the open sandwiches'
            // rye bread and butter).
            if let p = r.parentSectionLine, p >= 0, p < lines.count {
                c.inherit(contextClassification(heading: p, notes: []), from: fromSection(r.parentSection),
                          sameDish: headingNamesIt)
                if !r.parentNoteLines.isEmpty {
                    c.inherit(contextClassification(heading: nil, notes: r.parentNoteLines), from: fromNote(r.parentSection), sameDish: true)
                }
            }
            // A note on the item's kind says what it is served with: its guesses are the dish's own.
            // (A note read as the item's section note already spoke for it.)
            for n in categoryNotes[k] ?? [] where n >= 0 && n < lines.count && !r.noteLines.contains(n) && !r.parentNoteLines.contains(n) {
                c.inherit(contextClassification(heading: nil, notes: [n]),
                          from: "from the menu's note “\(Self.shortened(lines[n].text))”", sameDish: true)
            }
            for clause in categoryClauses[k] ?? [] where clause.line >= 0 && clause.line < lines.count
                && clause.words.upperBound <= lines[clause.line].words.count {
                let words = Array(lines[clause.line].words[clause.words])
                c.inherit(clauseClassification(words, key: "clause \(clause.line) \(clause.words)"),
                          from: "from the menu's note “\(Self.shortened(words.map(\.text).joined(separator: " ")))”", sameDish: true)
            }
            // A name of a few words alone under a heading is a kind of what the heading names:
            // "Sesame Ginger" under DRESSINGS is a sesame ginger dressing, "Vanilla" under SHAKES
            // a vanilla shake. Read together they can name a known dish the parts do not.
            // Only what the name and heading say together counts (what each says alone is in
            // already), and it is the dish's own ("ginger dressing: often soy").
            if let h = r.sectionLine, h >= 0, h < lines.count, r.descriptionParts.isEmpty {
                let nameWords = r.name.split(separator: " ")
                if (1...3).contains(nameWords.count) {
                    let headingWords = part.map { $0.map { SourceWord(text: $0, confidence: nil) } } ?? lines[h].words
                    var composed = classifier.classify(
                        words: nameWords.map { SourceWord(text: String($0), confidence: nil) } + headingWords,
                        rawText: "", legend: CodeLegend(), memo: memo)
                    let heading = part.map { contextClassification(headingPart: $0, notes: []) }
                        ?? contextClassification(heading: h, notes: [])
                    let known = Set(c.allergens.map(\.id)).union(heading.allergens.map(\.id))
                    composed.allergens.removeAll { known.contains($0.id) }
                    composed.mayContain.subtract(known.union(c.mayContain).union(heading.mayContain))
                    if !composed.allergens.isEmpty || !composed.mayContain.isEmpty {
                        c.inherit(ItemClassification(allergens: composed.allergens, mayContain: composed.mayContain,
                                                     mayContainWhy: composed.mayContainWhy.filter { composed.mayContain.contains($0.key) }),
                                  from: "“\(r.name)” under “\(r.section ?? lines[h].text)”", sameDish: true)
                    }
                }
            }
            if perLine && legend.numeric.isEmpty && legend.letters.isEmpty
                && (c.hasCodes || c.numberInBrackets) {
                // One line of a menu without the menu: its codes' legend is not there to read,
                // and a number in brackets may be one of its codes as well as a count.
                c.unresolvedCodes = true
            }
            let ocrWords = own.flatMap { lines[$0].ocrWords }
            let confs = ocrWords.compactMap(\.confidence)
            let ocrConfidence: Double = exactText ? 1.0 : (confs.isEmpty ? 0 : confs.reduce(0, +) / Double(confs.count))
            let nameFactor = (nameLike.map { k < $0.count ? $0[k] : true } ?? true) ? 1.0 : Self.weakNameFactor
            let confidence = ocrConfidence * pageFactor * nameFactor
            let box = ocrWords.isEmpty ? nil : ocrWords.dropFirst().reduce(ocrWords[0].box) { $0.union($1.box) }
            let lowWords = ocrWords.contains { w in
                (w.confidence ?? 0) < Self.lowWordConfidence && w.text.filter(\.isLetter).count >= 3
            }
            var mayContain = c.mayContain.union(menuMay)
            mayContain.subtract(c.allergens.map(\.id))
            var item = MenuItem(section: r.section, name: r.name, description: r.descriptionParts.joined(separator: " "),
                                price: r.price, box: box, words: ocrWords,
                                confidence: (confidence * 1000).rounded() / 1000,
                                allergens: c.allergens, mayContain: mayContain.sorted(),
                                declaredAbsent: c.declaredAbsent.map(\.id), declaredAbsentEvidence: c.declaredAbsent,
                                dietary: c.dietary, dietaryEvidence: c.dietaryEvidence, safety: nil, safetyReasons: [])
            item.unknownTerms = c.unknownTerms
            item.mayContainEvidence = item.mayContain.compactMap { a in
                (c.mayContainWhy[a] ?? menuMayWhy[a]).map { MayContainEvidence(id: a, evidence: $0) }
            }
            classified.append((item, c, lowWords, ocrConfidence, k < cutPhrase.count && cutPhrase[k]))
        }
        // A menu that prints allergen codes for its items (codes on most items, whether or
        // not its legend was read): an item without codes is an omission or a misread, so
        // absence cannot be trusted.
        let withCodes = classified.filter { $0.1.hasCodes }.count
        let expectCodes = !perLine && withCodes >= 3 && Double(withCodes) >= 0.5 * Double(classified.count)
        for (var item, c, lowWords, textConfidence, cut) in classified {
            if let profile {
                (item.safety, item.safetyReasons) = Self.safety(item: item, classification: c, lowWords: lowWords,
                                                                textConfidence: textConfidence, cutPhrase: cut,
                                                                missingCodes: expectCodes && !c.hasCodes, alone: perLine,
                                                                profile: profile)
            }
            items.append(item)
        }

        let menuConfidence = items.isEmpty ? 0 : items.map(\.confidence).reduce(0, +) / Double(items.count)
        let level = ConfidenceLevel(confidence: menuConfidence)
        var warnings: [MenuScanError] = []
        if level == .low { warnings.append(.lowConfidenceResults) }
        let crossRisk = items.contains { item in
            guard let p = profile else { return !item.mayContain.isEmpty }
            return !p.allergens.isDisjoint(with: item.mayContain)
        }
        if crossRisk { warnings.append(.potentialCrossContamination) }
        let unsafe = items.contains { $0.safety == .unsafe }
        return MenuAnalysis(confidence: (menuConfidence * 1000).rounded() / 1000,
                            requiresUserVerification: level == .low || unsafe,
                            sections: sections, items: items, profile: profile.map { $0.allergens.sorted() },
                            menuMayContain: menuMay.sorted(), warnings: warnings,
                            sectionNotes: notes.map { n in
                                SectionNote(section: n.section,
                                            text: n.lines.filter { $0 >= 0 && $0 < lines.count }
                                                .map { lines[$0].text.trimmingSpaces() })
                            })
    }

    /// An item whose first line does not read as a name keeps this share of its confidence.
    static let weakNameFactor = 0.85

    /// Share of the text (characters, legend lines left out) that the structure
    /// explains: lines of items and section headers fully, section notes half.
    /// The price-keyed structure is used on a photo only when it finds at least this many
    /// items and gives more of the page's prices to an item than the role structure does.
    static let minimumPricedItems = 3

    /// Whether a photo's price-keyed structure replaces its role structure: it finds at least
    /// `minimumPricedItems` items, leaves fewer of the page's `priceLines` without their item,
    /// and opens at least half of them on name or heading lines — or the role structure left
    /// more than a quarter of the prices without their item.
    /// (Round 18 tried also asking for at least as many items as the role structure: better on
    /// generated menus, worse on real ones, where the role structure splits dishes; not kept.)
    static func pricedStructureWins(pricedItems: Int, pricedOrphans: Int, roleOrphans: Int,
                                    pricedOpeningOnNames: Int, priceLines: Int) -> Bool {
        pricedItems >= minimumPricedItems && pricedOrphans < roleOrphans
            && (2 * pricedOpeningOnNames >= pricedItems || 4 * roleOrphans > priceLines)
    }

    /// Each section's note lines, from the items that carry them.
    static func notesByHeader(_ items: [RawItem]) -> [(section: String?, lines: [Int])] {
        var byHeader: [Int: (String?, [Int])] = [:]
        for r in items { if let h = r.sectionLine, !r.noteLines.isEmpty { byHeader[h] = (r.section, r.noteLines) } }
        return byHeader.keys.sorted().compactMap { byHeader[$0] }.map { (section: $0.0, lines: $0.1) }
    }

    static func structureCoverage(lines: [StructLine], runs: [[Int]], items: [RawItem], notes: [Int], legendLines: Set<Int>) -> Double {
        let all = Set(runs.flatMap { $0 }).subtracting(legendLines).filter { $0 >= 0 && $0 < lines.count }
        // Counted once a line (sums of whole numbers: exact in any order).
        let counts = Dictionary(uniqueKeysWithValues: all.map { ($0, Double(Self.visibleCharacters(lines[$0].text))) })
        func chars(_ i: Int) -> Double { counts[i] ?? 0 }
        let total = all.reduce(0) { $0 + chars($1) }
        guard total > 0 else { return 1 }
        let itemLines = Set(items.flatMap(\.lines)).union(items.compactMap(\.sectionLine)).intersection(all)
        let noteLines = Set(notes).intersection(all).subtracting(itemLines)
        let explained = itemLines.reduce(0) { $0 + chars($1) } + 0.5 * noteLines.reduce(0) { $0 + chars($1) }
        return explained / total
    }

    /// Characters other than white space (plain ASCII counted on bytes).
    static func visibleCharacters(_ text: String) -> Int {
        var n = 0
        for b in text.utf8 {
            if b >= 128 { return visibleCharactersNonASCII(text) }
            if !(b == 32 || (b >= 9 && b <= 13)) { n += 1 }
        }
        return n
    }

    /// `text.filter { !$0.isWhitespace }.count` without building the filtered text where every
    /// Character is one scalar: such a Character is white space when its scalar is, and the
    /// scalars kept join no neighbour, so each is a Character of the filtered text too. Else the
    /// filter itself (a mark after a removed line feed joins the Character before it there).
    /// (`ScalarTextTests` compares it with the filter.)
    static func visibleCharactersNonASCII(_ text: String) -> Int {
        guard ScalarText.isOneScalarPerCharacter(text) else { return text.filter { !$0.isWhitespace }.count }
        return text.unicodeScalars.reduce(0) { ScalarText.isWhitespace($1) ? $0 : $0 + 1 }
    }

    /// German function words other menu languages do not write (English "die" and "an",
    /// French "des", Portuguese "das", Danish "den" and "der" left out).
    static let germanFunctionWords: Set<String> = [
        "mit", "und", "oder", "vom", "zum", "zur", "dazu", "auf", "aus", "nach", "im", "dem",
        "ein", "eine", "einer", "einem", "unsere", "hausgemacht", "hausgemachte",
    ]

    /// Whether a text writes German: German function words, or words with ä, ö, ü or ß, make
    /// at least one word in 40 (a dish name borrowed into an English menu is not enough; one
    /// line "Kartoffelsalat mit Pfifferlingen" is).
    static func writesGerman<S: Sequence>(_ texts: S) -> Bool where S.Element == String {
        var signals = 0, words = 0
        for text in texts {
            let (s, w) = text.utf8.allSatisfy({ $0 < 0x80 }) ? germanSignalsASCII(text) : germanSignalsGeneral(text)
            signals += s
            words += w
        }
        return signals >= 1 && signals * 40 >= words
    }

    /// German signals (function words, words with ä, ö, ü or ß) and words of one text.
    static func germanSignalsGeneral(_ text: String) -> (signals: Int, words: Int) {
        var signals = 0, words = 0
        for word in ScalarText.letterWords(text.lowercased()) {
            words += 1
            if germanFunctionWords.contains(word) || AllergenClassifier.hasGermanLetter(word) { signals += 1 }
        }
        return (signals, words)
    }

    /// `germanSignalsGeneral` on the bytes of ASCII text (tested against it): words are runs of
    /// A–Z a–z, no word can hold a German letter, and only a run as long as a function word at
    /// most becomes a (small, unallocated) string to look up. It ran on every line of every
    /// menu, and the Character path was 9 % of classifying a long menu.
    static func germanSignalsASCII(_ text: String) -> (signals: Int, words: Int) {
        var signals = 0, words = 0
        var run: [UInt8] = []
        run.reserveCapacity(16)
        func endWord() {
            guard !run.isEmpty else { return }
            words += 1
            if run.count <= longestGermanFunctionWord,
               germanFunctionWords.contains(String(decoding: run, as: UTF8.self)) { signals += 1 }
            run.removeAll(keepingCapacity: true)
        }
        for b in text.utf8 {
            switch b {
            case 0x41...0x5A: run.append(b | 0x20)
            case 0x61...0x7A: run.append(b)
            default: endWord()
            }
        }
        endWord()
        return (signals, words)
    }

    static let longestGermanFunctionWord = germanFunctionWords.map(\.utf8.count).max() ?? 0

    /// Nouns that make a note speak for the whole menu ("all our dishes…", "unsere Speisen…").
    static let menuNouns: Set<String> = [
        "kitchen", "dishes", "items", "menu", "food", "products", "premises", "speisen", "gerichte", "kuche",
        "plats", "cuisine", "platos", "cocina", "piatti", "cucina",
    ]

    /// The words a note or heading can name a kind of dish by: folded words of four letters
    /// or more and their singular forms, menu-wide words left out.
    static func categoryKeys(_ text: String) -> Set<String> { categoryKeys(foldedWords: foldedWords(text)) }

    static func categoryKeys(foldedWords words: [String]) -> Set<String> {
        var out = Set<String>()
        for word in words where word.count >= 4 && !menuWideWords.contains(word) {
            out.formUnion(Tokenizer.variants(word))
        }
        return out
    }

    /// A text's words, folded (`TextFold.fold`), split at everything but letters.
    static func foldedWords(_ text: String) -> [String] {
        ScalarText.letterWords(TextFold.fold(text))
    }

    /// One clause of a loose note: words `words` of line `line` (`sentenceClauses`).
    struct NoteClause: Hashable, Sendable {
        var line: Int
        var words: Range<Int>
    }

    /// Loose notes that speak for one kind of dish, by item:
    /// - `lines`: a note that speaks for all of something ("All sandwiches…", "Our burgers…",
    ///   "Alle Brotzeiten…") but not for the whole menu or kitchen applies to the items under a
    ///   heading that shares one of its words ("SANDWICHES") and to items whose name holds one of
    ///   its dish words ("Classic Burger"). Such a line speaks for those items only.
    /// - `clauses`: in any other loose line, a clause that speaks so for a kind applies to that
    ///   kind's items, and so does a clause that opens on the words of a heading and a verb
    ///   ("…; cake donuts contain wheat, egg and milk" over CAKE DONUTS). The line still speaks
    ///   for the whole menu as well ("Our yeast-raised dough contains wheat, egg, milk and soy;
    ///   … Everything is fried in the same oil in a kitchen that handles peanuts": the shared oil
    ///   may carry all of it into every fried item), so a clause only adds what its kind holds.
    static func categoryNotes(lines: [StructLine], loose: [Int], legendLines: Set<Int>, items: [RawItem],
                              isDishWord: (String) -> Bool) -> (lines: [Int: [Int]], clauses: [Int: [NoteClause]]) {
        var noteKeys: [(line: Int, keys: Set<String>)] = []
        var keyClauses: [(clause: NoteClause, keys: Set<String>)] = []
        var headingClauses: [(clause: NoteClause, kinds: [[String]])] = []
        for n in loose where n >= 0 && n < lines.count && !legendLines.contains(n) {
            // Folded once: a menu-wide word must be there (as `speaksForTheMenu` asks), no menu noun.
            let words = foldedWords(lines[n].text)
            if words.contains(where: menuQuantifiers.contains), !words.contains(where: menuNouns.contains) {
                // Keyed by what the note is about, not by what it mentions: "All moules come with a
                // cone of frites" is about moules, not about the FRITES & SAUCES under it.
                let keys = categoryKeys(foldedWords: noteSubject(foldedWords: words))
                if !keys.isEmpty { noteKeys.append((n, keys)); continue }
            }
            // (A clause about a kind needs a quantifier or a verb or preposition after its subject.)
            guard words.contains(where: { subjectEndWords.contains($0) || menuQuantifiers.contains($0) }) else { continue }
            for range in sentenceClauses(lines[n].words) {
                let clause = foldedWords(lines[n].words[range].map(\.text).joined(separator: " "))
                if clause.contains(where: menuQuantifiers.contains) {
                    guard !clause.contains(where: menuNouns.contains) else { continue }
                    let keys = categoryKeys(foldedWords: noteSubject(foldedWords: clause))
                    if !keys.isEmpty { keyClauses.append((NoteClause(line: n, words: range), keys)) }
                } else if let subject = bareSubject(foldedWords: clause) {
                    headingClauses.append((NoteClause(line: n, words: range), subject))
                }
            }
        }
        guard !noteKeys.isEmpty || !keyClauses.isEmpty || !headingClauses.isEmpty else { return ([:], [:]) }
        /// A heading's category keys, and the clauses whose bare subject is the heading: its
        /// words, no more and no fewer — one of the kinds the subject joins, or all together
        /// ("Huîtres et plateaux…" is about PLATEAUX; "Gluten-free bagels…" is not about BAGELS,
        /// "Cold mezze…" not about HOT MEZZE). Read once a heading.
        var headings: [Int: (keys: Set<String>, clauses: [NoteClause])] = [:]
        func heading(_ h: Int) -> (keys: Set<String>, clauses: [NoteClause]) {
            if let known = headings[h] { return known }
            let words = foldedWords(lines[h].text)
            let named = words.filter { !AllergenClassifier.listConnectors.contains($0) }
            let clauses = headingClauses.filter { c in
                sameWords(c.kinds.flatMap { $0 }, named) || c.kinds.contains { sameWords($0, named) }
            }.map(\.clause)
            // A heading that opens with "after" or "before" names a time, not a kind: AFTER DINNER's
            // drinks are no dinners ("All dinners include our relish tray…").
            let keys = words.first.map(timeWords.contains) == true ? [] : categoryKeys(foldedWords: words)
            let out = (keys, clauses)
            headings[h] = out
            return out
        }
        var out: [Int: [Int]] = [:]
        var outClauses: [Int: [NoteClause]] = [:]
        for (k, r) in items.enumerated() {
            var head: (keys: Set<String>, clauses: [NoteClause]) = ([], [])
            if let h = r.sectionLine, h >= 0, h < lines.count { head = heading(h) }
            let nameDishKeys = noteKeys.isEmpty && keyClauses.isEmpty ? [] : categoryKeys(r.name).filter(isDishWord)
            for (n, keys) in noteKeys where !keys.isDisjoint(with: head.keys) || !keys.isDisjoint(with: nameDishKeys) {
                out[k, default: []].append(n)
            }
            var clauses = keyClauses.filter { !$0.keys.isDisjoint(with: head.keys) || !$0.keys.isDisjoint(with: nameDishKeys) }.map(\.clause)
            clauses += head.clauses
            if !clauses.isEmpty { outClauses[k] = clauses.sorted { ($0.line, $0.words.lowerBound) < ($1.line, $1.words.lowerBound) } }
        }
        return (out, outClauses)
    }

    /// Words that open a heading naming a time rather than a kind ("AFTER DINNER", "Avant le
    /// spectacle", "Nach dem Essen", "Después de la cena").
    static let timeWords: Set<String> = ["after", "before", "apres", "avant", "nach", "dopo", "despues", "antes",
                                         "depois", "efter", "innan"]

    /// Whether two lists of folded words name the same words, plurals aside ("cake donuts",
    /// CAKE DONUT), each word of either in the other.
    static func sameWords(_ a: [String], _ b: [String]) -> Bool {
        guard !a.isEmpty, !b.isEmpty else { return false }
        func within(_ x: [String], _ y: [String]) -> Bool {
            let ys = Set(y.flatMap(Tokenizer.variants))
            return x.allSatisfy { !ys.isDisjoint(with: Tokenizer.variants($0)) }
        }
        return within(a, b) && within(b, a)
    }

    /// A line's words cut into clauses after each word that ends a sentence or clause
    /// ("soy;", "milk.", "!", "?"); a number's point ("4.50") ends none. Every range is non-empty.
    static func sentenceClauses(_ words: [SourceWord]) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var start = 0
        for (i, w) in words.enumerated() {
            guard let last = w.text.unicodeScalars.last, ";.!?".unicodeScalars.contains(last) else { continue }
            let before = w.text.unicodeScalars.dropLast().last
            if let before, CharacterSet.decimalDigits.contains(before) { continue }
            out.append(start..<(i + 1))
            start = i + 1
        }
        if start < words.count { out.append(start..<words.count) }
        return out
    }

    /// A clause's subject without a quantifier, as the kinds it joins: its first words,
    /// articles skipped, up to a verb or preposition — at most three besides the joining
    /// words, and a verb or preposition must follow ("Cake donuts contain…" → [cake, donuts];
    /// "Huîtres et plateaux servis…" → [huitres], [plateaux]). Nil when none does.
    static func bareSubject(foldedWords words: [String]) -> [[String]]? {
        var k = 0
        while k < words.count, subjectLeadWords.contains(words[k]) { k += 1 }
        var out: [[String]] = [[]]
        var count = 0
        while k < words.count, !subjectEndWords.contains(words[k]) {
            if AllergenClassifier.listConnectors.contains(words[k]) {
                if !(out.last ?? []).isEmpty { out.append([]) }
            } else {
                count += 1
                guard count <= 3 else { return nil }
                out[out.count - 1].append(words[k])
            }
            k += 1
        }
        out.removeAll { $0.isEmpty }
        return k < words.count && !out.isEmpty ? out : nil
    }

    /// Articles, possessives and "of" between a note's quantifier and its subject
    /// ("All of our…", "Todas as…", "Tutte le nostre…").
    static let subjectLeadWords: Set<String> = [
        "the", "of", "our", "de", "des", "les", "las", "los", "le", "la", "il", "i", "gli", "lo", "as", "os",
        "die", "der", "das", "nos", "notre", "nuestros", "nuestras", "nuestra", "nostri", "nostre", "nostra",
        "onze", "het", "vores", "al", "del",
    ]
    /// Words that end a note's subject: verbs and prepositions of the menu languages
    /// ("All sandwiches *served* on…", "Alle Brotzeiten *werden*…", "Toutes nos pizzas *sont*…").
    static let subjectEndWords: Set<String> = [
        "are", "is", "be", "come", "comes", "served", "serve", "made", "cooked", "prepared", "fried", "baked",
        "have", "has", "contain", "contains", "can", "may", "might", "will", "with", "on", "in", "from", "using",
        "use", "include", "includes", "arrive", "go", "get", "feature", "features", "sind", "ist", "werden",
        "wird", "kommen", "kommt", "mit", "auf", "aus", "enthalten", "enthalt", "serviert", "konnen", "haben", "hat",
        "sont", "est", "servis", "servies", "servi", "avec", "sur", "dans", "peuvent", "peut", "contiennent",
        "contient", "viennent", "son", "es", "se", "sirven", "sirve", "con", "en", "llevan", "lleva", "vienen",
        "pueden", "contienen", "estan", "sono", "serviti", "servite", "su", "vengono", "possono", "contengono",
        "sao", "servidos", "servidas", "com", "em", "vem", "podem", "contem", "zijn", "worden", "met", "op",
        "geserveerd", "kunnen", "bevatten", "er", "serveres", "med", "pa",
    ]

    /// What a note that speaks for all of something is about: the words after its first
    /// quantifier, articles and possessives skipped, up to a verb or preposition, at most
    /// three ("All moules come with…" → moules; "Todas as carnes são…" → carnes; "All burgers
    /// and wraps are…" → burgers, wraps).
    static func noteSubject(foldedWords words: [String]) -> [String] {
        guard let q = words.firstIndex(where: menuQuantifiers.contains) else { return [] }
        var out: [String] = []
        var k = q + 1
        while k < words.count, menuQuantifiers.contains(words[k]) || subjectLeadWords.contains(words[k]) { k += 1 }
        while k < words.count, out.count < 3, !subjectEndWords.contains(words[k]) {
            if !AllergenClassifier.listConnectors.contains(words[k]) { out.append(words[k]) }
            k += 1
        }
        return out
    }

    /// Words that join the kinds a heading names ("RICE & NOODLES", "Soups and Salads").
    static let headingJoiners: Set<String> = ["&", "/", "+", "|", ",", "and", "or", "und", "oder", "et", "ou", "y", "e", "og"]

    /// The kinds a heading names, as its words between joiners ("RICE & NOODLES" → [RICE],
    /// [NOODLES]); one part for a heading without joiners.
    static func headingParts(_ heading: String) -> [[String]] {
        // (Inside brackets a heading lists options, not kinds: "FRIED CHICKEN (half / whole)".)
        var spaced = ""
        var depth = 0
        for ch in heading {
            if ch == "(" || ch == "[" { depth += 1 } else if ch == ")" || ch == "]" { depth = max(0, depth - 1) }
            if depth == 0, "&/+|,".contains(ch) { spaced += " \(ch) " } else { spaced.append(ch) }
        }
        var parts: [[String]] = [[]]
        depth = 0
        for w in spaced.split(separator: " ") {
            if depth == 0, headingJoiners.contains(TextFold.fold(String(w))) {
                if !(parts.last ?? []).isEmpty { parts.append([]) }
            } else {
                parts[parts.count - 1].append(String(w))
            }
            for ch in w {
                if ch == "(" || ch == "[" { depth += 1 } else if ch == ")" || ch == "]" { depth = max(0, depth - 1) }
            }
        }
        return parts.filter { !$0.isEmpty }
    }

    /// Of a heading that names several kinds, the one part an item's name names ("Steamed
    /// Rice" → RICE), or nil (one kind, or the name names none or several of the parts).
    static func headingPart(_ parts: [[String]], name: String) -> [String]? {
        guard parts.count >= 2 else { return nil }
        let nameKeys = categoryKeys(name)
        let named = parts.filter { !categoryKeys($0.joined(separator: " ")).isDisjoint(with: nameKeys) }
        return named.count == 1 ? named[0] : nil
    }

    /// The allergens of seafood: a heading naming seafood names fish or shellfish, one kind an item.
    static let seafood: Set<AllergenID> = [.fish, .crustaceans, .molluscs]

    /// Of the allergens a heading gives, those an item under it only may hold (round 15):
    /// - under a heading of several kinds ("VINS & BOISSONS") whose kind the item's name does not
    ///   name ("Café"), what not every kind holds (`everyKind`: what every kind holds; nil for a
    ///   heading of one kind or one whose kind the name names): the wines' sulphites;
    /// - under a seafood heading ("SEAFOOD": fish or shellfish), the seafood an item that names
    ///   its own kind (`own`: what the item itself holds, "Tiger Prawns") does not name.
    /// An item that names no seafood keeps all the heading's.
    static func heldOnlyBySomeKinds(heading: Set<AllergenID>, everyKind: Set<AllergenID>?,
                                    own: Set<AllergenID>) -> Set<AllergenID> {
        var some = everyKind.map { heading.subtracting($0) } ?? []
        let headingSeafood = heading.subtracting(some).intersection(seafood)
        let ownSeafood = own.intersection(seafood)
        if !ownSeafood.isEmpty, headingSeafood.count >= 2 { some.formUnion(headingSeafood.subtracting(ownSeafood)) }
        return some
    }

    /// A note's text as a label: its first 60 characters.
    static func shortened(_ text: String) -> String {
        let t = text.trimmingSpaces()
        return t.count <= 60 ? t : String(t.prefix(59)) + "…"
    }

    /// (3 to 8 letters each: `speaksForTheMenu` relies on it, and a test checks it.)
    static let menuWideWords: Set<String> = menuQuantifiers.union(menuNouns)

    /// Words that make a note speak for all of something ("all", "our", "unsere", "tous").
    static let menuQuantifiers: Set<String> = [
        "all", "every", "any", "our", "alle", "unser", "unsere", "unserer", "unseren", "unserem", "tous", "toutes", "nos", "notre",
        "todos", "todas", "nuestra", "nuestros", "tutti", "tutte", "nostra", "nostri",
    ]

    /// A line that names the menu's dishes, food or kitchen ("all our *dishes*…", "unsere *Küche*…"):
    /// one that speaks for the menu by a menu noun, not by a quantifier alone.
    static func namesTheMenu(_ text: String) -> Bool {
        foldedWords(text).contains(where: menuNouns.contains)
    }

    /// A line that talks about the whole menu or kitchen, not one dish.
    static func speaksForTheMenu(_ text: String) -> Bool {
        let folded = TextFold.fold(text)
        if folded.utf8.allSatisfy({ $0 < 128 }) {
            // ASCII: letters are a–z A–Z; words read from the bytes.
            // (Every menu-wide word has 3 to 8 letters: other words need no string.)
            return folded.utf8.split(whereSeparator: { !BytePrecheck.isLetter($0) })
                .contains { (3...8).contains($0.count) && menuWideWords.contains(String(decoding: $0, as: UTF8.self)) }
        }
        return ScalarText.letterWords(folded).contains(where: menuWideWords.contains)
    }

    /// R7: unsafe when the item contains a profile allergen on solid evidence;
    /// caution on cross-contact, fuzzy or low-confidence evidence, text not read
    /// with high confidence, "ask your server", codes without a legend or misread,
    /// no codes on a menu that codes its items, and — closed world — any word
    /// MenuScan does not understand or no recognised food at all. Safe only when
    /// none of these holds: the whole item was understood and holds no profile allergen.
    /// `cutPhrase`: the item's edges cut a phrase (see `ItemBounds`), so part of it is elsewhere.
    /// `alone`: the item is one line read without its menu (`--per-line`). Its heading and the
    /// section's notes are not there, so a line that names no dish of its own — foods only
    /// ("Sour cherry", "Lamb chops", "Smoked jackfruit"), understood as a filling, flavour or
    /// cut, or with a sauce ("Nordseekrabben mit Remoulade": a sauce names no dish either) —
    /// could be a pierogi's filling, a roll's or a burger's patty: `needs_heading`. In a whole
    /// menu, such an item under a heading with words MenuScan does not know ("CALZONI" over
    /// "Classico – ham, ricotta, mozzarella") is `heading_not_understood`.
    /// `textConfidence` is how well the item's words were read; `item.confidence` also
    /// holds how sure the menu structure is of the item's bounds (lines of another item,
    /// or its own description lost, would change what it contains).
    static func safety(item: MenuItem, classification c: ItemClassification, lowWords: Bool,
                       textConfidence: Double? = nil, cutPhrase: Bool = false,
                       missingCodes: Bool = false, alone: Bool = false,
                       profile: AllergenProfile) -> (Safety, [String]) {
        var unsafe = false, caution = false
        var reasons: [String] = []
        for f in item.allergens where profile.allergens.contains(f.id) {
            if !f.fuzzy && f.confidence > 0.65 { unsafe = true; reasons.append("contains:\(f.id.rawValue)") }
            else { caution = true; reasons.append((f.fuzzy ? "fuzzy_evidence:" : "weak_evidence:") + f.id.rawValue) }
        }
        for a in item.mayContain where profile.allergens.contains(a) {
            caution = true; reasons.append("may_contain:\(a.rawValue)")
        }
        let read = ConfidenceLevel(confidence: textConfidence ?? item.confidence)
        if read != .high { caution = true; reasons.append("low_text_confidence") }
        else if item.confidenceLevel != .high { caution = true; reasons.append("weak_menu_structure") }
        // Closed world: every word understood and the dish known — or the menu's own
        // allergen codes, read through the legend it prints, declare what the item holds.
        // Codes read through the default letters are a guess: no declaration.
        let declaredByCodes = c.hasCodes && !c.unresolvedCodes && !c.codesGuessed
        if !item.unknownTerms.isEmpty && !declaredByCodes { caution = true; reasons.append("unknown_terms") }
        if !c.understoodFood && !declaredByCodes { caution = true; reasons.append("dish_not_understood") }
        else if alone && !c.namesDish && !declaredByCodes { caution = true; reasons.append("needs_heading") }
        else if !c.headingUnknownTerms.isEmpty && !c.namesDish && !declaredByCodes {
            caution = true; reasons.append("heading_not_understood")
        }
        if lowWords { caution = true; reasons.append("low_confidence_words") }
        if cutPhrase { caution = true; reasons.append("item_bounds_uncertain") }
        if c.askServer { caution = true; reasons.append("ask_server") }
        if c.unresolvedCodes { caution = true; reasons.append("unresolved_allergen_codes") }
        if missingCodes { caution = true; reasons.append("missing_allergen_codes") }
        for a in item.declaredAbsent where profile.allergens.contains(a) { reasons.append("declared_absent:\(a.rawValue)") }
        return (unsafe ? .unsafe : (caution ? .caution : .safe), reasons)
    }
}
