import Foundation
import SpringCore
import SpringLayout
import SpringTune
import ToolRuntime

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
        for (name, value) in columns { try c.encode(MetricNumber(value), forKey: NameKey(name)) }
    }

    static let schemaName = "Metrics"
    static var schema: Schema { .map(MetricNumber.schema) }
}

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

        enum CodingKeys: String, CodingKey { case name, unit, min, max, log, words, preset }

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

        enum CodingKeys: String, CodingKey { case name, unit, value, min, max, log, words, free }

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
        enum CodingKeys: CodingKey { case name, unit, better }
        static var schema: Schema { .object([(CodingKeys.name, .string), (.unit, .string), (.better, .string)]) }
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
    /// The free parameters, in order.
    var axes: [Axis]
    /// Every parameter of the model with a domain.
    var parameters: [Parameter]
    var metrics: [Metric]
    var objective: ObjectiveBody
    /// Width and height (pt).
    var screen: [Double]
    var traces: [Trace]

    enum CodingKeys: CodingKey { case name, model, axes, parameters, metrics, objective, screen, traces }
    static let schemaName = "Preset"
    static var schema: Schema {
        .object([(CodingKeys.name, .string), (.model, .string), (.axes, .array(.ref(Axis.self))), (.parameters, .array(.ref(Parameter.self))),
                 (.metrics, .array(Metric.schema)), (.objective, .ref(ObjectiveBody.self)), (.screen, .array(.number, min: 2, max: 2)), (.traces, .array(Trace.schema))])
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

/// `POST /api/evaluate`: the report row's aggregates over every trace, their verdicts and
/// their 95 % intervals over the groups of the traces.
struct Evaluation: Encodable, StudioContract {
    var params: ParamSet
    var metrics: MetricRow
    var verdicts: [Verdict]
    var intervals: IntervalsAnswer
    enum CodingKeys: CodingKey { case params, metrics, verdicts, intervals }
    static let schemaName = "Evaluation"
    static var schema: Schema {
        .object([(CodingKeys.params, .ref(ParamSet.self)), (.metrics, .ref(MetricRow.self)), (.verdicts, .array(.ref(Verdict.self))),
                 (.intervals, .ref(IntervalsAnswer.self))])
    }
}

/// A candidate of a round: its metrics with their verdicts and intervals, and whether its
/// difference from the round's best-looking candidate on the objective column lies inside the
/// noise (``RoundNoise``).
struct CandidateAnswer: Encodable, StudioContract {
    var id: Int
    var params: ParamSet
    var metrics: MetricRow
    var verdicts: [Verdict]
    var intervals: IntervalsAnswer
    var insideNoise: Bool
    enum CodingKeys: CodingKey { case id, params, metrics, verdicts, intervals, insideNoise }
    static let schemaName = "Candidate"
    static var schema: Schema {
        .object([(CodingKeys.id, .integer), (.params, .ref(ParamSet.self)), (.metrics, .ref(MetricRow.self)), (.verdicts, .array(.ref(Verdict.self))),
                 (.intervals, .ref(IntervalsAnswer.self)),
                 (.insideNoise, Schema.boolean.described("the 95 % interval of its paired difference from noise.candidate on noise.metric holds 0"))])
    }
}

/// `GET /api/candidates`: the open round, watched on the trace where its candidates differ
/// most, from `start` (s from the trace's first sample: 0.3 s before its release); `noise`
/// names the objective column and the best-looking candidate the others are compared with.
struct RoundAnswer: Encodable, StudioContract {
    /// The objective column and the id of the candidate best on it.
    struct Noise: Encodable {
        var metric: String
        var candidate: Int
        enum CodingKeys: CodingKey { case metric, candidate }
        static var schema: Schema {
            Schema.object([(CodingKeys.metric, .string), (.candidate, .integer)], closed: true).nullable
                .described("the objective column and the candidate best on it, which insideNoise compares with; null when no candidate defines the column")
        }
    }

    var round: Int
    var trace: String
    var start: Double
    var noise: Noise?
    var candidates: [CandidateAnswer]
    enum CodingKeys: CodingKey { case round, trace, start, noise, candidates }
    static let schemaName = "Round"
    static var schema: Schema {
        .object([(CodingKeys.round, .integer), (.trace, .string), (.start, Schema.number.with("minimum", .number(0))), (.noise, Noise.schema),
                 (.candidates, .array(.ref(CandidateAnswer.self)))])
    }
}

/// `POST /api/choices`, `DELETE /api/choices/last`: the number of answers so far, and whether
/// the model learned from this one ("no difference" teaches it nothing: a tie does not say which
/// is better, so the best and its uncertainty stay as they were).
struct ChoiceCount: Encodable, StudioContract {
    var choices: Int
    var learned: Bool
    enum CodingKeys: CodingKey { case choices, learned }
    static let schemaName = "ChoiceCount"
    static var schema: Schema { .object([(CodingKeys.choices, .integer), (.learned, .boolean)]) }
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

    /// An answered round the best rests on: its candidates, the answer (`worst` or `best` and
    /// the candidate), and the unit-box distance from the best to its nearest candidate.
    struct Support: Encodable {
        var round: Int, trace: String
        var candidates: [Int]
        var answer: String
        var candidate: Int?
        var distance: Double
        enum CodingKeys: CodingKey { case round, trace, candidates, answer, candidate, distance }
        static var schema: Schema {
            .object([(CodingKeys.round, .integer), (.trace, .string), (.candidates, .array(.integer)), (.answer, .string(oneOf: ["worst", "best"])),
                     (.candidate, Schema.integer.nullable), (.distance, .number)], optional: [.candidate])
        }
    }

    var params: ParamSet
    var utility: Utility
    var metrics: MetricRow
    var verdicts: [Verdict]
    var intervals: IntervalsAnswer
    /// How sure its constraints are, and its verdicts on each group's traces alone.
    var sure: SureAnswer
    var groups: [GroupAnswer]
    var choices: Int
    var map: UtilityMap?
    /// Free parameters the best sits at an end of (within 1 % of the range).
    var edges: [String]
    var margins: Margins
    var support: [Support]
    /// Each metric's change, best − preset's own set, in its unit.
    var changes: MetricRow

    enum CodingKeys: CodingKey { case params, utility, metrics, verdicts, intervals, sure, groups, choices, map, edges, margins, support, changes }
    static let schemaName = "Best"
    static var schema: Schema {
        Schema.object([(CodingKeys.params, .ref(ParamSet.self)), (.utility, Utility.schema), (.metrics, .ref(MetricRow.self)),
                       (.verdicts, .array(.ref(Verdict.self))), (.intervals, .ref(IntervalsAnswer.self)), (.sure, .ref(SureAnswer.self)),
                       (.groups, Schema.array(.ref(GroupAnswer.self)).described("the best on each group's traces alone, groups in order of first appearance")),
                       (.choices, .integer), (.map, UtilityMap.schema),
                       (.edges, Schema.array(.string).described("free parameters the best sits at an end of (within 1 % of the range): the optimum may lie beyond")),
                       (.margins, .ref(Margins.self)), (.support, .array(Support.schema)),
                       (.changes, Schema.ref(MetricRow.self).described("best − the preset's own set, per metric, in its unit"))])
            .described("The model's best estimate (docs/Reference.md §12): the preset's own set before any choice.")
    }
}

/// The best's margins (Reference §13): per free numeric parameter, the distance in its unit to
/// the nearest value (the others fixed) at which a constraint or target breaks, or `">25%"`
/// when none breaks within 25 % of its range; `breaks` names what breaks first, and where.
struct Margins: Encodable, StudioContract {
    var margins: [SearchMeta.Margin]

    init(_ margins: [SearchMeta.Margin]) { self.margins = margins }

    enum CodingKeys: CodingKey { case distance, breaks }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        var distance = c.nestedContainer(keyedBy: NameKey.self, forKey: .distance)
        for m in margins {
            if let d = m.margin { try distance.encode(NumberFormat.typed(d), forKey: NameKey(m.name)) } else { try distance.encode(">25%", forKey: NameKey(m.name)) }
        }
        var breaks = c.nestedContainer(keyedBy: NameKey.self, forKey: .breaks)
        for m in margins { if let b = m.breaks { try breaks.encode(b, forKey: NameKey(m.name)) } }
    }

    static let schemaName = "Margins"
    static var schema: Schema {
        .object([(CodingKeys.distance, Schema.map(.oneOf([Schema.number.with("minimum", .number(0)), .string(oneOf: [">25%"])]))
                    .described("per free numeric parameter: the distance to the nearest break, in its unit, or >25%")),
                 (CodingKeys.breaks, Schema.map(.string).described("per parameter with a break: what breaks first and at which value"))])
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

/// `POST /api/code`: the set in the asked form, as `springtune export --format` writes it.
struct CodeAnswer: Encodable, StudioContract {
    var format: String
    var text: String
    enum CodingKeys: CodingKey { case format, text }
    static let schemaName = "CodeAnswer"
    static var schema: Schema { .object([(CodingKeys.format, .string), (.text, .string)]) }
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

/// `GET /api/recordings`, and the answer to labelling one: every live gesture kept in the session.
struct RecordingsAnswer: Encodable, StudioContract {
    struct Recording: Encodable, StudioContract {
        /// `live-N`.
        var id: String
        /// `fling`, `drag`, `pinch` or `edge pull`, as the studio's traces are listed.
        var kind: String
        var intent: String?
        /// Whether it is one of the studio's traces.
        var used: Bool
        /// Touch-down to the last lift (s).
        var duration: Double
        /// The page's phone (pt) and the display's device pixel ratio.
        var screen: [Double], dpr: Double
        var params: ParamSet

        enum CodingKeys: CodingKey { case id, kind, intent, used, duration, screen, dpr, params }
        static let schemaName = "Recording"
        static var schema: Schema {
            .object([(CodingKeys.id, .string), (.kind, .string), (.intent, Schema.string.nullable), (.used, .boolean), (.duration, .number),
                     (.screen, .array(.number, min: 2, max: 2)), (.dpr, .number), (.params, .ref(ParamSet.self))])
        }
    }

    var recordings: [Recording]
    enum CodingKeys: CodingKey { case recordings }
    static let schemaName = "Recordings"
    static var schema: Schema { .object([(CodingKeys.recordings, .array(.ref(Recording.self)))]) }
}

/// `POST /api/recordings/ID` `{intent}`: one of the model's intents.
struct LabelRequest: Decodable, StudioContract {
    /// One of the model's intents (`dismiss`, `keep`, …).
    var intent: TraceIntent?
    /// Whether the recording joins the studio's traces (replay, rounds, evaluate).
    var used: Bool?

    enum CodingKeys: String, CodingKey, CaseIterable { case intent, used }

    init(intent: TraceIntent? = nil, used: Bool? = nil) { self.intent = intent; self.used = used }

    init(from decoder: any Decoder) throws {
        let c = try StudioRequest.fields(decoder, CodingKeys.self)
        let words = TraceIntent.allCases.map(\.rawValue).joined(separator: ", ")
        if let word = try c.field(String.self, .intent, "intent must be one of \(words)") {
            guard let intent = TraceIntent(rawValue: word) else { throw StudioError.badRequest("intent must be one of \(words)") }
            self.intent = intent
        }
        used = try c.field(Bool.self, .used, "used must be true or false")
        guard intent != nil || used != nil else { throw StudioError.badRequest("give intent, used or both") }
    }

    static let schemaName = "Label"
    static var schema: Schema {
        .object([(CodingKeys.intent, .string(oneOf: TraceIntent.allCases.map(\.rawValue))), (.used, .boolean)], optional: [.intent, .used], closed: true)
            .with("minProperties", .number(1))
    }
}

/// `GET /api/recordings.meta.json`: the sidecar of `recordings.csv` (Reference §10.16, live touch).
struct RecordingsMeta: Encodable, StudioContract {
    var source = "studio"
    /// The session file, the preset and its model.
    var session: String, preset: String, model: String
    var recordings: [RecordingsAnswer.Recording]

    enum CodingKeys: CodingKey { case source, session, preset, model, recordings }
    static let schemaName = "RecordingsMeta"
    static var schema: Schema {
        .object([(CodingKeys.source, .string(oneOf: ["studio"])), (.session, .string), (.preset, .string), (.model, .string),
                 (.recordings, .array(.ref(RecordingsAnswer.Recording.self)))])
    }
}
