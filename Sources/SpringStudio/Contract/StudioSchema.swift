import SpringTune

/// An OpenAPI 3.0 schema, as each type of the studio's contract declares its own next to its
/// fields (Reference §10.16): `GET /openapi.json` is assembled from them (``StudioOpenAPI``),
/// and the contract test checks every type's encoded samples against its schema.
struct Schema: Sendable {
    var json: JSONValue

    static let number = Schema(json: .object([("type", .string("number"))]))
    static let integer = Schema(json: .object([("type", .string("integer"))]))
    static let string = Schema(json: .object([("type", .string("string"))]))
    static let boolean = Schema(json: .object([("type", .string("boolean"))]))

    /// A string, one of `words`.
    static func string(oneOf words: [String]) -> Schema { string.with("enum", .array(words.map(JSONValue.string))) }

    /// A list of `items`, with `min` to `max` of them when given.
    static func array(_ items: Schema, min: Int? = nil, max: Int? = nil) -> Schema {
        var s = Schema(json: .object([("type", .string("array")), ("items", items.json)]))
        if let min { s = s.with("minItems", .number(Double(min))) }
        if let max { s = s.with("maxItems", .number(Double(max))) }
        return s
    }

    /// An object of any keys, each value a `value`.
    static func map(_ value: Schema) -> Schema {
        Schema(json: .object([("type", .string("object")), ("additionalProperties", value.json)]))
    }

    /// One of `choices`.
    static func oneOf(_ choices: [Schema]) -> Schema { Schema(json: .object([("oneOf", .array(choices.map(\.json)))])) }

    /// The schema of a contract type, by reference to its entry in the document's components.
    static func ref(_ type: any StudioContract.Type) -> Schema {
        Schema(json: .object([("$ref", .string("#/components/schemas/\(type.schemaName)"))]))
    }

    /// `type`'s schema or null: OpenAPI 3.0 ignores the siblings of a `$ref`, so the reference
    /// goes inside `allOf`, beside `nullable`.
    static func nullable(_ type: any StudioContract.Type) -> Schema {
        Schema(json: .object([("nullable", .bool(true)), ("allOf", .array([ref(type).json]))]))
    }

    /// An object with exactly the `fields` of a type's coding keys, in order; every field is
    /// required except `optional` ones. `closed`: no other key (request bodies).
    static func object<K: CodingKey>(_ fields: [(K, Schema)], optional: [K] = [], closed: Bool = false) -> Schema {
        let skip = Set(optional.map(\.stringValue))
        var pairs: [(String, JSONValue)] = [("type", .string("object"))]
        let required = fields.map(\.0.stringValue).filter { !skip.contains($0) }
        if !required.isEmpty { pairs.append(("required", .array(required.map(JSONValue.string)))) }
        pairs.append(("properties", .object(fields.map { ($0.0.stringValue, $0.1.json) })))
        if closed { pairs.append(("additionalProperties", .bool(false))) }
        return Schema(json: .object(pairs))
    }

    /// This schema, also allowing null.
    var nullable: Schema { with("nullable", .bool(true)) }

    /// This schema with a description.
    func described(_ text: String) -> Schema { with("description", .string(text)) }

    /// This schema with the keyword `key` set to `value`.
    func with(_ key: String, _ value: JSONValue) -> Schema {
        guard case var .object(pairs) = json else { return self }
        pairs.removeAll { $0.0 == key }
        pairs.append((key, value))
        return Schema(json: .object(pairs))
    }
}

/// A type of the studio's contract: a request or answer body, or a part of one, with its schema
/// and samples that use every field (the contract test encodes or decodes them).
protocol StudioContract: SendableMetatype {
    /// Its name in the document's components.
    static var schemaName: String { get }
    static var schema: Schema { get }
}
