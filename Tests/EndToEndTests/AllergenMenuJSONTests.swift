import Foundation
import Testing
import MenuScanKit

/// End to end through the public API only: lexicon from models/, a menu in
/// several languages, the JSON the CLI and the photo pipeline write.
@Suite struct AllergenMenuJSONTests {
    static let lexiconDir = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("models/allergens", isDirectory: true)

    @Test func multilingualMenuToJSON() throws {
        let analyzer = MenuAnalyzer(lexicon: try AllergenLexicon.load(from: Self.lexiconDir))
        let text = """
        ENTRÉES
        Soupe à l'oignon gratinée 8,50 €
        Croûtons, gruyère
        Moules marinières 14,00 €
        Vin blanc, crème
        HAUPTSPEISEN
        Käsespätzle A,C,G 12,90
        mit Röstzwiebeln
        PRIMI
        Spaghetti alle vongole 13,00 €
        aglio, olio, prezzemolo
        POSTRES
        Flan de la casa 5,00 €
        Sin gluten
        """
        let profile = try AllergenProfile.parse(list: "molluscs,gluten")
        let menu = analyzer.analyze(text: text, perLine: false, profile: profile)
        #expect(menu.items.map(\.name) == ["Soupe à l'oignon gratinée", "Moules marinières", "Käsespätzle",
                                           "Spaghetti alle vongole", "Flan de la casa"])
        #expect(menu.sections == ["ENTRÉES", "HAUPTSPEISEN", "PRIMI", "POSTRES"])
        let byName = Dictionary(uniqueKeysWithValues: menu.items.map { ($0.name, $0) })
        #expect(Set(byName["Moules marinières"]!.allergens.map(\.id)).isSuperset(of: [.molluscs, .sulphites, .milk]))
        #expect(byName["Moules marinières"]!.safety == .unsafe)
        #expect(byName["Spaghetti alle vongole"]!.safety == .unsafe)
        #expect(Set(byName["Käsespätzle"]!.allergens.map(\.id)) == [.gluten, .eggs, .milk])
        #expect(byName["Flan de la casa"]!.declaredAbsent == [.gluten])
        #expect(byName["Flan de la casa"]!.safety == .safe)
        #expect(menu.requiresUserVerification)

        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = try JSONSerialization.jsonObject(with: encoder.encode(menu)) as! [String: Any]
        for key in ["confidence", "confidenceLevel", "requiresUserVerification", "sections", "items"] {
            #expect(json[key] != nil, "menu.\(key)")
        }
        let item = (json["items"] as! [[String: Any]])[1]
        for key in ["name", "description", "price", "box", "confidence", "allergens", "mayContain", "declaredAbsent", "dietary", "safety"] {
            #expect(item.keys.contains(key), "item.\(key)")
        }
        let allergen = (item["allergens"] as! [[String: Any]])[0]
        #expect(Set(allergen.keys).isSuperset(of: ["id", "evidence", "source", "confidence", "name", "usName"]))
        #expect(["explicit", "implied", "code"].contains(allergen["source"] as! String))
        #expect(item["dietary"] as? String == "not_vegetarian")
        #expect(item["safety"] as? String == "unsafe")
        #expect(item["box"] is NSNull) // plain text has no boxes

        // Decodes back.
        let back = try JSONDecoder().decode(MenuAnalysis.self, from: encoder.encode(menu))
        #expect(back.items.count == menu.items.count)
        #expect(back.items.map(\.safety) == menu.items.map(\.safety))
    }
}
