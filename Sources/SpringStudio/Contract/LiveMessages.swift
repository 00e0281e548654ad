import Foundation
import SpringCore
import SpringLayout
import SpringTune

// The live socket's messages (`GET /api/live`, Reference §10.16, live touch), in the contract
// like every answer: their schemas are components of the OpenAPI document, and the contract
// test checks what a gesture over ``LiveChannel`` sends against them.

/// A live message: an opening (`params`, `screen`, `dpr`) or a sample (`t`, `phase`, `pointers`).
struct LiveMessage: Decodable {
    struct Pointer: Decodable {
        var id: Int, x: Double, y: Double
        enum CodingKeys: String, CodingKey, CaseIterable { case id, x, y }
        init(from decoder: any Decoder) throws {
            let c = try StudioRequest.fields(decoder, CodingKeys.self)
            guard let id = try c.integer(.id), (0...15).contains(id) else { throw StudioError.badRequest("a pointer's id must be an integer from 0 to 15") }
            self.id = id
            x = try LiveMessage.coordinate(c, .x)
            y = try LiveMessage.coordinate(c, .y)
        }
    }

    struct Sample {
        var t: Double
        var phase: TouchPhase
        var pointers: [Pointer]
    }

    var params: ParamSet?
    var screen: [Double]?
    var dpr: Double?
    var sample: Sample?

    enum CodingKeys: String, CodingKey, CaseIterable { case params, screen, dpr, t, phase, pointers }

    /// Largest time a sample may carry (s): a page's clock runs for days, not centuries.
    static let maxTime = 1e9

    init(from decoder: any Decoder) throws {
        let c = try StudioRequest.fields(decoder, CodingKeys.self)
        params = try c.field(ParamSet.self, .params, "params must be a JSON object")
        screen = try c.field([Double].self, .screen, "screen must be [width, height] in pt")
        if let screen, screen.count != 2 || !screen.allSatisfy({ $0 >= 1 && $0 <= ParameterSpec.maxLength }) {
            throw StudioError.badRequest("screen must be [width, height], each from 1 to \(Int(ParameterSpec.maxLength)) pt")
        }
        dpr = try c.field(Double.self, .dpr, "dpr must be a number")
        if let dpr, !(dpr >= 0.1 && dpr <= 16) { throw StudioError.badRequest("dpr must be from 0.1 to 16") }
        let t = try c.field(Double.self, .t, "t must be a number of seconds")
        let phase = try c.field(String.self, .phase, "phase must be began, moved, ended or cancelled")
        let pointers = try c.field([Pointer].self, .pointers, "pointers must be a list of {id, x, y}")
        guard t != nil || phase != nil || pointers != nil else { return }
        guard params == nil, screen == nil, dpr == nil else { throw StudioError.badRequest("a message is an opening {params, screen, dpr} or a sample {t, phase, pointers}, not both") }
        guard let t, t.isFinite, abs(t) <= Self.maxTime else { throw StudioError.badRequest("a sample needs t, in seconds, within ±\(Int(Self.maxTime))") }
        guard let phase, let p = TouchPhase(rawValue: phase) else { throw StudioError.badRequest("a sample needs phase: began, moved, ended or cancelled") }
        guard let pointers, !pointers.isEmpty, pointers.count <= 10, Set(pointers.map(\.id)).count == pointers.count else {
            throw StudioError.badRequest("a sample needs 1 to 10 pointers, each id once")
        }
        sample = Sample(t: t, phase: p, pointers: pointers)
    }

    /// A coordinate within a trace's bounds (±``TouchInput/coordinateLimit`` pt).
    static func coordinate(_ c: KeyedDecodingContainer<Pointer.CodingKeys>, _ key: Pointer.CodingKeys) throws -> Double {
        guard let v = try c.field(Double.self, key, "\(key.stringValue) must be a number of points"), v.isFinite, abs(v) <= TouchInput.coordinateLimit else {
            throw StudioError.badRequest("a pointer needs \(key.stringValue), in pt, within ±\(Int(TouchInput.coordinateLimit))")
        }
        return v
    }
}

/// `{"frames": [...]}`: the frames one sample completed.
struct LiveFrames: Encodable {
    var frames: [Frame]
}

/// `{"done": true, ...}`: the gesture is over and kept as `trace`; `params` is the set it was
/// felt with (what a replay of `trace` takes to draw the same frames), `rest` when everything
/// rests (s from touch-down), its metrics and the model's decision.
struct LiveDone: Encodable {
    var done = true
    var trace: String
    var params: ParamSet
    var decision: String?
    var rest: Double
    var metrics: MetricRow

    enum CodingKeys: CodingKey { case done, trace, params, decision, rest, metrics }
}

extension LiveMessage: StudioContract {
    static let schemaName = "LiveMessage"
    static var schema: Schema {
        .oneOf([
            .object([(CodingKeys.params, .ref(ParamSet.self)), (.screen, .array(.number, min: 2, max: 2)), (.dpr, .number)],
                    optional: [.params, .screen, .dpr], closed: true)
                .described("opens a gesture: its parameter set (the preset's values where silent), the page's phone [width, height] in pt (1 to \(Int(ParameterSpec.maxLength))) and the device pixel ratio (0.1 to 16)"),
            .object([(CodingKeys.t, .number), (.phase, .string(oneOf: TouchPhase.allCases.map(\.rawValue))), (.pointers, .array(.ref(Pointer.self), min: 1, max: 10))],
                    closed: true)
                .described("a sample: its time (s, within ±\(Int(maxTime))), its phase and every pointer down, each id once"),
        ])
    }
}

extension LiveMessage.Pointer: StudioContract {
    static let schemaName = "LivePointer"
    static var schema: Schema {
        .object([(CodingKeys.id, Schema.integer.with("minimum", .number(0)).with("maximum", .number(15))), (.x, .number), (.y, .number)], closed: true)
    }
}

extension LiveFrames: StudioContract {
    static let schemaName = "LiveFrames"
    static var schema: Schema { .object([(CodingKeys.frames, .array(.ref(Frame.self)))]) }
}

extension LiveDone: StudioContract {
    static let schemaName = "LiveDone"
    static var schema: Schema {
        .object([(CodingKeys.done, Schema.boolean.with("enum", .array([.bool(true)]))), (.trace, .string), (.params, .ref(ParamSet.self)),
                 (.decision, Schema.string.nullable), (.rest, Schema.number.nullable), (.metrics, .ref(MetricRow.self))])
    }
}
