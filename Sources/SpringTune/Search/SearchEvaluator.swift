import SpringCore
import SpringLayout
import TraceIO

/// Measures parameter sets of a search's box in process: the sweep's runner over the traces
/// read once (``TraceSource``), each set a report row (``SweepReport/Row``) numbered from a
/// given evaluation. The same numbers a sweep writes for the same set, for any thread count.
public struct SearchEvaluator: Sendable {
    public let kind: ModelKind
    public let scene: Scene
    public let box: SearchBox
    public let traces: TraceSource
    public let threads: Int

    public init(kind: ModelKind, scene: Scene, box: SearchBox, traces: TraceSource, threads: Int) {
        self.kind = kind; self.scene = scene; self.box = box; self.traces = traces; self.threads = threads
    }

    /// The rows of `sets` (free values in dimension order), numbered `first`, `first + 1`, ….
    public func rows(_ sets: [[ParamValue]], first: Int) throws -> [SweepReport.Row] {
        guard !sets.isEmpty else { return [] }
        let list = ParameterSetList(names: box.dimensions.map(\.name), base: box.base, rows: sets)
        let results = try SweepRunner(kind: kind, scene: scene, sets: list, threads: threads).run(traces)
        return results.map { r in
            var row = SweepReport.Row(r, kind: kind)
            row.configId = first + r.id
            return row
        }
    }

    /// `row`'s set measured trace by trace (Reference §14), keeping its config id.
    public func measured(_ row: SweepReport.Row) throws -> MeasuredSet {
        try MeasuredSet.measure(kind: kind, scene: scene, list: ParameterSetList(names: box.dimensions.map(\.name), base: box.base, rows: [row.parameters]),
                                traces: traces, threads: threads, configId: row.configId)
    }

    /// The margins (Reference §13) of the set with free values `values` (dimension order) under
    /// `verdict`: along each free numeric parameter, the distance to the nearest break of a
    /// constraint or target, the others fixed (``Robustness``).
    public func margins(of values: [ParamValue], verdict: RowVerdict) throws -> [SearchMeta.Margin] {
        guard let row = try rows([values], first: 0).first else { return [] }
        var robustness = Robustness(evaluator: self, verdict: verdict, firstCheck: 1)
        return try robustness.margins(row)
    }
}

/// What an objective says of one report row: whether it meets every constraint and is on every
/// target (feasible, as the search means it), and its objective value.
public struct RowVerdict: Sendable {
    public let ranking: Ranking
    let columns: [String: Int]

    /// The verdicts of `ranking` on rows with columns `specs`.
    public init(ranking: Ranking, specs: [MetricSpec]) {
        self.ranking = ranking
        columns = Dictionary(uniqueKeysWithValues: specs.enumerated().map { ($1.name, $0) })
    }

    /// The row's value in `column` (nil when empty or not a column).
    public func number(_ row: SweepReport.Row, _ column: String) -> Double? { columns[column].flatMap { row.values[$0].number } }

    /// Meets every constraint and is on every target.
    public func feasible(_ row: SweepReport.Row) -> Bool {
        ranking.constraints.allSatisfy { $0.holds(number(row, $0.column)) }
            && ranking.targets.allSatisfy { t in t.deviation(number(row, t.column)).map { $0 <= 1 } ?? false }
    }

    /// The first constraint or target `row` breaks, as a phrase, or nil.
    func broken(_ row: SweepReport.Row) -> String? {
        if let c = ranking.constraints.first(where: { !$0.holds(number(row, $0.column)) }) { return c.description }
        return ranking.targets.first { t in !(t.deviation(number(row, t.column)).map { $0 <= 1 } ?? false) }.map(\.description)
    }

    /// The objective column's value.
    public func objective(_ row: SweepReport.Row) -> Double? { number(row, ranking.column) }
}
