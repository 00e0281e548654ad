import Foundation
import SpringLayout
import SpringTune
import Testing
@testable import SpringStudio

/// The OpenAPI document and the contract types agree: every answer the API gives on two
/// presets (the live socket's messages among them, and a hand-made sample of each rare variant) conforms to its type's schema in the
/// document, each object's keys exactly those the schema names, and every key a schema names
/// appears in some sample. Fails when a field is added to a type but not to its schema, or the
/// other way round.
@Suite struct StudioContractTests {
    typealias Problems = [String]

    /// The schema at `$ref`, from the document's components.
    static func resolve(_ schema: JSONValue) -> (name: String?, schema: JSONValue) {
        guard case let .string(ref)? = schema["$ref"] else { return (nil, schema) }
        let name = String(ref.split(separator: "/").last!)
        return (name, StudioOpenAPI.document["components"]?["schemas"]?[name] ?? .null)
    }

    /// Checks `value` against `schema` at `path`, recording the object keys seen per schema (`seen`).
    static func check(_ value: JSONValue, _ given: JSONValue, _ path: String, _ seen: inout [String: Set<String>]) -> Problems {
        let (name, schema) = resolve(given)
        let here = name ?? path
        if case .null = value {
            return schema["nullable"]?.bool == true ? [] : ["\(path): null where \(here) is not nullable"]
        }
        if case let .array(all)? = schema["allOf"], all.count == 1 { return check(value, all[0], path, &seen) }
        if case let .array(choices)? = schema["oneOf"] {
            // The keys seen are those of the choice that matched.
            for choice in choices {
                var scratch = seen
                if check(value, choice, path, &scratch).isEmpty {
                    seen = scratch
                    return []
                }
            }
            return ["\(path): matches no choice of \(here)"]
        }
        if case let .array(words)? = schema["enum"], !words.contains(where: { $0.compact() == value.compact() }) {
            return ["\(path): \(value.compact()) not in the enum"]
        }
        switch (schema["type"]?.string, value) {
        case ("number", .number), ("boolean", .bool), ("string", .string): return []
        case let ("integer", .number(d)): return d == d.rounded() ? [] : ["\(path): \(d) is not an integer"]
        case let ("array", .array(items)):
            var out: Problems = []
            if let min = schema["minItems"]?.number, Double(items.count) < min { out.append("\(path): fewer than \(min) items") }
            if let max = schema["maxItems"]?.number, Double(items.count) > max { out.append("\(path): more than \(max) items") }
            for (i, item) in items.enumerated() { out += check(item, schema["items"] ?? .null, "\(path)[\(i)]", &seen) }
            return out
        case let ("object", .object(pairs)):
            var out: Problems = []
            if case let .object(properties)? = schema["properties"] {
                let names = properties.map(\.0)
                seen[here, default: []].formUnion(pairs.map(\.0))
                for (key, v) in pairs {
                    guard let property = properties.first(where: { $0.0 == key })?.1 else { out.append("\(path).\(key): not in the schema of \(here)"); continue }
                    out += check(v, property, "\(path).\(key)", &seen)
                }
                if case let .array(required)? = schema["required"] {
                    for case let .string(key) in required where !pairs.contains(where: { $0.0 == key }) { out.append("\(path).\(key): required, missing") }
                }
                if names.isEmpty { out.append("\(path): object schema without properties") }
            } else if let additional = schema["additionalProperties"] {
                for (key, v) in pairs { out += check(v, additional, "\(path).\(key)", &seen) }
            }
            return out
        case let (type, v): return ["\(path): \(v.compact().prefix(40)) is not of type \(type ?? "?")"]
        }
    }

    /// The API's answers on `preset`, through a round, a choice and an export, by schema name.
    static func answers(_ preset: String) throws -> [(String, JSONValue)] {
        let loaded = try PresetStore().load(preset)
        let folder = NSTemporaryDirectory() + "contract-\(UUID().uuidString)"
        let api = try StudioAPI(engine: try StudioEngine(loaded: loaded, files: []),
                            store: try SessionStore(path: folder + "/s.sqlite", preset: loaded.preset.name, model: loaded.kind.name))
        var out: [(String, JSONValue)] = []
        func add(_ value: some Encodable & StudioContract) throws { out.append((type(of: value).schemaName, try json(value))) }
        try add(api.preset())
        // Three traces: every field of a replay is there, and the check of 242 traces' frames took a minute.
        try add(api.replay(ReplayRequest(traces: api.engine.infos.prefix(3).map(\.id), items: true, engine: true)))
        try add(api.replay(ReplayRequest(traces: api.engine.infos.prefix(1).map(\.id))))
        try add(ImageAnswer(nil))
        try add(ImageAnswer(try StudioImage(bytes: StudioImageTests.png(width: 390, height: 292), scale: 3)))
        try add(api.evaluate(ParamsRequest()))
        try add(api.best())
        let round = try api.candidates(k: 3)
        try add(round)
        try add(api.choose(ChoiceRequest(round: round.round, worst: round.candidates[0].id)))
        try add(api.best())
        try add(api.undo())
        try add(api.export(ExportRequest(name: "contract")))
        try add(api.objective())
        // A live gesture kept and labelled: the recordings and their sidecar.
        var channel = LiveChannel(api: api)
        // Every message the live socket sends is a LiveFrames or a LiveDone.
        for message in StudioLiveTests.messages(api.engine.traces[0]) {
            for text in try channel.receive(Array(message.utf8)) {
                let value = try #require(try JSONDecoder().decode(JSONDocument.self, from: Data(text.utf8)).value)
                out.append((value["done"] == nil ? "LiveFrames" : "LiveDone", value))
            }
        }
        try add(api.update("live-1", LabelRequest(intent: loaded.kind.decisionLabels.first?.positive ?? .dismiss)))
        try add(api.recordingsMeta())
        try add(api.code(CodeRequest(format: .swiftui)))
        try add(api.space(SpaceRequest(free: api.current.levers.free + [FreeParameter(name: loaded.kind.parameters.first { p in
            p.domain?.range != nil && !api.current.levers.names.contains(p.name) }!.name)])))
        return out
    }

    /// Samples of what the bundled presets do not show: a word axis, a missing slider range, an error.
    static func rare() throws -> [(String, JSONValue)] {
        [("Axis", try json(PresetAnswer.Axis(name: "curve", unit: "word", min: nil, max: nil, log: false,
                                                                  words: ["linear", "spring"], preset: .text("linear")))),
         ("Error", try json(ErrorAnswer(error: "one line")))]
    }

    /// Request bodies using every field, as clients send them, each with the type it decodes into.
    static let requests: [(name: String, body: String, decode: @Sendable ([UInt8]) throws -> Void)] = [
        ("ReplayRequest", #"{"params": {"damping": 0.8}, "traces": ["t"], "items": true, "engine": true}"#, { _ = try StudioRequest.decode(ReplayRequest.self, from: $0) }),
        ("ParamsRequest", #"{"params": {"damping": 0.8}}"#, { _ = try StudioRequest.decode(ParamsRequest.self, from: $0) }),
        ("Choice", #"{"round": 1, "worst": 2}"#, { _ = try StudioRequest.decode(ChoiceRequest.self, from: $0) }),
        ("Choice", #"{"round": 1, "best": 2}"#, { _ = try StudioRequest.decode(ChoiceRequest.self, from: $0) }),
        ("Choice", #"{"round": 1, "same": true}"#, { _ = try StudioRequest.decode(ChoiceRequest.self, from: $0) }),
        ("ExportRequest", #"{"name": "x"}"#, { _ = try StudioRequest.decode(ExportRequest.self, from: $0) }),
        ("Label", #"{"intent": "keep", "used": true}"#, { _ = try StudioRequest.decode(LabelRequest.self, from: $0) }),
        ("CodeRequest", #"{"params": {"damping": 0.8}, "format": "compose"}"#, { _ = try StudioRequest.decode(CodeRequest.self, from: $0) }),
        ("SpaceRequest", #"{"free": [{"name": "snapFrequency"}, {"name": "snapDamping", "from": 0.5, "to": 1, "log": false}, {"name": "curve", "words": ["a", "b"]}]}"#,
         { _ = try StudioRequest.decode(SpaceRequest.self, from: $0) }),
        ("LiveMessage", #"{"params": {"damping": 0.8}, "screen": [390, 844], "dpr": 2}"#, { _ = try StudioRequest.decode(LiveMessage.self, from: $0) }),
        ("LiveMessage", #"{"t": 1.5, "phase": "moved", "pointers": [{"id": 0, "x": 1, "y": 2}, {"id": 1, "x": 3.5, "y": -4}]}"#,
         { _ = try StudioRequest.decode(LiveMessage.self, from: $0) }),
        ("Objective", #"{"constraints": ["overshoot_pt_p95 <= 4"], "targets": ["peak_stretch_pt_p95 = 17.5 ± 2.5"], "minimize": "settle_time_p95", "maximize": null, "tiebreak": null, "confidence": 0.9}"#,
         { _ = try StudioRequest.decode(ObjectiveBody.self, from: $0) }),
    ]

    @Test func everyAnswerAndRequestConformsAndEverySchemaKeyIsUsed() throws {
        var seen: [String: Set<String>] = [:]
        var problems: Problems = []
        let samples = try Self.answers("tweetbot") + Self.answers("evernote") + Self.rare()
        for (name, value) in samples {
            problems += Self.check(value, .object([("$ref", .string("#/components/schemas/\(name)"))]), name, &seen)
        }
        for (name, body, decode) in Self.requests {
            let value = try #require(try JSONDecoder().decode(JSONDocument.self, from: Data(body.utf8)).value)
            problems += Self.check(value, .object([("$ref", .string("#/components/schemas/\(name)"))]), name, &seen)
            // The type decodes what its schema allows.
            try decode(Array(body.utf8))
        }
        #expect(problems == [])
        #expect(Set(samples.map(\.0) + Self.requests.map(\.name)).count >= 12)
        // Both directions: every key of every schema object is used by some sample.
        for (schema, keys) in seen {
            let (_, resolved) = Self.resolve(.object([("$ref", .string("#/components/schemas/\(schema)"))]))
            guard case let .object(properties)? = (StudioOpenAPI.types.contains { $0.schemaName == schema } ? resolved : nil)?["properties"] else { continue }
            #expect(Set(properties.map(\.0)) == keys, "\(schema)")
        }
        // Every component is used.
        #expect(Set(StudioOpenAPI.types.map { $0.schemaName }).subtracting(seen.keys).subtracting(["Params", "Metrics", "Intervals"]) == [])
    }
}

/// `value` as the studio writes it, read back into ``JSONValue`` (keys sorted).
func json(_ value: some Encodable) throws -> JSONValue {
    try #require(try JSONDecoder().decode(JSONDocument.self, from: Data(JSONTextEncoder.encode(value).utf8)).value)
}

/// A JSON document read into ``JSONValue``, keys sorted (the test's reader of answers and request samples).
struct JSONDocument: Decodable {
    var value: JSONValue?
    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { value = .null }
        else if let b = try? c.decode(Bool.self) { value = .bool(b) }
        else if let d = try? c.decode(Double.self) { value = .number(d) }
        else if let s = try? c.decode(String.self) { value = .string(s) }
        else if let a = try? c.decode([JSONDocument].self) { value = .array(a.compactMap(\.value)) }
        else {
            let o = try decoder.container(keyedBy: NameKey.self)
            value = .object(try o.allKeys.sorted { $0.stringValue < $1.stringValue }.map { ($0.stringValue, try o.decode(JSONDocument.self, forKey: $0).value ?? .null) })
        }
    }
}

extension JSONValue {
    subscript(key: String) -> JSONValue? {
        guard case let .object(pairs) = self else { return nil }
        return pairs.first { $0.0 == key }?.1
    }
    var string: String? { if case let .string(s) = self { s } else { nil } }
    var number: Double? { if case let .number(d) = self { d } else { nil } }
    var bool: Bool? { if case let .bool(b) = self { b } else { nil } }
}
