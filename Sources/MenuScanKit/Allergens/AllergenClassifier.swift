import Foundation

/// Allergen codes printed on a menu and what they mean: numeric codes need a
/// legend on the menu ("1 Celery"); letter codes use the menu's legend when it
/// has one, else the Austrian/German A–R codes from `codes.tsv`.
struct CodeLegend: Sendable, Equatable {
    var numeric: [Int: [AllergenID]] = [:]
    var letters: [String: [AllergenID]] = [:]
    /// Numbers of a food-additive key ("1 = mit Farbstoff … 5 = geschwefelt"): what each says
    /// of the 14 (sulphites for "geschwefelt", else nothing). They declare additives, not
    /// allergens: an item's additive codes read through them are no allergen declaration.
    var additives: [Int: [AllergenID]] = [:]
}

/// Result of classifying one item's text.
struct ItemClassification: Sendable {
    var allergens: [AllergenFinding] = []
    var mayContain: Set<AllergenID> = []
    /// Allergens of `allergens` that only provisional rows (provisional.tsv) gave: guesses of
    /// rows not yet borne out on menus.
    var provisionalOnly: Set<AllergenID> = []
    /// What a cross-contact statement names ("may contain nuts", "fried in shared oil": every
    /// allergen), a part of `mayContain`: of a dish line that speaks for the menu only by a word
    /// ("Our peanut noodles"), this alone reaches every item, not what its dish rows may hold.
    var crossContact: Set<AllergenID> = []
    var declaredAbsent: [AbsentEvidence] = []
    var dietary: Dietary = .unknown
    var dietaryEvidence: [String] = []
    var askServer = false
    var unresolvedCodes = false
    /// The item's own text holds a lone number in brackets that no legend reads ("(5)"; not
    /// taken from its context).
    var numberInBrackets = false
    /// The item's text carries allergen codes (resolved or not).
    var hasCodes = false
    /// Its letter codes were read through the default A–R letters: the menu printed no legend
    /// of its own, so what they mean is a guess ("L, G" is lactose- and gluten-free on a Finnish
    /// menu, celery and milk in the A–R letters). Such codes add what they would mean, and they
    /// do not declare the item: its words must be understood as on a menu without codes.
    var codesGuessed = false
    /// Smallest OCR confidence of a word that carried allergen evidence.
    var weakestEvidenceWord: Double?
    /// Content words the lexicon does not know (closed-world safety: an item with
    /// one is never `safe`).
    var unknownTerms: [String] = []
    /// What the item is was understood: a dish, or an ingredient with a preparation
    /// or a second food (closed-world safety; see `LexiconEntry.Role`).
    var understoodFood = false
    /// Roles of the terms read exactly (known words and false friends included).
    var roles: [LexiconEntry.Role] = []
    /// A term of the item names a dish of its own: a `dish` row that is no sauce, dip or
    /// dressing. (A line alone without one may be a filling, a topping or a side of its
    /// heading's dish: `classify --per-line`.)
    var namesDish = false
    /// The item carries a vegan mark ("(VG)", "vegan").
    var markedVegan = false
    /// The item's text starts with a preposition ("In der Brühe", "With fries"): it continues
    /// its heading's dish, which is understood only through that heading.
    var fragment = false
    /// Why a dish may contain an allergen ("burger: seeded buns are common").
    var mayContainWhy: [AllergenID: [String]] = [:]
    /// Every food the item names is a flavouring ("Honey Butter", "Soy Garlic", "Cream Cheese"):
    /// the flavour or filling of a dish its heading names, understood only through that heading.
    var flavourOnly = false
    /// Words of the item's section heading that MenuScan does not know ("CALZONI"). An item
    /// that names no dish of its own ("Classico – ham, ricotta, mozzarella") is what its
    /// heading says it is, so it is understood only as far as its heading is.
    var headingUnknownTerms: [String] = []
}

private extension Array {
    var nilIfEmpty: Self? { isEmpty ? nil : self }
}

extension ItemClassification {
    /// Adds what the item's context (section header, section notes) implies, as
    /// evidence "from section …": allergens and may-contains the item does not
    /// declare absent, "ask your server" and unresolved codes. The context's own
    /// unknown words and dietary words do not count for the item.
    /// `sameDish`: `k` reads the item itself more fully (its name with its heading), so its
    /// "usually contains" guesses are the dish's own, not a section's.
    mutating func inherit(_ k: ItemClassification, from label: String, sameDish: Bool = false) {
        let absent = Set(declaredAbsent.map(\.id))
        let have = Set(allergens.map(\.id))
        // What only provisional rows gave the context ("COLD MEZZE" over its dishes, "Cold mezze
        // are served with warm flatbread": a platter's guesses) is a guess for each of its items,
        // as the dish table's are: "may contain".
        var contextMay = k.mayContain, contextWhy = k.mayContainWhy
        for f in k.allergens where k.provisionalOnly.contains(f.id) {
            contextMay.insert(f.id)
            if contextWhy[f.id] == nil { contextWhy[f.id] = f.why.isEmpty ? f.evidence : f.why }
        }
        // The item's own declaration wins over its context: "Mango Sorbet (vg)" under SCOOPS
        // holds none of the milk the heading implies.
        for var f in k.allergens where !absent.contains(f.id) && !have.contains(f.id) && !k.provisionalOnly.contains(f.id)
            && !(markedVegan && AllergenClassifier.animalAllergens.contains(f.id)) {
            f.why.append(label)
            allergens.append(f)
        }
        allergens.sort { $0.id < $1.id }
        let contained = Set(allergens.map(\.id))
        // A section's guesses ("desserts: nuts common") are for items MenuScan cannot place;
        // a dish it knows keeps its own. Statements ("may contain nuts") apply to every item.
        let ownDish = roles.contains(.dish) && !sameDish
        for a in contextMay where !absent.contains(a) && !contained.contains(a)
            && !(contextWhy[a] != nil && (ownDish || (markedVegan && AllergenClassifier.animalAllergens.contains(a)))) {
            mayContain.insert(a)
            mayContainWhy[a, default: []] += (contextWhy[a] ?? []).map { "\($0) (\(label))" }
        }
        // "Vanilla" under "ICE CREAM", "Margherita" under "PIZZAS": the section names the dish.
        if !understoodFood && (roles.contains(.ingredient) || fragment || flavourOnly)
            && k.roles.contains(where: { $0 == .dish || $0 == .section }) {
            understoodFood = true
        }
        askServer = askServer || k.askServer
        unresolvedCodes = unresolvedCodes || k.unresolvedCodes
        hasCodes = hasCodes || k.hasCodes
        codesGuessed = codesGuessed || k.codesGuessed
    }
}

/// The fuzzy matcher's answers for the words of one menu: the same unknown word
/// (a name, an OCR misreading) is looked up once per analysis. Not shared across threads.
final class FuzzyMemo {
    var fuzzy: [String: (Int, Double)?] = [:]
    /// `AllergenLexicon.compoundHeadRows` of unknown words.
    var compoundHeads: [String: [[Int]]] = [:]
    /// Whether an unknown word may be read as a compound of known words (step 3) or by its
    /// known head (step 5): only in text that writes German, the language that glues
    /// compounds into one word. Elsewhere known pieces are chance ("temperadas" is no
    /// tempeh, "Linguiça" no ling).
    var readsCompounds = true
    /// Whether the text was read by OCR (a photo's or a page's words) rather than typed (`classify`
    /// of a text file). Only OCR misreads, so only in read text is a word understood as the term it
    /// resembles (step 4); in typed text such a word ("American" ~ Dutch "americain") adds that
    /// term's allergens as fuzzy evidence and stays unknown.
    var readByOCR = true
}

/// Finds allergen evidence in a span of text (one item, or a menu-level note).
struct AllergenClassifier: Sendable {
    let lexicon: AllergenLexicon

    static let animalAllergens: Set<AllergenID> = [.milk, .eggs, .fish, .crustaceans, .molluscs]

    /// Whether a word holds ä, ö, ü or ß (either case), read from its UTF-8 bytes: each is
    /// 0xC3 followed by one of these.
    static func hasGermanLetter(_ word: String) -> Bool {
        var lead = false
        for b in word.utf8 {
            if lead, b == 0xA4 || b == 0xB6 || b == 0xBC || b == 0x9F || b == 0x84 || b == 0x96 || b == 0x9C { return true }
            lead = b == 0xC3
        }
        return false
    }
    static let listConnectors: Set<String> = [",", "&", "/", "|", "+", "-", "and", "or", "und", "oder", "et", "ou", "y", "o", "e", "ed", "nor", "ni"]

    struct TermMatch {
        var entry: Int
        var start: Int
        var end: Int
        var cost: Double   // 0 = exact
        var text: String
    }

    struct QualMatch {
        var q: Int
        var start: Int
        var end: Int
    }

    // MARK: Matching

    /// Where a term's `words` end when they start at token `start`, or nil. `variants`
    /// holds each token's `Tokenizer.variants`, computed once per text.
    private func wordsMatch(_ words: [String], tokens: [Token], variants: [[String]], at start: Int) -> Int? {
        var t = start
        for (k, w) in words.enumerated() {
            if k > 0 { while t < tokens.count && tokens[t].norm == "-" { t += 1 } }
            guard t < tokens.count else { return nil }
            let tok = tokens[t]
            if tok.kind == .punct {
                // "&" reads as "and" ("salt & pepper squid" = "salt and pepper squid")
                guard tok.norm == w || (tok.norm == "&" && w == "and") else { return nil }
            } else {
                guard variants[t].contains(w) else { return nil }
            }
            t += 1
        }
        return t
    }

    /// The raw text of a span of tokens, joined by spaces, a spaced hyphen closed up
    /// ("gluten - free" → "gluten-free").
    static func spanText(_ tokens: ArraySlice<Token>) -> String {
        let joined = tokens.map(\.raw).joined(separator: " ")
        // Foundation's search (a bridge to NSString, dearer than the join) can only find " - "
        // where its three bytes are: nothing else is canonically equivalent to ASCII text.
        guard BytePrecheck.holdsSpacedHyphen(joined) else { return joined }
        return joined.replacingOccurrences(of: " - ", with: "-")
    }

    /// Lexicon terms in `tokens`, and which tokens a term (of any kind, false
    /// friends and known words included) accounts for.
    func findTerms(_ tokens: [Token], variants: [[String]], memo: FuzzyMemo? = nil)
        -> (terms: [TermMatch], covered: [Bool], roles: [LexiconEntry.Role]) {
        var out: [TermMatch] = []
        var found: [LexiconEntry.Role] = []
        var covered = [Bool](repeating: false, count: tokens.count)
        func cover(_ s: Int, _ e: Int) { for k in s..<max(s, min(e, tokens.count)) { covered[k] = true } }
        var i = 0
        let kinds = lexicon.kinds, roles = lexicon.roles, wordsOf = lexicon.wordsOf, provisional = lexicon.provisional
        func text(_ s: Int, _ e: Int) -> String {
            if e == s + 1 { return tokens[s].raw }
            return Self.spanText(tokens[s..<e])
        }
        while i < tokens.count {
            let tok = tokens[i]
            guard tok.kind == .word else { i += 1; continue }
            // 1. exact (multi-word, longest wins; false friends consume their words)
            // Several rows may share a term (different allergens or confidences): all count.
            var bestEnd = 0
            var bestIdx: [Int] = []
            // Provisional rows (provisional.tsv) are found apart: what the longest holds is
            // evidence, and the words are then read as if the row were not there, so such a row
            // never makes a word understood.
            var provisionalEnd = 0
            var provisionalIdx: [Int] = []
            // The word as printed first, then its singulars: the first row found names the
            // role (a Set's order changes from run to run and made verdicts do so too).
            for (k, v) in variants[i].enumerated() where !variants[i][..<k].contains(v) {
                for idx in lexicon.byFirstWord[v] ?? [] {
                    if let end = wordsMatch(wordsOf[idx], tokens: tokens, variants: variants, at: i) {
                        if provisional[idx] {
                            if end > provisionalEnd { provisionalEnd = end; provisionalIdx = [idx] }
                            else if end == provisionalEnd && !provisionalIdx.contains(idx) { provisionalIdx.append(idx) }
                        } else if end > bestEnd { bestEnd = end; bestIdx = [idx] }
                        else if end == bestEnd && !bestIdx.contains(idx) { bestIdx.append(idx) }
                    }
                }
            }
            for idx in provisionalIdx.sorted() where kinds[idx] != .known && kinds[idx] != .safe {
                out.append(TermMatch(entry: idx, start: i, end: provisionalEnd, cost: 0, text: text(i, provisionalEnd)))
            }
            if !bestIdx.isEmpty {
                cover(i, bestEnd)
                found.append(bestIdx.contains { roles[$0] == .dish } ? .dish : roles[bestIdx[0]])
                // A word known to carry no allergen yields to a row that gives one.
                if bestIdx.contains(where: { kinds[$0] != .known }) { bestIdx.removeAll { kinds[$0] == .known } }
                if !bestIdx.contains(where: { kinds[$0] == .safe }) {
                    for idx in bestIdx.sorted() {
                        out.append(TermMatch(entry: idx, start: i, end: bestEnd, cost: 0, text: text(i, bestEnd)))
                    }
                }
                i = bestEnd
                continue
            }
            // 2. affixes inside one word (German/Italian compounds: "Käsespätzle", "Schlagobers")
            let norm = tok.norm
            let normCount = norm.count
            let variantCounts = variants[i].map(\.count)
            var safeSpans: [Range<Int>] = []
            var hits: [(Int, Range<Int>)] = []
            for (k, idx) in lexicon.affixEntries.enumerated() {
                let termCount = lexicon.affixLengths[k]
                guard normCount > termCount else { continue }
                let term = lexicon.affixTerms[k]
                var r: Range<Int>? = nil
                switch lexicon.affixKinds[k] {
                case .prefix: if norm.hasPrefix(term) { r = 0..<termCount }
                case .suffix:
                    // (Found on a variant of the word, "…gulaschs" → "…gulasch": the span runs to the word's end.)
                    for (v, vCount) in zip(variants[i], variantCounts) where vCount > termCount && v.hasSuffix(term) {
                        let lo = min(vCount - termCount, normCount)
                        r = lo..<normCount; break
                    }
                case .infix:
                    if let lo = Self.infixOffset(of: term, in: norm) { r = lo..<(lo + termCount) }
                case .word: break
                }
                guard let span = r else { continue }
                if kinds[idx] == .safe { safeSpans.append(span) } else { hits.append((idx, span)) }
            }
            let kept = hits.filter { h in !safeSpans.contains { $0.lowerBound <= h.1.lowerBound && h.1.upperBound <= $0.upperBound } }
            if !kept.isEmpty || !safeSpans.isEmpty {
                found.append(kept.isEmpty ? .ingredient : .dish)
                for h in kept { out.append(TermMatch(entry: h.0, start: i, end: i + 1, cost: 0, text: tok.raw)) }
                // The rest of the word is read too: "Garnelengulasch" is shrimp as well as goulash,
                // "Hühnerfrikassee" chicken and a fricassee. A rest that cannot be read leaves the
                // word unknown (what its known part carries still counts).
                var understood = true
                for rest in Self.uncoveredParts(of: norm, count: normCount, spans: kept.map(\.1) + safeSpans) {
                    guard let rows = lexicon.restRows(rest) else { understood = false; continue }
                    for part in rows {
                        found.append(part.contains { roles[$0] == .dish } ? .dish : roles[part[0]])
                        guard !part.contains(where: { kinds[$0] == .safe }) else { continue }
                        for idx in part where kinds[idx] != .known {
                            out.append(TermMatch(entry: idx, start: i, end: i + 1, cost: 0, text: tok.raw))
                        }
                    }
                }
                if understood { cover(i, i + 1) }
                i += 1
                continue
            }
            // 3. Inflected forms and compounds of known words ("Pfifferlingen", "Salatteller",
            //    "Käsesauce"): every part's rows count, as for a word read exactly.
            // (A word with ä, ö, ü or ß is German whatever the text around it.)
            let compounds = memo?.readsCompounds ?? true || Self.hasGermanLetter(tok.raw)
            if let parts = lexicon.inflectedRows(norm).nilIfEmpty.map({ [$0] })
                ?? (compounds ? lexicon.compoundRows(norm) : nil) {
                cover(i, i + 1)
                for rows in parts {
                    found.append(rows.contains { roles[$0] == .dish } ? .dish : roles[rows[0]])
                    guard !rows.contains(where: { kinds[$0] == .safe }) else { continue }
                    for idx in rows where kinds[idx] != .known {
                        out.append(TermMatch(entry: idx, start: i, end: i + 1, cost: 0, text: tok.raw))
                    }
                }
                i += 1
                continue
            }
            // 4. OCR-tolerant match for words of five letters or more
            let (letters, characters) = Self.letterCount(norm)
            if characters >= 5 && letters >= characters - 2 && letters >= 3 {
                var fbest: (Int, Double)? = nil
                if let known = memo?.fuzzy[norm] {
                    fbest = known
                } else {
                    fbest = fuzzyBest(variants[i])
                    memo?.fuzzy[norm] = .some(fbest)
                }
                if let (idx, c) = fbest, kinds[idx] != .safe {
                    out.append(TermMatch(entry: idx, start: i, end: i + 1, cost: c, text: tok.raw))
                    if memo?.readByOCR ?? true, !provisional[idx] { cover(i, i + 1) }
                }
            }
            // 5. Not an OCR misreading of a known word: a compound whose head is known and whose
            //    rest is not ("Dunkelbiersoße"). What the known parts carry counts; the word
            //    stays unknown, so the item is never safe.
            if !covered[i], compounds {
                let heads: [[Int]]
                if let known = memo?.compoundHeads[norm] { heads = known } else {
                    heads = lexicon.compoundHeadRows(norm)
                    memo?.compoundHeads[norm] = heads
                }
                for rows in heads where !rows.contains(where: { kinds[$0] == .safe }) {
                    for idx in rows where kinds[idx] != .known {
                        out.append(TermMatch(entry: idx, start: i, end: i + 1, cost: 0, text: tok.raw))
                    }
                }
            }
            i += 1
        }
        return (out, covered, found)
    }

    /// Where `term` first stands in `word`, in Characters from its start, as Foundation's
    /// `word.range(of: term)` finds it (`infixOffsetFoundation`, the reference): where both are
    /// ASCII without "\r" (every Character one byte, none canonically equivalent to another
    /// text), a byte search; else Foundation's. It ran for every infix row on every word no
    /// term matched, at ~4,700 instructions a call through the NSString bridge.
    static func infixOffset(of term: String, in word: String) -> Int? {
        guard ScalarText.isOneBytePerCharacter(word), ScalarText.isOneBytePerCharacter(term) else {
            return infixOffsetFoundation(of: term, in: word)
        }
        var offset: Int?, searched = false
        _ = word.utf8.withContiguousStorageIfAvailable { w in
            _ = term.utf8.withContiguousStorageIfAvailable { t in
                offset = firstOffset(of: t, in: w)
                searched = true
            }
        }
        return searched ? offset : infixOffsetFoundation(of: term, in: word)
    }

    /// `word.range(of: term)`'s start in Characters (Foundation: canonical equivalence).
    static func infixOffsetFoundation(of term: String, in word: String) -> Int? {
        guard let range = word.range(of: term) else { return nil }
        return word.distance(from: word.startIndex, to: range.lowerBound)
    }

    /// The first offset at which the bytes `t` stand in `w`; nil for an empty `t` (Foundation
    /// finds no empty string).
    private static func firstOffset(of t: UnsafeBufferPointer<UInt8>, in w: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !t.isEmpty, t.count <= w.count else { return nil }
        for start in 0...(w.count - t.count) {
            var k = 0
            while k < t.count && w[start + k] == t[k] { k += 1 }
            if k == t.count { return start }
        }
        return nil
    }

    /// The parts of a word of `count` characters outside every span, of three letters or more
    /// (a German linking element, "-s-", "-en-", is no part).
    static func uncoveredParts(of word: String, count: Int, spans: [Range<Int>]) -> [String] {
        guard count > 0 else { return [] }
        var covered = [Bool](repeating: false, count: count)
        for span in spans {
            let lo = max(0, min(span.lowerBound, count)), hi = max(lo, min(span.upperBound, count))
            for k in lo..<hi { covered[k] = true }
        }
        var parts: [String] = []
        var current = ""
        for (k, c) in word.enumerated() where k < count {
            if covered[k] {
                if current.count >= 3 { parts.append(current) }
                current = ""
            } else {
                current.append(c)
            }
        }
        if current.count >= 3 { parts.append(current) }
        return parts
    }

    /// The lexicon row an OCR-damaged word most likely is, and its cost: candidates
    /// within two letters of a variant's length whose first letter is the same or a
    /// confusable one (any, after "rn"/"cl"); ties go to the earlier lexicon row.
    private func fuzzyBest(_ variants: [String]) -> (Int, Double)? {
        var best: (Int, Double)? = nil
        // The candidate tables read once a call, not through `lexicon` at every candidate.
        let candidates = lexicon.fuzzyCandidates, candidateScalars = lexicon.fuzzyScalars
        for v in variants {
            let vs = OCRFuzzy.scalars(v)
            guard let f1 = vs.first else { continue }
            let vClasses = OCRFuzzy.letterClasses(vs)
            let vCounts = OCRFuzzy.classCounts(vs)
            let pairStart = v.hasPrefix("rn") || v.hasPrefix("cl")
            for length in (vs.count - 2)...(vs.count + 2) {
                // (Every candidate of a bucket has `length` scalars: one limit for all of them.)
                let limit = OCRFuzzy.maxCostTenths(forLength: min(vs.count, length))
                guard limit > 0 else { continue }
                for (f2, positions) in lexicon.fuzzyByLength[length] ?? [:]
                where f1 == f2 || pairStart || OCRFuzzy.substitution(f1, f2) < 1 {
                    for p in positions {
                        // The cheap bounds first: most candidates end there.
                        guard !ruledOut(candidate: p, classes: vClasses, counts: vCounts, limit: limit) else { continue }
                        let idx = candidates[p], ts = candidateScalars[p]
                        guard !OCRFuzzy.isInflection(vs, ts) else { continue }
                        let tenths = OCRFuzzy.distanceTenths(vs, ts, limit: limit)
                        guard tenths > 0 && tenths <= limit else { continue }
                        let c = Double(tenths) / 10
                        if let (bi, bc) = best, bc < c || (bc == c && bi < idx) { continue }
                        best = (idx, c)
                    }
                }
            }
        }
        return best
    }

    /// Whether fuzzy candidate `p` is farther than `limit` from a word with these letter
    /// classes and class counts, by the two cheap bounds alone (`OCRFuzzy.lowerBoundTenths`,
    /// `OCRFuzzy.countBoundTenths`). A candidate whose counts cannot be read is never ruled
    /// out by them: a bound may only skip work, never hide a misread allergen word.
    private func ruledOut(candidate p: Int, classes: UInt64, counts: [UInt8], limit: Int32) -> Bool {
        let candidateClasses = lexicon.fuzzyClasses[p]
        if OCRFuzzy.lowerBoundTenths(classes, candidateClasses) > limit { return true }
        let start = p * OCRFuzzy.classCount
        guard counts.count == OCRFuzzy.classCount, start + OCRFuzzy.classCount <= lexicon.fuzzyCounts.count else { return false }
        return counts.withUnsafeBufferPointer { word in
            lexicon.fuzzyCounts.withUnsafeBufferPointer { all in
                OCRFuzzy.countBoundTenths(word, UnsafeBufferPointer(rebasing: all[start..<(start + OCRFuzzy.classCount)]),
                                          classes: classes | candidateClasses) > limit
            }
        }
    }

    /// Closed-world: is what the item is understood from the roles of its terms? A dish
    /// is; so is a food with anything more said about it ("Steamed rice", "Chicken with
    /// lemon"); one bare food word is a flavour or a part of something unnamed
    /// ("Vanilla", "Banana" on a shakes list), understood only through its section.
    static func understands(_ roles: [LexiconEntry.Role], contentWords: Int) -> Bool {
        if roles.contains(.dish) { return true }
        return roles.contains(.ingredient) && contentWords >= 2
    }

    /// Words after which a menu lists what an item holds ("Contains: Wheat, Egg", "CONTÉM
    /// TRIGO", "Enthält: Sellerie", "Innehåller: mjölk"), folded. They are understood words
    /// of the item (closed world), whatever the tables say.
    static let declarationWords: Set<String> = [
        "contains", "contain", "contem", "contient", "contiene", "contengono", "enthalt", "enthalten", "bevat",
        "allergens", "allergene", "allergeni", "alergenos", "alergicos", "allergenes", "allergenen",
        // Portuguese, Nordic, Finnish, Polish, Czech, Greek, Turkish and Hungarian menus
        "alergenios", "alergenicos", "innehaller", "indeholder", "inneholder", "allergener", "sisaltaa",
        "allergeenit", "zawiera", "alergeny", "obsahuje", "περιεχει", "αλλεργιογονα", "icerir", "alerjenler",
        "tartalmaz", "allergenek",
    ]

    /// The allergens an item declares in words: terms that name an allergen as such (`group`:
    /// "Gluten", "Milk", "TRIGO") in brackets of their own ("(Gluten) (Milk)") or after a
    /// declaration word of their sentence ("Contains: Wheat (gluten), Egg"). Empty when none.
    static func declaredAllergens(tokens: [Token], terms: [(start: Int, end: Int, group: Bool, allergens: [AllergenID])]) -> Set<AllergenID> {
        var out = Set<AllergenID>()
        for t in terms where t.group && t.start >= 0 && t.end <= tokens.count && t.start < t.end {
            let bracketed = t.start > 0 && tokens[t.start - 1].norm == "(" && t.end < tokens.count && tokens[t.end].norm == ")"
            let sentence = tokens[t.start].sentence
            let afterWord = tokens[..<t.start].contains { $0.sentence == sentence && declarationWords.contains($0.norm) }
            if bracketed || afterWord { out.formUnion(t.allergens) }
        }
        return out
    }

    /// Words that join alternatives ("rice or spaghetti", "pane o polenta", "Reis oder Nudeln").
    static let alternativeJoins: Set<String> = ["or", "oder", "ou", "o", "eller"]

    /// Words that tie a food to the one it is made of ("crostino di pane", "slice of bread").
    static let ofWords: Set<String> = ["of", "di", "de", "du", "des", "del", "della", "von", "da", "do"]

    /// The groups of terms (indices into `spans`, the terms' token ranges) a choice joins: for
    /// each "or", the food right after it (its term at most two tokens on, a bracket or an
    /// unknown word between: "or baasto (spaghetti)") and the foods right before it, back through
    /// a list ("garlic, chilli or burger sauce"), in one sentence and with no term across the
    /// "or". A food is its term with a gloss in brackets right after it ("baasto (spaghetti)",
    /// "bariis (spiced basmati)") and the food it is made of ("crostino di pane"). Choices of
    /// fewer than two foods are left out ("with or without cheese": no term before the "or").
    static func alternatives(tokens: [Token], spans: [(start: Int, end: Int)]) -> [[[Int]]] {
        func sameSentence(_ a: Int, _ b: Int) -> Bool {
            a >= 0 && b >= 0 && a < tokens.count && b < tokens.count && tokens[a].sentence == tokens[b].sentence
        }
        func starting(at s: Int) -> [Int] { spans.indices.filter { spans[$0].start == s } }
        func ending(at e: Int) -> [Int] { spans.indices.filter { spans[$0].end == e } }
        func isPunct(_ k: Int, _ p: String) -> Bool { k >= 0 && k < tokens.count && tokens[k].kind == .punct && tokens[k].norm == p }
        /// A food from its head term (`group`: the terms on its words), with its gloss and its "of" part.
        func food(_ group: [Int]) -> [Int] {
            guard let g = group.first else { return group }
            var out = group
            let (start, end) = spans[g]
            // "baasto (spaghetti)": the first term inside a bracket right after it.
            if isPunct(end, "("), let inner = spans.indices.filter({ spans[$0].start > end && spans[$0].start <= end + 3 })
                .min(by: { spans[$0].start < spans[$1].start }), !tokens[end..<spans[inner].start].contains(where: { $0.norm == ")" }) {
                out += starting(at: spans[inner].start)
            }
            // "crostino di pane": the food before "di".
            if start >= 2, tokens[start - 1].kind == .word, ofWords.contains(tokens[start - 1].norm) {
                out += ending(at: start - 1)
            }
            return out
        }
        var out: [[[Int]]] = []
        for (i, t) in tokens.enumerated() where t.kind == .word && alternativeJoins.contains(t.norm) {
            guard !spans.contains(where: { $0.start <= i && i < $0.end }) else { continue }
            // After: the first term starting within two tokens, none of them a comma or a joining word.
            guard let next = spans.indices.filter({ spans[$0].start > i && spans[$0].start <= i + 3 && sameSentence(i, spans[$0].start) })
                    .min(by: { spans[$0].start < spans[$1].start }),
                  !tokens[(i + 1)..<spans[next].start].contains(where: { $0.norm == "," || alternativeJoins.contains($0.norm) })
            else { continue }
            var groups: [[Int]] = [food(starting(at: spans[next].start))]
            // Before: the food ending within two tokens ("bariis (spiced basmati) or": the food
            // before the bracket), then back through commas (a list).
            var cursor = i
            /// Puts the food headed by the terms on `head`'s words first; the list goes on before it.
            func prepend(headedBy head: Int) {
                let f = food(starting(at: spans[head].start))
                groups.insert(f, at: 0)
                cursor = f.map { spans[$0].start }.min() ?? spans[head].start
            }
            if isPunct(i - 1, ")"), let open = (max(0, i - 6)..<(i - 1)).last(where: { isPunct($0, "(") }),
               let head = ending(at: open).first {
                prepend(headedBy: head)
            } else if let prev = spans.indices.filter({ spans[$0].end <= i && i - spans[$0].end <= 1 && sameSentence(i, spans[$0].start) })
                        .max(by: { spans[$0].end < spans[$1].end || (spans[$0].end == spans[$1].end && spans[$0].start > spans[$1].start) }) {
                prepend(headedBy: prev)
            }
            guard groups.count == 2 else { continue }
            while let prev = spans.indices.filter({ spans[$0].end < cursor && cursor - spans[$0].end <= 1 && sameSentence(i, spans[$0].start) })
                    .max(by: { spans[$0].end < spans[$1].end }), isPunct(spans[prev].end, ",") {
                prepend(headedBy: prev)
            }
            out.append(groups)
        }
        return out
    }

    /// Words that offer a choice before "without"/"no" ("with or without", "mit oder ohne",
    /// "with/without").
    static let optionJoins: Set<String> = alternativeJoins.union(["/"])

    /// Words that join the parts of a filling ("Ham & Cheese", "Kartoffel und Zwiebel").
    static let fillingJoins: Set<String> = ["and", "und", "et", "y", "e", "en", "og", "or", "oder", "ou", "o"]

    /// Whether the terms found are two or three ingredients joined by "&", "+" or a word of
    /// `fillingJoins` and nothing else: no other function word ("with"), no comma (a list after a
    /// name is what a dish is made of: "Salatah – tomato, cucumber, onion").
    static func joinsIngredientsOnly(roles: [LexiconEntry.Role], tokens: [Token]) -> Bool {
        joinsFoods(roles: roles, tokens: tokens, dishesToo: false)
    }

    /// "Nutella & Banana", "Prosciutto cotto e funghi", "Tonno e uova": two or three foods joined
    /// by "and", one of them a plain ingredient, name the filling or topping of a dish a heading
    /// names (waffles, tramezzini), not a dish of their own, even where one of them is a dish
    /// row. ("Burger & Fries" joins dishes; "Fish & Chips" is one term.)
    static func coordinatesAFilling(roles: [LexiconEntry.Role], tokens: [Token]) -> Bool {
        joinsFoods(roles: roles, tokens: tokens, dishesToo: true)
    }

    /// Two or three foods, one of them an ingredient (the others ingredients too unless
    /// `dishesToo`), joined by "&", "+" or a word of `fillingJoins`, with no other function word
    /// than those joins and no comma.
    static func joinsFoods(roles: [LexiconEntry.Role], tokens: [Token], dishesToo: Bool) -> Bool {
        let isFood = { (r: LexiconEntry.Role) in r == .ingredient || dishesToo && r == .dish }
        let foods = roles.filter(isFood)
        guard roles.allSatisfy({ isFood($0) || $0 == .function }),
              (2...3).contains(foods.count), foods.contains(.ingredient),
              !tokens.contains(where: { $0.kind == .punct && $0.norm == "," }) else { return false }
        let words = tokens.filter { fillingJoins.contains($0.norm) }.count
        let symbols = tokens.filter { $0.kind == .punct && ($0.norm == "&" || $0.norm == "+") }.count
        return words + symbols >= 1 && roles.filter { $0 == .function }.count <= words
    }

    /// Roles of terms that name a food (a dish, an ingredient, a section's kind of dish).
    static let foodRoles: Set<LexiconEntry.Role> = [.dish, .ingredient, .section]

    /// Prepositions an item's text can start with only when it continues its heading's dish.
    static let fragmentStarts: Set<String> = ["with", "in", "on", "au", "aux", "al", "alla", "alle", "allo", "con", "mit",
                                               "im", "auf", "vom", "von", "nach", "avec", "sur", "met", "com"]

    /// Diet labels that can head a variant line ("Vegetarisch, mit Salat").
    static let dietHeads: Set<String> = ["vegetarian", "vegetarisch", "vegetarische", "vegetarien", "vegetarienne", "vegetariano",
                                         "vegetariana", "vegan", "vegane", "veganes", "vegano", "vegana", "veggie", "vegi", "vegie"]

    /// Marks after a diet label that make the line go on as a variant.
    static let variantMarks: Set<String> = [",", "-", "–"]

    /// Currencies and units of measure, folded: the world's currency abbreviations and codes the
    /// price parser reads (`PriceParser.currenciesAfter`, `lettersBefore`) and the units menus print
    /// quantities in. Next to a number ("8,90 лв.", "RM 7", "25 zł", "350 мл") such a word says how
    /// much, not what: it is understood. Left out: codes that are also food words in a language
    /// MenuScan reads ("RON": Spanish rum; "MAD": Danish food; "SUM": dim sum).
    static let measureWords: Set<String> = {
        let units = ["ml", "cl", "dl", "kg", "gr", "grs", "oz", "lb", "lbs", "cm", "pcs", "pc", "pz", "pzs", "stk", "uds",
                     "ud", "unid", "мл", "гр", "кг", "бр", "шт", "см"]
        let ambiguous: Set<String> = ["ron", "mad", "sum"]
        return Set((PriceParser.currenciesAfter + PriceParser.lettersBefore + units).map { TextFold.fold($0) }
            .map { String($0.filter(\.isLetter)) }.filter { $0.count >= 2 && !ambiguous.contains($0) })
    }()

    /// Whether the token at `k` is a currency or unit (`measureWords`) with a number right before or after
    /// it, or a number with its unit or a clock time written as one word ("5cl", "2kg", "3pm").
    static func isMeasure(_ tokens: [Token], at k: Int) -> Bool {
        let norm = tokens[k].norm
        if let first = norm.first, first.isASCII, first.isNumber {
            let unit = String(norm.drop { $0.isASCII && $0.isNumber })
            return unit == "am" || unit == "pm" || measureWords.contains(unit)
        }
        guard measureWords.contains(norm) else { return false }
        func isNumber(_ j: Int) -> Bool {
            j >= 0 && j < tokens.count && tokens[j].norm.first.map { $0.isASCII && $0.isNumber } == true
        }
        return isNumber(k - 1) || isNumber(k + 1)
    }

    /// Initials such as "B.L.T." or "B.L.A.T.": a dish named by its letters, never understood.
    static let initialsRegex = try! NSRegularExpression(pattern: #"^\W*(?:[A-Za-z]\.){2,}[A-Za-z]?\.?\W*$"#)

    /// A word that must be understood before an item can be called safe: two or
    /// more letters, mostly letters (not a price, quantity or code letter).
    static func isContentWord(_ t: Token) -> Bool {
        guard t.kind == .word else { return false }
        let (letters, characters) = letterCount(t.norm)
        return letters >= 2 && letters * 2 > characters
    }

    /// How many Characters of `s` are letters (`isLetterFast`), and how many Characters it has.
    static func letterCount(_ s: String) -> (letters: Int, characters: Int) {
        // ASCII without "\r" (the one two-byte Character): one Character a byte.
        if ScalarText.isOneBytePerCharacter(s) {
            return (s.utf8.reduce(0) { $0 + (BytePrecheck.isLetter($1) ? 1 : 0) }, s.utf8.count)
        }
        var letters = 0, characters = 0
        for c in s {
            characters += 1
            if c.isLetterFast { letters += 1 }
        }
        return (letters, characters)
    }

    func findQualifiers(_ tokens: [Token], variants: [[String]]) -> [QualMatch] {
        var out: [QualMatch] = []
        var i = 0
        while i < tokens.count {
            var best: QualMatch? = nil
            for idx in lexicon.qualifiersByFirstWord[tokens[i].norm] ?? [] {
                if let end = wordsMatch(lexicon.qualifiers[idx].words, tokens: tokens, variants: variants, at: i),
                   best == nil || end > best!.end {
                    best = QualMatch(q: idx, start: i, end: end)
                }
            }
            if let b = best { out.append(b); i = b.end } else { i += 1 }
        }
        return out
    }

    // MARK: Codes

    static let numericCodeRegex = try! NSRegularExpression(pattern: #"\(\s*(\d{1,2}(?:\s*[,;.]\s*\d{1,2})*)\s*\)"#)
    /// Three or more small numbers in a comma list outside parentheses: a code
    /// list whose brackets OCR lost or misread ("01, 2, 4, 7, 9, 15)").
    static let bareNumericListRegex = try! NSRegularExpression(pattern: #"(?<![\d.,])\d{1,2}(?:\s*,\s*\d{1,2}){2,}(?![\d])"#)
    static let letterListRegex = try! NSRegularExpression(pattern: #"(?<![A-Za-z0-9À-ÿ'])([A-Z](?:\s*,\s*[A-Z])+)(?![A-Za-z0-9À-ÿ])"#)
    static let looseLetterListRegex = try! NSRegularExpression(pattern: #"(?<![A-Za-z0-9À-ÿ'])([A-Za-z](?:\s*[,.]\s*[A-Za-z])+)(?![A-Za-z0-9À-ÿ])"#)
    static let letterParenRegex = try! NSRegularExpression(pattern: #"\(\s*([A-Z](?:\s*,\s*[A-Z])*)\s*\)"#)
    /// Codes of one to three letters in brackets, as British keys print them ("(G, E, Mi, Ce)",
    /// "(VG) (Ce)"): read only against a printed legend with a key of two letters or more.
    static let multiLetterParenRegex = try! NSRegularExpression(pattern: #"\(\s*([A-Z][A-Za-z]{0,2}(?:\s*,\s*[A-Z][A-Za-z]{0,2})*)\s*\)"#)
    /// One capital letter ending a line of words, before a price at most ("Jagatee O", "Zipfer
    /// Märzen A 4,20"): the item's one code, read only against a printed letter legend.
    static let trailingLetterRegex = try! NSRegularExpression(
        pattern: #"(?<=[a-zà-ÿß] )([A-Z])"# + beforeLinePrice, options: [.anchorsMatchLines])
    /// Look-ahead: what follows ends the line, before its price at most ("… A 4,20", "… 11.50 €").
    static let beforeLinePrice = #"(?=\s*(?:[€$£]?\s*\d{1,3}(?:[.,]\d{1,2})?\s*(?:€|EUR)?)?\s*$)"#
    /// Marks of a diet, not of an allergen: ignored in a code list when the legend does not
    /// give them a meaning of its own ("(V)", "(VG)", "(GF)").
    static let dietCodes: Set<String> = ["V", "VG", "VE", "VEG", "VGN", "GF", "DF"]

    /// The codes of a list without the diet marks the legend gives no meaning of its own.
    static func withoutDietMarks(_ codes: [String], letterMap: [String: [AllergenID]]) -> [String] {
        codes.filter { letterMap[$0] != nil || !dietCodes.contains($0) }
    }
    /// Lower-case letter codes as many menus print them, in brackets ("(a,c,g)") or ending the
    /// line before its price at most ("Frittatensuppe a,c,g", "Leberknödelsuppe a,c,g,i 11.50"):
    /// two or more, commas only ("e.g.", "a.m." are no codes).
    static let lowerLetterListRegex = try! NSRegularExpression(
        pattern: #"(?:\(\s*([a-z](?:\s*,\s*[a-z])+)\s*\)|(?<![\p{L}\p{N}'.,])([a-z](?:\s*,\s*[a-z])+)"# + beforeLinePrice + ")",
        options: [.anchorsMatchLines])

    /// Allergen code lists in `text`: (allergens, evidence text). Sets
    /// `unresolved` when numeric code lists appear without a legend, with a
    /// code the legend lacks, or without their brackets.
    /// `numberInBrackets` is set by a lone "(5)" no numeric legend reads: a count of pieces
    /// or a code whose legend is elsewhere (one line of a menu cannot tell which).
    /// `additives` receives what the menu's additive key says of the 14 ("(2,5)" with
    /// "5 = geschwefelt": sulphites): evidence, but no allergen declaration.
    static func codeReferences(in text: String, legend: CodeLegend, defaultLetters: [String: [AllergenID]],
                               unresolved: inout Bool, numberInBrackets: inout Bool,
                               additives: inout [(AllergenID, String)], lettersGuessed: inout Bool) -> [(AllergenID, String)] {
        var out: [(AllergenID, String)] = []
        // Every code pattern needs a digit, a bracket or a list separator.
        let hasDigit = text.utf8.contains { $0 >= 48 && $0 <= 57 }
        guard hasDigit || text.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "(") || $0 == UInt8(ascii: ".") })
        else { return out }
        let full = NSRange(location: 0, length: text.utf16.count)
        // Each pattern's own necessary bytes (BytePrecheck): most text is settled without it.
        let hasBracket = text.utf8.contains(UInt8(ascii: "("))
        let commas = BytePrecheck.count(of: UInt8(ascii: ","), in: text, upTo: 2)
        let coded = hasDigit && hasBracket ? numericCodeRegex.matches(in: text, range: full) : []
        // A list that lost its brackets cannot be trusted to be read right: caution only.
        for m in (hasDigit && commas >= 2 ? bareNumericListRegex.matches(in: text, range: full) : [])
        where !coded.contains(where: { NSIntersectionRange($0.range, m.range).length > 0 }) {
            unresolved = true
        }
        for m in coded {
            let body = text.substring(utf16: m.range(at: 1))
            let nums = body.split(whereSeparator: { ",;. ".contains($0) }).compactMap { Int($0) }
            // Additive numbers ("Currywurst (2,3,6)" under "Zusatzstoffe: 1 = mit Farbstoff …"): read,
            // and what they say of the 14 kept apart from the allergen codes.
            if !legend.additives.isEmpty, !nums.isEmpty,
               nums.allSatisfy({ legend.additives[$0] != nil || legend.numeric[$0] != nil }),
               nums.contains(where: { legend.additives[$0] != nil }) {
                let ev = text.substring(utf16: m.range)
                for n in nums {
                    if let ids = legend.numeric[n] { for a in ids { out.append((a, ev)) } }
                    else if let ids = legend.additives[n] { for a in ids { additives.append((a, ev)) } }
                }
                continue
            }
            if legend.numeric.isEmpty {
                if nums.count >= 2 { unresolved = true } else { numberInBrackets = true }
                continue
            }
            guard nums.allSatisfy({ legend.numeric[$0] != nil }) else {
                if nums.count >= 2 { unresolved = true }
                continue
            }
            let ev = text.substring(utf16: m.range)
            for n in nums { for a in legend.numeric[n]! { out.append((a, ev)) } }
        }
        let letterMap = legend.letters.isEmpty ? defaultLetters : legend.letters
        var seen = Set<Int>()
        // "(G, E, Mi, Ce)" against a legend of "Ce celery · … · Mi milk": every code known, diet
        // marks aside; one the legend lacks leaves the list unread.
        if hasBracket, legend.letters.keys.contains(where: { $0.count > 1 }) {
            for m in multiLetterParenRegex.matches(in: text, range: full) {
                let codes = withoutDietMarks(text.substring(utf16: m.range(at: 1)).split(separator: ",")
                    .map { $0.trimmingCharacters(in: .whitespaces).uppercased() }, letterMap: letterMap)
                seen.insert(m.range(at: 1).location)
                guard !codes.isEmpty else { continue }
                guard codes.allSatisfy({ letterMap[$0] != nil }) else { unresolved = true; continue }
                let ev = text.substring(utf16: m.range)
                for c in codes { for a in letterMap[c]! { out.append((a, ev)) } }
            }
        }
        // With a printed letter legend, OCR's lower-case or dotted lists ("a,c.c") count too.
        // Each pattern with its necessary bytes (BytePrecheck): most text is settled without it.
        var regexes = [(letterParenRegex, hasBracket && text.utf8.contains(where: BytePrecheck.isCapital)),
                       (letterListRegex, BytePrecheck.mayHoldCapitalList(text))]
        if !legend.letters.isEmpty {
            regexes.append((looseLetterListRegex, BytePrecheck.mayHoldListStart(
                text, first: BytePrecheck.isLetter, separator: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: ".") })))
        }
        // From here on, without a printed letter legend, every code is read through the default
        // letters: a guess (`ItemClassification.codesGuessed`).
        let beforeLetters = out.count
        defer { lettersGuessed = legend.letters.isEmpty && out.count > beforeLetters }
        // Without a printed legend, lower-case lists count through the default letters too,
        // as their capital forms do (OCR reads "(a,c,g)" exactly; left out they were "safe").
        if legend.letters.isEmpty, BytePrecheck.mayHoldSingleLetterList(text) {
            for m in lowerLetterListRegex.matches(in: text, range: full) {
                let r = m.range(at: 1).location != NSNotFound ? m.range(at: 1) : m.range(at: 2)
                guard r.location != NSNotFound, !seen.contains(r.location) else { continue }
                seen.insert(r.location)
                let letters = text.substring(utf16: r).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).uppercased() }
                // A code list that cannot be read through the default letters, or repeats a code
                // ("a,c,c": a misread), is not understood.
                guard letters.allSatisfy({ letterMap[$0] != nil }), Set(letters).count == letters.count else {
                    unresolved = true
                    continue
                }
                let ev = text.substring(utf16: m.range)
                for l in letters { for a in letterMap[l]! { out.append((a, ev)) } }
            }
        }
        // "Jagatee O" under a printed A–R legend: its one code, where the legend has that letter.
        if !legend.letters.isEmpty, text.utf8.contains(where: BytePrecheck.isCapital) {
            for m in trailingLetterRegex.matches(in: text, range: full) where !seen.contains(m.range(at: 1).location) {
                let letter = text.substring(utf16: m.range(at: 1))
                guard let ids = legend.letters[letter] else { continue }
                seen.insert(m.range(at: 1).location)
                for a in ids { out.append((a, letter)) }
            }
        }
        for (rx, mayMatch) in regexes where mayMatch {
            for m in rx.matches(in: text, range: full) where !seen.contains(m.range(at: 1).location) {
                let body = text.substring(utf16: m.range(at: 1))
                let read = body.split(whereSeparator: { $0 == "," || $0 == "." }).map { $0.trimmingCharacters(in: .whitespaces).uppercased() }
                let letters = legend.letters.isEmpty ? read : withoutDietMarks(read, letterMap: letterMap)
                if letters.isEmpty { continue }
                // A lone "(A)" only counts when the menu printed its own legend. Without one it is a
                // mark that cannot be read: "(N)" is "contains nuts" on British menus and sesame in
                // the A–R letters. Only "(V)", vegetarian everywhere, says nothing about allergens.
                if letters.count < 2 && legend.letters.isEmpty {
                    if rx === letterParenRegex, letters.first != "V" { unresolved = true }
                    continue
                }
                guard letters.allSatisfy({ letterMap[$0] != nil }) else {
                    // Against a printed legend, a list with an unknown letter was misread.
                    if rx === looseLetterListRegex || !legend.letters.isEmpty { unresolved = true }
                    continue
                }
                // A printed list never repeats a code: "a,c,c" is a misread "A,C,G".
                if Set(letters).count < letters.count { unresolved = true }
                seen.insert(m.range(at: 1).location)
                let ev = text.substring(utf16: m.range)
                for l in letters { for a in letterMap[l]! { out.append((a, ev)) } }
            }
        }
        return out
    }

    // MARK: Classification

    /// Classifies the words of one item. `context` holds words that apply to
    /// the item without being part of it (section notes): their allergen
    /// evidence counts, their dietary words do not.
    /// The roles of the terms some words name (`ItemClassification.roles` of `classify`), from the
    /// term lookup alone: whether a dish's name by itself names a dish or a food.
    func termRoles(of words: [SourceWord], memo: FuzzyMemo? = nil) -> [LexiconEntry.Role] {
        let tokens = Tokenizer.tokenize(words)
        return findTerms(tokens, variants: tokens.map { Tokenizer.variants($0.norm) }, memo: memo).roles
    }

    func classify(words: [SourceWord], rawText: String, legend: CodeLegend, memo: FuzzyMemo? = nil) -> ItemClassification {
        let tokens = Tokenizer.tokenize(words)
        let variants = tokens.map { Tokenizer.variants($0.norm) }
        var (terms, covered, roles) = findTerms(tokens, variants: variants, memo: memo)
        let quals = findQualifiers(tokens, variants: variants)
        let entries = lexicon.entries
        var result = ItemClassification()
        for q in quals { for k in q.start..<min(q.end, covered.count) { covered[k] = true } }
        // The words that say what the item is: a currency or unit beside its number says how much,
        // not what ("Ayam RM 8.00" is one word of food, and "RM" no unknown word).
        let contentWords = tokens.indices.filter { Self.isContentWord(tokens[$0]) && !Self.isMeasure(tokens, at: $0) }
        var unknown: [String] = []
        for k in contentWords where !covered[k] && !unknown.contains(tokens[k].raw) && !Self.declarationWords.contains(tokens[k].norm) {
            unknown.append(tokens[k].raw)
        }
        // Initials hold two full stops at least: most words need no look at the pattern.
        for w in words where w.text.utf8.lazy.filter({ $0 == UInt8(ascii: ".") }).count >= 2
            && Self.initialsRegex.firstMatch(in: w.text, range: NSRange(w.text.startIndex..., in: w.text)) != nil {
            unknown.append(w.text)
        }
        result.unknownTerms = unknown
        result.roles = roles
        result.namesDish = terms.contains { m in
            m.entry < lexicon.roles.count && lexicon.roles[m.entry] == .dish && !lexicon.provisional[m.entry]
                && !(m.entry < lexicon.accompaniments.count && lexicon.accompaniments[m.entry])
        } && !Self.coordinatesAFilling(roles: roles, tokens: tokens)
        result.understoodFood = Self.understands(roles, contentWords: contentWords.count)
        // "Honey Butter", "Soy Garlic" on a wings list, "Cream Cheese" on a bagel list: foods that
        // only season or spread on something else name no dish of their own.
        let foods = terms.filter { $0.entry < lexicon.roles.count && Self.foodRoles.contains(lexicon.roles[$0.entry]) }
        if !foods.isEmpty && foods.allSatisfy({ $0.entry < lexicon.flavours.count && lexicon.flavours[$0.entry] }) {
            result.understoodFood = false
            result.flavourOnly = true
        }
        // "Potato & Onion", "Ham and Cheese": plain ingredients joined by "and" are the filling or
        // topping of a dish its heading names (varenyky, crêpes, toasties), no dish of their own.
        // ("Chicken with lemon" says how one food is made: a dish; so does "Steamed rice".)
        if result.understoodFood && Self.joinsIngredientsOnly(roles: roles, tokens: tokens) {
            result.understoodFood = false
        }
        // "In der Brühe" under MAULTASCHEN, "With fries" under BURGERS: a name that starts with a
        // preposition continues its heading's dish and is understood only through it.
        if let first = tokens.first(where: { $0.kind == .word }), Self.fragmentStarts.contains(first.norm) {
            result.understoodFood = false
            result.fragment = true
        }
        // "Vegetarisch, mit Salat", "Vegan – with tofu" under FLAMMKUCHEN: a line headed by a
        // diet label that goes on after a comma, a dash or a preposition is a variant of its
        // heading's dish, understood only through it.
        if tokens.count >= 3, tokens[0].kind == .word, Self.dietHeads.contains(tokens[0].norm),
           tokens[1].kind == .punct ? Self.variantMarks.contains(tokens[1].norm) : Self.fragmentStarts.contains(tokens[1].norm) {
            result.understoodFood = false
            result.fragment = true
        }
        // Known words count for understanding and diet; they carry no allergen.
        // Choices ("rice or spaghetti") are read before the known words go: "rice" is one of them.
        // (Foods only: function words such as "o" and "di" are known terms too.)
        var choices: [[[(start: Int, end: Int)]]] = []
        if tokens.contains(where: { $0.kind == .word && Self.alternativeJoins.contains($0.norm) }) {
            let foodTerms = terms.filter { m in
                !entries[m.entry].allergens.isEmpty || (m.entry < lexicon.roles.count && Self.foodRoles.contains(lexicon.roles[m.entry]))
            }
            choices = Self.alternatives(tokens: tokens, spans: foodTerms.map { ($0.start, $0.end) }).map { choice in
                choice.map { group in group.map { (start: foodTerms[$0].start, end: foodTerms[$0].end) } }
            }
        }
        terms.removeAll { entries[$0.entry].kind == .known && entries[$0.entry].diet == .none }

        enum Status { case contains, mayContain, absent }
        // Per term: allergens → status
        var status = terms.map { m in Dictionary(uniqueKeysWithValues: entries[m.entry].allergens.map { ($0, Status.contains) }) }
        var meatSuppressed = Set<Int>()   // term indices whose meat diet is cancelled ("zucchini bacon")
        var absentEvidence: [AllergenID: [String]] = [:]

        func sameSentence(_ a: Int, _ b: Int) -> Bool {
            guard a < tokens.count, b < tokens.count else { return false }
            return tokens[a].sentence == tokens[b].sentence
        }
        func onlyConnectors(_ a: Int, _ b: Int) -> Bool {
            guard a <= b else { return false }
            return tokens[a..<b].allSatisfy { Self.listConnectors.contains($0.norm) }
        }
        func markAbsent(_ ti: Int, _ ids: Set<AllergenID>, evidence: String) {
            for a in ids where status[ti][a] == .contains {
                status[ti][a] = .absent
                absentEvidence[a, default: []].append(evidence)
            }
        }
        func qualText(_ q: QualMatch, _ s: Int, _ e: Int) -> String {
            let lo = min(q.start, s), hi = max(q.end, e)
            return Self.spanText(tokens[lo..<hi])
        }
        /// Whether no term starts before token `start`: what stands there heads the item.
        func headsItem(_ start: Int) -> Bool { !terms.contains { $0.start < start } }
        /// The allergens a qualifier declares absent from a list of terms.
        func declaredSet(_ idxs: [Int]) -> Set<AllergenID> {
            Set(idxs.flatMap { entries[terms[$0].entry].noAbsent ? [] : entries[terms[$0].entry].allergens })
        }

        for q in quals {
            let kind = lexicon.qualifiers[q.q].kind
            switch kind {
            case .absentBefore:
                // "no nuts", "without egg or milk", "free from gluten", "sans gluten"
                var scoped: [Int] = []
                var cursor = q.end
                for (ti, m) in terms.enumerated() where m.start >= q.end {
                    if let last = scoped.last, terms[last].start == m.start { scoped.append(ti); continue } // same words, other row
                    if scoped.isEmpty {
                        guard m.start - q.end <= 2, sameSentence(q.start, m.start),
                              tokens[q.end..<m.start].allSatisfy({ $0.kind == .word || $0.norm == "-" }) else { break }
                    } else {
                        // "without egg or milk": members of the list are joined by a connector;
                        // "no onion burger" declares no onion, not no burger.
                        guard onlyConnectors(cursor, m.start), m.start > cursor, m.start - cursor <= 2 else { break }
                    }
                    scoped.append(ti); cursor = m.end
                }
                // "with or without cheese", "mit oder ohne Käse", "avec ou sans fromage", "with/without
                // egg": an option, not a declaration: the dish may hold what it names.
                if q.start >= 1, Self.optionJoins.contains(tokens[q.start - 1].norm) {
                    for ti in scoped {
                        for a in entries[terms[ti].entry].allergens where status[ti][a] == .contains {
                            status[ti][a] = .mayContain
                            result.mayContain.insert(a)
                        }
                    }
                    continue
                }
                let declared = declaredSet(scoped)
                for ti in scoped {
                    if entries[terms[ti].entry].group {
                        markAbsent(ti, declared, evidence: qualText(q, terms[ti].start, terms[ti].end))
                    } else {
                        // "no cheese", "without mayo": that food is taken away, nothing is declared
                        // of the dish: a burger's brioche bun may still hold milk and egg.
                        for a in declared where status[ti][a] == .contains { status[ti][a] = .absent }
                    }
                    meatSuppressed.insert(ti) // "without bacon"
                }
                // the dish the declaration is about: "gluten-free pasta" handled by absentAfter;
                // "sans gluten" is usually a whole-dish statement.
            case .absentAfter:
                // "gluten-free", "dairy and nut free", "glutenfrei"
                var scoped: [Int] = []
                var cursor = q.start
                for ti in terms.indices.reversed() where terms[ti].end <= q.start {
                    let m = terms[ti]
                    if let last = scoped.last, terms[last].start == m.start { scoped.append(ti); continue } // same words, other row
                    // What a "-free" list names is an allergen or an ingredient ("dairy", "nut",
                    // "wheat"), never a dish: "cheesecake, dairy-free" says nothing about its egg.
                    if entries[m.entry].kind == .implied { break }
                    if scoped.isEmpty {
                        guard onlyConnectors(m.end, cursor) && (cursor - m.end) <= 1 else { break }
                    } else {
                        // A list needs its connector: "egg, dairy and nut free". Without one the word
                        // before is the dish, not a member: "cashew cheesecake dairy-free" is free of
                        // dairy, not of cashew or cheesecake.
                        guard onlyConnectors(m.end, cursor), cursor > m.end, cursor - m.end <= 2 else { break }
                    }
                    scoped.append(ti); cursor = m.start
                }
                let declared = declaredSet(scoped)
                for ti in scoped { markAbsent(ti, declared, evidence: qualText(q, terms[ti].start, terms[ti].end)) }
                // A declaration that ends its sentence speaks for the dish ("Chocolate torte, dairy
                // and nut free"): what the dish's name only implies yields for the allergens it
                // names — the torte's milk, not its egg or wheat. Words that name an allergen stay.
                let trailing = !terms.contains { $0.start >= q.end && sameSentence(q.start, $0.start) }
                if trailing, !declared.isEmpty, let first = scoped.last {
                    let evidence = qualText(q, terms[first].start, terms[first].end)
                    for ti in terms.indices where terms[ti].end <= q.start && sameSentence(q.start, terms[ti].start)
                        && entries[terms[ti].entry].kind == .implied {
                        markAbsent(ti, declared, evidence: evidence)
                    }
                }
                // The noun it modifies: "gluten-free bun", "dairy free cheese".
                if !declared.isEmpty, let next = terms.firstIndex(where: { $0.start >= q.end }),
                   terms[next].start - q.end <= 2, sameSentence(q.start, terms[next].start) {
                    for ti in terms.indices where terms[ti].start == terms[next].start {
                        markAbsent(ti, declared, evidence: qualText(q, terms[ti].start, terms[ti].end))
                    }
                }
            case .absentMarker:
                let declared = Set(lexicon.qualifiers[q.q].allergens)
                for a in declared { absentEvidence[a, default: []].append(tokens[q.start..<q.end].map(\.raw).joined()) }
                // A "(GF)" dish: implied evidence (pasta, bun) yields; explicit words stay.
                for ti in terms.indices where entries[terms[ti].entry].kind == .implied {
                    for a in declared where status[ti][a] == .contains { status[ti][a] = .absent }
                }
            case .crossContact:
                var named = false
                for (ti, m) in terms.enumerated() where m.start >= q.end && sameSentence(q.start, m.start) {
                    for a in entries[m.entry].allergens where status[ti][a] != nil {
                        status[ti][a] = .mayContain
                        result.mayContain.insert(a)
                        result.crossContact.insert(a)
                        named = true
                    }
                    meatSuppressed.insert(ti)
                }
                if !named {
                    result.mayContain.formUnion(AllergenID.allCases)
                    result.crossContact.formUnion(AllergenID.allCases)
                }
            case .crossContactAfter:
                // "In unserer Backstube werden Sesam, Lupine und Soja verarbeitet.": the German
                // kitchen statement puts its verb last; the allergens it names come before it, in
                // its sentence. Naming none, it says nothing. Only words that name an allergen
                // ("Sesam", "Nüsse") are read so: a dish before it ("Für unsere Spätzle werden …
                // verarbeitet") keeps what it holds.
                for (ti, m) in terms.enumerated() where m.end <= q.start && sameSentence(m.start, q.start)
                    && entries[m.entry].kind == .explicit {
                    for a in entries[m.entry].allergens where status[ti][a] != nil {
                        status[ti][a] = .mayContain
                        result.mayContain.insert(a)
                        result.crossContact.insert(a)
                    }
                    meatSuppressed.insert(ti)
                }
            case .askServer:
                result.askServer = true
            case .veganModifier, .plantModifier:
                // "Vegan Burger" declares the dish vegan; "…, vegan mayo" only its mayo: the item
                // may still hold what its heading or notes add (the brioche bun every burger has).
                for next in terms.indices where terms[next].start == q.end {
                    meatSuppressed.insert(next)
                    if kind == .veganModifier {
                        if headsItem(q.start) { markAbsent(next, Self.animalAllergens, evidence: qualText(q, terms[next].start, terms[next].end)) }
                        else { for a in Self.animalAllergens where status[next][a] == .contains { status[next][a] = .absent } }
                    }
                }
            case .vegetarianMarker:
                // "vegetarian sausage": not meat (may still hold milk or eggs)
                for next in terms.indices where terms[next].start == q.end { meatSuppressed.insert(next) }
            case .veganMarker, .connector:
                break
            }
        }
        // "Choice of bariis or baasto (spaghetti)", "on bread or polenta", "soy or oat milk": the
        // foods joined by "or" are one or the other; what not every one of them holds the dish
        // may hold, it does not surely hold.
        for choice in choices {
            let groups = choice.map { foods in terms.indices.filter { ti in foods.contains { $0 == (terms[ti].start, terms[ti].end) } } }
            var held = groups.map { group in
                Set(group.flatMap { ti in entries[terms[ti].entry].allergens.filter { status[ti][$0] == .contains } })
            }
            // "Lamb or chicken shish", "soy or oat milk": a one-word food before a term whose first
            // word is a food too offers that word in the term's place: the rest of the term ("shish":
            // the bread) is in every choice.
            if let last = choice.last?.first, last.end - last.start >= 2, tokens[last.start].kind == .word,
               let firstWord = lexicon.termAllergens[tokens[last.start].norm],
               let lastTerm = terms.first(where: { $0.start == last.start && $0.end == last.end }) {
                let shared = Set(entries[lastTerm.entry].allergens).subtracting(firstWord)
                for k in choice.indices.dropLast() where choice[k].allSatisfy({ $0.end - $0.start == 1 }) {
                    held[k].formUnion(shared)
                }
            }
            guard let first = held.first else { continue }
            let every = held.dropFirst().reduce(first) { $0.intersection($1) }
            let edges = choice.flatMap { $0.flatMap { [$0.start, $0.end] } }.filter { $0 >= 0 && $0 <= tokens.count }
            let text = Self.spanText(tokens[(edges.min() ?? 0)..<(edges.max() ?? 0)])
            for group in groups {
                for ti in group {
                    for a in entries[terms[ti].entry].allergens where status[ti][a] == .contains && !every.contains(a) {
                        status[ti][a] = .mayContain
                        result.mayContain.insert(a)
                        if !(result.mayContainWhy[a] ?? []).contains(where: { $0.hasSuffix("“\(text)”") }) {
                            result.mayContainWhy[a, default: []].append("one of the choices “\(text)”")
                        }
                    }
                }
            }
        }
        // A dish row that holds its own qualifier ("gluten free bread", "vegan mayo") was read
        // as one term; it still declares what it is free of.
        for q in quals {
            guard let m = terms.first(where: { $0.start <= q.start && q.end <= $0.end && $0.end - $0.start > q.end - q.start })
            else { continue }
            var ids = Set<AllergenID>()
            switch lexicon.qualifiers[q.q].kind {
            case .absentAfter: ids = Set(tokens[m.start..<q.start].flatMap { lexicon.termAllergens[$0.norm] ?? [] })
            case .absentBefore: ids = Set(tokens[q.end..<m.end].flatMap { lexicon.termAllergens[$0.norm] ?? [] })
            case .veganModifier:
                // Only a dish the item is ("Vegan Burger"), not a part of it ("…, vegan mayo").
                guard headsItem(m.start) else { continue }
                ids = Self.animalAllergens
            default: continue
            }
            for a in ids where !entries[m.entry].allergens.contains(a) { absentEvidence[a, default: []].append(m.text) }
        }

        // Aggregate findings.
        struct Acc {
            var evidence: [String] = []; var source: EvidenceSource = .implied; var conf = 0.0; var allFuzzy = true
            var why: [String] = []
            var provisionalOnly = true
        }
        var acc: [AllergenID: Acc] = [:]
        var dishMay: [AllergenID: [String]] = [:]
        for (ti, m) in terms.enumerated() {
            let e = entries[m.entry]
            // A dish that often holds an allergen ("burger": sesame on seeded buns) → may
            // contain, unless the item declares it absent (below).
            for a in e.mayContain {
                let w = e.why.isEmpty ? m.text : e.why
                if !(dishMay[a]?.contains(w) ?? false) { dishMay[a, default: []].append(w) }
            }
            let wordConfs = Set(tokens[m.start..<m.end].map(\.word)).compactMap { words[$0].confidence }
            let ocr = wordConfs.min() ?? 1.0
            let fuzzFactor = m.cost > 0 ? max(0.3, 0.75 - 0.3 * m.cost) : 1.0
            let conf = e.confidence * fuzzFactor * ocr
            for a in e.allergens where status[ti][a] == .contains {
                var x = acc[a] ?? Acc()
                if !x.evidence.contains(m.text) { x.evidence.append(m.text) }
                if !e.why.isEmpty && !x.why.contains(e.why) { x.why.append(e.why) }
                let src: EvidenceSource = e.kind == .explicit ? .explicit : .implied
                // exact evidence decides the source before fuzzy evidence does
                if x.conf == 0 || (m.cost == 0 && (x.allFuzzy || src < x.source)) || (m.cost > 0 && x.allFuzzy && src < x.source) {
                    x.source = src
                }
                x.conf = max(x.conf, conf)
                x.allFuzzy = x.allFuzzy && m.cost > 0
                x.provisionalOnly = x.provisionalOnly && m.entry < lexicon.provisional.count && lexicon.provisional[m.entry]
                acc[a] = x
                if !wordConfs.isEmpty { result.weakestEvidenceWord = min(result.weakestEvidenceWord ?? 1, ocr) }
            }
        }
        var unresolved = false
        let legendLetters = legend.letters
        var additiveCodes: [(AllergenID, String)] = []
        let codes = Self.codeReferences(in: rawText, legend: legend, defaultLetters: lexicon.letterCodes, unresolved: &unresolved,
                                        numberInBrackets: &result.numberInBrackets, additives: &additiveCodes,
                                        lettersGuessed: &result.codesGuessed)
        result.hasCodes = !codes.isEmpty || unresolved
        for (a, ev) in codes + additiveCodes {
            var x = acc[a] ?? Acc()
            if !x.evidence.contains(ev) { x.evidence.append(ev) }
            if x.evidence.count == 1 || EvidenceSource.code < x.source { x.source = .code }
            x.conf = max(x.conf, legendLetters.isEmpty && legend.numeric.isEmpty ? 0.9 : 0.95)
            x.allFuzzy = false
            x.provisionalOnly = false
            acc[a] = x
        }
        result.unresolvedCodes = unresolved
        // Printed codes read through the menu's legend are its own declaration: they win over
        // the dish table's guesses of what a dish may contain. Guessed codes do not.
        if !codes.isEmpty && !unresolved && !result.codesGuessed { dishMay = [:] }
        // So do they, and a declaration in words — allergen names in brackets ("Apple Crumble &
        // Custard (Gluten) (Milk)") or after "contains" ("ALÉRGICOS: CONTÉM TRIGO, OVO E LEITE"): what
        // the dish table only implies beyond what the item declares may be in it, it is not
        // surely (a school's custard made without egg). Never "safe": it stays "may contain".
        // (A declaration names two allergens at least: "contains nuts" alone warns of one. Codes
        // count only through the menu's own legend, not through the EU letters guessed without it.)
        var declared = Set<AllergenID>()
        if terms.contains(where: { entries[$0.entry].group }) {
            let named = Self.declaredAllergens(tokens: tokens, terms: terms.map {
                (start: $0.start, end: $0.end, group: entries[$0.entry].group, allergens: entries[$0.entry].allergens)
            })
            if named.count >= 2 { declared = named }
        }
        if !codes.isEmpty && !unresolved && !(legend.letters.isEmpty && legend.numeric.isEmpty) { declared.formUnion(codes.map(\.0)) }
        if !declared.isEmpty {
            for (a, x) in acc where x.source == .implied && !declared.contains(a) {
                acc[a] = nil
                result.mayContain.insert(a)
                result.mayContainWhy[a, default: []] += (x.why.isEmpty ? x.evidence : x.why).map {
                    "\($0) (not among the allergens the menu declares for it)"
                }
            }
        }
        result.allergens = acc.keys.sorted().map {
            let x = acc[$0]!
            return AllergenFinding(id: $0, evidence: x.evidence, source: x.source,
                                   confidence: (x.conf * 1000).rounded() / 1000, fuzzy: x.allFuzzy, why: x.why)
        }
        result.provisionalOnly = Set(acc.filter(\.value.provisionalOnly).keys)
        let contained = Set(acc.keys)
        result.declaredAbsent = absentEvidence.keys.sorted().filter { !contained.contains($0) }
            .map { AbsentEvidence(id: $0, evidence: Array(Set(absentEvidence[$0]!)).sorted()) }
        // A dish the menu marks vegan ("(VG)") holds no animal product its recipe might.
        result.markedVegan = quals.contains { lexicon.qualifiers[$0.q].kind == .veganMarker }
        for (a, why) in dishMay where absentEvidence[a] == nil && !contained.contains(a)
            && !(result.markedVegan && Self.animalAllergens.contains(a)) {
            result.mayContain.insert(a)
            result.mayContainWhy[a, default: []] += why
        }
        result.mayContain.subtract(contained)

        // Dietary (R8).
        var meat: [String] = [], animal: [String] = []
        for (ti, m) in terms.enumerated() where !meatSuppressed.contains(ti) {
            let e = entries[m.entry]
            let live = e.allergens.isEmpty || e.allergens.contains { status[ti][$0] == .contains }
            guard live else { continue }
            if e.diet == .meat { meat.append(m.text) }
            if e.diet == .animal { animal.append(m.text) }
        }
        if result.allergens.contains(where: { $0.source == .code && [.fish, .crustaceans, .molluscs].contains($0.id) }) {
            // printed codes for fish/shellfish: the dish contains them
            meat += result.allergens.filter { $0.source == .code && [.fish, .crustaceans, .molluscs].contains($0.id) }.map { "code: \($0.id.rawValue)" }
        }
        if result.allergens.contains(where: { $0.source == .code && [.milk, .eggs].contains($0.id) }) {
            animal += result.allergens.filter { $0.source == .code && [.milk, .eggs].contains($0.id) }.map { "code: \($0.id.rawValue)" }
        }
        var veganMarks: [String] = [], vegMarks: [String] = []
        for q in quals {
            let k = lexicon.qualifiers[q.q].kind
            let t = tokens[q.start..<q.end].map(\.raw).joined(separator: " ")
            if k == .veganMarker { veganMarks.append(t) }
            if k == .vegetarianMarker { vegMarks.append(t) }
            // "vegan" right before a term is a modifier, also a vegan marker only when standing alone
            // "vegan" also modifies the next word ("vegan mayo"); as a label it counts only
            // when nothing animal remains.
            if k == .veganModifier { veganMarks.append(t) }
        }
        if !meat.isEmpty {
            result.dietary = .not_vegetarian; result.dietaryEvidence = meat
        } else if !animal.isEmpty && (unknown.isEmpty || !vegMarks.isEmpty || !veganMarks.isEmpty) {
            // Milk or eggs and no meat is vegetarian only when every word was understood (closed
            // world) or the menu marks it: "Uunilohi" may be the salmon it is.
            result.dietary = .vegetarian; result.dietaryEvidence = animal + vegMarks + veganMarks
        } else if !veganMarks.isEmpty {
            result.dietary = .vegan; result.dietaryEvidence = veganMarks
        } else if !vegMarks.isEmpty {
            result.dietary = .vegetarian; result.dietaryEvidence = vegMarks
        }
        return result
    }
}
