import Foundation
import SpringCore
import SpringLayout
import TraceIO

/// Charts of report tables: the default set after a sweep, `plot`, and `compare` overlays.
/// Where more parameters vary than a chart shows, a point is the mean over the others; a
/// non-finite value (`inf`: some trace never settled) is left out of that mean.
public enum ReportCharts {
    /// Points (x, mean of y) grouped by the values of `by` (numbers in increasing order, words in
    /// order of first appearance).
    public static func series(_ table: SweepReport, x: String, y: String, by: String? = nil, label: String? = nil) throws -> [Chart.Series] {
        let xi = try table.index(of: x), yi = try table.index(of: y)
        let bi = try by.map { try table.index(of: $0) }
        // Groups by the `by` cell as written, each with its number (nil for a word or empty cell).
        var groups: [String: [Double: [Double]]] = [:], order: [(cell: String, number: Double?)] = []
        for row in table.rows {
            guard let xv = table.number(row, xi), let yv = table.number(row, yi), xv.isFinite, yv.isFinite else { continue }
            let g = bi.map { table.text(row, $0) } ?? ""
            if groups[g] == nil { order.append((g, bi.flatMap { table.number(row, $0) })) }
            groups[g, default: [:]][xv, default: []].append(yv)
        }
        if bi != nil, order.allSatisfy({ $0.number != nil }) { order.sort { $0.number! < $1.number! } }
        return order.map { g, number in
            let points = groups[g]!.keys.sorted().map { xv in (xv, mean(groups[g]![xv]!)) }
            let shown = number.map { NumberFormat.significant($0, 4) } ?? g
            let name = by.map { "\(y), \($0) = \(shown)" } ?? y
            return Chart.Series(label: label.map { by == nil ? $0 : "\($0), \(name)" } ?? name, points: points)
        }
    }

    /// True when some row has a finite number in `column`.
    static func hasFiniteValue(_ table: SweepReport, _ column: String) -> Bool {
        guard let i = table.column(column) else { return false }
        return table.rows.contains { table.number($0, i)?.isFinite == true }
    }

    /// log x for a log-spaced axis (three or more positive values in a constant ratio), or one
    /// whose positive values span a factor of 20 or more: the rule of `sweep`'s charts and `plot`.
    public static func isLogScale(_ table: SweepReport, _ column: String) -> Bool {
        guard let i = table.column(column) else { return false }
        let v = Set(table.rows.compactMap { table.number($0, i) }).sorted()
        guard let lo = v.first, let hi = v.last, lo > 0 else { return false }
        if hi / lo >= 20 { return true }
        guard v.count >= 3 else { return false }
        let ratios = zip(v, v.dropFirst()).map { $1 / $0 }, steps = zip(v, v.dropFirst()).map { $1 - $0 }
        let constantRatio = ratios.allSatisfy { abs($0 / ratios[0] - 1) < 1e-6 }
        let constantStep = steps.allSatisfy { abs($0 / steps[0] - 1) < 1e-6 }
        return constantRatio && !constantStep
    }

    /// An axis label with the unit of the column's spec: `frequency (Hz)`, `settle_time_p95 (s)`.
    public static func label(_ column: String, kind: ModelKind? = nil) -> String {
        let unit = ((kind?.parameters ?? []) + Scene.sweepable).first { $0.name == column }?.unit ?? ReportColumns.spec(column)?.unit
        return unit.map { "\(column) (\($0))" } ?? column
    }

    /// `plot`: `y` against the parameter `x` (a line per value of `by`), the axes with their
    /// units (the model's from the report's meta, else the report columns') and log x by
    /// ``isLogScale(_:_:)``; nil when no row has finite numbers in both.
    public static func plot(_ table: SweepReport, x: String, y: String, by: String?, name: String) throws -> Chart? {
        let series = try series(table, x: x, y: y, by: by)
        guard !series.isEmpty else { return nil }
        let kind = table.meta.flatMap { try? ModelKind(name: $0.preset.model) }
        return Chart(name: name, title: "\(y) vs \(x)",
                     panels: [.lines(title: y, x: label(x, kind: kind), y: label(y, kind: kind), series: series, logX: isLogScale(table, x))])
    }

    /// One chart per metric (a panel per swept parameter, `_mean` and `_p95` lines, plus one per
    /// set-level metric) and, with two or more swept parameters, a heatmap of each `_p95` (or
    /// rate) over the first two.
    /// With a `ranking`, the objective's constraints are drawn as dashed limits on their
    /// metric's chart and the chosen set is marked (a ring at its parameter value and value), and
    /// a deciding model gets a false-vs-missed trade-off chart with the Pareto front.
    public static func sweepDefaults(_ table: SweepReport, kind: ModelKind, ranking: Ranking? = nil) throws -> [Chart] {
        // A word parameter (e.g. completionCurve) has no numeric axis: the first one splits every
        // line into one per word, so its values are seen side by side.
        let isNumeric = { (p: String) -> Bool in
            guard let i = table.column(p) else { return false }
            return table.rows.allSatisfy { table.number($0, i) != nil }
        }
        // A parameter swept over one value (evernote's boundaryResistance) is a fact, not an axis:
        // it gets no panel.
        let varies = { (p: String) -> Bool in
            guard let i = table.column(p) else { return false }
            return Set(table.rows.map { table.text($0, i) }).count >= 2
        }
        let params = table.parameterColumns.filter { isNumeric($0) && varies($0) }
        let word = table.parameterColumns.first { !isNumeric($0) && varies($0) }
        guard !params.isEmpty else { return [] }
        var charts: [Chart] = []
        // Metrics no set defines (e.g. the other label pair's rates of a pinch preset) get no chart.
        let items = (kind.metrics.map { ($0, ["\($0.name)_mean", "\($0.name)_p95"]) } + kind.setMetrics.map { ($0, [$0.name]) })
            .filter { _, columns in columns.contains { hasFiniteValue(table, $0) } }
        let chosen = try ranking.flatMap { try $0.rank(table).first }
        for (metric, columns) in items {
            let panels = try params.map { p in
                let xi = try table.index(of: p)
                let xs = table.rows.compactMap { table.number($0, xi) }
                var lines = try columns.flatMap { try series(table, x: p, y: $0, by: word) }
                for c in ranking?.constraints ?? [] where columns.contains(c.column) || c.column == metric.name {
                    if let lo = xs.min(), let hi = xs.max() {
                        lines.append(Chart.Series(label: "limit \(c)", points: [(lo, c.value), (hi, c.value)], style: .limit))
                    }
                }
                if let chosen, let ranking, let x = table.number(chosen, xi) {
                    let column = columns.contains(ranking.column) ? ranking.column : columns.last!
                    if let y = table.number(chosen, try table.index(of: column)), y.isFinite {
                        lines.append(Chart.Series(label: "chosen: config \(chosen.configId) (\(column))", points: [(x, y)], style: .chosen))
                    }
                }
                return Chart.Panel.lines(title: "vs \(p)", x: label(p, kind: kind), y: "\(metric.name) (\(metric.unit))",
                                         series: lines, logX: isLogScale(table, p))
            }
            charts.append(Chart(name: metric.name, title: "\(metric.name) (\(metric.unit), \(Self.betterText(metric.better)); mean over other parameters)", panels: panels))
        }
        if params.count >= 2 {
            for (metric, columns) in items where metric != ReportColumns.unsettled {
                charts.append(try heatmap(table, x: params[0], y: params[1], z: columns.last!, kind: kind))
            }
        }
        for labels in kind.decisionLabels {
            if let chart = try tradeoff(table, labels: labels, chosen: chosen) { charts.append(chart) }
        }
        if let ranking, let chart = try importance(table, ranking: ranking) { charts.append(chart) }
        return charts
    }

    /// `importance.*`, "which parameter matters": a bar per key column of the objective (the
    /// objective, its constraint and tiebreak columns; ``Importance/init(_:keyOf:)``) stacking
    /// each varying axis's share of its variance (coloured by the axis's place in the report) and
    /// the interactions (grey), 1 in all (0 for a column with zero variance, named "(constant)");
    /// nil when no axis varies or no key column is defined anywhere.
    public static func importance(_ table: SweepReport, ranking: Ranking) throws -> Chart? {
        let shares = try Importance(table, keyOf: ranking)
        let shown = shares.columns.filter { $0.variance != nil }
        let varying = shares.axes.indices.filter { k in shown.contains { $0.shares[k] != nil } }
        guard !varying.isEmpty, !shown.isEmpty else { return nil }
        let parts = varying.map { k in Chart.Part(label: shares.axes[k], values: shown.map { $0.shares[k] ?? 0 }, color: k + 1) }
            + [Chart.Part(label: "interactions", values: shown.map { $0.interactions ?? 0 }, color: nil)]
        let title = "Which parameter matters: share of each column's variance, \(shares.rows) sets"
            + (shares.isPartial ? " of \(shares.gridSize) (approximate)" : "")
        let bars = shown.map { $0.variance == 0 ? shares.label($0) + " (constant)" : shares.label($0) }
        return Chart(name: "importance", title: title,
                     panels: [.stackedBars(title: title, y: "share of variance (main effects, 1)", categories: bars, parts: parts)])
    }

    /// False vs missed decisions of every set, the Pareto front (no set is better on both), and
    /// the chosen set; nil when no set has both rates.
    public static func tradeoff(_ table: SweepReport, labels: DecisionLabels, chosen: SweepReport.Row?) throws -> Chart? {
        let w = labels.word, fx = "false_\(w)_rate", my = "missed_\(w)_rate"
        let xi = try table.index(of: fx), yi = try table.index(of: my)
        func point(_ r: SweepReport.Row) -> (Double, Double)? {
            guard let x = table.number(r, xi), let y = table.number(r, yi), x.isFinite, y.isFinite else { return nil }
            return (x, y)
        }
        let points = table.rows.compactMap(point)
        guard !points.isEmpty else { return nil }
        let front: [(Double, Double)] = try Ranking.paretoFront(table, rows: table.rows, columns: [fx, my]).compactMap(point)
            .sorted { a, b in a.0 != b.0 ? a.0 < b.0 : a.1 < b.1 }
        var series = [Chart.Series(label: "parameter sets", points: points, style: .points),
                      Chart.Series(label: "Pareto front", points: front, style: .front)]
        if let chosen, let x = table.number(chosen, xi), let y = table.number(chosen, yi) {
            series.append(Chart.Series(label: "chosen: config \(chosen.configId)", points: [(x, y)], style: .chosen))
        }
        return Chart(name: "tradeoff-\(w)", title: "false vs missed \(w) decisions (lower-left is better)",
                     panels: [.lines(title: "trade-off", x: "\(fx) (1)", y: "\(my) (1)", series: series, logX: false)])
    }

    static func betterText(_ better: MetricSpec.Better) -> String {
        switch better {
        case .lower: "lower is better"
        case .higher: "higher is better"
        case .none: "no better side"
        }
    }

    /// `z` over the grid of `x` × `y` values (mean over other parameters).
    public static func heatmap(_ table: SweepReport, x: String, y: String, z: String, kind: ModelKind? = nil) throws -> Chart {
        let xi = try table.index(of: x), yi = try table.index(of: y), zi = try table.index(of: z)
        let xs = Set(table.rows.compactMap { table.number($0, xi) }).sorted()
        let ys = Set(table.rows.compactMap { table.number($0, yi) }).sorted()
        var cells: [[Double]] = Array(repeating: [], count: xs.count * ys.count)
        for row in table.rows {
            guard let xv = table.number(row, xi), let yv = table.number(row, yi), let zv = table.number(row, zi), zv.isFinite,
                  let i = xs.firstIndex(of: xv), let j = ys.firstIndex(of: yv) else { continue }
            cells[j * xs.count + i].append(zv)
        }
        let grid = ys.indices.map { j in xs.indices.map { i in cells[j * xs.count + i].isEmpty ? nil : mean(cells[j * xs.count + i]) } }
        return Chart(name: "heatmap-\(z)", title: "\(label(z)), mean over other parameters",
                     panels: [.heatmap(title: label(z), x: label(x, kind: kind), xValues: xs, y: label(y, kind: kind), yValues: ys, z: grid)])
    }

    static func mean(_ v: [Double]) -> Double { v.reduce(0, +) / Double(v.count) }
}
