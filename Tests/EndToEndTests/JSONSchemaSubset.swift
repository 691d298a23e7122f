import Foundation

/// A JSON value, decoded so booleans, integers and other numbers stay apart.
indirect enum JSONValue: Decodable, Equatable {
    case null, bool(Bool), int(Int), number(Double), string(String), array([JSONValue]), object([String: JSONValue])

    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let i = try? c.decode(Int.self) { self = .int(i) }
        else if let d = try? c.decode(Double.self) { self = .number(d) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([JSONValue].self) { self = .array(a) }
        else { self = .object(try c.decode([String: JSONValue].self)) }
    }

    static func parse(_ data: Data) throws -> JSONValue { try JSONDecoder().decode(JSONValue.self, from: data) }

    var double: Double? {
        switch self {
        case .int(let i): Double(i)
        case .number(let d): d
        default: nil
        }
    }
}

/// A validator for the subset of JSON Schema (draft 2020-12) that
/// docs/photo-result.schema.json uses: type, enum, const, properties,
/// required, additionalProperties, items, minItems, maxItems, minLength,
/// pattern, minimum, maximum and local `$ref`s into `$defs`. Any other
/// keyword is reported as an error, so the schema cannot silently use
/// something this validator ignores.
struct JSONSchemaSubset {
    let root: JSONValue
    static let annotations: Set<String> = ["$schema", "$id", "title", "description", "$defs"]
    static let known: Set<String> = ["type", "enum", "const", "properties", "required", "additionalProperties", "items",
                                     "minItems", "maxItems", "minLength", "pattern", "minimum", "maximum", "$ref"]

    /// Every violation as "path: problem"; empty when valid.
    func validate(_ value: JSONValue) -> [String] {
        var errors: [String] = []
        check(value, against: root, at: "$", into: &errors)
        return errors
    }

    private func resolve(_ ref: String) -> JSONValue? {
        guard ref.hasPrefix("#/") else { return nil }
        var node = root
        for part in ref.dropFirst(2).split(separator: "/") {
            guard case .object(let o) = node, let next = o[String(part)] else { return nil }
            node = next
        }
        return node
    }

    private func check(_ value: JSONValue, against schema: JSONValue, at path: String, into errors: inout [String]) {
        guard case .object(let s) = schema else { errors.append("\(path): schema is not an object"); return }
        for key in s.keys where !Self.known.contains(key) && !Self.annotations.contains(key) {
            errors.append("\(path): unsupported schema keyword \(key)")
        }
        if case .string(let ref)? = s["$ref"] {
            guard let target = resolve(ref) else { errors.append("\(path): unresolved $ref \(ref)"); return }
            check(value, against: target, at: path, into: &errors)
        }
        if case .string(let type)? = s["type"], !Self.matches(value, type: type) {
            errors.append("\(path): expected \(type)")
            return
        }
        if case .array(let options)? = s["enum"], !options.contains(value) {
            errors.append("\(path): not one of the allowed values")
        }
        if let c = s["const"], c != value { errors.append("\(path): not the constant value") }
        if let min = s["minimum"]?.double, let v = value.double, v < min { errors.append("\(path): below \(min)") }
        if let max = s["maximum"]?.double, let v = value.double, v > max { errors.append("\(path): above \(max)") }
        if case .string(let str) = value {
            if case .int(let n)? = s["minLength"], str.count < n { errors.append("\(path): shorter than \(n)") }
            if case .string(let pattern)? = s["pattern"],
               str.range(of: pattern, options: .regularExpression) == nil {
                errors.append("\(path): does not match \(pattern)")
            }
        }
        if case .array(let items) = value {
            if case .int(let n)? = s["minItems"], items.count < n { errors.append("\(path): fewer than \(n) items") }
            if case .int(let n)? = s["maxItems"], items.count > n { errors.append("\(path): more than \(n) items") }
            if let itemSchema = s["items"] {
                for (i, item) in items.enumerated() { check(item, against: itemSchema, at: "\(path)[\(i)]", into: &errors) }
            }
        }
        if case .object(let object) = value {
            if case .array(let required)? = s["required"] {
                for case .string(let key) in required where object[key] == nil { errors.append("\(path): missing \(key)") }
            }
            var properties: [String: JSONValue] = [:]
            if case .object(let p)? = s["properties"] { properties = p }
            for (key, child) in object {
                if let sub = properties[key] {
                    check(child, against: sub, at: "\(path).\(key)", into: &errors)
                } else if let extra = s["additionalProperties"] {
                    if case .bool(false) = extra { errors.append("\(path): unexpected key \(key)") }
                    else if case .object = extra { check(child, against: extra, at: "\(path).\(key)", into: &errors) }
                }
            }
        }
    }

    static func matches(_ v: JSONValue, type: String) -> Bool {
        switch (type, v) {
        case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool), ("null", .null),
             ("integer", .int), ("number", .int), ("number", .number): true
        default: false
        }
    }
}
