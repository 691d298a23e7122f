/// Allergen-stage errors, in the style of `Errors/MessageLibrary.swift`. The
/// seeds have no wording for these; they follow its tone (what happened, what
/// to do, no blame).
public extension MenuScanError {
    /// A name in `--allergens` or a profile file is not one of the 14 groups.
    static let unknownAllergen = MenuScanError(
        code: "MSG-ALLERGEN-001",
        title: "Allergen Not Recognized",
        message: "An allergen in your profile is not one of the 14 supported allergen groups.",
        recovery: "Use: gluten, crustaceans, eggs, fish, peanuts, soybeans, milk, tree_nuts, celery, mustard, sesame, sulphites, lupin, molluscs (wheat, shellfish, dairy, soy and nuts are accepted too).",
        severity: .high, recoverable: true)

    /// The allergen lexicon under models/allergens is missing or malformed.
    static let lexiconUnavailable = MenuScanError(
        code: "MSG-ALLERGEN-002",
        title: "Allergen Data Missing",
        message: "The allergen word list could not be loaded, so allergens cannot be checked.",
        recovery: "Reinstall MenuScan or point $MENUSCAN_MODELS at a folder holding allergens/lexicon.tsv.",
        severity: .critical, recoverable: false)

    /// The profile file could not be read or parsed.
    static let profileUnreadable = MenuScanError(
        code: "MSG-ALLERGEN-003",
        title: "Allergen Profile Unreadable",
        message: "The allergen profile file could not be read.",
        recovery: "Check the file: a JSON {\"allergens\": [...]} object or one allergen name per line.",
        severity: .high, recoverable: true)
}
