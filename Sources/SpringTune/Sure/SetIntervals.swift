import Foundation
import SpringCore
import SpringLayout
import ToolRuntime
import TraceIO

/// A report value with its 95 % cluster-bootstrap interval (Reference §14) and what it rests on.
public struct Interval: Sendable, Equatable {
    public var column: String
    /// The report's value (nil: undefined; +∞: never settled).
    public var value: Double?
    /// The 2.5 % and 97.5 % bootstrap quantiles, kept as a report keeps values (12 significant
    /// digits, 0 below 1e-6); nil when no resample defined the column.
    public var lo: Double?, hi: Double?
    /// Traces the value rests on (for a rate: the labelled traces of its intent) and their groups.
    public var traces: Int
    public var groups: Int
    /// Every resample's value, sorted (for one-sided bounds at any confidence).
    public var distribution: BootstrapDistribution

    /// `0.04 [0.01, 0.08] (n 204, 15 groups)`: the value, its interval and its counts.
    public var text: String {
        func n(_ d: Double?) -> String { d.map(NumberFormat.short) ?? "empty" }
        guard let lo, let hi else { return "\(n(value)) (no interval: n \(traces))" }
        return "\(n(value)) [\(n(lo)), \(n(hi))] (n \(traces), \(groups) group\(groups == 1 ? "" : "s"))"
    }
}

/// The intervals of one set's report columns, computed by one bootstrap so that every column
/// shares the resamples.
public struct SetIntervals: Sendable {
    public var configId: Int
    public var intervals: [Interval]

    public init(_ set: MeasuredSet, columns: [String]? = nil, bootstrap: ClusterBootstrap) {
        configId = set.row.configId
        let names = (columns ?? set.intervalColumns).filter { set.statistic($0) != nil }
        let stats = names.map { set.statistic($0)! }
        let dists = bootstrap.distributions(stats, groups: set.groups.count)
        intervals = zip(names, dists).map { name, d in
            let i = d.interval()
            return Interval(column: name, value: set.value(name), lo: i.flatMap { MetricValue(measured: $0.lo).number },
                            hi: i.flatMap { MetricValue(measured: $0.hi).number }, traces: set.count(name), groups: set.groupCount(name), distribution: d)
        }
    }

    public subscript(_ column: String) -> Interval? { intervals.first { $0.column == column } }

    /// `intervals.csv` (Reference §14): `config_id,metric,value,lo,hi,traces,groups`, one row per
    /// set and column, sets in the order given.
    public static func csv(_ sets: [SetIntervals]) -> String {
        var w = CSVWriter()
        w.header(["config_id", "metric", "value", "lo", "hi", "traces", "groups"])
        for s in sets {
            for i in s.intervals {
                w.row([.integer(s.configId), .text(i.column), MetricValue(i.value).field, MetricValue(i.lo).field, MetricValue(i.hi).field,
                       .integer(i.traces), .integer(i.groups)])
            }
        }
        return w.text
    }
}

/// A constraint judged at a confidence (Reference §14.3): met when its one-sided bound at that
/// confidence meets the limit (the upper bound for `<=` and `<`, the lower for `>=` and `>`;
/// `==` by the two-sided interval at that level lying on the value) and the measured value
/// meets it too. A constraint on a column without an interval is judged on its measured value.
public struct SureVerdict: Sendable {
    public var constraint: Constraint
    public var confidence: Double
    /// The bound that was judged (nil when no resample defined it, or the column has no interval).
    public var bound: Double?
    /// False for a column without an interval (judged on its measured value).
    public var bootstrapped: Bool
    public var met: Bool
    /// The measured value.
    public var value: Double?
    /// With the value inside the limit but the bound outside: the further groups (and traces of
    /// the constraint's kind) that would bring the bound inside at the measured value (the
    /// bound's distance from the value shrinking as 1/√groups); nil otherwise.
    public var moreGroups: Int?
    public var moreTraces: Int?

    public init(_ c: Constraint, _ interval: Interval, confidence: Double) {
        constraint = c
        self.confidence = confidence
        bootstrapped = true
        value = interval.value
        let d = interval.distribution
        switch c.op {
        case .le, .lt: bound = d.quantile(confidence)
        case .ge, .gt: bound = d.quantile(1 - confidence)
        case .eq: bound = d.interval(confidence).map { c.value - $0.lo > $0.hi - c.value ? $0.lo : $0.hi }
        }
        bound = bound.map { MetricValue(measured: $0).number ?? $0 }
        met = c.holds(bound) && c.holds(interval.value)
        if !met, c.holds(interval.value), let value = interval.value, let bound, value.isFinite, bound.isFinite, c.op != .eq {
            let distance = abs(bound - value), room = abs(c.value - value)
            let n = Double(interval.groups)
            if room > 0, n > 0 {
                let needed = (n * (distance / room) * (distance / room)).rounded(.up)
                let groups = max(1, Int(min(needed - n, 1e9)))
                moreGroups = groups
                moreTraces = Int((Double(groups) * Double(interval.traces) / n).rounded(.up))
            }
        }
    }

    /// A constraint on a column without an interval: judged on `value` alone.
    public init(_ c: Constraint, measured value: Double?, confidence: Double) {
        constraint = c; self.confidence = confidence; bootstrapped = false; self.value = value
        met = c.holds(value)
    }

    /// `false_dismiss_rate <= 0.05: not sure at 90 % (upper bound 0.054); about 4 more groups …`.
    public var text: String {
        let side = switch constraint.op { case .le, .lt: "upper"; case .ge, .gt: "lower"; case .eq: "two-sided" }
        let pct = NumberFormat.short(confidence * 100)
        guard bootstrapped else {
            return "\(constraint): \(met ? "met" : "NOT met") on the measured value \(value.map(NumberFormat.short) ?? "empty") (no interval for this column)"
        }
        guard let bound else { return "\(constraint): not sure at \(pct) %: no resample defines it" }
        let b = NumberFormat.short(bound)
        if met { return "\(constraint): sure at \(pct) % (\(side) bound \(b))" }
        let head = "\(constraint): not sure at \(pct) % (\(side) bound \(b))"
        if let moreGroups {
            return "\(head); about \(moreGroups) more group\(moreGroups == 1 ? "" : "s") (≈ \(moreTraces ?? 0) traces of its kind) at the measured value would make it so"
        }
        if !constraint.holds(value) { return "\(head); cannot: the measured value \(value.map(NumberFormat.short) ?? "empty") itself breaks it" }
        if value == constraint.value { return "\(head); cannot: the measured value sits on the limit" }
        return head
    }
}

extension SetIntervals {
    /// The `intervals.csv` beside a report at `report` (nil when there is none).
    public static func path(besideReport report: String) -> String {
        URL(fileURLWithPath: report).deletingLastPathComponent().appendingPathComponent("intervals.csv").path
    }

    /// The intervals of set `configId` in the `intervals.csv` at `path`, by column, as a
    /// provenance block keeps them; nil when the file or the set is not there. A malformed file
    /// (a bound that is no number, lo above hi, more groups than traces, a metric twice, a
    /// metric no model writes) is an error naming its line (exit 65).
    public static func read(_ path: String, configId: Int) throws -> [String: MetricInterval]? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        var header: CSVHeader?, out: [String: MetricInterval] = [:]
        try CSVReader(path: path).forEachRecord { r in
            guard let h = header else {
                let read = try CSVHeader(r, file: path)
                for name in ["config_id", "metric", "lo", "hi", "traces", "groups"] { _ = try read.require(name, "missing column '\(name)'") }
                header = read
                return
            }
            func field(_ name: String) -> String { h[name].flatMap { $0 < r.fields.count ? r.fields[$0] : nil } ?? "" }
            guard Int(field("config_id")) == configId else { return }
            func bound(_ name: String) throws -> Double? {
                guard let v = MetricValue(cell: field(name)) else {
                    let p = r.position(h[name]!)
                    throw ToolError.data(path, line: p.line, column: p.column, "\(name): '\(Echo.cut(field(name)))' is not a number, inf or empty")
                }
                return v.number
            }
            let line = r.position(0).line
            guard let traces = Int(field("traces")), let groups = Int(field("groups")), traces >= 0, groups >= 0, groups <= traces else {
                throw ToolError.data(path, line: line, column: 1, "traces and groups must be counts, groups at most traces")
            }
            let metric = field("metric"), lo = try bound("lo"), hi = try bound("hi")
            guard ReportColumns.spec(metric) != nil else { throw ToolError.data(path, line: line, column: 1, "'\(Echo.cut(metric))' is not a report column") }
            guard out[metric] == nil else { throw ToolError.data(path, line: line, column: 1, "\(metric) of config \(configId) appears twice") }
            if let lo, let hi, lo > hi { throw ToolError.data(path, line: line, column: 1, "lo \(lo) is above hi \(hi)") }
            out[metric] = MetricInterval(lo: lo, hi: hi, traces: traces, groups: groups)
        }
        return out.isEmpty ? nil : out
    }
}
