import Foundation
import Testing
@testable import MenuScanKit

/// Shared by the allergen and menu tests: the repository's lexicon, found via
/// this file's path (Tests/MenuScanKitTests → ../../models), never the cwd.
enum AllergenFixtures {
    static let modelsDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("models", isDirectory: true)
    static let lexiconDirectory = modelsDirectory.appendingPathComponent("allergens", isDirectory: true)
    static let lexicon: AllergenLexicon = {
        do { return try AllergenLexicon.load(from: lexiconDirectory) } catch { fatalError("lexicon: \(error)") }
    }()
    static let analyzer = MenuAnalyzer(lexicon: lexicon)

    /// One item, classified from plain text.
    static func item(_ text: String, profile: AllergenProfile? = nil) -> MenuItem {
        let a = analyzer.analyze(text: text, perLine: true, profile: profile)
        precondition(a.items.count == 1, "expected one item")
        return a.items[0]
    }

    static func ids(_ item: MenuItem) -> Set<AllergenID> { Set(item.allergens.map(\.id)) }

    static func tempDir() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("menuscan-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}

@Suite struct AllergenLexiconTests {
    /// `AllergenID.order` is the place in `allCases` (what `<` used to read), and the ids hash
    /// by it: equal ids hash equally, the 14 hash apart, and sets and dictionaries of ids hold
    /// what they held (the sorted sets of every pair of ids, the first sorted before the second).
    @Test func allergenIDOrderAndHash() {
        for (k, id) in AllergenID.allCases.enumerated() {
            #expect(id.order == k && AllergenID.allCases.firstIndex(of: id) == k)
            var a = Hasher(), b = Hasher()
            id.hash(into: &a)
            b.combine(k)
            #expect(a.finalize() == b.finalize())
            #expect(AllergenID(rawValue: id.rawValue).map { Set([$0, id]).count } == 1)
        }
        #expect(Set(AllergenID.allCases.map(\.hashValue)).count == AllergenID.allCases.count)
        let place = Dictionary(uniqueKeysWithValues: AllergenID.allCases.enumerated().map { ($1.rawValue, $0) })
        for a in AllergenID.allCases {
            for b in AllergenID.allCases {
                #expect((a < b) == ((place[a.rawValue] ?? -1) < (place[b.rawValue] ?? -1)))
                let set: Set<AllergenID> = [a, b, a]
                #expect(set.count == (a == b ? 1 : 2) && set.contains(a) && set.contains(b))
                #expect(set.sorted() == AllergenID.allCases.filter { $0 == a || $0 == b })
                let map = Dictionary([(a, 1), (b, 2)], uniquingKeysWith: +)
                #expect(map[a] == (a == b ? 3 : 1))
            }
        }
    }

    @Test func loadsSeveralHundredTermsInFiveLanguages() throws {
        let lex = AllergenFixtures.lexicon
        #expect(lex.termCount >= 600)
        #expect(lex.qualifierCount >= 80)
        let langs = Set(lex.entries.map(\.lang))
        for l in ["en", "fr", "de", "es", "it"] { #expect(langs.contains(l), "language \(l)") }
        // every allergen group has explicit evidence words
        for id in AllergenID.allCases {
            #expect(lex.entries.contains { $0.kind == .explicit && $0.allergens.contains(id) }, "\(id)")
        }
        #expect(lex.letterCodes["A"] == [.gluten])
        #expect(lex.letterCodes["R"] == [.molluscs])
        #expect(lex.letterCodes.count == 14)
    }

    /// The provisional rows are split a pass a file (no table file over 2 MB): provisional.tsv, then
    /// provisional-*.tsv by round number (round100 after round99), the passes' order. The repository's tables load every file: a
    /// round-27 row is there, as provisional as the earlier passes' rows.
    @Test func provisionalRowsLoadFromEveryPassFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("provisional-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["provisional-round100.tsv", "provisional-round28.tsv", "lexicon.tsv", "provisional-round27.tsv",
                     "provisional-round99.tsv", "provisional-notes.md"] {
            try Data().write(to: dir.appendingPathComponent(name))
        }
        #expect(AllergenLexicon.provisionalFiles(in: dir) == ["provisional.tsv", "provisional-round27.tsv", "provisional-round28.tsv",
                                                               "provisional-round99.tsv", "provisional-round100.tsv"])
        let lex = AllergenFixtures.lexicon
        let round27 = lex.entries.filter { $0.why.hasSuffix("(round 27: written, then read blind)") }
        #expect(round27.count > 2000 && round27.allSatisfy(\.provisional))
        #expect(lex.entries.contains { $0.provisional && $0.why.hasSuffix("(round 26: written, then read blind)") })
    }

    /// Dishes in their own script are read exactly ("ΓΥΡΟΣ" folds as "γύρος", final sigma and
    /// all); only Latin-script terms are OCR-tolerant (fuzzy) candidates.
    @Test func otherScriptsAreMatchedExactly() {
        let lex = AllergenFixtures.lexicon
        #expect(lex.fuzzyCandidates.allSatisfy { lex.entries[$0].term.unicodeScalars.allSatisfy { $0.value < 0x250 } })
        #expect(TextFold.fold("ΓΥΡΟΣ") == TextFold.fold("γύρος"))
        #expect(AllergenFixtures.ids(AllergenFixtures.item("Σπανακόπιτα")).isSuperset(of: [.gluten, .milk]))
        #expect(AllergenFixtures.ids(AllergenFixtures.item("Баница")).contains(.gluten))
    }

    @Test func lexiconIsDataNotCode() throws {
        // The same analyzer reads a different lexicon from another folder.
        let dir = try AllergenFixtures.tempDir()
        try "# test\nfoozle\tpeanuts\texplicit\t\tgroup\ten\n".write(to: dir.appendingPathComponent("lexicon.tsv"), atomically: true, encoding: .utf8)
        try "no\tabsent_before\n".write(to: dir.appendingPathComponent("qualifiers.tsv"), atomically: true, encoding: .utf8)
        try "A\tgluten\n".write(to: dir.appendingPathComponent("codes.tsv"), atomically: true, encoding: .utf8)
        let lex = try AllergenLexicon.load(from: dir)
        let a = MenuAnalyzer(lexicon: lex).analyze(text: "foozle cake\nno foozle", perLine: true, profile: nil)
        #expect(a.items[0].allergens.map(\.id) == [.peanuts])
        #expect(a.items[1].allergens.isEmpty)
        #expect(a.items[1].declaredAbsent == [.peanuts])
    }

    /// A term with a lexicon row and a dish row (round 21: "mustard" may hold sulphites) holds
    /// what both give: a legend's "Mustard" and "no mustard" still name mustard. (The last row
    /// of a term used to speak for it alone, so the dish row's empty `contains` left every
    /// mustard and soy code of a legend unread.)
    @Test func aTermHoldsWhatEveryRowOfItGives() throws {
        let dir = try AllergenFixtures.tempDir()
        try "foozle\tpeanuts\texplicit\t\tgroup\ten\n".write(to: dir.appendingPathComponent("lexicon.tsv"), atomically: true, encoding: .utf8)
        try "foozle\t-\tsesame\t-\tdish\ten\tfoozle: may hold sesame\n".write(to: dir.appendingPathComponent("dishes.tsv"), atomically: true, encoding: .utf8)
        try "no\tabsent_before\n".write(to: dir.appendingPathComponent("qualifiers.tsv"), atomically: true, encoding: .utf8)
        try "A\tgluten\n".write(to: dir.appendingPathComponent("codes.tsv"), atomically: true, encoding: .utf8)
        let lex = try AllergenLexicon.load(from: dir)
        #expect(lex.allergens(forLegendName: "Foozle") == [.peanuts])
        let a = MenuAnalyzer(lexicon: lex).analyze(text: "foozle cake\nno foozle", perLine: true, profile: nil)
        #expect(a.items[0].allergens.map(\.id) == [.peanuts])
        #expect(a.items[0].mayContain == [.sesame])
        #expect(a.items[1].declaredAbsent == [.peanuts])
        // The shipped tables: every allergen name a legend prints reads as its allergen.
        let shipped = AllergenFixtures.lexicon
        for (name, id) in [("Mustard", AllergenID.mustard), ("Senf", .mustard), ("Soya", .soybeans), ("Soy", .soybeans),
                           ("Nuts", .tree_nuts), ("Celery", .celery), ("Sesame", .sesame), ("Milk", .milk)] {
            #expect(shipped.allergens(forLegendName: name)?.contains(id) == true, "\(name)")
        }
    }

    @Test func malformedLexiconIsAMenuScanError() throws {
        let dir = try AllergenFixtures.tempDir()
        try "butter\tbutterfat\texplicit\n".write(to: dir.appendingPathComponent("lexicon.tsv"), atomically: true, encoding: .utf8)
        try "no\tabsent_before\n".write(to: dir.appendingPathComponent("qualifiers.tsv"), atomically: true, encoding: .utf8)
        try "A\tgluten\n".write(to: dir.appendingPathComponent("codes.tsv"), atomically: true, encoding: .utf8)
        #expect(throws: MenuScanError.self) { try AllergenLexicon.load(from: dir) }
        do { _ = try AllergenLexicon.load(from: dir) } catch let e as MenuScanError {
            #expect(e.code == "MSG-ALLERGEN-002")
            #expect(e.severity == .critical)
            #expect(e.detail?.contains("lexicon.tsv:1") == true)
        }
    }

    @Test func missingLexiconIsAMenuScanError() throws {
        let dir = try AllergenFixtures.tempDir()
        do {
            _ = try AllergenLexicon.load(from: dir)
            Issue.record("expected an error")
        } catch let e as MenuScanError {
            #expect(e.code == MenuScanError.lexiconUnavailable.code)
        }
    }

    @Test func loadDefaultFindsModelsViaEnvironment() throws {
        // ModelLocator honours $MENUSCAN_MODELS; the path resolution itself is tested there.
        let url = ModelLocator.modelsDirectory(environment: ["MENUSCAN_MODELS": AllergenFixtures.modelsDirectory.path], executable: "")
        #expect(url?.standardizedFileURL.path == AllergenFixtures.modelsDirectory.standardizedFileURL.path)
    }

    /// Table rows are read from the bytes: fields trimmed, blank and comment lines skipped,
    /// line numbers kept for error messages, and a file saved with "\r\n" line ends reads
    /// as the same rows as with "\n".
    @Test func tableRowsFromLFAndCRLFFilesAlike() {
        let lf = "# comment\ncrêpe\tgluten, \t-\n\n \t \nbrötchen\tgluten\n#x\tmilk\n  ahi  \t-\t\n"
        let expected: [(Int, [String])] = [(2, ["crêpe", "gluten,", "-"]), (5, ["brötchen", "gluten"]), (7, ["ahi", "-", ""])]
        for text in [lf, lf.replacingOccurrences(of: "\n", with: "\r\n")] {
            let rows = AllergenLexicon.rows(text)
            #expect(rows.map(\.0) == expected.map(\.0))
            #expect(rows.map(\.1) == expected.map(\.1))
        }
        #expect(AllergenLexicon.rows("").isEmpty)
        #expect(AllergenLexicon.rows("\n\n").isEmpty)
    }

    /// The dish layer's own convention (dishes.tsv header): soy sauce is brewed with wheat, so a
    /// row whose evidence names soy sauce, kecap, ponzu, teriyaki, hoisin or oyster sauce carries
    /// gluten (contains or may contain), unless it says tamari or gluten-free. 117 rows broke it
    /// before round 8, and each was a "safe" for gluten on a dish seasoned with soy sauce.
    @Test func soySauceRowsCarryGluten() throws {
        let sauce = try NSRegularExpression(pattern: "soy sauce|kecap|ketjap|ponzu|shoyu|teriyaki|hoisin|oyster sauce|unagi sauce",
                                            options: [.caseInsensitive])
        let exempt = try NSRegularExpression(pattern: "tamari|gluten.free", options: [.caseInsensitive])
        let rows = AllergenFixtures.lexicon.entries.filter { $0.table == .dishes }
        #expect(rows.count > 6_000)
        var checked = 0
        for e in rows {
            let why = e.why as NSString
            guard sauce.firstMatch(in: e.why, range: NSRange(location: 0, length: why.length)) != nil,
                  exempt.firstMatch(in: e.why, range: NSRange(location: 0, length: why.length)) == nil else { continue }
            checked += 1
            #expect(e.allergens.contains(.gluten) || e.mayContain.contains(.gluten), "\(e.term): soy sauce without gluten")
        }
        #expect(checked > 100)
    }

    /// A dish and its translation or spelling say the same (round 8): "tarte" as "tart",
    /// "sambosa" as "samosa", "kougelhopf" as "gugelhupf".
    @Test func translatedDishesCarryTheSameAllergens() {
        let groups: [[String]] = [["tart", "tarte", "tartelette", "taart"], ["samosa", "sambosa", "samusa", "samboosa"],
                                  ["gugelhupf", "kougelhopf", "kouglof"]]
        for g in groups {
            let items = g.map { AllergenFixtures.item($0) }
            let base = AllergenFixtures.ids(items[0])
            #expect(base.contains(.gluten))
            for (word, item) in zip(g, items) {
                #expect(AllergenFixtures.ids(item) == base, "\(word)")
                #expect(item.unknownTerms.isEmpty, "\(word)")
            }
        }
        // Dutch and Portuguese allergen words; Dutch "noten" (nuts) was read as the known word "note".
        #expect(AllergenFixtures.ids(AllergenFixtures.item("Gemengde noten")).contains(.tree_nuts))
        #expect(AllergenFixtures.ids(AllergenFixtures.item("Tosti met kaas")).contains(.milk))
        #expect(AllergenFixtures.ids(AllergenFixtures.item("Pastel de queijo")).contains(.milk))
        // Spanish and Portuguese "caldo" is broth (known.tsv's "caldo" is Italian "hot").
        #expect(AllergenFixtures.item("Caldo de pollo").mayContain.contains(.celery))
        // Fresh and Alsatian noodles are egg noodles.
        #expect(AllergenFixtures.item("nouilles maison").mayContain.contains(.eggs)
                || AllergenFixtures.ids(AllergenFixtures.item("nouilles maison")).contains(.eggs))
    }

    @Test func allergenIDsAndUSNames() {
        #expect(AllergenID.allCases.count == 14)
        #expect(AllergenID.tree_nuts.rawValue == "tree_nuts")
        #expect(AllergenID.gluten.usName == "Wheat (or another gluten cereal)")
        #expect(AllergenID.molluscs.usName == nil)
        #expect(AllergenFixtures.item("Shrimp").allergens.first?.usName == "Shellfish (crustacean)")
        #expect(AllergenID.ids(forName: "shellfish") == [.crustaceans, .molluscs])
        #expect(AllergenID.ids(forName: "Tree nuts") == [.tree_nuts])
        #expect(AllergenID.ids(forName: "dairy") == [.milk])
        #expect(AllergenID.ids(forName: "kale") == nil)
    }

    @Test func foldingRemovesAccentsAndLigatures() {
        #expect(TextFold.fold("Käse") == "kase")
        #expect(TextFold.fold("Bœuf") == "boeuf")
        #expect(TextFold.fold("Weißwurst") == "weisswurst")
        #expect(TextFold.fold("Crème Brûlée") == "creme brulee")
        // Letters without a canonical decomposition.
        #expect(TextFold.fold("Cacık") == "cacik")
        #expect(TextFold.fold("Đậu") == "dau")
        #expect(TextFold.fold("Łosoś") == "losos")
        #expect(TextFold.fold("Smørrebrød") == "smorrebrod")
    }
}

@Suite struct AllergenProfileTests {
    @Test func parsesListsWithSynonyms() throws {
        let p = try AllergenProfile.parse(list: "milk, Peanuts;tree nuts\nshellfish,wheat")
        #expect(p.allergens == [.milk, .peanuts, .tree_nuts, .crustaceans, .molluscs, .gluten])
    }

    @Test func unknownNameIsAnErrorNotASmallerProfile() {
        #expect(throws: MenuScanError.self) { try AllergenProfile.parse(list: "milk,peanutz") }
        do { _ = try AllergenProfile.parse(list: "milk,peanutz") } catch let e as MenuScanError {
            #expect(e.code == "MSG-ALLERGEN-001")
            #expect(e.detail?.contains("peanutz") == false) // R12: no user text in details
        } catch { Issue.record("wrong error") }
        #expect(throws: MenuScanError.self) { try AllergenProfile.parse(list: " , ") }
    }

    @Test func loadsJSONAndTextProfiles() throws {
        let dir = try AllergenFixtures.tempDir()
        let json = dir.appendingPathComponent("p.json")
        try #"{"allergens": ["sesame", "eggs"]}"#.write(to: json, atomically: true, encoding: .utf8)
        #expect(try AllergenProfile.load(from: json).allergens == [.sesame, .eggs])
        let txt = dir.appendingPathComponent("p.txt")
        try "# my allergies\nmustard\ncelery # since 2019\n".write(to: txt, atomically: true, encoding: .utf8)
        #expect(try AllergenProfile.load(from: txt).allergens == [.mustard, .celery])
        #expect(throws: MenuScanError.self) { try AllergenProfile.load(from: dir.appendingPathComponent("missing.txt")) }
        let bad = dir.appendingPathComponent("bad.json")
        try #"{"allergens": 3}"#.write(to: bad, atomically: true, encoding: .utf8)
        #expect(throws: MenuScanError.self) { try AllergenProfile.load(from: bad) }
    }

    @Test func profileRoundTripsAsSortedJSON() throws {
        let p = AllergenProfile(allergens: [.sesame, .gluten])
        let data = try JSONEncoder().encode(p)
        #expect(String(decoding: data, as: UTF8.self) == #"{"allergens":["gluten","sesame"]}"#)
        #expect(try JSONDecoder().decode(AllergenProfile.self, from: data) == p)
    }
}
