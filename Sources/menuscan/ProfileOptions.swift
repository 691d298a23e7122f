import ArgumentParser
import Foundation
import MenuScanKit

/// A user's allergen profile, from `--allergens` or `--profile` (scan and classify).
struct ProfileOptions: ParsableArguments {
    @Option(name: .long, help: "Allergens to check, comma-separated (e.g. milk,peanuts,tree_nuts).")
    var allergens: String?

    @Option(name: .long, help: "A profile file: JSON {\"allergens\": [...]} or one name per line.")
    var profile: String?

    func validate() throws {
        if allergens != nil && profile != nil { throw ValidationError("Give --allergens or --profile, not both.") }
    }

    /// The profile, or nil when none was given. Bad names or files are MenuScanErrors.
    func resolve() throws -> AllergenProfile? {
        if let allergens { return try AllergenProfile.parse(list: allergens) }
        if let profile { return try AllergenProfile.load(from: URL(fileURLWithPath: profile)) }
        return nil
    }
}
