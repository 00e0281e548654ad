import SpringLayout

/// A per-trace metric (Reference §8): its report name, unit, which side is better, and what it
/// measures. Every command that ranks, compares, picks or draws reads directions and units
/// from these specs; nothing guesses from a column's name.
public struct MetricSpec: Hashable, Sendable {
    /// Which values are better: `lower`, `higher`, or `none` for metrics that describe the
    /// size of an effect (an objective may still constrain them).
    public enum Better: String, Sendable, CaseIterable, Codable {
        case lower, higher, none
    }

    public var name: String
    public var unit: String
    public var better: Better
    public var definition: String
    /// For settle-type metrics: a trace that never settles enters `_p95` and `_max` as +∞
    /// (`inf`), so a set whose slowest traces never settle cannot look fast; `_mean` is over
    /// the settled traces.
    public var unsettledIsInfinite: Bool

    public init(_ name: String, _ unit: String, _ better: Better, _ definition: String, unsettledIsInfinite: Bool = false) {
        self.name = name; self.unit = unit; self.better = better; self.definition = definition
        self.unsettledIsInfinite = unsettledIsInfinite
    }
}

extension MetricSpec {
    public static let overshootPt = MetricSpec(
        "overshoot_pt", "pt", .lower,
        "largest travel past the rest position against the direction of the displacement at release, over items that were at least ε away then")
    public static let overshootRatio = MetricSpec(
        "overshoot_ratio", "1", .lower,
        "overshoot_pt over the largest displacement at release among items that count after release (empty below 1 pt)")
    public static let settleTime = MetricSpec(
        "settle_time", "s", .lower,
        "time from the release (decision) frame to the first frame after the last one with any displacement beyond ε; inf in _p95/_max when it never settles",
        unsettledIsInfinite: true)
    public static let jiggleTime = MetricSpec(
        "jiggle_time", "s", .lower,
        "settle_time's rule on the spring extensions pᵢ − aᵢ: when rows stop moving relative to the content",
        unsettledIsInfinite: true)
    public static let peakStretchPt = MetricSpec(
        "peak_stretch_pt", "pt", .none, "largest extra gap pᵢ₊₁ − pᵢ − h − s between counted neighbouring rows over the run")
    public static let maxLagPt = MetricSpec(
        "max_lag_pt", "pt", .none, "largest spring extension |pᵢ − aᵢ| while the finger is down")
    public static let exitTime = MetricSpec(
        "exit_time", "s", .lower, "time from release until a thrown card no longer meets the screen (empty if kept or still visible)")
    public static let velocityJump = MetricSpec(
        "velocity_jump", "pt/s", .lower, "|speed of the note just after release − the finger's speed along it|: how much the hand-off jerks")
    public static let decisionTime = MetricSpec(
        "decision_time", "s", .none, "time from the first sample to the frame where the model decided")
}

/// A trace's metric values by name (Reference §8). A missing value is undefined (an empty CSV
/// field); +∞ marks a settle-type metric whose trace never settled.
public struct TraceMetrics: Sendable, Equatable {
    public private(set) var values: [String: Double] = [:]

    public init() {}

    public init(_ pairs: [(MetricSpec, Double?)]) {
        for (spec, value) in pairs { self[spec] = value }
    }

    public subscript(_ spec: MetricSpec) -> Double? {
        get { values[spec.name] }
        set { values[spec.name] = newValue }
    }

    public subscript(name: String) -> Double? { values[name] }
}

/// The specs of every report column a model's sweep writes besides `config_id` and the
/// parameters: `traces`, `unsettled`, the decision rates, and `_mean`/`_p95`/`_max` of each
/// per-trace metric (an aggregate keeps its metric's unit and direction).
public enum ReportColumns {
    public static let traces = MetricSpec("traces", "traces", .none, "traces run for the parameter set")
    public static let unsettled = MetricSpec("unsettled", "traces", .lower, "traces still beyond ε at the last frame")
    public static let aggregates = ["_mean", "_p95", "_max"]

    /// The three decision rates of a deciding model (Reference §8), over traces with an intent.
    public static func rates(_ labels: DecisionLabels) -> [MetricSpec] {
        let w = labels.word, pos = labels.positive.rawValue, neg = labels.negative.rawValue
        return [
            MetricSpec("\(w)_accuracy", "1", .higher, "decisions equal to the intent, over labelled traces"),
            MetricSpec("false_\(w)_rate", "1", .lower, "'\(pos)' decisions among traces labelled '\(neg)'"),
            MetricSpec("missed_\(w)_rate", "1", .lower, "'\(neg)' decisions among traces labelled '\(pos)'"),
        ]
    }

    /// The set-level metrics of a model: `unsettled` and its decision rates.
    public static func setMetrics(labels: [DecisionLabels]) -> [MetricSpec] {
        [unsettled] + labels.flatMap(rates)
    }

    /// Every column after the parameters, in report order.
    public static func all(metrics: [MetricSpec], labels: [DecisionLabels]) -> [MetricSpec] {
        [traces] + setMetrics(labels: labels) + metrics.flatMap { m in
            aggregates.map { suffix in
                MetricSpec(m.name + suffix, m.unit, m.better, "\(suffix.dropFirst()) over traces of \(m.name)", unsettledIsInfinite: m.unsettledIsInfinite)
            }
        }
    }

    /// The spec of a report column of any known model (the names mean the same in every
    /// model), or nil for a column springtune does not write.
    public static func spec(_ column: String) -> MetricSpec? { catalog[column] }

    /// Every unit a report column of a known model has (`s`, `pt`, `pt/s`, `traces`, `1`).
    public static var units: Set<String> { Set(catalog.values.map(\.unit)) }

    private static let catalog: [String: MetricSpec] = {
        var out: [String: MetricSpec] = [:]
        for model in ModelKind.all {
            for spec in all(metrics: model.metrics, labels: model.decisionLabels) where out[spec.name] == nil { out[spec.name] = spec }
        }
        return out
    }()
}
