import SpringCore

/// The best-sets table of `sweep`, `pick` and the sweep page, as text cells: config, parameters,
/// the columns the objective names (``Ranking/keyColumns``), any `extra` columns, `unsettled`,
/// the value ranked by (`worst …`) when the objective takes a worst case (`worstOver` or
/// `robust`), and `=` in the `tie` column where a set ties the one above on the objective (the
/// tiebreak ordered them). Numbers as tables show them (``SweepReport/shortText(_:_:)``).
public struct BestSets: Sendable {
    public var header: [String]
    public var rows: [[String]]

    public init(ranking: Ranking, table: SweepReport, entries: [Ranking.Entry], extra: [String] = []) {
        var seen = Set<String>()
        let shown = (["config_id"] + table.parameterColumns + ranking.keyColumns + extra + ["unsettled"])
            .filter { seen.insert($0).inserted && table.column($0) != nil }
        let columns = shown.compactMap(table.column)
        let worst = ranking.worstOver.isEmpty && !ranking.robust ? [] : ["worst \(ranking.column)"]
        header = shown + worst + ["tie"]
        rows = entries.map { e in
            columns.map { table.shortText(e.row, $0) } + (worst.isEmpty ? [] : [e.objective.map(NumberFormat.short(_:)) ?? ""])
                + [e.tiesPrevious ? "=" : ""]
        }
    }
}
