import Foundation
import SpringLayout

/// A request body as JSON, before it is checked against what an endpoint accepts.
public indirect enum JSONInput: Decodable, Sendable {
    case null, bool(Bool), number(Double), string(String), array([JSONInput]), object([String: JSONInput])

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let d = try? c.decode(Double.self) { self = .number(d) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([JSONInput].self) { self = .array(a) }
        else { self = .object(try c.decode([String: JSONInput].self)) }
    }

    /// Deepest nesting a body may have: the API's bodies nest three levels; a hostile body of a
    /// million `[` must not reach the parser's recursion.
    static let maxDepth = 16

    /// Parses `bytes` as one JSON document (400 when it is not one).
    public static func parse(_ bytes: [UInt8]) throws -> JSONInput {
        var depth = 0, inString = false, escaped = false
        for b in bytes {
            if inString {
                if escaped { escaped = false } else if b == UInt8(ascii: "\\") { escaped = true } else if b == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch b {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > maxDepth { throw StudioError.badRequest("request body nests deeper than \(maxDepth) levels") }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        guard !bytes.isEmpty else { throw StudioError.badRequest("empty request body: expected a JSON object") }
        do {
            return try JSONDecoder().decode(JSONInput.self, from: Data(bytes))
        } catch {
            throw StudioError.badRequest("malformed JSON body")
        }
    }

    /// The object's fields, refusing keys outside `allowed` (400, naming the first unknown key).
    func object(allowed: Set<String>, in what: String) throws -> [String: JSONInput] {
        guard case let .object(fields) = self else { throw StudioError.badRequest("\(what) must be a JSON object") }
        if let unknown = fields.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw StudioError.badRequest("unknown key '\(unknown.prefix(80))' in \(what) (known: \(allowed.sorted().joined(separator: ", ")))")
        }
        return fields
    }
}

/// The bodies of the studio's POST endpoints, checked (Reference §10.16).
enum StudioRequest {
    /// `params`: `{"NAME": number-or-word}` over the shown axes; a name not given keeps the
    /// preset's value. Unknown names, wrong types and values off an axis are 400.
    static func params(_ input: JSONInput?, axes: [StudioAxis]) throws -> [String: ParamValue] {
        guard let input else { return [:] }
        let fields = try input.object(allowed: Set(axes.map(\.name)), in: "params")
        var out: [String: ParamValue] = [:]
        for axis in axes {
            guard let v = fields[axis.name] else { continue }
            let value: ParamValue
            switch v {
            case let .number(d): value = .number(d)
            case let .string(s): value = .text(s)
            default: throw StudioError.badRequest("params.\(axis.name) must be a number or a word")
            }
            if let problem = axis.check(value) { throw StudioError.badRequest("params.\(problem)") }
            out[axis.name] = value
        }
        return out
    }

    /// `traces`: a list of trace ids (at most 64; omitted: every trace).
    static func traceIDs(_ input: JSONInput?) throws -> [String] {
        guard let input else { return [] }
        guard case let .array(items) = input, items.count <= 64 else {
            throw StudioError.badRequest("traces must be a list of at most 64 trace ids")
        }
        return try items.map { item in
            guard case let .string(s) = item else { throw StudioError.badRequest("traces must hold trace ids (strings)") }
            return s
        }
    }

    /// An integer field (round numbers, candidate ids): a JSON number with no fraction.
    static func integer(_ input: JSONInput?, _ name: String) throws -> Int? {
        guard let input else { return nil }
        guard case let .number(d) = input, d == d.rounded(), abs(d) < 1e15 else {
            throw StudioError.badRequest("\(name) must be an integer")
        }
        return Int(d)
    }
}
