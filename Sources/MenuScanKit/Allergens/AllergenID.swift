/// The 14 allergen groups of EU Regulation 1169/2011 Annex II. US "big 9"
/// users find theirs here too: wheat is part of `gluten`, shellfish is
/// `crustaceans` (+ `molluscs`), tree nuts, peanuts, milk, eggs, fish,
/// soybeans and sesame have their own ids (see `usName`).
public enum AllergenID: String, Codable, Sendable, CaseIterable, Comparable {
    case gluten, crustaceans, eggs, fish, peanuts, soybeans, milk
    case tree_nuts = "tree_nuts"
    case celery, mustard, sesame, sulphites, lupin, molluscs

    /// EU Annex II wording.
    public var euName: String {
        switch self {
        case .gluten: "Cereals containing gluten"
        case .crustaceans: "Crustaceans"
        case .eggs: "Eggs"
        case .fish: "Fish"
        case .peanuts: "Peanuts"
        case .soybeans: "Soybeans"
        case .milk: "Milk"
        case .tree_nuts: "Nuts"
        case .celery: "Celery"
        case .mustard: "Mustard"
        case .sesame: "Sesame seeds"
        case .sulphites: "Sulphur dioxide and sulphites"
        case .lupin: "Lupin"
        case .molluscs: "Molluscs"
        }
    }

    /// The US "big 9" name (FALCPA + FASTER Act) where the group is one of them.
    public var usName: String? {
        switch self {
        case .gluten: "Wheat (or another gluten cereal)"
        case .crustaceans: "Shellfish (crustacean)"
        case .eggs: "Eggs"
        case .fish: "Fish"
        case .peanuts: "Peanuts"
        case .soybeans: "Soy"
        case .milk: "Milk"
        case .tree_nuts: "Tree nuts"
        case .sesame: "Sesame"
        case .celery, .mustard, .sulphites, .lupin, .molluscs: nil
        }
    }

    /// The case's place in `allCases` (the declaration order; a test checks they agree). Read
    /// by a switch: `allCases.firstIndex(of:)` built the array of cases at every comparison.
    var order: Int {
        switch self {
        case .gluten: 0
        case .crustaceans: 1
        case .eggs: 2
        case .fish: 3
        case .peanuts: 4
        case .soybeans: 5
        case .milk: 6
        case .tree_nuts: 7
        case .celery: 8
        case .mustard: 9
        case .sesame: 10
        case .sulphites: 11
        case .lupin: 12
        case .molluscs: 13
        }
    }
    public static func < (a: AllergenID, b: AllergenID) -> Bool { a.order < b.order }

    /// Hashes the case's place, not its raw value: a `RawRepresentable` type hashes its raw
    /// `String` by default, and the sets and dictionaries of ids (every item's allergens, "may
    /// contain", evidence) hashed ~12,000 of them an analysis of a long menu. Equal ids have
    /// equal places; what a set holds is unchanged, only its hash (no output reads a set's
    /// order: the standard library seeds hashes afresh in every process).
    public func hash(into hasher: inout Hasher) { hasher.combine(order) }

    /// Accepts the id, EU/US names and common synonyms ("wheat", "shellfish",
    /// "nuts", "dairy", "soy", "sulfites"). Returns several ids for names that
    /// cover several groups ("shellfish" → crustaceans + molluscs).
    public static func ids(forName name: String) -> [AllergenID]? {
        let key = name.lowercased().trimmingCharacters(in: .whitespaces)
            .replacingOccurrences(of: "-", with: "_").replacingOccurrences(of: " ", with: "_")
        if let id = AllergenID(rawValue: key) { return [id] }
        switch key {
        case "wheat", "cereals", "cereals_containing_gluten", "gluten_cereals": return [.gluten]
        case "crustacean", "crustacean_shellfish": return [.crustaceans]
        case "shellfish": return [.crustaceans, .molluscs]
        case "egg": return [.eggs]
        case "peanut": return [.peanuts]
        case "soy", "soya", "soybean": return [.soybeans]
        case "dairy", "lactose": return [.milk]
        case "nuts", "tree_nut", "treenuts", "nut": return [.tree_nuts]
        case "sesame_seeds", "sesame_seed": return [.sesame]
        case "sulfites", "sulphite", "sulfite", "sulphur_dioxide", "sulfur_dioxide": return [.sulphites]
        case "lupine", "lupins", "lupines": return [.lupin]
        case "mollusc", "mollusk", "mollusks": return [.molluscs]
        default: return nil
        }
    }
}
