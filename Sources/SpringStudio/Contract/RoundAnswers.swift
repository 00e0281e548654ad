import Foundation
import SpringCore
import SpringLayout
import SpringTune
import ToolRuntime

// The studio's answers: rounds and the best (`GET /api/candidates`, `POST /api/choices`, `DELETE /api/choices/last`, `GET /api/best`).
// Each a value type encoded by ``JSONTextEncoder``, with its OpenAPI schema next to its fields. Lengths in pt, times in s, speeds in pt/s.

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
    static let schemaName = "ChoiceCount"
    static var schema: Schema { .object([(CodingKeys.choices, .integer), (.learned, .boolean)]) }
}

/// An axis of the utility map.
struct MapAxis: Encodable, StudioContract {
    var name: String, unit: String, log: Bool
    /// The grid's axis values, in the axis's unit, increasing.
    var values: [Double]
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
