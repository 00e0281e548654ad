import SpringCore
import SpringLayout
import ToolRuntime
import TraceIO

/// One parameter set measured trace by trace, with who made each trace (Reference §14): what
/// intervals, sure constraints, per-group verdicts and the gate are computed from. Its report
/// row is the sweep's (the same ``Aggregate``); the statistics recompute those columns from
/// weighted groups.
public struct MeasuredSet: Sendable {
    public var kind: ModelKind
    public var results: TraceResults
    public var tags: [TraceSource.Tag]
    /// The set's report row (``SweepReport/Row/init(_:kind:)``), config id as given.
    public var row: SweepReport.Row
    /// The groups in order of first appearance, and each trace's group index.
    public var groups: [String]
    public var groupOf: [Int]

    public init(kind: ModelKind, result: SweepRunner.ConfigResult, tags: [TraceSource.Tag]) {
        self.kind = kind
        results = result.traces!
        self.tags = tags
        row = SweepReport.Row(result, kind: kind)
        (groups, groupOf) = Self.groups(of: tags)
    }

    /// The groups of `tags` in order of first appearance, and each tag's group index.
    static func groups(of tags: [TraceSource.Tag]) -> (names: [String], index: [Int]) {
        var at: [String: Int] = [:], names: [String] = []
        let index = tags.map { tag in
            if let i = at[tag.group] { return i }
            at[tag.group] = names.count
            names.append(tag.group)
            return names.count - 1
        }
        return (names, index)
    }

    /// Runs the set `values` (every parameter and scene value by name) over `traces`.
    public static func measure(kind: ModelKind, scene: Scene, values: [String: ParamValue], traces: TraceSource,
                               threads: Int, configId: Int = 0) throws -> MeasuredSet {
        try measure(kind: kind, scene: scene, list: ParameterSetList(names: [], base: values, rows: [[]]), traces: traces, threads: threads, configId: configId)
    }

    /// Runs the one set of `list` over `traces`.
    public static func measure(kind: ModelKind, scene: Scene, list: ParameterSetList, traces: TraceSource,
                               threads: Int, configId: Int) throws -> MeasuredSet {
        guard var result = try SweepRunner(kind: kind, scene: scene, sets: list, threads: threads, keepPerTrace: true).run(traces).first else {
            throw ToolError(.software, "no set ran")
        }
        result.id = configId
        return MeasuredSet(kind: kind, result: result, tags: traces.tags)
    }

    /// The report columns that have an interval: the rates and every `_mean`, `_p95`, `_max`
    /// (Reference §14), in report order.
    public var intervalColumns: [String] {
        kind.reportColumns.map(\.name).filter { statistic($0) != nil }
    }

    /// Column `column` as a function of group weights, or nil for one without an interval
    /// (`traces`, `unsettled`, a column the model does not write).
    public func statistic(_ column: String) -> GroupStatistic? {
        let g = groups.count
        if column == ReportColumns.unsettled.name {
            var count = [Double](repeating: 0, count: g), size = count
            for t in 0..<results.count {
                size[groupOf[t]] += 1
                if results.unsettled[t] { count[groupOf[t]] += 1 }
            }
            return .sum(count, of: size)
        }
        for labels in kind.decisionLabels {
            guard let which = ReportColumns.rates(labels).firstIndex(where: { $0.name == column }) else { continue }
            var num = [Double](repeating: 0, count: g), den = num
            for t in 0..<results.count {
                guard let intent = tags[t].intent, let d = results.decisions[t], labels.contains(intent) else { continue }
                let positive = intent == labels.positive
                switch which {
                case 0: den[groupOf[t]] += 1; if d == intent { num[groupOf[t]] += 1 }
                case 1: if !positive { den[groupOf[t]] += 1; if d == labels.positive { num[groupOf[t]] += 1 } }
                default: if positive { den[groupOf[t]] += 1; if d != labels.positive { num[groupOf[t]] += 1 } }
                }
            }
            return .ratio(numerator: num, denominator: den)
        }
        guard let suffix = ReportColumns.aggregates.first(where: { column.hasSuffix($0) }),
              let m = results.metrics.firstIndex(where: { $0.name == column.dropLast(suffix.count) }) else { return nil }
        if suffix == "_mean" {
            var sum = [Double](repeating: 0, count: g), count = sum
            for t in 0..<results.count {
                guard let v = results.value(trace: t, metric: m), v.isFinite else { continue }
                sum[groupOf[t]] += v; count[groupOf[t]] += 1
            }
            return .ratio(numerator: sum, denominator: count)
        }
        var perGroup = [Double](repeating: 0, count: g)
        var values: [(value: Double, group: Int)] = []
        for t in 0..<results.count {
            guard let v = results.value(trace: t, metric: m) else { continue }
            values.append((v, groupOf[t])); perGroup[groupOf[t]] += 1
        }
        values.sort { $0.value != $1.value ? $0.value < $1.value : $0.group < $1.group }
        return .rank(q: suffix == "_p95" ? 0.95 : nil, sorted: values, perGroup: perGroup)
    }

    /// The number of traces a column rests on: the labelled traces of the rate's intent(s), or
    /// the traces that define the metric.
    public func count(_ column: String) -> Int { Int(statistic(column)?.counts.reduce(0, +) ?? 0) }

    /// The groups a column rests on (those with at least one trace counted).
    public func groupCount(_ column: String) -> Int { statistic(column)?.counts.filter { $0 > 0 }.count ?? 0 }

    /// The report's value of `column` for this set (nil when undefined, +∞ when never settled).
    public func value(_ column: String) -> Double? {
        guard let i = kind.reportColumns.firstIndex(where: { $0.name == column }) else { return nil }
        return row.values[i].number
    }

    /// The column measured on each group's traces alone, in group order (nil: undefined there),
    /// kept as a report keeps values. Each statistic is built once and each group's traces are
    /// read once, so it is linear in the traces however many groups there are.
    public func valuesPerGroup(_ column: String) -> [Double?] {
        let g = groups.count
        func kept(_ v: Double?) -> Double? { v.flatMap { MetricValue(measured: $0).number } }
        switch statistic(column) {
        case let .ratio(num, den)?: return (0..<g).map { den[$0] > 0 ? kept(num[$0] / den[$0]) : nil }
        case let .sum(counts, _)?: return counts.map(kept)
        case let .rank(q, sorted, _)?:
            var byGroup = [[Double]](repeating: [], count: g)
            for entry in sorted { byGroup[entry.group].append(entry.value) }   // ascending within each group
            return byGroup.map { values in
                guard !values.isEmpty else { return nil }
                guard let q else { return kept(values.last) }
                return kept(values[max(Int((q * Double(values.count)).rounded(.up)), 1) - 1])
            }
        case .difference?, nil: return [Double?](repeating: nil, count: g)
        }
    }
}
