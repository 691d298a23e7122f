import Foundation

/// The allergens a user must avoid.
public struct AllergenProfile: Sendable, Codable, Hashable {
    public var allergens: Set<AllergenID>

    public init(allergens: Set<AllergenID>) {
        self.allergens = allergens
    }

    /// "milk,peanuts, tree nuts;shellfish" — commas, semicolons or newlines.
    /// Synonyms are accepted (`AllergenID.ids(forName:)`). Unknown names throw
    /// `MenuScanError.unknownAllergen` (a typo must never silently shrink a profile).
    public static func parse(list: String) throws -> AllergenProfile {
        var set = Set<AllergenID>()
        let parts = list.split(whereSeparator: { $0 == "," || $0 == ";" || $0 == "\n" || $0 == "\r" })
        for raw in parts {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            let name = line.trimmingCharacters(in: .whitespaces)
            if name.isEmpty { continue }
            guard let ids = AllergenID.ids(forName: name) else {
                throw MenuScanError.unknownAllergen.with(detail: "unknown allergen name (\(name.count) characters)")
            }
            set.formUnion(ids)
        }
        if set.isEmpty {
            throw MenuScanError.unknownAllergen.with(detail: "the profile names no allergen")
        }
        return AllergenProfile(allergens: set)
    }

    /// A JSON file `{"allergens": ["milk", …]}` or a text file with one or more
    /// names per line (`#` starts a comment).
    public static func load(from file: URL) throws -> AllergenProfile {
        let data: Data
        do { data = try Data(contentsOf: file) } catch {
            throw MenuScanError.profileUnreadable.with(detail: "\(file.lastPathComponent): cannot be read")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw MenuScanError.profileUnreadable.with(detail: "\(file.lastPathComponent): not UTF-8 text")
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("{") {
            struct Raw: Decodable { let allergens: [String] }
            guard let raw = try? JSONDecoder().decode(Raw.self, from: data) else {
                throw MenuScanError.profileUnreadable.with(detail: "\(file.lastPathComponent): invalid JSON profile")
            }
            return try parse(list: raw.allergens.joined(separator: ","))
        }
        return try parse(list: text)
    }

    private enum CodingKeys: String, CodingKey { case allergens }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        allergens = Set(try c.decode([AllergenID].self, forKey: .allergens))
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(allergens.sorted(), forKey: .allergens)
    }
}
