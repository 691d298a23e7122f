/// An item against a user's allergen profile (R7).
public enum Safety: String, Codable, Sendable {
    case safe, caution, unsafe
}

/// R8 dietary classification.
public enum Dietary: String, Codable, Sendable {
    case vegan, vegetarian
    case not_vegetarian = "not_vegetarian"
    case unknown
}

/// How an allergen was found: a word naming it, a culinary term implying it,
/// or a printed allergen code resolved through a legend.
public enum EvidenceSource: String, Codable, Sendable, Comparable {
    case explicit, code, implied

    private var rank: Int { self == .explicit ? 0 : (self == .code ? 1 : 2) }
    public static func < (a: EvidenceSource, b: EvidenceSource) -> Bool { a.rank < b.rank }
}

/// One allergen an item contains, with all the evidence for it. `source` and
/// `confidence` are those of the strongest evidence. `fuzzy` is true when
/// every piece of evidence was an inexact (OCR-tolerant) match.
public struct AllergenFinding: Codable, Sendable, Equatable {
    public var id: AllergenID
    public var evidence: [String]
    public var source: EvidenceSource
    public var confidence: Double
    public var fuzzy: Bool
    /// EU Annex II name, and the US "big 9" name where the group is one of them
    /// (wheat, shellfish, …), so that both audiences can read the result.
    public var name: String
    public var usName: String?
    /// Why the evidence means the allergen, in words a person can check: the dish
    /// table's wording ("burger: served in a wheat bun") or the context it came
    /// from ("from section “PIZZA”"). Empty when the evidence names the allergen.
    public var why: [String]

    public init(id: AllergenID, evidence: [String], source: EvidenceSource, confidence: Double, fuzzy: Bool, why: [String] = []) {
        self.why = why
        self.id = id
        self.evidence = evidence
        self.source = source
        self.confidence = confidence
        self.fuzzy = fuzzy
        self.name = id.euName
        self.usName = id.usName
    }

    enum CodingKeys: String, CodingKey { case id, evidence, source, confidence, fuzzy, name, usName, why }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(id: try c.decode(AllergenID.self, forKey: .id), evidence: try c.decode([String].self, forKey: .evidence),
                  source: try c.decode(EvidenceSource.self, forKey: .source), confidence: try c.decode(Double.self, forKey: .confidence),
                  fuzzy: try c.decodeIfPresent(Bool.self, forKey: .fuzzy) ?? false,
                  why: try c.decodeIfPresent([String].self, forKey: .why) ?? [])
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(evidence, forKey: .evidence)
        try c.encode(source, forKey: .source)
        try c.encode(confidence, forKey: .confidence)
        try c.encode(fuzzy, forKey: .fuzzy)
        try c.encode(name, forKey: .name)
        try c.encode(usName, forKey: .usName)
        try c.encode(why, forKey: .why)
    }
}

/// Evidence that an allergen was declared absent ("gluten-free bun", "(GF)").
public struct AbsentEvidence: Codable, Sendable, Equatable {
    public var id: AllergenID
    public var evidence: [String]
}

/// Why an item may contain an allergen: the statement or the dish table's wording.
public struct MayContainEvidence: Codable, Sendable, Equatable {
    public var id: AllergenID
    public var evidence: [String]
}

/// One menu item.
public struct MenuItem: Codable, Sendable, Equatable {
    public var section: String?
    public var name: String
    public var description: String
    public var price: String?
    /// Union of the item's word boxes (photos only).
    public var box: Box?
    /// The OCR words the item came from (photos only; empty for plain text).
    public var words: [OCRWord]
    /// From the words' OCR confidences (1.0 for plain text input).
    public var confidence: Double
    public var confidenceLevel: ConfidenceLevel
    public var allergens: [AllergenFinding]
    /// Cross-contact ("may contain", shared fryer), item or menu level.
    public var mayContain: [AllergenID]
    public var declaredAbsent: [AllergenID]
    public var declaredAbsentEvidence: [AbsentEvidence]
    public var dietary: Dietary
    public var dietaryEvidence: [String]
    /// nil when no allergen profile was given.
    public var safety: Safety?
    /// Machine-readable reasons behind `safety` (e.g. "contains:milk",
    /// "may_contain:peanuts", "fuzzy_evidence:eggs", "low_text_confidence",
    /// "unknown_terms", "dish_not_understood").
    public var safetyReasons: [String]
    /// Closed-world safety: the item's words that MenuScan does not understand
    /// (not an ingredient, dish, preparation or known non-food word). An item
    /// with any is never `safe`.
    public var unknownTerms: [String] = []
    /// Why the item may contain each of `mayContain` where a dish implies it
    /// ("burger: seeded buns are common"); cross-contact statements are in `mayContain` alone.
    public var mayContainEvidence: [MayContainEvidence] = []

    enum CodingKeys: String, CodingKey {
        case section, name, description, price, box, words, confidence, confidenceLevel, allergens
        case mayContain, declaredAbsent, declaredAbsentEvidence, dietary, dietaryEvidence, safety, safetyReasons
        case unknownTerms, mayContainEvidence
    }

    public init(section: String?, name: String, description: String, price: String?, box: Box?, words: [OCRWord],
                confidence: Double, allergens: [AllergenFinding], mayContain: [AllergenID],
                declaredAbsent: [AllergenID], declaredAbsentEvidence: [AbsentEvidence], dietary: Dietary,
                dietaryEvidence: [String], safety: Safety?, safetyReasons: [String]) {
        self.section = section
        self.name = name
        self.description = description
        self.price = price
        self.box = box
        self.words = words
        self.confidence = confidence
        self.confidenceLevel = ConfidenceLevel(confidence: confidence)
        self.allergens = allergens
        self.mayContain = mayContain
        self.declaredAbsent = declaredAbsent
        self.declaredAbsentEvidence = declaredAbsentEvidence
        self.dietary = dietary
        self.dietaryEvidence = dietaryEvidence
        self.safety = safety
        self.safetyReasons = safetyReasons
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        section = try c.decodeIfPresent(String.self, forKey: .section)
        name = try c.decode(String.self, forKey: .name)
        description = try c.decode(String.self, forKey: .description)
        price = try c.decodeIfPresent(String.self, forKey: .price)
        box = try c.decodeIfPresent(Box.self, forKey: .box)
        words = try c.decodeIfPresent([OCRWord].self, forKey: .words) ?? []
        confidence = try c.decode(Double.self, forKey: .confidence)
        confidenceLevel = try c.decode(ConfidenceLevel.self, forKey: .confidenceLevel)
        allergens = try c.decode([AllergenFinding].self, forKey: .allergens)
        mayContain = try c.decode([AllergenID].self, forKey: .mayContain)
        declaredAbsent = try c.decode([AllergenID].self, forKey: .declaredAbsent)
        declaredAbsentEvidence = try c.decodeIfPresent([AbsentEvidence].self, forKey: .declaredAbsentEvidence) ?? []
        dietary = try c.decode(Dietary.self, forKey: .dietary)
        dietaryEvidence = try c.decodeIfPresent([String].self, forKey: .dietaryEvidence) ?? []
        safety = try c.decodeIfPresent(Safety.self, forKey: .safety)
        safetyReasons = try c.decodeIfPresent([String].self, forKey: .safetyReasons) ?? []
        unknownTerms = try c.decodeIfPresent([String].self, forKey: .unknownTerms) ?? []
        mayContainEvidence = try c.decodeIfPresent([MayContainEvidence].self, forKey: .mayContainEvidence) ?? []
    }

    /// `section`, `price`, `box` and `safety` are always present (null when
    /// unknown) so consumers see a stable shape; `words` only for photos.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(section, forKey: .section)
        try c.encode(name, forKey: .name)
        try c.encode(description, forKey: .description)
        try c.encode(price, forKey: .price)
        try c.encode(box, forKey: .box)
        if !words.isEmpty { try c.encode(words, forKey: .words) }
        try c.encode(confidence, forKey: .confidence)
        try c.encode(confidenceLevel, forKey: .confidenceLevel)
        try c.encode(allergens, forKey: .allergens)
        try c.encode(mayContain, forKey: .mayContain)
        try c.encode(declaredAbsent, forKey: .declaredAbsent)
        try c.encode(declaredAbsentEvidence, forKey: .declaredAbsentEvidence)
        try c.encode(dietary, forKey: .dietary)
        try c.encode(dietaryEvidence, forKey: .dietaryEvidence)
        try c.encode(safety, forKey: .safety)
        try c.encode(safetyReasons, forKey: .safetyReasons)
        try c.encode(unknownTerms, forKey: .unknownTerms)
        try c.encode(mayContainEvidence, forKey: .mayContainEvidence)
    }
}

/// A section's note lines ("All burgers come on a brioche bun", "Two courses 30"):
/// context for every item of the section. `section` is the header text as the
/// items carry it in `MenuItem.section` (nil: notes outside any section).
public struct SectionNote: Codable, Sendable, Equatable {
    public var section: String?
    public var text: [String]

    public init(section: String?, text: [String]) {
        self.section = section
        self.text = text
    }
}

extension MenuAnalysis {
    /// Turns every `safe` verdict into `caution` with `reason` (R7: a photo whose read as
    /// a whole cannot be trusted), and asks the user to verify.
    public mutating func withdrawSafeVerdicts(reason: String) {
        for k in items.indices where items[k].safety == .safe {
            items[k].safety = .caution
            items[k].safetyReasons.append(reason)
        }
        requiresUserVerification = true
    }
}

/// The "menu" object of a photo's JSON (and of `menuscan classify`).
public struct MenuAnalysis: Codable, Sendable, Equatable {
    /// Mean of the items' confidences (R6); 0 when no item was found.
    public var confidence: Double
    public var confidenceLevel: ConfidenceLevel
    /// User Validation Opportunity Rule: menu confidence low, or any item unsafe.
    public var requiresUserVerification: Bool
    public var sections: [String]
    public var items: [MenuItem]
    /// The profile the safety verdicts were made against (nil: none given).
    public var profile: [AllergenID]?
    /// Menu-level cross-contact statements apply to every item (their ids are
    /// already in each item's `mayContain`).
    public var menuMayContain: [AllergenID]
    /// lowConfidenceResults / potentialCrossContamination where they apply.
    public var warnings: [MenuScanError]
    /// Note lines per section, in page order (see `notes(forSection:)`).
    public var sectionNotes: [SectionNote]

    /// The notes of the section an item belongs to (`item.section`).
    public func notes(forSection section: String?) -> [String] {
        sectionNotes.filter { $0.section == section }.flatMap(\.text)
    }

    public init(confidence: Double, requiresUserVerification: Bool, sections: [String], items: [MenuItem],
                profile: [AllergenID]?, menuMayContain: [AllergenID], warnings: [MenuScanError],
                sectionNotes: [SectionNote] = []) {
        self.sectionNotes = sectionNotes
        self.confidence = confidence
        self.confidenceLevel = ConfidenceLevel(confidence: confidence)
        self.requiresUserVerification = requiresUserVerification
        self.sections = sections
        self.items = items
        self.profile = profile
        self.menuMayContain = menuMayContain
        self.warnings = warnings
    }

    enum CodingKeys: String, CodingKey {
        case confidence, confidenceLevel, requiresUserVerification, sections, items, profile, menuMayContain, warnings, sectionNotes
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        confidence = try c.decode(Double.self, forKey: .confidence)
        confidenceLevel = try c.decode(ConfidenceLevel.self, forKey: .confidenceLevel)
        requiresUserVerification = try c.decode(Bool.self, forKey: .requiresUserVerification)
        sections = try c.decode([String].self, forKey: .sections)
        items = try c.decode([MenuItem].self, forKey: .items)
        profile = try c.decodeIfPresent([AllergenID].self, forKey: .profile)
        menuMayContain = try c.decode([AllergenID].self, forKey: .menuMayContain)
        warnings = try c.decode([MenuScanError].self, forKey: .warnings)
        sectionNotes = try c.decodeIfPresent([SectionNote].self, forKey: .sectionNotes) ?? []
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(confidence, forKey: .confidence)
        try c.encode(confidenceLevel, forKey: .confidenceLevel)
        try c.encode(requiresUserVerification, forKey: .requiresUserVerification)
        try c.encode(sections, forKey: .sections)
        try c.encode(items, forKey: .items)
        try c.encode(profile, forKey: .profile)
        try c.encode(menuMayContain, forKey: .menuMayContain)
        try c.encode(warnings, forKey: .warnings)
        try c.encode(sectionNotes, forKey: .sectionNotes)
    }
}
