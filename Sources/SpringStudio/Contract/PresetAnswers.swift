import Foundation
import SpringCore
import SpringLayout
import SpringTune
import ToolRuntime

// The studio's answers: `GET /api/preset` and the designer's objective (`GET`/`PUT /api/objective`).
// Each a value type encoded by ``JSONTextEncoder``, with its OpenAPI schema next to its fields. Lengths in pt, times in s, speeds in pt/s.

/// `GET /api/preset`: the preset, its shown axes, its report columns, its objective, its screen
/// (pt) and its traces.
struct PresetAnswer: Encodable, StudioContract {
    /// A free parameter: a slider over its range (numbers) or a choice of its words.
    struct Axis: Encodable, StudioContract {
        var name: String, unit: String
        /// The slider's range, in the parameter's unit (nil for words).
        var min: Double?, max: Double?
        var log: Bool
        var words: [String]?
        /// The preset's value, clamped into the range: where the slider starts.
        var preset: ParamValue


        static let schemaName = "Axis"
        static var schema: Schema {
            .object([(CodingKeys.name, .string), (.unit, .string), (.min, Schema.number.nullable), (.max, Schema.number.nullable),
                     (.log, .boolean), (.words, Schema.array(.string).nullable), (.preset, ParamSet.value)])
        }
    }

    /// A model parameter (Reference §8.3): the preset's value, its domain (or, when free, the
    /// designer's range), and whether it is free.
    struct Parameter: Encodable, StudioContract {
        var name: String, unit: String
        var value: ParamValue
        var min: Double?, max: Double?
        var log: Bool
        var words: [String]?
        var free: Bool


        init(spec: ParameterSpec, value: ParamValue, domain: ParameterDomain, free: SearchBox.Dimension?) {
            name = spec.name; unit = spec.unit; self.value = value; self.free = free != nil
            switch free?.extent {
            case let .numbers(lo, hi, isLog)?: min = lo; max = hi; log = isLog; words = nil
            case let .words(w)?: min = nil; max = nil; log = false; words = w.map(\.description)
            case nil:
                switch domain.values {
                case let .range(lo, hi, isLog): min = lo; max = hi; log = isLog; words = nil
                case let .words(w): min = nil; max = nil; log = false; words = w
                }
            }
        }

        static let schemaName = "Parameter"
        static var schema: Schema {
            .object([(CodingKeys.name, .string), (.unit, .string), (.value, ParamSet.value), (.min, Schema.number.nullable), (.max, Schema.number.nullable),
                     (.log, .boolean), (.words, Schema.array(.string).nullable), (.free, .boolean)])
        }
    }

    struct Metric: Encodable {
        var name: String, unit: String
        /// `lower`, `higher` or `none`.
        var better: String
        static var schema: Schema { .object([(CodingKeys.name, .string), (.unit, .string), (.better, .string)]) }
    }

    struct Trace: Encodable {
        var id: String
        /// `fling`, `drag`, `pinch` or `edge pull`.
        var kind: String
        var intent: String?
        /// Touch-down to lift-off (s).
        var duration: Double
        static var schema: Schema {
            .object([(CodingKeys.id, .string), (.kind, .string(oneOf: ["fling", "drag", "pinch", "edge pull"])),
                     (.intent, Schema.string.nullable), (.duration, .number)], optional: [.intent])
        }
    }

    var name: String, model: String
    /// The free parameters, in order.
    var axes: [Axis]
    /// Every parameter of the model with a domain.
    var parameters: [Parameter]
    var metrics: [Metric]
    var objective: ObjectiveBody
    /// Width and height (pt).
    var screen: [Double]
    var traces: [Trace]

    static let schemaName = "Preset"
    static var schema: Schema {
        .object([(CodingKeys.name, .string), (.model, .string), (.axes, .array(.ref(Axis.self))), (.parameters, .array(.ref(Parameter.self))),
                 (.metrics, .array(Metric.schema)), (.objective, .ref(ObjectiveBody.self)), (.screen, .array(.number, min: 2, max: 2)), (.traces, .array(Trace.schema))])
    }
}

/// The designer's objective (`GET`/`PUT /api/objective`, Reference §8.1): a preset's
/// `objective` object. `worstOver` and `robust` concern sweeps and stay the preset's.
/// `confidence` (0.5 to 0.99, Reference §14.3) is what the best's constraints are judged sure at.
struct ObjectiveBody: Codable, StudioContract {
    var constraints: [String], targets: [String]
    var minimize: String?, maximize: String?
    var tiebreak: [String]?
    var confidence: Double?

    enum CodingKeys: String, CodingKey, CaseIterable { case constraints, targets, minimize, maximize, tiebreak, confidence }

    init(_ o: Objective) {
        constraints = o.constraints; targets = o.targets; minimize = o.minimize; maximize = o.maximize; tiebreak = o.tiebreak
        confidence = o.confidence
    }

    init(from decoder: any Decoder) throws {
        let c = try StudioRequest.fields(decoder, CodingKeys.self)
        let rules = "must be a list of rules (strings)"
        constraints = try c.field([String].self, .constraints, "constraints \(rules)") ?? []
        targets = try c.field([String].self, .targets, "targets \(rules)") ?? []
        minimize = try c.optional(String.self, .minimize, "minimize must be a metric name")
        maximize = try c.optional(String.self, .maximize, "maximize must be a metric name")
        tiebreak = try c.optional([String].self, .tiebreak, "tiebreak must be a list of metric names")
        let range = Objective.confidenceRange
        let confidenceRule = "confidence must be a number from \(NumberFormat.short(range.lowerBound)) to \(NumberFormat.short(range.upperBound)) (such as 0.9)"
        confidence = try c.optional(Double.self, .confidence, confidenceRule)
        if let confidence, !range.contains(confidence) { throw StudioError.badRequest(confidenceRule) }
        guard constraints.count + targets.count <= 64 else { throw StudioError.badRequest("at most 64 constraints and targets") }
    }

    /// `body` as the objective of `loaded`'s preset, checked as a preset file's objective is
    /// (every rule parses, every name is a report column): 400 naming what is wrong.
    static func checked(_ body: ObjectiveBody, loaded: PresetStore.Loaded) throws -> Objective {
        var preset = loaded.preset
        preset.objective.constraints = body.constraints
        preset.objective.targets = body.targets
        preset.objective.minimize = body.minimize
        preset.objective.maximize = body.maximize
        preset.objective.tiebreak = body.tiebreak
        preset.objective.confidence = body.confidence
        do {
            let checked = try PresetStore.decode(Data(try JSONCoding.encode(preset).utf8), path: "objective")
            _ = try Ranking(objective: checked.preset.objective)
            return checked.preset.objective
        } catch let error as ToolError {
            throw StudioError.badRequest(error.message.hasPrefix("objective: ") ? String(error.message.dropFirst(11)) : error.message)
        }
    }

    static let schemaName = "Objective"
    static var schema: Schema {
        .object([(CodingKeys.constraints, Schema.array(.string).described("METRIC OP VALUE, OP one of <= < >= > ==")),
                 (.targets, Schema.array(.string).described("METRIC = VALUE ± TOL")), (.minimize, Schema.string.nullable), (.maximize, Schema.string.nullable),
                 (.tiebreak, Schema.array(.string).nullable),
                 (.confidence, Schema.number.with("minimum", .number(Objective.confidenceRange.lowerBound)).with("maximum", .number(Objective.confidenceRange.upperBound)).nullable
                    .described("the confidence the best's constraints are judged sure at (docs/Reference.md §14.3); null: none, judged at 0.9 as a warning"))],
                optional: CodingKeys.allCases, closed: true)
    }
}
