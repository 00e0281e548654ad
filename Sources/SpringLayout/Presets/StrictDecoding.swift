import Foundation

/// A coding key for any string.
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ s: String) { stringValue = s }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// A coding key for an array index.
struct AnyIndex: CodingKey {
    var intValue: Int?
    var stringValue: String { "\(intValue!)" }
    init(_ i: Int) { intValue = i }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

/// A keyed container that rejects unknown keys and checks numeric ranges, so that every
/// error names the offending key's path (Reference §9.1).
struct StrictContainer {
    let container: KeyedDecodingContainer<AnyKey>

    init(_ decoder: any Decoder, keys: Set<String>) throws {
        container = try decoder.container(keyedBy: AnyKey.self)
        for key in container.allKeys where !keys.contains(key.stringValue) {
            throw DecodingError.dataCorrupted(.init(codingPath: container.codingPath + [key],
                                                    debugDescription: "unknown key (known: \(keys.sorted().joined(separator: ", ")))"))
        }
    }

    func contains(_ key: String) -> Bool { container.contains(AnyKey(key)) }

    func decode<T: Decodable>(_ type: T.Type, _ key: String) throws -> T {
        try container.decode(type, forKey: AnyKey(key))
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, _ key: String) throws -> T? {
        try container.decodeIfPresent(type, forKey: AnyKey(key))
    }

    func fail(_ key: String, _ message: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: container.codingPath + [AnyKey(key)], debugDescription: message))
    }

    /// A finite number satisfying `rule`, or nil when absent.
    func number(_ key: String, _ rule: String, _ ok: (Double) -> Bool) throws -> Double? {
        guard let v = try decodeIfPresent(Double.self, key) else { return nil }
        guard v.isFinite, ok(v) else { throw fail(key, "\(v) is out of range: \(rule)") }
        return v
    }

    func positive(_ key: String) throws -> Double? { try number(key, "must be finite and > 0") { $0 > 0 } }
}

/// A preset that cannot be used, with the key path that is wrong: `sweep[1].steps: ...`.
public struct PresetError: Error, CustomStringConvertible, Sendable {
    /// The key path of the wrong value (`sweep[1].steps`, `params.rowHeight`; empty for the whole file).
    public var path: String
    /// What is wrong with it, in words.
    public var message: String

    /// An error at `path` saying `message`.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// One line: `path: message`, or the message alone when there is no path.
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }

    /// Turns a `DecodingError` into a path and a message.
    public init(_ error: DecodingError) {
        func render(_ path: [any CodingKey]) -> String {
            path.reduce(into: "") { out, key in
                if let i = key.intValue { out += "[\(i)]" } else { out += (out.isEmpty ? "" : ".") + key.stringValue }
            }
        }
        switch error {
        case let .dataCorrupted(c): self.init(path: render(c.codingPath), message: c.debugDescription)
        case let .keyNotFound(key, c): self.init(path: render(c.codingPath + [key]), message: "required key is missing")
        case let .typeMismatch(type, c): self.init(path: render(c.codingPath), message: "wrong type, expected \(type)")
        case let .valueNotFound(type, c): self.init(path: render(c.codingPath), message: "null where \(type) is expected")
        @unknown default: self.init(path: "", message: "\(error)")
        }
    }
}
