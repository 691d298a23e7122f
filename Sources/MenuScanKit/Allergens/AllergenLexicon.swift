import Foundation

/// One lexicon row (see models/allergens/README.md for the format).
struct LexiconEntry: Sendable, Equatable {
    /// `known`: a word understood to carry none of the 14 allergens (known.tsv, or a
    /// dish row with nothing to declare): it makes an item understood, never an allergen.
    enum Kind: String, Sendable { case explicit, implied, safe, known }
    enum Diet: String, Sendable { case meat, animal, none }
    enum Affix: Sendable, Equatable { case word, prefix, suffix, infix }

    var term: String          // folded, words joined by single spaces
    var words: [String]
    var allergens: [AllergenID]
    var kind: Kind
    var diet: Diet
    var confidence: Double
    var noFuzz: Bool
    var noAbsent: Bool
    /// The term names an allergen as such ("milk", "dairy", "nuts", "Eier"; lexicon.tsv flag
    /// `group`), not one food that holds it ("cheese", "mayo"): "no dairy" declares the dish
    /// free of milk, "no cheese" only takes the cheese away.
    var group = false
    var affix: Affix
    var lang: String
    /// Allergens often but not always in it (dishes.tsv `may_contain`): "may contain".
    var mayContain: [AllergenID] = []
    /// Why, in words a user can check ("burger: served in a wheat bun"); dishes.tsv rows.
    var why: String = ""
    /// What the term tells about an item (closed-world safety): a `dish` or a term that
    /// names its allergen source ("pizza", "peanut butter") is understood alone; one bare
    /// `ingredient` is a flavour or a part ("Vanilla", "Chicken", and since round 8 also
    /// one-word allergen foods: "Shrimp", "Cheese": how it is made is not said), understood
    /// with a preparation, a second food or the section's dish; `preparation` and `modifier` words are understood but no food;
    /// a `section` word ("PIZZAS") speaks for the items under it.
    /// `function`: known.tsv's grammar words ("with", "aus"), never part of a compound.
    enum Role: Sendable { case dish, ingredient, preparation, modifier, function, section }
    var role: Role = .dish
    /// The file the row came from: lexicon.tsv's allergen words, dishes.tsv (tagged with
    /// the dish's language of origin, "pizza" = it) or known.tsv.
    enum Table: Sendable { case lexicon, dishes, known }
    var table: Table = .lexicon
    /// A sauce, dip or dressing (dishes.tsv categories `sauce`, `dip`, `dressing`): served with
    /// a dish, it names none of its own ("Nordseekrabben mit Remoulade", "… BBQ sauce").
    var accompaniment = false
    /// A row of provisional.tsv: written and read blind, but not yet borne out on menus. What it
    /// holds counts as evidence; it never makes a word understood (closed-world safety).
    var provisional = false
}

/// Qualifier phrases (models/allergens/qualifiers.tsv).
struct QualifierEntry: Sendable, Equatable {
    enum Kind: String, Sendable {
        case absentBefore = "absent_before"      // "no nuts", "sans gluten", "ohne Ei"
        case absentAfter = "absent_after"        // "gluten free", "glutenfrei"
        case absentMarker = "absent_marker"      // "(GF)" — item declared free of the listed allergens
        case crossContact = "cross_contact"      // "may contain", "shared fryer"
        case crossContactAfter = "cross_contact_after" // "… Sesam und Soja verarbeitet": the allergens named before it
        case askServer = "ask_server"
        case veganModifier = "vegan_modifier"    // "vegan mayo": the next term has no animal product
        case plantModifier = "plant_modifier"    // "zucchini bacon": the next term is not meat
        case veganMarker = "vegan_marker"
        case vegetarianMarker = "vegetarian_marker"
        case connector
    }
    var words: [String]
    var kind: Kind
    var allergens: [AllergenID]
}

/// The allergen lexicon: terms (explicit, implied, false friends), qualifier
/// phrases and allergen letter codes, loaded from `models/allergens/`.
public struct AllergenLexicon: Sendable {
    var entries: [LexiconEntry]
    var qualifiers: [QualifierEntry]
    /// Default allergen letter codes (Austrian/German A–R) when a menu has no legend.
    var letterCodes: [String: [AllergenID]]

    // Indexes built at load.
    var byFirstWord: [String: [Int]] = [:]
    var affixEntries: [Int] = []
    /// Each affix entry's term length in characters.
    var affixLengths: [Int] = []
    var fuzzyCandidates: [Int] = []
    /// Each fuzzy candidate's term as scalars, and candidate positions by scalar count.
    var fuzzyScalars: [[UInt32]] = []
    /// The letter classes of each candidate (`OCRFuzzy.letterClasses`): most candidates
    /// are ruled out by them before the edit distance is computed.
    var fuzzyClasses: [UInt64] = []
    /// Each candidate's `OCRFuzzy.classCounts` (`OCRFuzzy.classCount` a candidate), one after the other: a second,
    /// tighter bound checked before the edit distance.
    var fuzzyCounts: [UInt8] = []
    /// Candidate positions by scalar count, then by first scalar (a misreading keeps its
    /// first letter or a confusable one, so most buckets are never looked at).
    var fuzzyByLength: [Int: [UInt32: [Int]]] = [:]
    var qualifiersByFirstWord: [String: [Int]] = [:]
    /// `byFirstWord` restricted to one-word rows (inflections and compound parts).
    var singleWordByFirstWord: [String: [Int]] = [:]
    /// Each row's kind, role and words, and each affix row's term and affix, read apart from
    /// the row (reading a field of `entries[i]` in a hot loop copied the whole row).
    var kinds: [LexiconEntry.Kind] = []
    var roles: [LexiconEntry.Role] = []
    /// Whether each row is a flavouring (flavourings.tsv: it seasons, sweetens, spreads on or
    /// tops something else, so by itself it names no dish): its term is listed, or every word
    /// of it is ("garlic butter").
    var flavours: [Bool] = []
    /// Whether each row's term is a sauce, dip or dressing in the dish table (also a
    /// lexicon.tsv row of the same term: "remoulade").
    var accompaniments: [Bool] = []
    /// Whether each row is provisional (provisional.tsv): evidence, never understanding.
    var provisional: [Bool] = []
    var wordsOf: [[String]] = []
    var affixTerms: [String] = []
    var affixKinds: [LexiconEntry.Affix] = []
    /// What a term holds, read exactly (legend names: "Sulphur dioxide", "Lactose"; "soy-free";
    /// a choice's food): what every row of it gives, lexicon.tsv's "mustard" and a dish row of
    /// the same term that adds only what it may hold alike. Known words and false friends give
    /// nothing.
    var termAllergens: [String: [AllergenID]] = [:]
    /// The same from the rows that can name an allergen in a legend: lexicon.tsv's and the dish
    /// table's foods and ingredients, not its dishes or kinds of dish, and no provisional row.
    /// "2. Kroepoek" and "10. Wantansoep" on a numbered menu name dishes (prawn crackers hold
    /// crustaceans); a legend's "2 Crustaceans" names the allergen.
    var legendTermAllergens: [String: [AllergenID]] = [:]
    /// Terms of dish rows (and provisional rows, which are dishes): a legend entry named by one
    /// ("1. Prawn crackers") is a numbered dish, whatever its words name.
    var dishTerms = Set<String>()
    /// One-word foods that hold none of the 14 (known.tsv's ingredients: "tomato", "pork").
    var plainFoods = Set<String>()

    public var termCount: Int { entries.count }
    public var qualifierCount: Int { qualifiers.count }

    init(entries: [LexiconEntry], qualifiers: [QualifierEntry], letterCodes: [String: [AllergenID]],
         flavourings: Set<String> = []) {
        self.entries = entries
        self.qualifiers = qualifiers
        self.letterCodes = letterCodes
        kinds = entries.map(\.kind)
        roles = entries.map(\.role)
        flavours = entries.map { flavourings.contains($0.term) || (!$0.words.isEmpty && $0.words.allSatisfy(flavourings.contains)) }
        let accompanimentTerms = Set(entries.lazy.filter(\.accompaniment).map(\.term))
        accompaniments = entries.map { accompanimentTerms.contains($0.term) }
        provisional = entries.map(\.provisional)
        wordsOf = entries.map(\.words)
        for (i, e) in entries.enumerated() {
            switch e.affix {
            case .word:
                byFirstWord[e.words[0], default: []].append(i)
                // (Inflections and compound parts are read as the words they are only through rows
                // that vouch for them.)
                if e.words.count == 1 && !e.provisional { singleWordByFirstWord[e.words[0], default: []].append(i) }
                let held = termAllergens[e.term] ?? []
                termAllergens[e.term] = held + e.allergens.filter { !held.contains($0) }
                // (lexicon.tsv's rows name foods and what they imply, "latte" and "pesto" too.)
                let dish = e.provisional || (e.table != .lexicon && (e.role == .dish || e.role == .section))
                if e.table == .known, e.role == .ingredient, e.words.count == 1 { plainFoods.insert(e.term) }
                if dish { dishTerms.insert(e.term) } else {
                    let named = legendTermAllergens[e.term] ?? []
                    legendTermAllergens[e.term] = named + e.allergens.filter { !named.contains($0) }
                }
                // (Latin-script terms only: OCR reads Latin languages, and its confusions are
                // Latin letters'; Greek, Cyrillic and Hangul terms are matched exactly.)
                if e.kind != .known && e.words.count == 1 && !e.noFuzz && e.term.count >= 5 && !e.term.contains(where: \.isNumber)
                    && e.term.unicodeScalars.allSatisfy({ $0.value < 0x250 }) {
                    let scalars = OCRFuzzy.scalars(e.term)
                    fuzzyByLength[scalars.count, default: [:]][scalars[0], default: []].append(fuzzyCandidates.count)
                    fuzzyScalars.append(scalars)
                    fuzzyClasses.append(OCRFuzzy.letterClasses(scalars))
                    fuzzyCounts += OCRFuzzy.classCounts(scalars)
                    fuzzyCandidates.append(i)
                }
            default:
                affixEntries.append(i)
                affixLengths.append(e.term.count)
                affixTerms.append(e.term)
                affixKinds.append(e.affix)
            }
        }
        for (i, q) in qualifiers.enumerated() {
            qualifiersByFirstWord[q.words[0], default: []].append(i)
        }
    }

    /// A one-word row names a dish or a kind of dish (`burger`, `sandwich`, `pizzas`), or a food
    /// a note can speak of ("All moules come with frites"): folded word.
    func namesDish(_ word: String) -> Bool {
        (singleWordByFirstWord[word] ?? []).contains {
            $0 < roles.count && (roles[$0] == .dish || roles[$0] == .section
                                 || (entries[$0].table == .lexicon && !entries[$0].allergens.isEmpty))
        }
    }

    /// Single-word rows for `word` or one of its inflected forms ("Pfifferlingen" →
    /// pfifferling, "gebackener" → gebacken): plural variants, then German, French,
    /// Spanish and Italian endings, each leaving at least three letters.
    func inflectedRows(_ word: String) -> [Int] {
        var forms = Tokenizer.variants(word)
        for ending in ["en", "em", "er", "es", "e", "n", "s", "i", "a", "o"] where word.hasSuffix(ending) && word.count - ending.count >= 3 {
            forms.append(String(word.dropLast(ending.count)))
        }
        for f in forms {
            // (Grammar words do not inflect: "cone" is no "con".)
            if let rows = singleWordByFirstWord[f], isCompoundPart(rows) { return rows }
        }
        return []
    }

    /// The known words a compound starts with when its rest is not known ("Dunkelbiersoße"
    /// = dunkel + bier + an unknown "soße"): read left to right, the longest part first,
    /// parts of four letters or more (a linking element as in `compoundRows` allowed after
    /// each), at most three, and at least four letters left unread. The rows of each part
    /// read, or []: the word stays unknown, only what its known parts carry counts.
    func compoundHeadRows(_ word: String) -> [[Int]] {
        let chars = Array(word)
        guard chars.count >= 8 else { return [] }
        var out: [[Int]] = []
        var p = 0
        while out.count < 3 && chars.count - p >= 8 {
            var piece: (rows: [Int], end: Int)? = nil
            for q in stride(from: chars.count - 4, through: p + 4, by: -1) {
                let left = String(chars[p..<q])
                var rows = singleWordByFirstWord[left] ?? []
                if rows.isEmpty {
                    for link in ["s", "n", "en", "es", "e"] where left.hasSuffix(link) && left.count - link.count >= 4 {
                        rows = singleWordByFirstWord[String(left.dropLast(link.count))] ?? []
                        if !rows.isEmpty { break }
                    }
                }
                if isCompoundPart(rows) { piece = (rows, q); break }
            }
            guard let found = piece else { break }
            out.append(found.rows)
            p = found.end
        }
        return out
    }

    /// A compound read as its parts ("Salatteller" = salat + teller, "Apfelkompott",
    /// "Poulardengeschnetzeltem" = poularde + n + geschnetzeltem): each part a known
    /// single word (inflected forms too), parts of three letters or more, a German
    /// linking element (-s-, -n-, -en-, -es-, -e-, -er-) allowed between them, at most
    /// three parts. The rows of each part, or nil.
    /// The rows of what is left of a compound beside an affix row's part ("garnelen" of
    /// "Garnelengulasch", "frikassee" of "Hühnerfrikassee"): a known word, inflected, with a
    /// linking element dropped at either end, or a compound of known words; nil when it
    /// cannot be read.
    func restRows(_ rest: String) -> [[Int]]? {
        let rows = inflectedRows(rest)
        if isCompoundPart(rows) { return [rows] }
        for link in Self.linkingElements where rest.count - link.count >= 3 {
            // Before the part it links ("Kalb|s|braten") or after a part the row began ("Rind|er|ragout").
            if rest.hasSuffix(link) {
                let r = singleWordByFirstWord[String(rest.dropLast(link.count))] ?? []
                if isCompoundPart(r) { return [r] }
            }
            if rest.hasPrefix(link) {
                let tail = String(rest.dropFirst(link.count))
                let r = inflectedRows(tail)
                if isCompoundPart(r) { return [r] }
                if let parts = compoundRows(tail) { return parts }
            }
        }
        return compoundRows(rest)
    }

    /// German linking elements between the parts of a compound (Kalb-s-braten, Rind-er-ragout).
    static let linkingElements = ["s", "n", "en", "es", "e", "er"]

    /// Rows a compound can be built from: a word that is more than grammar ("Tomatensaus"
    /// is no "tomaten" + German "aus").
    func isCompoundPart(_ rows: [Int]) -> Bool {
        rows.contains { $0 >= roles.count || roles[$0] != .function }
    }

    func compoundRows(_ word: String, depth: Int = 0) -> [[Int]]? {
        let chars = Array(word)
        guard chars.count >= 6, depth < 3 else { return nil }
        for k in stride(from: chars.count - 3, through: 3, by: -1) {
            let left = String(chars[..<k])
            var leftRows = singleWordByFirstWord[left] ?? []
            if leftRows.isEmpty {
                for link in Self.linkingElements where left.hasSuffix(link) && left.count - link.count >= 3 {
                    leftRows = singleWordByFirstWord[String(left.dropLast(link.count))] ?? []
                    if !leftRows.isEmpty { break }
                }
            }
            guard isCompoundPart(leftRows) else { continue }
            let right = String(chars[k...])
            let rightRows = inflectedRows(right)
            if isCompoundPart(rightRows) { return [leftRows, rightRows] }
            if let more = compoundRows(right, depth: depth + 1) { return [leftRows] + more }
        }
        return nil
    }

    /// The provisional tables of `directory`: `provisional.tsv` and the `provisional-*.tsv` a
    /// pass each, in the passes' order: by the round number in the name, compared as a number
    /// (round100 after round99), then by name.
    static func provisionalFiles(in directory: URL) -> [String] {
        func round(_ name: String) -> Int {
            let digits = name.drop { !$0.isASCII || !$0.isNumber }.prefix { $0.isASCII && $0.isNumber }
            return Int(digits) ?? -1
        }
        let later = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasPrefix("provisional-") && $0.hasSuffix(".tsv") }
            .sorted { (round($0), $0) < (round($1), $1) }
        return ["provisional.tsv"] + later
    }

    /// Loads `lexicon.tsv`, `qualifiers.tsv` and `codes.tsv` from `directory`
    /// (the `models/allergens` folder).
    public static func load(from directory: URL) throws -> AllergenLexicon {
        func read(_ name: String) throws -> String {
            let url = directory.appendingPathComponent(name)
            guard let data = try? Data(contentsOf: url), let text = String(data: data, encoding: .utf8) else {
                throw MenuScanError.lexiconUnavailable.with(detail: "\(name): cannot be read")
            }
            return text
        }
        func readIfPresent(_ name: String) throws -> String? {
            FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path) ? try read(name) : nil
        }
        var entries = try parseLexicon(read("lexicon.tsv"), file: "lexicon.tsv")
        if let dishes = try readIfPresent("dishes.tsv") { entries += try parseDishes(dishes) }
        // provisional.tsv, then a file a pass each from round 27 on (provisional-round27.tsv, …: no
        // table file over 2 MB), in the order the passes were applied.
        for name in provisionalFiles(in: directory) {
            if let more = try readIfPresent(name) { entries += try parseDishes(more, file: name, provisional: true) }
        }
        if let known = try readIfPresent("known.tsv") { entries += try parseKnown(known) }
        let quals = try parseQualifiers(read("qualifiers.tsv"))
        let codes = try parseCodes(read("codes.tsv"))
        let flavourings = try readIfPresent("flavourings.tsv").map(parseFlavourings) ?? []
        guard !entries.isEmpty, !quals.isEmpty else {
            throw MenuScanError.lexiconUnavailable.with(detail: "empty lexicon")
        }
        return AllergenLexicon(entries: entries, qualifiers: quals, letterCodes: codes, flavourings: flavourings)
    }

    /// The lexicon under `ModelLocator`'s `models/allergens`.
    public static func loadDefault() throws -> AllergenLexicon {
        guard let dir = ModelLocator.modelsDirectory() else {
            throw MenuScanError.lexiconUnavailable.with(detail: "models folder not found")
        }
        return try load(from: dir.appendingPathComponent("allergens", isDirectory: true))
    }

    // MARK: Parsing

    /// The rows of a table: (line number, fields trimmed of spaces), blank lines and `#`
    /// comments left out. Split on the UTF-8 bytes: splitting the text by characters was
    /// two thirds of loading the tables (6,500 dish rows), and missed "\r\n" line ends
    /// (one character, so never equal to "\n").
    static func rows(_ text: String) -> [(Int, [String])] {
        var out: [(Int, [String])] = []
        var text = text
        text.withUTF8 { bytes in
            for (n, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
                let l = line.last == 0x0D ? line.dropLast() : line[...]
                if l.first == UInt8(ascii: "#") { continue }
                let fields = l.split(separator: 0x09, omittingEmptySubsequences: false)
                    .map { String(decoding: $0, as: UTF8.self).trimmingSpaces() }
                // (A line of spaces and tabs only: every field trims to nothing.)
                if fields.allSatisfy(\.isEmpty) { continue }
                out.append((n + 1, fields))
            }
        }
        return out
    }

    static func parseAllergenList(_ s: String, file: String, line: Int) throws -> [AllergenID] {
        if s.isEmpty || s == "-" { return [] }
        return try s.split(separator: ",").map {
            guard let id = AllergenID(rawValue: $0.trimmingSpaces()) else {
                throw MenuScanError.lexiconUnavailable.with(detail: "\(file):\(line): unknown allergen id")
            }
            return id
        }
    }

    static func parseLexicon(_ text: String, file: String) throws -> [LexiconEntry] {
        var out: [LexiconEntry] = []
        for (n, cols) in rows(text) {
            guard cols.count >= 3 else {
                throw MenuScanError.lexiconUnavailable.with(detail: "\(file):\(n): expected at least 3 columns")
            }
            let (term, words, affix) = try termWords(cols[0], file: file, line: n)
            let allergens = try parseAllergenList(cols[1], file: file, line: n)
            guard let kind = LexiconEntry.Kind(rawValue: cols[2]) else {
                throw MenuScanError.lexiconUnavailable.with(detail: "\(file):\(n): unknown kind")
            }
            var diet: LexiconEntry.Diet = .none
            let dietCol = cols.count > 3 ? cols[3] : ""
            if dietCol.isEmpty || dietCol == "auto" {
                let a = Set(allergens)
                if kind != .safe {
                    if !a.isDisjoint(with: [.fish, .crustaceans, .molluscs]) { diet = .meat }
                    else if !a.isDisjoint(with: [.milk, .eggs]) { diet = .animal }
                }
            } else if dietCol == "-" {
                diet = .none
            } else if let d = LexiconEntry.Diet(rawValue: dietCol) {
                diet = d
            } else {
                throw MenuScanError.lexiconUnavailable.with(detail: "\(file):\(n): unknown diet")
            }
            var confidence = kind == .explicit ? 1.0 : 0.9
            var noFuzz = false, noAbsent = false, food = false, group = false
            let flags = cols.count > 4 ? cols[4] : ""
            for f in flags.split(separator: ",").map({ $0.trimmingSpaces() }) where !f.isEmpty {
                if f == "nofuzz" { noFuzz = true }
                else if f == "noabsent" { noAbsent = true }
                else if f == "food" { food = true }
                else if f == "group" { group = true }
                else if f.hasPrefix("conf="), let c = Double(f.dropFirst(5)), c > 0, c <= 1 { confidence = c }
                else { throw MenuScanError.lexiconUnavailable.with(detail: "\(file):\(n): unknown flag") }
            }
            let lang = cols.count > 5 ? cols[5] : ""
            out.append(LexiconEntry(term: term, words: words, allergens: allergens,
                                    kind: kind, diet: diet, confidence: confidence, noFuzz: noFuzz,
                                    noAbsent: noAbsent, group: group, affix: affix, lang: lang,
                                    role: food || allergens.isEmpty || (kind == .explicit && words.count == 1) ? .ingredient : .dish))
        }
        return out
    }

    /// A term as the lexicon stores it: folded words and its affix form.
    private static func termWords(_ raw: String, file: String, line n: Int) throws -> (String, [String], LexiconEntry.Affix) {
        var term = TextFold.fold(raw)
        var affix = LexiconEntry.Affix.word
        if term.hasPrefix("*") && term.hasSuffix("*") && term.count > 2 { affix = .infix; term = String(term.dropFirst().dropLast()) }
        else if term.hasPrefix("*") { affix = .suffix; term.removeFirst() }
        else if term.hasSuffix("*") { affix = .prefix; term.removeLast() }
        // A hyphen between words is optional in the text ("self-raising" = "self raising"),
        // so it is no word of the term.
        let words = Tokenizer.tokenize([SourceWord(text: term, confidence: nil)]).map(\.norm).filter { $0 != "-" }
        guard !words.isEmpty else {
            throw MenuScanError.lexiconUnavailable.with(detail: "\(file):\(n): empty term")
        }
        return (words.joined(separator: " "), words, affix)
    }

    /// dishes.tsv: `term, contains, may_contain, diet, category, lang, evidence`: what a dish,
    /// sauce, bread, batter, drink… holds as normally made (see models/allergens/README.md).
    /// provisional.tsv has the same columns; its rows are `provisional`.
    static func parseDishes(_ text: String, file: String = "dishes.tsv", provisional: Bool = false) throws -> [LexiconEntry] {
        var out: [LexiconEntry] = []
        for (n, cols) in rows(text) {
            guard cols.count >= 5 else {
                throw MenuScanError.lexiconUnavailable.with(detail: "\(file):\(n): expected 7 columns")
            }
            let (term, words, affix) = try termWords(cols[0], file: file, line: n)
            let contains = try parseAllergenList(cols[1], file: file, line: n)
            let may = try parseAllergenList(cols[2], file: file, line: n).filter { !contains.contains($0) }
            let diet: LexiconEntry.Diet
            switch cols[3] {
            case "meat": diet = .meat
            case "animal": diet = .animal
            case "", "-": diet = .none
            default: throw MenuScanError.lexiconUnavailable.with(detail: "\(file):\(n): unknown diet")
            }
            let kind: LexiconEntry.Kind = contains.isEmpty && may.isEmpty ? .known : .implied
            var entry = LexiconEntry(term: term, words: words, allergens: contains, kind: kind, diet: diet,
                                     confidence: 0.9, noFuzz: words.count > 1, noAbsent: false, affix: affix,
                                     lang: cols.count > 5 ? cols[5] : "", mayContain: may,
                                     why: cols.count > 6 ? cols[6] : "", role: role(ofDishCategory: cols[4]), table: .dishes)
            entry.accompaniment = accompanimentCategories.contains(cols[4])
            entry.provisional = provisional
            out.append(entry)
        }
        return out
    }

    /// Dish-table categories served with a dish rather than eaten as one.
    static let accompanimentCategories: Set<String> = ["sauce", "dip", "dressing"]

    /// A dish-table row's role: a heading word speaks for its section; a coating,
    /// batter, spice mix or preparation says how, not what; a cheese, a fish or shellfish
    /// species, a meat substitute or a plain ingredient is a food ("Camembert", "Hake",
    /// "Tofu" alone are a topping, a catch or a choice of something the section names, not
    /// a dish); everything else is a dish.
    static func role(ofDishCategory category: String) -> LexiconEntry.Role {
        switch category {
        case "section": return .section
        case "preparation", "coating", "batter", "spice_mix": return .preparation
        case "ingredient", "cheese", "fish_species", "crustacean_species", "mollusc_species", "substitute": return .ingredient
        default: return .dish
        }
    }

    /// known.tsv: `term, class, diet, lang`: words understood to carry none of the 14
    /// allergens. Classes `ingredient` is food; the others are words about food.
    static let knownClasses: Set<String> = ["ingredient", "preparation", "descriptor", "function", "menu", "colour_taste", "place_style"]

    static func parseKnown(_ text: String) throws -> [LexiconEntry] {
        var out: [LexiconEntry] = []
        for (n, cols) in rows(text) {
            guard cols.count >= 2, knownClasses.contains(cols[1]) else {
                throw MenuScanError.lexiconUnavailable.with(detail: "known.tsv:\(n): bad row")
            }
            let (term, words, affix) = try termWords(cols[0], file: "known.tsv", line: n)
            let diet: LexiconEntry.Diet = cols.count > 2 && cols[2] == "meat" ? .meat : .none
            let role: LexiconEntry.Role = cols[1] == "ingredient" ? .ingredient
                : cols[1] == "preparation" ? .preparation : cols[1] == "function" ? .function : .modifier
            out.append(LexiconEntry(term: term, words: words, allergens: [], kind: .known, diet: diet, confidence: 1,
                                    noFuzz: true, noAbsent: false, affix: affix, lang: cols.count > 3 ? cols[3] : "",
                                    role: role, table: .known))
        }
        return out
    }

    /// flavourings.tsv: `term, lang`: terms that by themselves name no dish, folded as the
    /// lexicon folds its terms.
    static func parseFlavourings(_ text: String) throws -> Set<String> {
        var out: Set<String> = []
        for (n, cols) in rows(text) {
            let (term, _, affix) = try termWords(cols[0], file: "flavourings.tsv", line: n)
            guard affix == .word else {
                throw MenuScanError.lexiconUnavailable.with(detail: "flavourings.tsv:\(n): no affixes here")
            }
            out.insert(term)
        }
        return out
    }

    static func parseQualifiers(_ text: String) throws -> [QualifierEntry] {
        var out: [QualifierEntry] = []
        for (n, cols) in rows(text) {
            guard cols.count >= 2, let kind = QualifierEntry.Kind(rawValue: cols[1]) else {
                throw MenuScanError.lexiconUnavailable.with(detail: "qualifiers.tsv:\(n): bad row")
            }
            let words = Tokenizer.tokenize([SourceWord(text: cols[0], confidence: nil)]).map(\.norm)
            guard !words.isEmpty else { throw MenuScanError.lexiconUnavailable.with(detail: "qualifiers.tsv:\(n): empty") }
            let allergens = try parseAllergenList(cols.count > 2 ? cols[2] : "", file: "qualifiers.tsv", line: n)
            out.append(QualifierEntry(words: words, kind: kind, allergens: allergens))
        }
        return out
    }

    static func parseCodes(_ text: String) throws -> [String: [AllergenID]] {
        var out: [String: [AllergenID]] = [:]
        for (n, cols) in rows(text) {
            guard cols.count >= 2, cols[0].count == 1 else {
                throw MenuScanError.lexiconUnavailable.with(detail: "codes.tsv:\(n): bad row")
            }
            out[cols[0].uppercased()] = try parseAllergenList(cols[1], file: "codes.tsv", line: n)
        }
        return out
    }

    /// Allergens named by a legend entry ("Celery", "LACTOSE AND MILK",
    /// "Sulphur dioxide"); nil when the name is not an allergen term.
    func allergens(forLegendName name: String) -> [AllergenID]? {
        let words = Tokenizer.tokenize([SourceWord(text: name, confidence: nil)]).filter { $0.kind == .word }.map(\.norm)
        guard !words.isEmpty else { return nil }
        // (`variants` gives the term itself first, then its plural and other forms.)
        func lookup(_ ws: [String]) -> [AllergenID]? {
            Tokenizer.variants(ws.joined(separator: " ")).lazy.compactMap { self.legendTermAllergens[$0] }.first
        }
        if let a = lookup(words) { return a }
        // A dish's name ("Prawn crackers") names no allergen, whatever its words name. (A food's
        // name that is a dish's too, "Weizen", "latte", was read above as the food's.)
        if Tokenizer.variants(words.joined(separator: " ")).contains(where: dishTerms.contains) { return nil }
        // "lactose and milk", "sulphur dioxide & sulphites", "gluten (wheat, oats)", "cereals
        // containing gluten": what a part names, or the first of its words that names an allergen.
        var found: [AllergenID] = []
        for part in words.split(whereSeparator: { ["and", "und", "et", "y", "e", "or", "oder"].contains($0) }) {
            if let a = lookup(Array(part)) { found += a; continue }
            let single = part.map { lookup([$0]) }
            // A part that opens with a food holding none of the 14, or a dish, before any word that
            // names one ("Tomato & Egg", "Pork & Chinese Cabbage") is a dish's name, not an
            // allergen's ("Soya beans" is one).
            let naming = single.firstIndex { $0?.isEmpty == false } ?? single.count
            guard !part.prefix(naming).contains(where: { plainFoods.contains($0) || dishTerms.contains($0) }) else { return nil }
            if part.count <= 3, naming < single.count, let a = single[naming] { found += a }
            else if part.count > 3, let a = single.first ?? nil { found += a }
        }
        // An entry that names no allergen is no allergen key's ("3. Chicken Wings").
        return found.isEmpty ? nil : found
    }
}
