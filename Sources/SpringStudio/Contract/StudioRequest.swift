import Foundation
import SpringLayout
import SpringTune

// The bodies of the studio's POST endpoints (Reference §10.16), decoded strictly: an unknown
// key, a wrong type, a duplicate key or malformed JSON is a 400 with a one-line message.

/// `POST /api/replay` `{params, traces, items}` (`items: true` adds the timeline rows).
struct ReplayRequest: Decodable, StudioContract {
    var params: ParamSet?
    /// Trace ids (at most 64; omitted: every trace).
    var traces: [String]?
    var items: Bool?
    /// Each trace's engine frames too (``EngineRun``): the numbers the page's module is checked against.
    var engine: Bool?

    enum CodingKeys: String, CodingKey, CaseIterable { case params, traces, items, engine }

    init(params: ParamSet? = nil, traces: [String]? = nil, items: Bool? = nil, engine: Bool? = nil) {
        self.params = params; self.traces = traces; self.items = items; self.engine = engine
    }

    init(from decoder: any Decoder) throws {
        let c = try StudioRequest.fields(decoder, CodingKeys.self)
        params = try c.field(ParamSet.self, .params, "params must be a JSON object")
        traces = try c.field([String].self, .traces, "traces must hold trace ids (strings)")
        guard (traces?.count ?? 0) <= 64 else { throw StudioError.badRequest("traces must be a list of at most 64 trace ids") }
        items = try c.field(Bool.self, .items, "items must be true or false")
        engine = try c.field(Bool.self, .engine, "engine must be true or false")
    }

    static let schemaName = "ReplayRequest"
    static var schema: Schema {
        .object([(CodingKeys.params, .ref(ParamSet.self)), (.traces, .array(.string, max: 64)), (.items, .boolean), (.engine, .boolean)],
                optional: CodingKeys.allCases, closed: true)
    }
}

/// `POST /api/evaluate` `{params}`.
struct ParamsRequest: Decodable, StudioContract {
    var params: ParamSet?

    enum CodingKeys: String, CodingKey, CaseIterable { case params }

    init(params: ParamSet? = nil) { self.params = params }

    init(from decoder: any Decoder) throws {
        params = try StudioRequest.fields(decoder, CodingKeys.self).field(ParamSet.self, .params, "params must be a JSON object")
    }

    static let schemaName = "ParamsRequest"
    static var schema: Schema { .object([(CodingKeys.params, .ref(ParamSet.self))], optional: [.params], closed: true) }
}

/// `POST /api/choices` `{round, worst|best: ID}` or `{round, same: true}`: exactly one answer.
struct ChoiceRequest: Decodable, StudioContract {
    var round: Int
    var worst: Int?, best: Int?
    var same: Bool?

    enum CodingKeys: String, CodingKey, CaseIterable { case round, worst, best, same }

    init(round: Int, worst: Int? = nil, best: Int? = nil, same: Bool? = nil) {
        self.round = round; self.worst = worst; self.best = best; self.same = same
    }

    init(from decoder: any Decoder) throws {
        let c = try StudioRequest.fields(decoder, CodingKeys.self)
        guard let round = try c.integer(.round) else { throw StudioError.badRequest("round is required") }
        self.round = round
        worst = try c.integer(.worst)
        best = try c.integer(.best)
        same = try c.field(Bool.self, .same, "same must be true")
        if same == false { throw StudioError.badRequest("same must be true") }
        guard [worst != nil, best != nil, same != nil].filter({ $0 }).count == 1 else {
            throw StudioError.badRequest("give exactly one of worst, best or same")
        }
    }

    /// The answer it gives.
    var answer: SessionStore.Answer { worst.map { .worst($0) } ?? best.map { .best($0) } ?? .same }

    static let schemaName = "Choice"
    static var schema: Schema {
        .object([(CodingKeys.round, .integer), (.worst, .integer), (.best, .integer), (.same, Schema.boolean.with("enum", .array([.bool(true)])))],
                optional: [.worst, .best, .same], closed: true)
    }
}

/// `POST /api/export` `{name}`.
struct ExportRequest: Decodable, StudioContract {
    /// 1 to 64 letters, digits, `.`, `_` or `-`, not starting with `.`.
    var name: String

    enum CodingKeys: String, CodingKey, CaseIterable { case name }

    static let rule = "name must be 1 to 64 letters, digits, '.', '_' or '-', not starting with '.'"

    init(name: String) { self.name = name }

    init(from decoder: any Decoder) throws {
        guard let name = try StudioRequest.fields(decoder, CodingKeys.self).field(String.self, .name, Self.rule), Self.isSafe(name) else {
            throw StudioError.badRequest(Self.rule)
        }
        self.name = name
    }

    /// Export names: no path, no hidden file, no control characters.
    static func isSafe(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.count <= 64 && !s.hasPrefix(".")
            && s.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0) }
    }

    static let schemaName = "ExportRequest"
    static var schema: Schema {
        .object([(CodingKeys.name, Schema.string.with("pattern", .string("^[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}$")))], closed: true)
    }
}

/// `POST /api/code` `{params, format}`: a set in a platform's form.
struct CodeRequest: Decodable, StudioContract {
    var params: ParamSet?
    var format: ExportFormat

    enum CodingKeys: String, CodingKey, CaseIterable { case params, format }

    init(params: ParamSet? = nil, format: ExportFormat) { self.params = params; self.format = format }

    init(from decoder: any Decoder) throws {
        let c = try StudioRequest.fields(decoder, CodingKeys.self)
        params = try c.field(ParamSet.self, .params, "params must be a JSON object")
        let formats = ExportFormat.allCases.map(\.rawValue).joined(separator: ", ")
        guard let name = try c.field(String.self, .format, "format must be one of \(formats)"), let format = ExportFormat(rawValue: name) else {
            throw StudioError.badRequest("format must be one of \(formats)")
        }
        self.format = format
    }

    static let schemaName = "CodeRequest"
    static var schema: Schema {
        .object([(CodingKeys.params, .ref(ParamSet.self)), (.format, .string(oneOf: ExportFormat.allCases.map(\.rawValue)))], optional: [.params], closed: true)
    }
}

/// Decoding a request body into its type.
enum StudioRequest {
    /// Deepest nesting a body may have: the API's bodies nest three levels; a hostile body of a
    /// million `[` must not reach the parser's recursion.
    static let maxDepth = 16

    /// `bytes` as one JSON document of type `T` (400 when it is not one, nests deeper than
    /// ``maxDepth``, or repeats a key in an object: JSON parsers keep one of the two silently).
    static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        guard !bytes.isEmpty else { throw StudioError.badRequest("empty request body: expected a JSON object") }
        try scan(bytes)
        do {
            return try JSONDecoder().decode(T.self, from: Data(bytes))
        } catch let error as StudioError {
            throw error
        } catch let DecodingError.typeMismatch(_, context) where context.codingPath.isEmpty {
            throw StudioError.badRequest("the body must be a JSON object")
        } catch {
            throw StudioError.badRequest("malformed JSON body")
        }
    }

    /// Checks the nesting depth and that no object repeats a key (keys compared as decoded).
    static func scan(_ bytes: [UInt8]) throws {
        /// An open object (its keys so far, and whether a key comes next) or array.
        struct Level { var keys: Set<String>?; var expectsKey = false }
        var levels: [Level] = []
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            switch b {
            case UInt8(ascii: "\""):
                var j = i + 1, escaped = false
                while j < bytes.count, escaped || bytes[j] != UInt8(ascii: "\"") {
                    escaped = !escaped && bytes[j] == UInt8(ascii: "\\")
                    j += 1
                }
                if var top = levels.last, top.keys != nil, top.expectsKey, j < bytes.count {
                    let raw = Array(bytes[i...j])
                    let key = raw.contains(UInt8(ascii: "\\")) ? (try? JSONDecoder().decode(String.self, from: Data(raw))) : String(decoding: raw.dropFirst().dropLast(), as: UTF8.self)
                    if let key, top.keys!.insert(key).inserted == false {
                        throw StudioError.badRequest("duplicate key '\(key.prefix(80))' in the body")
                    }
                    top.expectsKey = false
                    levels[levels.count - 1] = top
                }
                i = j
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                levels.append(Level(keys: b == UInt8(ascii: "{") ? [] : nil, expectsKey: b == UInt8(ascii: "{")))
                if levels.count > maxDepth { throw StudioError.badRequest("request body nests deeper than \(maxDepth) levels") }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = levels.popLast()
            case UInt8(ascii: ","):
                if levels.last?.keys != nil { levels[levels.count - 1].expectsKey = true }
            default: break
            }
            i += 1
        }
    }

    /// The body's object, refusing keys outside `K` (400, naming the first unknown key).
    static func fields<K: CodingKey & CaseIterable>(_ decoder: any Decoder, _: K.Type) throws -> KeyedDecodingContainer<K> {
        guard let all = try? decoder.container(keyedBy: NameKey.self) else { throw StudioError.badRequest("the body must be a JSON object") }
        let known = K.allCases.map(\.stringValue)
        if let unknown = all.allKeys.map(\.stringValue).sorted().first(where: { !known.contains($0) }) {
            throw StudioError.badRequest("unknown key '\(unknown.prefix(80))' in the body (known: \(known.sorted().joined(separator: ", ")))")
        }
        return try decoder.container(keyedBy: K.self)
    }

    /// `params` checked against the model: a name that is not one of its parameters, or a value
    /// the engine refuses (``ParameterSpec/check``), is a 400. Pinned parameters may be given too:
    /// a set shown under an earlier free set replays as it was.
    static func checked(_ params: ParamSet?, kind: ModelKind) throws -> [String: ParamValue] {
        let values = params?.values ?? [:]
        for name in values.keys.sorted() {
            guard let spec = kind.parameters.first(where: { $0.name == name }) else {
                throw StudioError.badRequest("unknown key '\(name.prefix(80))' in params (parameters of \(kind.name): \(kind.parameters.map(\.name).joined(separator: ", ")))")
            }
            if let problem = spec.check(values[name]!) { throw StudioError.badRequest("params.\(name): \(problem)") }
        }
        return values
    }
}

extension KeyedDecodingContainer {
    /// The field `key` when given (null is not a value), or 400 with `message` when it is of another type.
    func field<T: Decodable>(_ type: T.Type, _ key: Key, _ message: String) throws -> T? {
        guard contains(key) else { return nil }
        do { return try decode(T.self, forKey: key) } catch let error as StudioError { throw error } catch { throw StudioError.badRequest(message) }
    }

    /// The field `key` when given and not null (what the studio writes for an absent optional),
    /// or 400 with `message` when it is of another type.
    func optional<T: Decodable>(_ type: T.Type, _ key: Key, _ message: String) throws -> T? {
        guard contains(key), !((try? decodeNil(forKey: key)) ?? false) else { return nil }
        return try field(T.self, key, message)
    }

    /// An integer field (round numbers, candidate ids): a JSON number with no fraction.
    func integer(_ key: Key) throws -> Int? {
        let message = "\(key.stringValue) must be an integer"
        guard let d = try field(Double.self, key, message) else { return nil }
        guard d == d.rounded(), abs(d) < 1e15 else { throw StudioError.badRequest(message) }
        return Int(d)
    }
}
