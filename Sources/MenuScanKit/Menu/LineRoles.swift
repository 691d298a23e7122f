import Foundation

/// What a line of a menu is.
public enum LineRole: String, CaseIterable, Codable, Sendable {
    case header, name, description, price, note, other
}

/// Page-relative layout and typography features of one line, the input of
/// the role model. Every feature means the same on any menu: heights are
/// relative to the page's body text, gaps and indents to the body height,
/// widths to the line's run (column of a band).
enum LineFeatures {
    /// Feature names, in vector order (the model file lists them too and is
    /// checked against this list when loaded).
    static let names: [String] = [
        "log_rel_height", "caps_ratio", "title_ratio", "log_words", "letter_share", "digit_share",
        "strong_price_end", "plain_number_end", "price_only", "price_anywhere", "calories", "supplement", "range",
        "leaders", "ends_period", "commas", "starts_lower", "function_words", "food_words", "note_words",
        "gap_above", "gap_below", "indent", "centred", "width", "char_width", "confidence",
        "first_in_run", "last_in_run", "prev_rel_height", "next_rel_height", "prev_caps", "next_caps",
        "prev_price", "next_price", "next_indent", "page_y", "no_letters_short",
        "caps_x_height", "long_line", "next_lower_start",
        "page_price_share", "priced_page_no_price", "priced_page_price",
    ]

    private static let calorieRx = try! NSRegularExpression(pattern: #"\b\d{2,4}\s?(?:k?cal|kcal|calories|Cal|CAL|kj|kJ)\b"#)
    private static let supplementRx = try! NSRegularExpression(pattern: #"\+\s?[$€£]?\s?\d"#)
    private static let rangeRx = try! NSRegularExpression(pattern: #"\d\s?/\s?\d"#)
    private static let priceTokenRx = try! NSRegularExpression(pattern: PriceParser.strongPrice)
    private static let leadersRx = try! NSRegularExpression(pattern: #"[.·…_]{3,}"#)
    private static let plainEndRx = try! NSRegularExpression(pattern: #"(?:^|\s)\+?\d{1,3}(?:[.,]\d{1,2})?\s*$"#)

    static let functionWords: Set<String> = [
        "and", "with", "of", "the", "in", "on", "a", "an", "or", "to", "for", "from", "our", "your", "served",
        "topped", "tossed", "finished", "side", "choice", "over", "into", "by", "its",
        "und", "mit", "der", "die", "das", "von", "auf", "im", "de", "la", "le", "les", "et", "avec", "au", "aux",
        "du", "des", "con", "y", "el", "los", "las", "di", "e", "al", "alla", "il",
    ]
    static let noteWords: Set<String> = [
        "please", "all", "ask", "available", "request", "allergies", "allergy", "inform", "include", "included",
        "prices", "price", "service", "charge", "vat", "tax", "daily", "every", "contain", "may", "traces",
        "any", "we", "us", "staff", "order", "ordering", "before", "guests", "served", "until", "only",
        "courses", "course", "choose", "minimum", "per", "person", "people", "bill", "discretionary",
    ]
    /// Ingredient and dish words (general culinary knowledge, several languages).
    static let foodWords: Set<String> = [
        "chicken", "beef", "pork", "lamb", "duck", "turkey", "fish", "salmon", "tuna", "cod", "prawn", "prawns",
        "shrimp", "crab", "lobster", "squid", "calamari", "mussels", "clams", "scallops", "bacon", "ham", "sausage",
        "chorizo", "steak", "burger", "egg", "eggs", "cheese", "cheddar", "mozzarella", "parmesan", "feta", "goat",
        "cream", "butter", "milk", "yoghurt", "yogurt", "tomato", "tomatoes", "onion", "onions", "garlic",
        "potato", "potatoes", "fries", "chips", "rice", "pasta", "noodles", "bread", "bun", "toast", "salad",
        "soup", "sauce", "mushroom", "mushrooms", "spinach", "pepper", "peppers", "chilli", "chili", "lemon",
        "lime", "orange", "apple", "berry", "berries", "chocolate", "vanilla", "caramel", "honey", "nuts",
        "almonds", "walnuts", "peanut", "peanuts", "sesame", "soy", "tofu", "beans", "lentils", "chickpeas",
        "avocado", "corn", "carrot", "carrots", "cucumber", "olives", "basil", "mint", "coriander", "parsley",
        "thyme", "rosemary", "ginger", "curry", "pesto", "aioli", "mayo", "mayonnaise", "mustard", "ketchup",
        "pizza", "pie", "tart", "cake", "pudding", "ice", "coffee", "tea", "latte", "espresso", "juice", "wine",
        "beer", "smoothie", "wrap", "tacos", "sandwich", "risotto", "gnocchi", "lasagne", "ravioli", "crispy",
        "grilled", "roasted", "fried", "smoked", "braised", "baked", "fresh", "homemade", "spicy", "sweet",
        "rocket", "leaves", "greens", "slaw", "coleslaw", "pickled", "herbs", "fillet", "wings", "ribs",
        "huhn", "rind", "schwein", "kartoffel", "salat", "suppe", "käse", "poulet", "boeuf", "fromage", "pollo",
        "carne", "queso", "formaggio", "pomodoro",
    ]

    struct Context {
        var bodyHeight: Double
        var pageTop: Int
        var pageHeight: Double
    }

    /// The median word height of a line's words (0 when none).
    static func height(_ words: [OCRWord]) -> Double {
        let hs = words.map { Double($0.box.height) }.sorted()
        return hs.isEmpty ? 0 : hs[hs.count / 2]
    }

    /// The median of the positive, finite heights (nil when there are none).
    static func medianHeight(_ heights: [Double]) -> Double? {
        let v = heights.filter { $0 > 0 && $0.isFinite }.sorted()
        return v.isEmpty ? nil : v[v.count / 2]
    }

    /// The page's body-text height: the median line height over lines of
    /// three words or more (all lines when there are none).
    static func bodyHeight(_ lines: [[OCRWord]]) -> Double {
        var hs = lines.filter { $0.count >= 3 }.map(height).filter { $0 > 0 }
        if hs.isEmpty { hs = lines.map(height).filter { $0 > 0 } }
        hs.sort()
        return hs.isEmpty ? 1 : max(1, hs[hs.count / 2])
    }

    static func has(_ rx: NSRegularExpression, _ s: String) -> Bool {
        rx.firstMatch(in: s, range: NSRange(location: 0, length: (s as NSString).length)) != nil
    }

    private static func letters(_ s: String) -> [Character] { s.filter(\.isLetter) }

    /// Text-only features of a line (index 1…19 of `names`, and the flags used by the
    /// neighbour features).
    struct TextFacts {
        var caps = 0.0, title = 0.0, logWords = 0.0, letterShare = 0.0, digitShare = 0.0
        var strong = 0.0, plainEnd = 0.0, priceOnly = 0.0, priceAny = 0.0, calories = 0.0, supplement = 0.0, range = 0.0
        var leaders = 0.0, endsPeriod = 0.0, commas = 0.0, startsLower = 0.0, function = 0.0, food = 0.0, note = 0.0
        var anyPrice: Bool { strong > 0 || plainEnd > 0 || calories > 0 }
        var words = 0
    }

    /// A dish number printed before the name: "21. Bami goreng", "12) Pad Thai", "A3. Gỏi cuốn",
    /// "No. 7 Brisket", "#14 Pho Tai". Digits closed by "." or ")" (or opened by "No", "Nr", "#")
    /// and then a letter: "12.50 Margherita", "2 pcs" and "1/2 chicken" are not one.
    static let itemNumberRx = try! NSRegularExpression(
        pattern: #"^\s*(?:(?:No\.?|Nr\.?|#)\s?\d{1,3}[a-zA-Z]?|[A-Z]{0,2}\d{1,3}[a-z]?[.)])\s+(?=[^\W\d_])"#)

    /// The line without its dish number (the line itself when it has none). A dish number
    /// is no price, and the role model reads the rest as it reads any line.
    static func withoutItemNumber(_ text: String) -> String {
        // Cheap test first: a digit among the first four bytes (up to two capitals and a space may
        // come before it), or "#" or "N" first.
        let head = text.utf8.prefix(4)
        guard head.contains(where: { $0 >= 0x30 && $0 <= 0x39 }) || head.first == 0x23 || head.first == 0x4E else { return text }
        let ns = text as NSString
        guard let m = itemNumberRx.firstMatch(in: text, range: NSRange(location: 0, length: ns.length)) else { return text }
        return ns.substring(from: m.range.upperBound)
    }

    static func facts(_ raw: String) -> TextFacts {
        var f = TextFacts()
        let text = withoutItemNumber(raw.trimmingCharacters(in: .whitespaces))
        let ls = letters(text)
        let words = text.split(separator: " ")
        f.words = words.count
        let nonSpace = max(1, text.filter { !$0.isWhitespace }.count)
        f.caps = ls.isEmpty ? 0 : Double(ls.filter(\.isUppercase).count) / Double(ls.count)
        let lettered = words.filter { $0.filter(\.isLetter).count >= 2 }
        f.title = lettered.isEmpty ? 0 : Double(lettered.filter { $0.first(where: \.isLetter)?.isUppercase == true }.count) / Double(lettered.count)
        f.logWords = log(1 + Double(words.count))
        f.letterShare = Double(ls.count) / Double(nonSpace)
        f.digitShare = Double(text.filter(\.isNumber).count) / Double(nonSpace)
        let strong = PriceParser.find(in: text, allowPlain: false)
        let plain = strong ?? PriceParser.find(in: text, allowPlain: true)
        f.strong = strong != nil ? 1 : 0
        f.plainEnd = strong == nil && (plain != nil || (text.last?.isNumber == true && has(plainEndRx, text))) ? 1 : 0
        if let p = strong ?? plain, PageLayout.isLonePrice(p) { f.priceOnly = 1 }
        // Cheap byte tests first: the regexes only run where they can match.
        let bytes = text.utf8
        let digits = bytes.contains { $0 >= 0x30 && $0 <= 0x39 }
        f.priceAny = digits && has(priceTokenRx, text) ? 1 : 0
        f.calories = digits && has(calorieRx, text) ? 1 : 0
        f.supplement = digits && bytes.contains(0x2B) && has(supplementRx, text) ? 1 : 0
        f.range = digits && bytes.contains(0x2F) && has(rangeRx, text) ? 1 : 0
        f.leaders = has(leadersRx, text) ? 1 : 0
        f.endsPeriod = text.hasSuffix(".") && !text.hasSuffix("..") ? 1 : 0
        f.commas = min(4, Double(text.filter { $0 == "," }.count)) / 4
        f.startsLower = text.first(where: \.isLetter)?.isLowercase == true ? 1 : 0
        let folded = ScalarText.letterWords(text.lowercased())
        if !folded.isEmpty {
            let n = Double(folded.count)
            f.function = Double(folded.filter { functionWords.contains($0) }.count) / n
            f.food = Double(folded.filter { foodWords.contains($0) }.count) / n
            f.note = Double(folded.filter { noteWords.contains($0) }.count) / n
        }
        return f
    }

    /// Feature vectors for lines given as words, in runs (reading order within a run).
    static func vectors(lines: [[OCRWord]], texts: [String], runs: [[Int]]) -> [[Double]] {
        let n = lines.count
        var out = Array(repeating: [Double](repeating: 0, count: names.count), count: n)
        guard n > 0 else { return out }
        let body = bodyHeight(lines)
        let boxes: [Box?] = lines.map { ws in ws.isEmpty ? nil : ws.dropFirst().reduce(ws[0].box) { $0.union($1.box) } }
        let tops = boxes.compactMap { $0?.y }, bottoms = boxes.compactMap { $0?.maxY }
        let pageTop = tops.min() ?? 0
        let pageHeight = Double(max(1, (bottoms.max() ?? 1) - pageTop))
        let facts = texts.map(facts)
        let heights = lines.map { height($0) / body }
        // How much of the page prints prices on its lines: on a priced menu a
        // line without a price is less likely an item name.
        let priceShare = Double(facts.filter { $0.strong > 0 || $0.plainEnd > 0 }.count) / Double(max(1, facts.filter { $0.words > 0 }.count))
        for run in runs {
            let rb = run.compactMap { $0 >= 0 && $0 < n ? boxes[$0] : nil }
            guard let first = rb.first else { continue }
            let runBox = rb.dropFirst().reduce(first) { $0.union($1) }
            let runW = Double(max(1, runBox.width))
            let runCentre = Double(runBox.x) + runW / 2
            for (k, i) in run.enumerated() where i >= 0 && i < n {
                let f = facts[i]
                let b = boxes[i]
                // Neighbours in the run, only when they are lines of this page (the line
                // itself is checked above; a run from elsewhere must not index past `n`).
                let prev: Int? = k > 0 && run[k - 1] >= 0 && run[k - 1] < n ? run[k - 1] : nil
                let next: Int? = k + 1 < run.count && run[k + 1] >= 0 && run[k + 1] < n ? run[k + 1] : nil
                let h = heights[i]
                var v = [Double](repeating: 0, count: names.count)
                v[0] = h > 0 ? max(-1.5, min(1.5, log(h))) : 0
                v[1] = f.caps; v[2] = f.title; v[3] = f.logWords; v[4] = f.letterShare; v[5] = f.digitShare
                v[6] = f.strong; v[7] = f.plainEnd; v[8] = f.priceOnly; v[9] = f.priceAny; v[10] = f.calories
                v[11] = f.supplement; v[12] = f.range; v[13] = f.leaders; v[14] = f.endsPeriod; v[15] = f.commas
                v[16] = f.startsLower; v[17] = f.function; v[18] = f.food; v[19] = f.note
                if let b {
                    let gapA = prev.flatMap { p in boxes[p].map { Double(b.y - $0.maxY) / body } } ?? 5
                    let gapB = next.flatMap { q in boxes[q].map { Double($0.y - b.maxY) / body } } ?? 5
                    v[20] = max(-1, min(5, gapA)) / 5
                    v[21] = max(-1, min(5, gapB)) / 5
                    v[22] = max(0, min(10, Double(b.x - runBox.x) / body)) / 10
                    let centre = Double(b.x) + Double(b.width) / 2
                    v[23] = (b.x - runBox.x) > Int(body) && abs(centre - runCentre) < 1.5 * body ? 1 : 0
                    v[24] = Double(b.width) / runW
                    let chars = max(1, texts[i].filter { !$0.isWhitespace }.count)
                    v[25] = min(3, Double(b.width) / Double(chars) / max(1, height(lines[i])))
                    v[36] = Double(b.y - pageTop) / pageHeight
                    if let q = next, let nb = boxes[q] { v[35] = max(-10, min(10, Double(nb.x - b.x) / body)) / 10 }
                }
                let confs = lines[i].compactMap(\.confidence)
                v[26] = confs.isEmpty ? 1 : confs.reduce(0, +) / Double(confs.count)
                v[27] = prev == nil ? 1 : 0
                v[28] = next == nil ? 1 : 0
                v[29] = prev.map { heights[$0] > 0 && h > 0 ? max(-1.5, min(1.5, log(heights[$0] / h))) : 0 } ?? 0
                v[30] = next.map { heights[$0] > 0 && h > 0 ? max(-1.5, min(1.5, log(heights[$0] / h))) : 0 } ?? 0
                v[31] = prev.map { facts[$0].caps } ?? 0
                v[32] = next.map { facts[$0].caps } ?? 0
                v[33] = prev.map { facts[$0].anyPrice ? 1 : 0 } ?? 0
                v[34] = next.map { facts[$0].anyPrice ? 1 : 0 } ?? 0
                v[37] = f.letterShare < 0.3 && f.words <= 3 ? 1 : 0
                v[38] = f.caps * v[0]
                v[39] = f.words > 8 ? 1 : 0
                v[40] = next.map { facts[$0].startsLower } ?? 0
                let own = f.strong > 0 || f.plainEnd > 0 ? 1.0 : 0.0
                v[41] = priceShare
                v[42] = priceShare * (1 - own)
                v[43] = priceShare * own
                out[i] = v
            }
        }
        return out
    }
}

/// Multinomial logistic regression over `LineFeatures`, weights from
/// models/structure/roles.json (written by Benchmarks/train_roles.py).
public struct RoleModel: Sendable, Codable, Equatable {
    public var features: [String]
    public var roles: [String]
    /// weights[role][feature]
    public var weights: [[Double]]
    public var bias: [Double]
    public var mean: [Double]
    public var scale: [Double]

    /// The model in models/structure/roles.json, or nil when it is missing
    /// or does not fit this build's features (the rule-based structurer is used then).
    public static let shared: RoleModel? = {
        guard let url = ModelLocator.file("structure/roles.json"), let data = try? Data(contentsOf: url) else { return nil }
        return try? RoleModel.decode(data)
    }()

    static func decode(_ data: Data) throws -> RoleModel {
        let m = try JSONDecoder().decode(RoleModel.self, from: data)
        let nf = LineFeatures.names.count
        guard m.features == LineFeatures.names, m.roles.count == m.weights.count, m.roles.count == m.bias.count,
              m.weights.allSatisfy({ $0.count == nf }), m.mean.count == nf, m.scale.count == nf,
              m.roles.allSatisfy({ LineRole(rawValue: $0) != nil }) else {
            throw MenuScanError.lexiconUnavailable.with(detail: "structure/roles.json does not match this build's line features")
        }
        return m
    }

    /// Probabilities per role (in `LineRole.allCases` order).
    func probabilities(_ v: [Double]) -> [LineRole: Double] {
        var z: [Double] = []
        for r in roles.indices {
            var s = bias[r]
            for j in 0..<min(v.count, weights[r].count) {
                let sc = scale[j] == 0 ? 1 : scale[j]
                s += weights[r][j] * (v[j] - mean[j]) / sc
            }
            z.append(s)
        }
        let m = z.max() ?? 0
        let e = z.map { exp($0 - m) }
        let total = e.reduce(0, +)
        var out: [LineRole: Double] = [:]
        for (r, name) in roles.enumerated() { if let role = LineRole(rawValue: name) { out[role] = e[r] / total } }
        return out
    }
}
