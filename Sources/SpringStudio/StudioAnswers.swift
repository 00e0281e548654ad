import SpringLayout
import SpringTune

// The studio's answers (Reference §10.16): each a value type encoded by ``JSONTextEncoder``, its
// OpenAPI schema declared next to its fields. Lengths in pt, times in s, speeds in pt/s.

/// A parameter set, `{"NAME": number-or-word}` with the names sorted (answers and sessions).
struct ParamSet: Codable, Equatable, StudioContract {
    var values: [String: ParamValue]

    init(_ values: [String: ParamValue]) { self.values = values }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: NameKey.self)
        for name in values.keys.sorted() { try c.encode(values[name]!, forKey: NameKey(name)) }
    }

    /// Any names (checked against the axes by ``StudioRequest/checked(_:axes:)``); each value a
    /// number or a word (400 otherwise).
    init(from decoder: any Decoder) throws {
        guard let c = try? decoder.container(keyedBy: NameKey.self) else { throw StudioError.badRequest("params must be a JSON object") }
        var values: [String: ParamValue] = [:]
        for key in c.allKeys {
            guard let value = try? c.decode(ParamValue.self, forKey: key) else {
                throw StudioError.badRequest("params.\(key.stringValue.prefix(80)) must be a number or a word")
            }
            values[key.stringValue] = value
        }
        self.values = values
    }

    static let schemaName = "Params"
    static let value = Schema.oneOf([.number, .string])
    static var schema: Schema { .map(value).described("axis name to number or word; names not given keep the preset's value") }
}

/// A coding key of any name.
struct NameKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init(stringValue: String) { self.init(stringValue) }
    init?(intValue _: Int) { nil }
}

/// A report row (or a trace's metrics) by column, in column order: a number, `"inf"` (never
/// settles) or null (undefined), in the metric's unit.
struct MetricRow: Encodable, StudioContract {
    var columns: [(name: String, value: MetricValue)]

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: NameKey.self)
        for (name, value) in columns {
            switch value {
            case .undefined: try c.encodeNil(forKey: NameKey(name))
            case let .value(d): try c.encode(d, forKey: NameKey(name))
            case .neverSettled: try c.encode("inf", forKey: NameKey(name))
            }
        }
    }

    static let schemaName = "Metrics"
    static var schema: Schema {
        .map(Schema.oneOf([.number, .string(oneOf: ["inf"])]).nullable.described("a number, \"inf\" (never settles) or null (undefined)"))
    }
}

/// `GET /api/preset`: the preset, its shown axes, its report columns, its objective, its screen
/// (pt) and its traces.
struct PresetAnswer: Encodable, StudioContract {
    struct Axis: Encodable, StudioContract {
        var name: String, unit: String
        /// The slider's range, in the axis's unit (nil for a word axis).
        var min: Double?, max: Double?
        var log: Bool
        /// The axis's grid: numbers (a numeric axis) or words.
        var values: [Double]?, words: [String]?
        var preset: ParamValue

        enum CodingKeys: String, CodingKey { case name, unit, min, max, log, values, words, preset }

        /// `values` or `words`, whichever the axis has.
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(name, forKey: .name)
            try c.encode(unit, forKey: .unit)
            try c.encodeIfPresent(min, forKey: .min)
            try c.encodeIfPresent(max, forKey: .max)
            try c.encode(log, forKey: .log)
            if let words { try c.encode(words, forKey: .words) } else { try c.encode(values ?? [], forKey: .values) }
            try c.encode(preset, forKey: .preset)
        }

        static let schemaName = "Axis"
        static var schema: Schema {
            .object([(CodingKeys.name, .string), (.unit, .string), (.min, Schema.number.nullable), (.max, Schema.number.nullable),
                     (.log, .boolean), (.values, .array(.number)), (.words, .array(.string)), (.preset, ParamSet.value)],
                    optional: [.min, .max, .values, .words])
        }
    }

    struct Metric: Encodable {
        var name: String, unit: String
        /// `lower`, `higher` or `none`.
        var better: String
        enum CodingKeys: CodingKey { case name, unit, better }
        static var schema: Schema { .object([(CodingKeys.name, .string), (.unit, .string), (.better, .string)]) }
    }

    struct Objective: Encodable {
        /// As the preset writes them (§8.1 grammar).
        var constraints: [String], targets: [String]
        var minimize: String?, maximize: String?
        enum CodingKeys: CodingKey { case constraints, targets, minimize, maximize }
        static var schema: Schema {
            .object([(CodingKeys.constraints, .array(.string)), (.targets, .array(.string)),
                     (.minimize, Schema.string.nullable), (.maximize, Schema.string.nullable)], optional: [.minimize, .maximize])
        }
    }

    struct Trace: Encodable {
        var id: String
        /// `fling`, `drag`, `pinch` or `edge pull`.
        var kind: String
        var intent: String?
        /// Touch-down to lift-off (s).
        var duration: Double
        enum CodingKeys: CodingKey { case id, kind, intent, duration }
        static var schema: Schema {
            .object([(CodingKeys.id, .string), (.kind, .string(oneOf: ["fling", "drag", "pinch", "edge pull"])),
                     (.intent, Schema.string.nullable), (.duration, .number)], optional: [.intent])
        }
    }

    var name: String, model: String
    var axes: [Axis]
    var metrics: [Metric]
    var objective: Objective
    /// Width and height (pt).
    var screen: [Double]
    var traces: [Trace]

    enum CodingKeys: CodingKey { case name, model, axes, metrics, objective, screen, traces }
    static let schemaName = "Preset"
    static var schema: Schema {
        .object([(CodingKeys.name, .string), (.model, .string), (.axes, .array(.ref(Axis.self))), (.metrics, .array(Metric.schema)),
                 (.objective, Objective.schema), (.screen, .array(.number, min: 2, max: 2)), (.traces, .array(Trace.schema))])
    }
}

/// A picture of a replay (``StudioFrames``): at `t` (s from touch-down), the timeline rows when
/// asked (`[item, y, anchor, velocity]`, pt and pt/s), the shapes on screen (`[x, y, width,
/// height, 0xRRGGBB]`, pt to 0.01) and the fingers down (`[x, y]`, pt).
struct Frame: Encodable, StudioContract {
    var t: Double
    var items: [[Double]], shapes: [[Double]], fingers: [[Double]]

    enum CodingKeys: CodingKey { case t, items, shapes, fingers }
    static let schemaName = "Frame"
    static var schema: Schema {
        .object([(CodingKeys.t, .number), (.items, .array(.array(.number, min: 4, max: 4))),
                 (.shapes, .array(.array(Schema.number.nullable, min: 5, max: 5))), (.fingers, .array(.array(.number, min: 2, max: 2)))])
    }
}

/// One trace replayed: its metrics and their verdicts, and the frames the page draws.
struct TraceReplayAnswer: Encodable, StudioContract {
    var trace: String, kind: String
    var intent: String?, decision: String?
    var unsettled: Bool
    /// Width and height (pt).
    var screen: [Double]
    /// When everything rests (s from touch-down).
    var rest: Double
    var metrics: MetricRow
    var verdicts: [Verdict]
    var frames: [Frame]

    enum CodingKeys: CodingKey { case trace, kind, intent, decision, unsettled, screen, rest, metrics, verdicts, frames }
    static let schemaName = "TraceReplay"
    static var schema: Schema {
        .object([(CodingKeys.trace, .string), (.kind, .string), (.intent, Schema.string.nullable), (.decision, Schema.string.nullable),
                 (.unsettled, .boolean), (.screen, .array(.number)), (.rest, .number), (.metrics, .ref(MetricRow.self)),
                 (.verdicts, .array(.ref(Verdict.self))), (.frames, .array(.ref(Frame.self)))], optional: [.intent, .decision, .unsettled])
    }
}

/// `POST /api/replay`.
struct ReplayAnswer: Encodable, StudioContract {
    var params: ParamSet
    var replays: [TraceReplayAnswer]
    enum CodingKeys: CodingKey { case params, replays }
    static let schemaName = "ReplayAnswer"
    static var schema: Schema { .object([(CodingKeys.params, .ref(ParamSet.self)), (.replays, .array(.ref(TraceReplayAnswer.self)))]) }
}

/// `POST /api/evaluate`: the report row's aggregates over every trace, and their verdicts.
struct Evaluation: Encodable, StudioContract {
    var params: ParamSet
    var metrics: MetricRow
    var verdicts: [Verdict]
    enum CodingKeys: CodingKey { case params, metrics, verdicts }
    static let schemaName = "Evaluation"
    static var schema: Schema {
        .object([(CodingKeys.params, .ref(ParamSet.self)), (.metrics, .ref(MetricRow.self)), (.verdicts, .array(.ref(Verdict.self)))])
    }
}

/// A candidate of a round.
struct CandidateAnswer: Encodable, StudioContract {
    var id: Int
    var params: ParamSet
    var metrics: MetricRow
    var verdicts: [Verdict]
    enum CodingKeys: CodingKey { case id, params, metrics, verdicts }
    static let schemaName = "Candidate"
    static var schema: Schema {
        .object([(CodingKeys.id, .integer), (.params, .ref(ParamSet.self)), (.metrics, .ref(MetricRow.self)), (.verdicts, .array(.ref(Verdict.self)))])
    }
}

/// `GET /api/candidates`: the open round.
struct RoundAnswer: Encodable, StudioContract {
    var round: Int
    var trace: String
    var candidates: [CandidateAnswer]
    enum CodingKeys: CodingKey { case round, trace, candidates }
    static let schemaName = "Round"
    static var schema: Schema { .object([(CodingKeys.round, .integer), (.trace, .string), (.candidates, .array(.ref(CandidateAnswer.self)))]) }
}

/// `POST /api/choices`, `DELETE /api/choices/last`: the number of answers so far.
struct ChoiceCount: Encodable, StudioContract {
    var choices: Int
    enum CodingKeys: CodingKey { case choices }
    static let schemaName = "ChoiceCount"
    static var schema: Schema { .object([(CodingKeys.choices, .integer)]) }
}

/// An axis of the utility map.
struct MapAxis: Encodable, StudioContract {
    var name: String, unit: String, log: Bool
    /// The grid's axis values, in the axis's unit, increasing.
    var values: [Double]
    enum CodingKeys: CodingKey { case name, unit, log, values }
    static let schemaName = "MapAxis"
    static var schema: Schema {
        .object([(CodingKeys.name, .string), (.unit, .string), (.log, .boolean),
                 (.values, Schema.array(.number).described("the grid's axis values, in the axis's unit, increasing"))], closed: true)
    }
}

/// `GET /api/best`: the model's best estimate so far (the preset's own set before any choice).
struct BestAnswer: Encodable, StudioContract {
    /// u(best) − u(preset's set), in units of the model's prior sd.
    struct Utility: Encodable {
        var mean: Double, sd: Double
        enum CodingKeys: CodingKey { case mean, sd }
        static var schema: Schema {
            Schema.object([(CodingKeys.mean, .number), (.sd, Schema.number.with("minimum", .number(0)))])
                .described("u(best) − u(preset's own set): posterior mean and sd, in units of the model's prior sd (0 ± 0 before any choice).")
        }
    }

    /// The predicted utility (relative to the preset's set) over two axes: `mean[j][i]` at
    /// `y.values[j]`, `x.values[i]`.
    struct UtilityMap: Encodable {
        var x: MapAxis, y: MapAxis
        var mean: [[Double]]
        enum CodingKeys: CodingKey { case x, y, mean }
        static var schema: Schema {
            Schema.object([(CodingKeys.x, .ref(MapAxis.self)), (.y, .ref(MapAxis.self)),
                           (.mean, Schema.array(.array(.number)).described("mean[j][i] at y.values[j], x.values[i]"))], closed: true)
                .nullable
                .described("The predicted utility (relative to the preset's set) over the two most important numeric axes, the others at the best set's values; null before any choice or with fewer than two numeric axes.")
        }
    }

    var params: ParamSet
    var utility: Utility
    var metrics: MetricRow
    var verdicts: [Verdict]
    var choices: Int
    var map: UtilityMap?

    enum CodingKeys: CodingKey { case params, utility, metrics, verdicts, choices, map }
    static let schemaName = "Best"
    static var schema: Schema {
        Schema.object([(CodingKeys.params, .ref(ParamSet.self)), (.utility, Utility.schema), (.metrics, .ref(MetricRow.self)),
                       (.verdicts, .array(.ref(Verdict.self))), (.choices, .integer), (.map, UtilityMap.schema)])
            .described("The model's best estimate (docs/Reference.md §12): the preset's own set before any choice.")
    }
}

/// `POST /api/export`: where the preset was written.
struct ExportAnswer: Encodable, StudioContract {
    var path: String
    enum CodingKeys: CodingKey { case path }
    static let schemaName = "ExportAnswer"
    static var schema: Schema { .object([(CodingKeys.path, .string)]) }
}

/// Every refusal: `{"error": one line}` with a 4xx status.
struct ErrorAnswer: Encodable, StudioContract {
    var error: String
    enum CodingKeys: CodingKey { case error }
    static let schemaName = "Error"
    static var schema: Schema { .object([(CodingKeys.error, .string)], closed: true) }
}
