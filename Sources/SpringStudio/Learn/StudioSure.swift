import Dispatch
import SpringCore
import SpringLayout
import SpringTune

// How sure the studio's answers are (Reference §14, §10.16): every set the page is shown is
// measured trace by trace over the studio's traces, with who made each trace, so that its
// metrics come with 95 % intervals, a round says which candidates differ from its best-looking
// one only inside the noise, and the best says how sure its constraints are and which groups
// it fails.

/// A parameter set measured trace by trace over the studio's traces, with the 95 % interval of
/// every report column that has one (the cluster bootstrap over groups, Reference §14).
struct StudioMeasure: Sendable {
    let set: MeasuredSet
    let intervals: SetIntervals

    /// The studio's bootstrap: 1000 resamples, seed 0, so that every answer is the same on
    /// every run (a set's intervals depend on its traces only).
    static let bootstrap = ClusterBootstrap()

    init(_ set: MeasuredSet) {
        self.set = set
        intervals = SetIntervals(set, bootstrap: Self.bootstrap)
    }

    /// The report row by column, as ``StudioEngine/evaluate(_:)`` gives it.
    var row: [(name: String, value: MetricValue)] { zip(set.kind.reportColumns, set.row.values).map { ($0.name, $1) } }

    /// `sets` measured (one sweep run over every trace) and bootstrapped, on every core.
    static func measure(_ sets: [[String: ParamValue]], on engine: StudioEngine) throws -> [StudioMeasure] {
        let measured = try engine.measure(sets)
        let out = Guarded([StudioMeasure?](repeating: nil, count: measured.count))
        DispatchQueue.concurrentPerform(iterations: measured.count) { i in
            let m = StudioMeasure(measured[i])
            out.update { var v = $0; v[i] = m; return v }
        }
        return out.value.map { $0! }
    }
}

/// Which of a round's candidates differ from its best-looking one only inside the noise: the
/// candidate with the best value of the objective column (lowest, or highest when it is
/// maximized; ties: the first), and for each other candidate whether the 95 % interval of the
/// paired difference on that column (the cluster bootstrap over groups, the same resamples on
/// both sides, as `compare --fail-on-regression` judges a change) holds 0.
struct RoundNoise: Sendable {
    /// The objective column.
    var metric: String
    /// The index of the best-looking candidate.
    var reference: Int
    /// Per candidate: its difference from the reference lies inside the noise (false for the
    /// reference itself, and for a candidate whose difference has no interval).
    var inside: [Bool]

    /// Nil when no candidate defines the objective column.
    init?(_ sets: [MeasuredSet], ranking: Ranking, bootstrap: ClusterBootstrap = StudioMeasure.bootstrap) {
        let column = ranking.column
        let values = sets.map { $0.value(column) }
        let defined = values.indices.filter { values[$0].map { !$0.isNaN } ?? false }
        let better = { (a: Int, b: Int) in ranking.maximize ? values[a]! > values[b]! : values[a]! < values[b]! }
        guard let reference = defined.reduce(nil, { (best: Int?, i: Int) in best.map { better(i, $0) ? i : $0 } ?? i }),
              let base = sets[reference].statistic(column) else { return nil }
        let others = sets.indices.filter { $0 != reference && sets[$0].statistic(column) != nil }
        let differences = bootstrap.distributions(others.map { .difference(base, sets[$0].statistic(column)!) }, groups: sets[reference].groups.count)
        var inside = [Bool](repeating: false, count: sets.count)
        for (i, d) in zip(others, differences) {
            if let interval = d.interval() { inside[i] = interval.lo <= 0 && interval.hi >= 0 }
        }
        metric = column
        self.reference = reference
        self.inside = inside
    }
}

/// A report value as the answers write it: a number, `"inf"` (never settles) or null (undefined).
struct MetricNumber: Encodable {
    var value: MetricValue

    init(_ value: MetricValue) { self.value = value }
    init(_ number: Double?) { value = MetricValue(number) }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch value {
        case .undefined: try c.encodeNil()
        case let .value(d): try c.encode(d)
        case .neverSettled: try c.encode("inf")
        }
    }

    static var schema: Schema {
        Schema.oneOf([.number, .string(oneOf: ["inf"])]).nullable.described("a number, \"inf\" (never settles) or null (undefined)")
    }
}

/// A metric's 95 % interval (Reference §14): the 2.5 % and 97.5 % bootstrap quantiles in the
/// metric's unit (null when no resample defined it), and the traces and groups the value rests on.
struct IntervalAnswer: Encodable, StudioContract {
    var lo: MetricNumber, hi: MetricNumber
    var traces: Int, groups: Int

    init(_ i: Interval) { lo = MetricNumber(i.lo); hi = MetricNumber(i.hi); traces = i.traces; groups = i.groups }

    static let schemaName = "Interval"
    static var schema: Schema {
        .object([(CodingKeys.lo, MetricNumber.schema), (.hi, MetricNumber.schema),
                 (.traces, Schema.integer.with("minimum", .number(0)).described("the traces the value rests on (for a rate: the labelled traces of its intent)")),
                 (.groups, Schema.integer.with("minimum", .number(0)).described("the groups (people or devices) those traces come from"))], closed: true)
    }
}

/// `{"COLUMN": {lo, hi, traces, groups}}`: the interval of every report column that has one
/// (the rates and each `_mean`, `_p95`, `_max`), in report order.
struct IntervalsAnswer: Encodable, StudioContract {
    var intervals: SetIntervals

    init(_ intervals: SetIntervals) { self.intervals = intervals }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: NameKey.self)
        for i in intervals.intervals { try c.encode(IntervalAnswer(i), forKey: NameKey(i.column)) }
    }

    static let schemaName = "Intervals"
    static var schema: Schema {
        Schema.map(.ref(IntervalAnswer.self))
            .described("per report column with an interval: its 95 % cluster-bootstrap interval over the groups of the traces (1000 resamples, seed 0)")
    }
}

/// A constraint of the objective judged at a confidence (Reference §14.3).
struct SureVerdictAnswer: Encodable, StudioContract {
    var constraint: String
    var met: Bool
    /// The one-sided bound judged, in the metric's unit.
    var bound: MetricNumber
    /// Not sure but measured inside the limit: about how many more groups (and traces of the
    /// constraint's kind) at the measured value would make it sure; null otherwise.
    var moreGroups: Int?, moreTraces: Int?
    var text: String

    init(_ v: SureVerdict) {
        constraint = v.constraint.description; met = v.met; bound = MetricNumber(v.bound)
        moreGroups = v.moreGroups; moreTraces = v.moreTraces; text = v.text
    }

    static let schemaName = "SureVerdict"
    static var schema: Schema {
        .object([(CodingKeys.constraint, .string), (.met, .boolean),
                 (.bound, MetricNumber.schema.described("the bound judged: the upper bound at the confidence for <= and <, the lower for >= and >")),
                 (.moreGroups, Schema.integer.with("minimum", .number(1)).nullable), (.moreTraces, Schema.integer.with("minimum", .number(0)).nullable),
                 (.text, .string)])
    }
}

/// How sure the best's constraints are: judged at the objective's `confidence` (`asked`), or
/// at 0.9 when it sets none.
struct SureAnswer: Encodable, StudioContract {
    var confidence: Double
    var asked: Bool
    var verdicts: [SureVerdictAnswer]

    init(_ sure: HowSure) { confidence = sure.confidence; asked = sure.asked; verdicts = sure.verdicts.map(SureVerdictAnswer.init) }

    static let schemaName = "Sure"
    static var schema: Schema {
        .object([(CodingKeys.confidence, Schema.number.with("minimum", .number(0.5)).with("maximum", .number(0.99))),
                 (.asked, Schema.boolean.described("true when the objective sets this confidence; false: 0.9, as a warning")),
                 (.verdicts, .array(.ref(SureVerdictAnswer.self)))])
            .described("How sure the best's constraints are (docs/Reference.md §14.3).")
    }
}

/// The best on one group's traces alone (Reference §14.5): the objective's constraint columns
/// measured there, and the constraints it breaks (a column the group does not define is not judged).
struct GroupAnswer: Encodable, StudioContract {
    var group: String
    var traces: Int
    /// `met` or `broken`.
    var verdict: String
    var broken: [String]
    var metrics: MetricRow

    static let schemaName = "Group"
    static var schema: Schema {
        .object([(CodingKeys.group, .string), (.traces, Schema.integer.with("minimum", .number(1))), (.verdict, .string(oneOf: ["met", "broken"])),
                 (.broken, Schema.array(.string).described("the constraints this group's traces break")),
                 (.metrics, Schema.ref(MetricRow.self).described("the constraints' columns on this group's traces alone"))])
    }

    /// One answer per group, in order of first appearance, with the values of `ranking`'s constraint columns.
    static func rows(_ perGroup: PerGroup, ranking: Ranking) -> [GroupAnswer] {
        var seen = Set<String>()
        let columns = ranking.constraints.map(\.column).filter { perGroup.columns.contains($0) && seen.insert($0).inserted }
        return perGroup.rows.map { r in
            GroupAnswer(group: r.group, traces: r.traces, verdict: r.broken.isEmpty ? "met" : "broken", broken: r.broken.map(\.description),
                        metrics: MetricRow(columns: columns.map { c in (c, MetricValue(r.values[perGroup.columns.firstIndex(of: c)!])) }))
        }
    }
}
