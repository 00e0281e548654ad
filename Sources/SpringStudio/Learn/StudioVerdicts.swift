import SpringCore
import SpringLayout
import SpringTune

/// How a set stands on one rule of the objective (Reference §10.16): the rule as the
/// preset writes it, whether it is a constraint or a target, the report column it is on, whether
/// the set meets it, and `by`: how far from met, in the metric's unit (0 when met; null when the
/// value is undefined or never settles). A target `M = V ± T` is missed by |m − V| − T.
struct Verdict: Encodable, Equatable, StudioContract {
    var rule: String
    /// `constraint` or `target`.
    var kind: String
    var metric: String
    var met: Bool
    var by: Double?

    static let schemaName = "Verdict"
    static var schema: Schema {
        .object([(CodingKeys.rule, .string), (.kind, .string(oneOf: ["constraint", "target"])), (.metric, .string), (.met, .boolean),
                 (.by, Schema.number.with("minimum", .number(0)).nullable)])
    }
}

/// The objective's rules, parsed once by the objective's own parsers (``Constraint``,
/// ``Target``), and the verdicts of a set's metrics on them: the page parses no rule.
struct StudioVerdicts: Sendable {
    let constraints: [(rule: String, check: Constraint)]
    let targets: [(rule: String, target: Target)]

    /// The rules of `objective` (a loaded preset's, so every rule parses).
    init(_ objective: Objective) {
        constraints = objective.constraints.compactMap { text in (try? Constraint(parsing: text)).map { (text, $0) } }
        targets = objective.targets.compactMap { text in (try? Target(parsing: text)).map { (text, $0) } }
    }

    /// The verdicts on the rules whose column `row` holds, constraints first, in the preset's order.
    func of(_ row: [(name: String, value: MetricValue)]) -> [Verdict] {
        func value(_ column: String) -> MetricValue? { row.first { $0.name == column }?.value }
        func finite(_ v: Double?) -> Double? { v.flatMap { $0.isFinite ? $0 : nil } }
        func distance(_ met: Bool, _ d: Double?) -> Double? { met ? 0 : d.map(NumberFormat.typed) }
        let checked: [Verdict] = constraints.compactMap { rule, c in
            guard let v = value(c.column) else { return nil }
            let met = c.holds(v.number)
            return Verdict(rule: rule, kind: "constraint", metric: c.column, met: met, by: distance(met, finite(v.number).map { abs($0 - c.value) }))
        }
        let aimed: [Verdict] = targets.compactMap { rule, t in
            guard let v = value(t.column) else { return nil }
            let met = t.deviation(finite(v.number)).map { $0 <= 1 } ?? false
            return Verdict(rule: rule, kind: "target", metric: t.column, met: met, by: distance(met, finite(v.number).map { abs($0 - t.value) - t.tolerance }))
        }
        return checked + aimed
    }

    /// The verdicts on one trace's metrics: a rule on an aggregate over traces (`_mean`, `_p95`,
    /// `_max` of a metric) is judged on the trace's own value of that metric; rules on set
    /// metrics (`unsettled`, decision rates) have no per-trace verdict.
    func of(trace metrics: [(name: String, value: MetricValue)]) -> [Verdict] {
        of(metrics.flatMap { m in ReportColumns.aggregates.map { (name: m.name + $0, value: m.value) } })
    }
}
