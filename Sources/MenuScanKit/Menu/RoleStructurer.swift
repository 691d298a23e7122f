import Foundation

/// Builds menu items from line roles (photos): a name line opens an item,
/// description and price lines join the open item, a header opens a section,
/// notes belong to their section. Prices are optional; a price, calorie
/// count or supplement anywhere in a name line is split off the name.
struct RoleStructurer {
    var lines: [StructLine]
    var runs: [[Int]]
    var legendLines: Set<Int>
    var roles: [LineRole]
    /// The probability of each line's role (its name probability for name-like tests).
    var nameProbability: [Double]
    /// The page prints its section headings in capitals (`MenuAnalyzer.harmoniseHeadings`).
    var headingsInCapitals = false

    /// Calorie counts, also as OCR misreads the unit: "Cai", "CaI", "Ca1", and "Ca" at the
    /// end of a line (the "l" lost).
    private static let calorieRx = try! NSRegularExpression(
        pattern: #"\s*[(\[]?\b\d{2,4}\s?(?:k?cal|kcal|calories|Cal|CAL|kj|kJ|Ca[iI1]|Ca(?=[)\]]?\s*$))\b[)\]]?"#)
    private static let besideRx = try! NSRegularExpression(pattern: #"^(.{3,60}?)\s+[–—-]\s+(\S.{8,})$"#)

    /// Removes calorie counts ("450 Cal") from a line; returns the rest and the counts.
    static func splitCalories(_ s: String) -> (String, [String]) {
        let ns = s as NSString
        let ms = calorieRx.matches(in: s, range: NSRange(location: 0, length: ns.length))
        guard !ms.isEmpty else { return (s, []) }
        let found = ms.map { ns.substring(with: $0.range).trimmingCharacters(in: .whitespaces) }
        let rest = calorieRx.stringByReplacingMatches(in: s, range: NSRange(location: 0, length: ns.length), withTemplate: "")
        return (rest.trimmingCharacters(in: CharacterSet(charactersIn: " ·•-–|")), found)
    }

    /// Whether `token` (a price found at the end of a row, before any calorie count) is a
    /// word of its own set apart from the words before it by a gutter (at least
    /// `columnGutter` of the row's word heights): a price column, not a number of the text.
    static func endsInColumn(_ words: [OCRWord], token: String) -> Bool {
        guard let k = words.lastIndex(where: { $0.text == token }), k > 0, k < words.count else { return false }
        let h = LineFeatures.height(words)
        guard h > 0 else { return false }
        return Double(words[k].box.x - words[k - 1].box.maxX) >= columnGutter * h
    }

    /// Words after which a number ending a line counts something ("for 2", "6 or 12", "x 4").
    static let countWords: Set<String> = ["for", "x", "per", "of", "or", "and", "to", "by", "serves", "between", "für", "fur", "pour",
                                         "para", "por", "de", "von", "oder", "und", "ou", "et", "o", "y", "e", "zwischen", "entre", "tra"]

    /// The plain number (1–3 digits, not 0) a line ends with after a word that counts nothing
    /// ("… spring onion 11"), or nil ("Chateaubriand for 2", "wings 6 or 12", "12 18").
    static func plainPriceEnding(_ text: String) -> Int? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard words.count >= 2, let last = words.last, (1...3).contains(last.count), last.allSatisfy({ $0.isASCII && $0.isNumber }),
              let value = Int(last), value > 0 else { return nil }
        let before = words[words.count - 2]
        guard before.contains(where: \.isLetter), !countWords.contains(TextFold.fold(String(before))) else { return nil }
        return value
    }

    /// A page whose descriptions end in their prices ("… and rocket 12.50", "… spring onion 11"):
    /// at least `pricedDescriptionLines` description lines end in a price after words, one at least
    /// of them a strong price (plain numbers alone may be counts: "shared between 2"). There a
    /// plain number ending a description is its item's price.
    static func descriptionsEndInPrices(_ texts: [String]) -> Bool {
        var strong = 0, plain = 0
        for t in texts {
            let (rest, _) = splitCalories(t)
            if let f = PriceParser.find(in: rest, allowPlain: false), f.after.isEmpty, !f.before.isEmpty, !f.price.hasPrefix("+") {
                strong += 1
            } else if plainPriceEnding(rest) != nil {
                plain += 1
            }
        }
        return strong >= 1 && strong + plain >= pricedDescriptionLines
    }

    static let pricedDescriptionLines = 3

    /// A price column's gutter, in word heights.
    static let columnGutter = 1.5

    /// A name line: the name, a price found anywhere after it, and text beside
    /// it ("NAME – description", a calorie count).
    static func parseNameLine(_ raw: String) -> (name: String, price: String?, rest: [String]) {
        var (text, cals) = splitCalories(raw.trimmingCharacters(in: .whitespaces))
        var price: String? = nil
        var rest: [String] = []
        if let f = PriceParser.find(in: text, allowPlain: true), !f.before.isEmpty {
            price = f.price
            text = f.before
            if !f.after.isEmpty { rest.append(f.after) }
        }
        let ns = text as NSString
        if let m = besideRx.firstMatch(in: text, range: NSRange(location: 0, length: ns.length)) {
            rest.insert(ns.substring(with: m.range(at: 2)), at: 0)
            text = ns.substring(with: m.range(at: 1))
        }
        rest += cals
        return (MenuStructurer.stripCodes(text).trimmingCharacters(in: CharacterSet(charactersIn: " ·•-–|:")), price, rest)
    }

    struct Output {
        var items: [RawItem]
        var sections: [String]
        var looseLines: [Int]
        /// Note lines per section header line (and nil: notes outside any section).
        var sectionNotes: [(section: String?, lines: [Int])]
        /// Per item: its first line reads as a name (role model's name probability ≥ 0.5).
        var nameLike: [Bool]
    }

    static func box(_ l: StructLine) -> Box? {
        guard let first = l.ocrWords.first else { return nil }
        return l.ocrWords.dropFirst().reduce(first.box) { $0.union($1.box) }
    }

    /// Prices printed in a column of their own land in a run of their own: a
    /// lone price outside every item goes to the item on its row (the item line
    /// left of it that overlaps it most vertically) when that item has no price.
    func attachPriceColumn(items: inout [RawItem], loose: inout [Int]) {
        var taken = Set<Int>()
        for i in loose where i >= 0 && i < lines.count {
            let text = lines[i].text.trimmingCharacters(in: .whitespaces)
            guard let pb = Self.box(lines[i]) else { continue }
            let (rest, _) = Self.splitCalories(text)
            guard let f = PriceParser.find(in: rest, allowPlain: true), PageLayout.isLonePrice(f) else { continue }
            var best: (item: Int, overlap: Double)? = nil
            for (k, it) in items.enumerated() where it.price == nil {
                for j in it.lines where j >= 0 && j < lines.count {
                    guard let b = Self.box(lines[j]), b.maxX <= pb.x + pb.width / 2 else { continue }
                    let ov = Double(min(b.maxY, pb.maxY) - max(b.y, pb.y)) / Double(max(1, min(b.height, pb.height)))
                    if ov >= 0.4 && (best == nil || ov > best!.overlap) { best = (k, ov) }
                }
            }
            if let b = best {
                items[b.item].price = f.price
                items[b.item].lines.append(i)
                taken.insert(i)
            }
        }
        loose.removeAll { taken.contains($0) }
    }

    /// A description ending in its price that reading order cut off from its dish (another
    /// column's lines came between them) is left out of every item: it goes to the unpriced
    /// item whose last line it sits right under, in the same column.
    func attachPricedDescriptions(items: inout [RawItem], loose: inout [Int]) {
        var taken = Set<Int>()
        for i in loose where i >= 0 && i < lines.count && i < roles.count && roles[i] == .description {
            let text = lines[i].text.trimmingSpaces()
            let (rest, cals) = Self.splitCalories(text)
            guard let f = PriceParser.find(in: rest, allowPlain: false), !f.price.hasPrefix("+"), !f.before.isEmpty,
                  let k = items.indices.first(where: { items[$0].price == nil && items[$0].lines.last.map { sitsUnder(i, $0) } == true })
            else { continue }
            items[k].price = f.price
            items[k].descriptionParts.append(([f.before] + (f.after.isEmpty ? [] : [f.after]) + cals).joined(separator: " "))
            items[k].lines.append(i)
            taken.insert(i)
        }
        loose.removeAll { taken.contains($0) }
    }

    /// The text of the line at position `k` of a run (nil past its end or for a line the page lacks).
    func lineText(at k: Int, of run: [Int]) -> String? {
        guard k >= 0, k < run.count, run[k] >= 0, run[k] < lines.count else { return nil }
        return lines[run[k]].text
    }

    /// Whether the line after position `k` of a run is a lone price (no supplement "+3") set
    /// right under the line at `k`, in its column.
    func pricedBelow(_ k: Int, of run: [Int]) -> Bool {
        guard k >= 0, k + 1 < run.count, lineRole(at: k + 1, of: run) == .price, run[k + 1] < lines.count else { return false }
        let t = lines[run[k + 1]].text.trimmingSpaces()
        guard !t.hasPrefix("+"), run[k] >= 0, run[k] < lines.count,
              let a = Self.box(lines[run[k]]), let b = Self.box(lines[run[k + 1]]) else { return false }
        // (A line box OCR grew with a descender or a stray mark may reach down over the price: its
        // top under the middle of the line is enough.)
        let h = LineFeatures.height(lines[run[k + 1]].ocrWords)
        return h > 0 && 2 * b.y > 2 * a.y + a.height && Double(b.y - a.maxY) <= Self.maxDescriptionGap * h
            && Double(b.x) >= Double(a.x) - h && b.x < a.maxX
    }

    /// Whether the dish named at position `k` of a run has its price on a line of its own after
    /// it: a lone price (no supplement "+3") right after it or after at most `maxDescriptionLines`
    /// description lines under it.
    func pricedLater(_ k: Int, of run: [Int]) -> Bool {
        var j = k + 1
        while j < run.count, j <= k + 1 + Self.maxDescriptionLines {
            switch lineRole(at: j, of: run) {
            case .price?:
                return !(lineText(at: j, of: run) ?? "").trimmingSpaces().hasPrefix("+")
            case .description?:
                j += 1
            default:
                return false
            }
        }
        return false
    }

    /// The first part of a name set over two lines that went into the open dish's description:
    /// the open dish has its price, its last line is an unpriced description line that starts
    /// capitalised and ends cut off by a joining word, a comma or "&" (or line `i` opens with a
    /// joining word), and line `i` sits right under it with a price of its own (no supplement).
    /// Or the lines of the next dish set apart from the open one (`headSetApart`). Taken out of
    /// the dish; nil otherwise. `i` without a price of its own (a name line whose price is still
    /// to come) takes only lines set apart that its own first word or their last says go on.
    func takeWrappedHead(from current: inout RawItem?, before i: Int) -> (text: String, lines: [Int])? {
        guard let c = current, c.price != nil, i >= 0, i < lines.count else { return nil }
        let next = lines[i].text.trimmingSpaces()
        if Self.hasOwnPrice(next), let j = c.lines.last, j != c.lines.first, j >= 0, j < lines.count,
           j < roles.count, roles[j] == .description {
            let t = lines[j].text.trimmingSpaces()
            // (Words taken from a dish's description are no longer its own: only on strong evidence.)
            if c.descriptionParts.last == t, MenuStructurer.startsCapitalised(t),
               MenuStructurer.endsUnfinished(t) || Self.opensWithJoiningWord(next),
               PriceParser.find(in: t, allowPlain: true) == nil, sitsUnder(i, j) {
                current!.descriptionParts.removeLast()
                current!.lines.removeLast()
                return (t, [j])
            }
        }
        guard let head = headSetApart(c, before: i) else { return nil }
        if !Self.hasOwnPrice(next) {
            guard let last = head.last, MenuStructurer.endsUnfinished(lines[last].text) || Self.opensWithJoiningWord(next) else { return nil }
        }
        current!.descriptionParts.removeLast(head.count)
        current!.lines.removeLast(head.count)
        var text = ""
        var previous: Int? = nil
        for j in head {
            let t = lines[j].text.trimmingSpaces()
            text = previous.map { Self.joinName(text, lastLine: lines[$0].text, t) } ?? t
            previous = j
        }
        return (text, head)
    }

    /// The lines of dish `c` after the line that gave it its price (one to three unpriced lines,
    /// each its own description part) when they stand apart from that line and close to line `i`
    /// under them: a dish set over several lines whose price ends its last ("4 halbe Eier mit
    /// Frankfurter grüner Soße" / "und Bratkartoffeln € 7,50" under "… € 7,00"). Apart means a gap
    /// over the priced line of at least one line height, twice every gap between them and down
    /// to `i`; all in one column. Nil otherwise (text without boxes: no gaps, nil).
    func headSetApart(_ c: RawItem, before i: Int) -> [Int]? {
        guard let priced = c.lines.lastIndex(where: { j in
            j >= 0 && j < lines.count && PriceParser.find(in: lines[j].text, allowPlain: false).map { !$0.price.hasPrefix("+") } == true
        }) else { return nil }
        let head = Array(c.lines[(priced + 1)...])
        guard (1...3).contains(head.count), head.count <= c.descriptionParts.count,
              head.allSatisfy({ $0 >= 0 && $0 < lines.count && PriceParser.find(in: lines[$0].text, allowPlain: false) == nil }),
              zip(c.descriptionParts.suffix(head.count), head).allSatisfy({ $0.0 == lines[$0.1].text.trimmingSpaces() }) else { return nil }
        let chain = [c.lines[priced]] + head + [i]
        for k in 1..<chain.count where !sitsUnder(chain[k], chain[k - 1]) { return nil }
        let apart = gapAbove(chain[1], after: chain[0])
        let within = (2..<chain.count).map { gapAbove(chain[$0], after: chain[$0 - 1]) }
        guard apart >= 1, within.allSatisfy({ 2 * $0 <= apart }) else { return nil }
        return head
    }

    /// Whether a name line carries a price of its own (no supplement "+2").
    static func hasOwnPrice(_ text: String) -> Bool {
        parseNameLine(text).price.map { !$0.hasPrefix("+") } ?? false
    }

    /// Whether a parsed line sets a short capitalised name (one to five words, three letters at
    /// least) beside a description: what `besideDish` and `unpricedBesideDish` both ask.
    static func setsNameBeside(_ p: (name: String, price: String?, rest: [String])) -> Bool {
        !p.rest.isEmpty && (1...5).contains(p.name.split(separator: " ").count)
            && MenuStructurer.startsCapitalised(p.name) && p.name.filter(\.isLetter).count >= 3
    }

    /// "Margherita — rocket and celeriac purée" on a page that prints no prices: a short capitalised
    /// name (no digit, not cut off by a joining word) set beside its description after a spaced dash.
    static func unpricedBesideDish(_ text: String) -> (name: String, price: String?, rest: [String])? {
        let p = parseNameLine(text)
        guard p.price == nil, setsNameBeside(p), !p.name.contains(where: \.isNumber),
              !MenuStructurer.endsUnfinished(p.name) else { return nil }
        return p
    }

    /// A priced line that sets a short capitalised name (one to five words) beside its
    /// description with a dash ("Lentil Soup – spring onion and parmesan $12.00"), read as a
    /// name line; nil otherwise.
    static func besideDish(_ text: String) -> (name: String, price: String?, rest: [String])? {
        guard PriceParser.find(in: text, allowPlain: false) != nil else { return nil }
        let p = parseNameLine(text)
        guard p.price != nil, setsNameBeside(p) else { return nil }
        return p
    }

    /// Whether item `c` is a bare name cut off by its line's end: one name line (at most two
    /// already joined), no price, nothing beside it, the line ending in a joining word, a comma
    /// or a hyphen (`MenuStructurer.endsUnfinished`); a joining word in capitals may be a word
    /// of the name.
    static func nameGoesOn(_ c: RawItem, lastLine: String) -> Bool {
        guard isBareName(c), MenuStructurer.endsUnfinished(lastLine) else { return false }
        // "Menu A", "Combo B": a capital letter ending a name is its letter, no article. A short
        // word in capitals ending a name in capitals may be its own ("CA PHÊ SỮA ĐÁ", not Italian
        // "da"); a comma, and a joining word no dish name ends in ("CLUB SANDWICH ON TOMATO WITH"),
        // say the name goes on in capitals too.
        let t = lastLine.trimmingSpaces()
        if let end = t.last, ",&+".contains(end) { return true }
        let last = t.split(separator: " ").last ?? ""
        return !last.contains(where: \.isLetter) || last.contains(where: \.isLowercase)
            || Self.unambiguousJoiningWords.contains(last.lowercased())
    }

    /// One name line (at most two already joined), nothing else yet: no price, no description.
    static func isBareName(_ c: RawItem) -> Bool {
        c.price == nil && c.descriptionParts.isEmpty && c.lines.count <= 2 && !c.name.isEmpty
    }

    /// A name line that opens with a joining word goes on with the name above it ("DOUBLE SMASH
    /// BURGER ON CHICKPEAS" / "WITH GINGER $18"); the role model read it as a name, not as the
    /// description a "with …" line under a name usually is.
    static func opensWithJoiningWord(_ text: String) -> Bool {
        guard let first = text.split(separator: " ").first else { return false }
        return first == "&" || first == "+" || unambiguousJoiningWords.contains(first.lowercased())
    }

    /// Joining words that are no word of a dish's name in another menu language, so they say a
    /// name goes on also when printed in capitals (a subset of `MenuStructurer.joiningWords`).
    static let unambiguousJoiningWords: Set<String> = [
        "and", "or", "with", "of", "in", "on", "over", "the", "und", "oder", "mit", "von", "vom", "auf", "aus",
        "zum", "zur", "einer", "einem", "avec", "sur", "con", "sin", "del", "della", "dello", "alla", "sulla",
    ]

    /// The name with the line that goes on with it: a word split by a hyphen is joined
    /// ("Schokoladen-" / "sauce" → "Schokoladensauce"), other parts with a space.
    static func joinName(_ name: String, lastLine: String, _ next: String) -> String {
        let t = lastLine.trimmingCharacters(in: .whitespaces)
        if t.hasSuffix("-"), t.dropLast().last?.isLetter == true, next.first?.isLowercase == true {
            return name + next
        }
        return name + " " + next
    }

    /// At most this many description lines per item.
    static let maxDescriptionLines = 5
    /// A description line further below its item than this many of its own heights starts no part of it.
    static let maxDescriptionGap = 2.0

    /// Whether name line `i` goes on with the bare name line `j` right above it on a priced page
    /// ("Apple Strudel with Werther's Original" / "Karamel and Vanilla Sauce ……… 3.50"): `i` has
    /// the price, it follows with no gap (at most `wrapGap` of its height: dishes stand apart
    /// further), in about the same type (`j` not taller by 30 % as a heading would be, nor much
    /// smaller; leaders OCR reads as letters make `i` read taller) and the same case, and `j` is
    /// no heading (no colon ending it).
    func setAsOneName(_ j: Int, _ i: Int) -> Bool {
        guard j >= 0, j < lines.count, i >= 0, i < lines.count, let a = Self.box(lines[j]), let b = Self.box(lines[i]) else { return false }
        let upper = lines[j].text.trimmingSpaces(), next = Self.parseNameLine(lines[i].text.trimmingSpaces())
        let hj = LineFeatures.height(lines[j].ocrWords), hi = LineFeatures.height(lines[i].ocrWords)
        guard hj > 0, hi > 0, hj / hi >= 0.7, hj / hi <= 1.3, !upper.hasSuffix(":"),
              next.price.map({ !$0.hasPrefix("+") }) == true,
              MenuStructurer.isMostlyCapitals(ItemName.clean(upper)) == MenuStructurer.isMostlyCapitals(ItemName.clean(next.name)),
              abs(Double(b.x - a.x)) <= hi else { return false }
        let gap = Double(b.y - a.maxY) / hi
        return gap >= -0.5 && gap <= Self.wrapGap
    }

    static let wrapGap = 0.35

    /// The vertical gap between line `j` (above) and line `i`, in heights of line `i` (0 without boxes).
    func gapAbove(_ i: Int, after j: Int?) -> Double {
        guard let j, j >= 0, j < lines.count, let a = Self.box(lines[j]), let b = Self.box(lines[i]) else { return 0 }
        let h = LineFeatures.height(lines[i].ocrWords)
        return h > 0 ? Double(b.y - a.maxY) / h : 0
    }

    /// The role of the line at position `k` of a run (nil past its end or for a line the page lacks).
    func lineRole(at k: Int, of run: [Int]) -> LineRole? {
        guard k >= 0, k < run.count, run[k] >= 0, run[k] < roles.count else { return nil }
        return roles[run[k]]
    }

    /// Whether line `i` sits right under line `j` in the same column: below it by at most
    /// `maxDescriptionGap` of its heights, and starting within one height of `j`'s left edge
    /// or inside it (not a line of the next column that reading order put after `j`).
    func sitsUnder(_ i: Int, _ j: Int) -> Bool {
        guard i >= 0, i < lines.count, j >= 0, j < lines.count, let a = Self.box(lines[j]), let b = Self.box(lines[i]) else { return false }
        let h = LineFeatures.height(lines[i].ocrWords)
        guard h > 0 else { return false }
        let gap = Double(b.y - a.maxY) / h
        return gap >= -0.3 && gap <= Self.maxDescriptionGap && Double(b.x) >= Double(a.x) - h && b.x < a.maxX
    }

    /// On a priced page an unpriced "item" right before a priced name is a section header
    /// set in body type ("STARTERS") when it has nothing of its own, or only statements
    /// about its section under it ("EIERSPEISEN" over "Alle Eierspeisen werden in Butter
    /// zubereitet."): those are the section's notes. Where the page prints its headings in
    /// capitals, a line in lower case is no heading ("Kochschinken, Schwarzwälder Schinken"
    /// under a priced dish describes it). Returns the note lines, or nil when `c` is an item.
    func headerNotes(_ c: RawItem, sizedAsHeading: Bool = false) -> [Int]? {
        guard c.price == nil, let first = c.lines.first, first >= 0, first < lines.count else { return nil }
        if headingsInCapitals && !MenuStructurer.isMostlyCapitals(c.name) { return nil }
        let rest = Array(c.lines.dropFirst())
        // Every description part is one of the lines under it: the name line said nothing more.
        guard c.descriptionParts.count == rest.count else { return nil }
        if rest.isEmpty { return [] }
        var texts: [String] = []
        for j in rest {
            guard j >= 0, j < lines.count, j < roles.count, roles[j] == .description else { return nil }
            let text = lines[j].text.trimmingCharacters(in: .whitespaces)
            // A supplement ("Sub a gluten-free bun +$2") is part of a statement; a price is a dish's.
            if let f = PriceParser.find(in: text, allowPlain: true), !f.price.hasPrefix("+") { return nil }
            texts.append(text)
        }
        // A statement ("all", "our", "alle", "unser"…) about this section: a sentence, or one
        // that repeats the heading's word ("Müsli-Buffet" under MÜSLI). Under a line set in the
        // page's heading size, a statement that opens with the heading's word speaks for it
        // too ("Wings are served with celery sticks…" under WINGS).
        let statement = texts.joined(separator: " ")
        let headingWords = MenuAnalyzer.foldedWords(c.name).filter { $0.count >= 4 }
        let statementWords = MenuAnalyzer.foldedWords(statement)
        func isHeadingWord(_ w: String) -> Bool { headingWords.contains { w.hasPrefix($0) } }
        if sizedAsHeading, let first = statementWords.first, isHeadingWord(first) { return rest }
        guard MenuAnalyzer.speaksForTheMenu(statement) else { return nil }
        let repeatsHeading = statementWords.contains(where: isHeadingWord)
        return texts.contains(where: { $0.hasSuffix(".") }) || repeatsHeading ? rest : nil
    }

    /// The page's heading heights and its priced names' median height, where its headings
    /// stand out by size: at least two lines the model read as headings, their median height
    /// at least `headingSizeRatio` times the priced names' (nil elsewhere).
    static func headingSizes(headings: [Double], pricedNames: [Double]) -> (headings: [Double], name: Double)? {
        let heads = headings.filter { $0 > 0 && $0.isFinite }.sorted()
        let names = pricedNames.filter { $0 > 0 && $0.isFinite }.sorted()
        guard heads.count >= 2, names.count >= 2 else { return nil }
        let name = names[names.count / 2]
        guard heads[heads.count / 2] >= headingSizeRatio * name else { return nil }
        return (heads, name)
    }

    /// Whether a line of a given height may be a section heading set in body type (the
    /// priced-page rule: an unpriced "dish" right before a priced one). Where the page's
    /// headings stand out by size (`headingSizes`), a line nearer the names' height than every
    /// heading's is a dish whose price was not read (a bakery's "BAGUETTE" between priced
    /// loaves under BREAD), not a heading; one as tall as one of them may be (MAINS the size of
    /// STARTERS, both smaller than the page's title). Elsewhere any height may be.
    static func mayBeHeading(height h: Double, sizes: (headings: [Double], name: Double)?) -> Bool {
        guard let sizes else { return true }
        return sizes.headings.contains { abs(h - $0) <= abs(h - sizes.name) }
    }

    /// Whether an unpriced "name" line is set in description type under a dish: smaller than
    /// `smallerType` times both the page's median name line and the dish's own name line, which
    /// is name-sized (at least `nameSized` times the median). A dish in a featured, larger type
    /// or a normal-sized name under it stays an item.
    static func describesInSmallerType(height h: Double, above: Double, names: Double?) -> Bool {
        guard let names, names > 0, h > 0, above > 0 else { return false }
        return h < smallerType * names && h < smallerType * above && above >= nameSized * names
    }

    static let smallerType = 0.8
    static let nameSized = 0.8

    /// How much larger than the priced names a page's headings are when they stand out by size.
    static let headingSizeRatio = 1.3

    /// Lines the model read as headings that are dishes listed under one: in a run, three
    /// headings or more in a row with nothing between them are a heading and its unpriced dishes
    /// ("CHIPPER" / "SPICE BAG" / "CURRY CHIPS" / "GARLIC CHEESE CHIPS", their prices not read).
    /// A heading over a sub-heading (two in a row) stays as it is. Under a line that prices the
    /// list ("CHOCOLATE BARS £10 each", "All £5"), two or more are all its dishes ("GALAXY" /
    /// "CRUNCHIE"): the list's heading is that line.
    /// Under a priced line, a line set taller than the list's first dish by more than
    /// `listHeadingRatio` ends the list: it is the next heading.
    static func dishesReadAsHeadings(runs: [[Int]], roles: [LineRole], legendLines: Set<Int>,
                                     texts: [String] = [], heights: [Double] = []) -> Set<Int> {
        var out = Set<Int>()
        for run in runs {
            var streak: [Int] = []
            var priced = false  // the line before the streak prices a list
            func close() {
                if priced && streak.count >= 2 {
                    let first = streak[0]
                    out.formUnion(first < heights.count && heights[first] > 0
                        ? streak.prefix { $0 >= heights.count || heights[$0] <= heights[first] * listHeadingRatio } : streak[...])
                } else if streak.count >= 3 {
                    out.formUnion(streak.dropFirst())
                }
                streak = []
            }
            for i in run where i >= 0 && !legendLines.contains(i) {
                if i < roles.count, roles[i] == .header { streak.append(i); continue }
                close()
                priced = i < texts.count && i < roles.count && roles[i] != .name && roles[i] != .description && pricesAList(texts[i])
            }
            close()
        }
        return out
    }

    static let listHeadingRatio = 1.25

    /// The one price a line gives a list of dishes: a heading ending in a price ("ICE CREAM TUBS
    /// 4 €", "CHOCOLATE BARS £10 each"), or a note that says so ("All £5", "£3 each", "Any 2,50 €");
    /// nil for other notes ("Add fries for £2.50" prices an extra, not the list).
    static func listPrice(_ text: String, heading: Bool) -> String? {
        var t = text.trimmingSpaces()
        var each = false
        for w in [" each", " any", " ea."] where t.lowercased().hasSuffix(w) { t = String(t.dropLast(w.count)); each = true }
        guard let f = PriceParser.find(in: t, allowPlain: false), !f.price.hasPrefix("+"), f.after.isEmpty else { return nil }
        let first = t.split(separator: " ").first?.lowercased() ?? ""
        guard heading || each || ["all", "any", "alle", "tous", "toutes", "todos", "todas", "tutti", "tutte"].contains(first) else { return nil }
        return f.price
    }

    /// A heading or note that gives one price for a list ("CHOCOLATE BARS £10 each", "All £5 any"):
    /// a price with its currency, ending the line or followed by "each"/"any" only.
    static func pricesAList(_ text: String) -> Bool { listPrice(text, heading: true) != nil }

    func run() -> Output {
        let listedUnderHeading = Self.dishesReadAsHeadings(runs: runs, roles: roles, legendLines: legendLines,
                                                           texts: lines.map(\.text),
                                                           heights: lines.map { LineFeatures.height($0.ocrWords) })
        var items: [RawItem] = []
        var nameLike: [Bool] = []
        var sections: [String] = []
        var loose: [Int] = []
        var notesBySection: [(section: String?, header: Int?, lines: [Int])] = []
        var section: String? = nil
        var sectionLine: Int? = nil
        // The last heading the model read as one, and the headings in body type under it.
        var heading: (name: String, line: Int)? = nil
        var nestedIn: [Int: (name: String, line: Int)] = [:]
        func addNote(_ i: Int) {
            if let k = notesBySection.lastIndex(where: { $0.header == sectionLine }) { notesBySection[k].lines.append(i) }
            else { notesBySection.append((section, sectionLine, [i])) }
        }
        /// An "item" that was a section header: its section opens, its statements are the section's notes.
        // The price a heading or note gives every dish of its list ("CHOCOLATE BARS £10 each",
        // "All £5 any"): a dish of the list without a price of its own has it.
        var listPrice: String? = nil
        func openSection(_ c: RawItem, notes: [Int]) {
            listPrice = nil
            section = c.name
            sectionLine = c.lines.first
            sections.append(c.name)
            if let h = sectionLine, let heading { nestedIn[h] = heading }
            for j in notes { loose.append(j); addNote(j) }
        }
        // A priced page: most name lines carry a price. There a name line with
        // nothing of its own (no price, no description) directly followed by a
        // priced name is a section header set in body type ("STARTERS").
        let nameLines = roles.indices.filter { roles[$0] == .name && !legendLines.contains($0) && $0 < lines.count }
        var parsed: [Int: (name: String, price: String?, rest: [String])] = [:]
        for i in nameLines { parsed[i] = Self.parseNameLine(lines[i].text) }
        let pricedNames = nameLines.filter { parsed[$0]?.price != nil }.count
        let pricedPage = nameLines.count >= 3 && Double(pricedNames) >= 0.5 * Double(nameLines.count)
        // A centred page: most dishes have their price on a line of their own after the name and its
        // description lines ("BEER-BATTERED COD" / "6,50", "LAKE PERCH" / "lightly breaded" / "22").
        // There the priced names' median height, to tell a heading set larger than them.
        let centredNameHeight: Double? = {
            guard !pricedPage, nameLines.count >= 3 else { return nil }
            var position: [Int: (run: Int, k: Int)] = [:]
            for (r, run) in runs.enumerated() { for (k, i) in run.enumerated() { position[i] = (r, k) } }
            let later = nameLines.filter { i in
                guard parsed[i]?.price == nil, let at = position[i], at.run < runs.count else { return false }
                return pricedLater(at.k, of: runs[at.run])
            }
            guard 2 * (pricedNames + later.count) >= nameLines.count, !later.isEmpty else { return nil }
            return LineFeatures.medianHeight(later.map { LineFeatures.height(lines[$0].ocrWords) })
        }()
        // A page that prints no price at all (asked only of a line that sets a name beside its
        // description: most pages never need the look at every line).
        lazy var unpricedPage = !runs.joined().contains { $0 >= 0 && $0 < lines.count && !legendLines.contains($0)
            && PriceParser.find(in: lines[$0].text, allowPlain: false) != nil }
        // A page that prints most of its dishes' names in capitals: there a line in lower case right
        // under a dish, without a price, describes it ("SCHINKENPLATTE 22" over "Kochschinken,
        // Schwarzwälder Schinken") even where the model read it as a name.
        let capitalNames = nameLines.filter { MenuStructurer.isMostlyCapitals(parsed[$0]?.name ?? "") }.count
        let namesInCapitals = nameLines.count >= 3 && 2 * capitalNames > nameLines.count
        let nameHeights = nameLines.map { LineFeatures.height(lines[$0].ocrWords) }
        let nameHeight = LineFeatures.medianHeight(nameHeights)
        let pricedDescriptions = Self.descriptionsEndInPrices(
            roles.indices.filter { roles[$0] == .description && !legendLines.contains($0) && $0 < lines.count }
                .map { lines[$0].text })
        let sizes = Self.headingSizes(
            headings: roles.indices.filter { roles[$0] == .header && !legendLines.contains($0) && $0 < lines.count }
                .map { LineFeatures.height(lines[$0].ocrWords) },
            pricedNames: zip(nameLines, nameHeights).filter { parsed[$0.0]?.price != nil }.map(\.1))
        func height(_ c: RawItem) -> Double? {
            guard let first = c.lines.first, first >= 0, first < lines.count else { return nil }
            return LineFeatures.height(lines[first].ocrWords)
        }
        /// The notes of `c` read as a heading set in body type (`headerNotes`), or nil when it is an
        /// item: also when its first line is of the priced names' size on a page whose headings
        /// stand out by size. Where they stand out, a line that passes is set in their size.
        func bodyHeadingNotes(_ c: RawItem) -> [Int]? {
            // One of the dishes listed under a heading is none itself.
            if let first = c.lines.first, listedUnderHeading.contains(first) { return nil }
            guard let h = height(c), Self.mayBeHeading(height: h, sizes: sizes) else { return nil }
            return headerNotes(c, sizedAsHeading: sizes != nil)
        }
        /// Whether line `i` (`text`) goes on with the name of the open dish `c`, whose last line is
        /// `last`: right under it, and the name was cut off at a joining word or a comma, or the
        /// line opens with a joining word, or (on a priced page) it follows with no gap.
        func goesOnWithName(_ c: RawItem, last: Int, line i: Int, text: String) -> Bool {
            guard i < roles.count, sitsUnder(i, last) else { return false }
            if Self.nameGoesOn(c, lastLine: lines[last].text) { return roles[i] == .name || roles[i] == .description }
            guard roles[i] == .name, Self.isBareName(c) else { return false }
            return Self.opensWithJoiningWord(text) || pricedPage && c.lines.count == 1 && setAsOneName(last, i)
        }
        for run in runs {
            var current: RawItem? = nil
            var currentNameLike = false
            func finish() {
                if var it = current {
                    it.closed = true
                    if it.price == nil { it.listPrice = listPrice }
                    items.append(it); nameLike.append(currentNameLike)
                }
                current = nil
            }
            /// Closes the open dish and opens one from a name line read by `parseNameLine`.
            func open(_ p: (name: String, price: String?, rest: [String]), lines ls: [Int], nameLike: Bool = false) {
                finish()
                var it = RawItem(section: section, sectionLine: sectionLine, name: p.name, price: p.price, lines: ls)
                it.descriptionParts = p.rest
                current = it
                currentNameLike = nameLike
            }
            for (k, i) in run.enumerated() where i >= 0 && i < lines.count {
                let text = lines[i].text.trimmingCharacters(in: .whitespaces)
                if text.isEmpty { continue }
                if legendLines.contains(i) { finish(); continue }
                // A name cut off by its line's end ("Großer Salatteller mit" / "Räucherlachs 12,50"):
                // the line under it goes on with the name, whatever role the model gave it.
                if let c = current, let last = c.lines.last, goesOnWithName(c, last: last, line: i, text: text) {
                    let p = Self.parseNameLine(text)
                    if p.name.contains(where: \.isLetter) {
                        current!.name = Self.joinName(c.name, lastLine: lines[last].text, p.name)
                        current!.price = p.price
                        current!.descriptionParts = p.rest
                        current!.lines.append(i)
                        continue
                    }
                }
                if MenuStructurer.isCodeOnly(text) {
                    if current != nil { current!.lines.append(i) }
                    else if !items.isEmpty, items[items.count - 1].lines.last.map({ $0 + 1 == i }) == true { items[items.count - 1].lines.append(i) }
                    else { loose.append(i) }
                    continue
                }
                var role = i < roles.count ? roles[i] : .other
                if role == .header, listedUnderHeading.contains(i) { role = .name }
                // On a page of capital names a priced line in capitals is a dish, also where the
                // model read it as a description or a price ("TOSTA MISTA 9 160 Cal" under "PREGO NO PÃO").
                if role == .description || role == .price, namesInCapitals, MenuStructurer.isMostlyCapitals(text) {
                    let p = Self.parseNameLine(text)
                    if p.price != nil, MenuStructurer.isMostlyCapitals(p.name) {
                        role = .name
                        parsed[i] = p
                    }
                }
                // The first line of a name set over two lines ("Bianca in Chickpeas Sauce with" /
                // "Yoghurt 16€") read as a description: capitalised, cut off by a joining word,
                // after a priced dish (or none), with a priced name right under it in its column.
                if role == .description, current?.price != nil || current == nil, MenuStructurer.endsUnfinished(text),
                   MenuStructurer.startsCapitalised(text), lineRole(at: k + 1, of: run) == .name,
                   let below = lineText(at: k + 1, of: run), sitsUnder(run[k + 1], i),
                   Self.hasOwnPrice(below) || pricedBelow(k + 1, of: run) {
                    role = .name
                }
                // On a centred page (dishes priced on a line of their own after their description), a
                // line read as a heading but set in the dishes' size (under `headingSizeRatio` times
                // their median), with description lines and then its own price under it, is a dish
                // ("BIDUS" / "reindeer stew with potato, carrot and swede" / "9,5").
                if role == .header, let names = centredNameHeight, !listedUnderHeading.contains(i),
                   LineFeatures.height(lines[i].ocrWords) < Self.headingSizeRatio * names,
                   lineRole(at: k + 1, of: run) == .description, pricedLater(k, of: run) {
                    role = .name
                }
                // A heading never ends in a joining word ("Reibeplätzchen mit"): a line that does
                // and has a name or description under it is a dish whose name goes on.
                if role == .header, MenuStructurer.endsUnfinished(text), let below = lineRole(at: k + 1, of: run),
                   below == .name || below == .description {
                    role = .name
                }
                // A page that sets its headings in capitals and its dishes' names not: a bare line in
                // capitals read as a name (no price, nothing beside it) with a dish's name not in
                // capitals right under it is a heading ("PIES & ROLLS" over "Four'N Twenty Meat Pie").
                if role == .name, headingsInCapitals, !namesInCapitals, MenuStructurer.isMostlyCapitals(text),
                   case let p = parsed[i] ?? Self.parseNameLine(text), p.price == nil, p.rest.isEmpty,
                   lineRole(at: k + 1, of: run) == .name, let below = lineText(at: k + 1, of: run),
                   !MenuStructurer.isMostlyCapitals(below), sitsUnder(run[k + 1], i) {
                    role = .header
                }
                // "CHOCOLATE BARS 7,00 each" over unpriced names: the list's heading, read as a dish.
                if role == .name, let last = text.split(separator: " ").last, ["each", "any"].contains(last.lowercased()),
                   Self.listPrice(text, heading: false) != nil, lineRole(at: k + 1, of: run) == .name,
                   let below = lineText(at: k + 1, of: run), Self.parseNameLine(below).price == nil {
                    role = .header
                }
                if role == .header {
                    finish()
                    listPrice = Self.listPrice(text, heading: true)
                } else if role == .note || role == .other || role == .description && current == nil,
                          let price = Self.listPrice(text, heading: false) {
                    finish()
                    listPrice = price
                }
                switch role {
                case .header:
                    // (The open dish was finished above, before the heading's list price.)
                    let header = MenuStructurer.stripCodes(text)
                    section = header
                    sectionLine = i
                    sections.append(header)
                    heading = (header, i)
                case .name:
                    let p = parsed[i] ?? Self.parseNameLine(text)
                    if namesInCapitals, p.price == nil, p.rest.isEmpty, !MenuStructurer.isMostlyCapitals(p.name),
                       let c = current, MenuStructurer.isMostlyCapitals(c.name), c.descriptionParts.count < Self.maxDescriptionLines,
                       gapAbove(i, after: c.lines.last) <= Self.maxDescriptionGap {
                        current!.descriptionParts.append(text)
                        current!.lines.append(i)
                        continue
                    }
                    // A short line in description type under a dish whose price is still to come
                    // ("Döner im Brot" / "Kalbfleisch" / "3€"): the model read it as a name, its size
                    // says it describes the dish above.
                    if p.price == nil, let c = current, c.price == nil, c.descriptionParts.count < Self.maxDescriptionLines,
                       let above = height(c),
                       Self.describesInSmallerType(height: LineFeatures.height(lines[i].ocrWords), above: above, names: nameHeight),
                       gapAbove(i, after: c.lines.last) <= Self.maxDescriptionGap {
                        current!.descriptionParts.append(text)
                        current!.lines.append(i)
                        continue
                    }
                    if pricedPage, p.price != nil, let c = current, let notes = bodyHeadingNotes(c) {
                        current = nil
                        openSection(c, notes: notes)
                    }
                    // The same on a centred page, where the next dish's price is on a line of its own
                    // after it. There a bare "item" (nothing under it) is a heading only when it is set
                    // larger than the priced names (by `headingSizeRatio`): a dish whose price OCR
                    // missed is a bare name before a priced one too. One with a statement about its
                    // section under it ("KUSHIKATSU" over "Batter: wheat flour… Our shared dipping
                    // sauce…") is one by its words.
                    if let names = centredNameHeight, p.price == nil, pricedLater(k, of: run), let c = current,
                       let first = c.lines.first, !listedUnderHeading.contains(first), let h = height(c),
                       case let sized = h >= Self.headingSizeRatio * names,
                       let notes = headerNotes(c, sizedAsHeading: sized), !notes.isEmpty || sized {
                        current = nil
                        openSection(c, notes: notes)
                    }
                    let head = p.name.filter(\.isLetter).count >= 2 ? takeWrappedHead(from: &current, before: i) : nil
                    finish()
                    if p.name.filter(\.isLetter).count < 2 {
                        // nothing name-like left (a price with a scrap): treat as a price line
                        loose.append(i)
                        continue
                    }
                    open((head.map { $0.text + " " + p.name } ?? p.name, p.price, p.rest), lines: head.map { $0.lines + [i] } ?? [i],
                         nameLike: (i < nameProbability.count ? nameProbability[i] : 0) >= 0.5)
                case .description:
                    // On a priced page a priced line right after an unpriced, bare "name"
                    // is the item and the bare line its section header (typography alone
                    // did not tell them apart).
                    if pricedPage, let c = current, let f = PriceParser.find(in: text, allowPlain: false), !f.price.hasPrefix("+"),
                       MenuStructurer.nameScore(f.before) >= 1, let notes = bodyHeadingNotes(c) {
                        current = nil
                        openSection(c, notes: notes)
                        open(Self.parseNameLine(text), lines: [i])
                        continue
                    }
                    // A priced line after a priced dish, under the first part of its name that was
                    // read as that dish's description ("Leek and Potato Soup in" / "Black Beans Sauce
                    // with Charred Corn 6€"): the two lines are the next dish's name.
                    if current?.price != nil, let f = PriceParser.find(in: text, allowPlain: false), !f.price.hasPrefix("+"),
                       !f.before.isEmpty, let head = takeWrappedHead(from: &current, before: i) {
                        let p = Self.parseNameLine(text)
                        open((head.text + " " + p.name, p.price, p.rest), lines: head.lines + [i])
                        continue
                    }
                    // A dish's price is taken: a capitalised line after it with a price of its own on
                    // the line under it ("Miso Soup on Jalapeños with Tomato" / "11,00") is the next dish.
                    if current?.price != nil, MenuStructurer.startsCapitalised(text), pricedBelow(k, of: run),
                       PriceParser.find(in: text, allowPlain: false) == nil {
                        let p = Self.parseNameLine(text)
                        open((p.name, nil, p.rest), lines: [i])
                        continue
                    }
                    // "Minestrone – coriander and lemon on feta $14": a priced line that sets a short
                    // capitalised name beside its description is a dish of its own where no item is
                    // open or the open one has its price already.
                    if current == nil || current!.price != nil, let p = Self.besideDish(text) {
                        open(p, lines: [i])
                        continue
                    }
                    // The same on a page that prints no prices, where no item is open or the open one
                    // has its description already ("Turkey Fillet" / "Mayonnaise and gherkins …" /
                    // "Seasonal Greens — avocado and basil"). Under a bare name such a line is its
                    // description.
                    if current == nil || !current!.descriptionParts.isEmpty, let p = Self.unpricedBesideDish(text), unpricedPage {
                        open(p, lines: [i])
                        continue
                    }
                    if current == nil {
                        // Text under a section header before its first item describes the
                        // section: a section note ("All burgers come on a brioche bun").
                        // (Not a capitalised line whose price follows on its own line: "Buffalo (mild,
                        // hot)" / "10€" is a dish whose name the model read as a description; the
                        // tail of a description, "aioli and capers" / "$8", is not.)
                        let priceFollows = lineRole(at: k + 1, of: run) == .price && MenuStructurer.startsCapitalised(text)
                        if sectionLine != nil, items.last?.sectionLine != sectionLine, !priceFollows,
                           PriceParser.find(in: text, allowPlain: false) == nil {
                            loose.append(i)
                            addNote(i)
                            continue
                        }
                        // Otherwise the model missed the name; a short line opens an item,
                        // and so does a long one that sets a short name beside its description
                        // over its own price ("Earl Grey — capers, sesame and bacon" / "£19.00");
                        // another long one is left out.
                        let p = Self.parseNameLine(text)
                        let besideName = priceFollows && !p.rest.isEmpty && (1...5).contains(p.name.split(separator: " ").count)
                        if text.split(separator: " ").count <= 6 || besideName, p.name.filter(\.isLetter).count >= 3 {
                            open(p, lines: [i])
                        } else {
                            loose.append(i)
                        }
                        continue
                    }
                    // A dish's price is taken: an unpriced line set apart from it (a gap of a line
                    // height at least) with a line right under it (within half that gap) that goes on
                    // and ends in its own price is the next dish ("4 halbe Eier mit Frankfurter Soße" /
                    // "und Bratkartoffeln € 7,50"), its first line the name.
                    if current!.price != nil, PriceParser.find(in: text, allowPlain: false) == nil, !text.hasSuffix(":"),
                       case let apart = gapAbove(i, after: current!.lines.last), apart >= 1,
                       lineRole(at: k + 1, of: run) == .description, let below = lineText(at: k + 1, of: run),
                       Self.hasOwnPrice(below.trimmingSpaces()), sitsUnder(run[k + 1], i),
                       2 * gapAbove(run[k + 1], after: i) <= apart {
                        open((text, nil, []), lines: [i])
                        continue
                    }
                    // A description belongs to the item right above it: not after a wide gap,
                    // and not beyond a few lines (prose under a menu is no item's description).
                    let descLines = current!.lines.filter { $0 < roles.count && roles[$0] == .description }.count
                    if descLines >= Self.maxDescriptionLines || gapAbove(i, after: current!.lines.last) > Self.maxDescriptionGap {
                        finish()
                        loose.append(i)
                        continue
                    }
                    var t = text
                    // A price ending the description, also before its calorie count
                    // ("… and tomato 12.00 580 Cal": a price column read onto this row).
                    let (uncounted, cals) = Self.splitCalories(text)
                    if current!.price == nil, let f = PriceParser.find(in: uncounted, allowPlain: false), !f.price.hasPrefix("+"), !f.before.isEmpty {
                        current!.price = f.price
                        t = ([f.before] + (f.after.isEmpty ? [] : [f.after]) + cals).joined(separator: " ")
                    } else if current!.price == nil, let f = PriceParser.find(in: uncounted, allowPlain: true), f.after.isEmpty,
                              !f.price.hasPrefix("+"), !f.before.isEmpty,
                              Self.endsInColumn(lines[i].ocrWords, token: f.price)
                                || (pricedDescriptions && Self.plainPriceEnding(uncounted) != nil) {
                        // A plain number ending the row after a gutter ("aioli and rocket    12 550 Cal"):
                        // the price column read onto this row, as with a strong price above. Or on a
                        // page whose descriptions end in their prices, a plain one ("… spring onion 11").
                        current!.price = f.price
                        t = ([f.before] + cals).joined(separator: " ")
                    }
                    current!.descriptionParts.append(t)
                    current!.lines.append(i)
                case .price:
                    guard current != nil else { loose.append(i); continue }
                    let (rest, cals) = Self.splitCalories(text)
                    if current!.price == nil, let f = PriceParser.find(in: rest, allowPlain: true) {
                        current!.price = f.price
                        let extra = [f.before, f.after].filter { !$0.trimmingCharacters(in: CharacterSet(charactersIn: " ·•-–|")).isEmpty }
                        current!.descriptionParts += extra + cals
                    } else {
                        current!.descriptionParts.append(text)
                    }
                    current!.lines.append(i)
                case .note:
                    finish()
                    loose.append(i)
                    addNote(i)
                case .other:
                    finish()
                    loose.append(i)
                }
            }
            finish()
        }
        attachPriceColumn(items: &items, loose: &loose)
        attachPricedDescriptions(items: &items, loose: &loose)
        // Every item of a section gets its section's notes as context, and those of the
        // heading a heading in body type sits under.
        func notes(of header: Int?) -> [Int] {
            guard let header else { return [] }
            return notesBySection.filter { $0.header == header }.flatMap(\.lines)
        }
        for k in items.indices {
            items[k].noteLines = notes(of: items[k].sectionLine)
            if let h = items[k].sectionLine, let parent = nestedIn[h] {
                items[k].parentSection = parent.name
                items[k].parentSectionLine = parent.line
                items[k].parentNoteLines = notes(of: parent.line)
            }
        }
        return Output(items: items, sections: sections, looseLines: loose,
                      sectionNotes: notesBySection.map { ($0.section, $0.lines) }, nameLike: nameLike)
    }
}
