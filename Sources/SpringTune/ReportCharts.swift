import Foundation
import SpringLayout
import TraceIO

/// Charts of report tables: the default set after a sweep, `plot`, and `compare` overlays.
/// Where more parameters vary than a chart shows, a point is the mean over the others; a
/// non-finite value (`inf`: some trace never settled) is left out of that mean.
public enum ReportCharts {
    /// Points (x, mean of y) grouped by the values of `by` (numbers in increasing order, words in
    /// order of first appearance).
    public static func series(_ table: ReportTable, x: String, y: String, by: String? = nil, label: String? = nil) throws -> [Chart.Series] {
        let xi = try table.index(of: x), yi = try table.index(of: y)
        let bi = try by.map { try table.index(of: $0) }
        var groups: [String: [Double: [Double]]] = [:], order: [String] = []
        for row in table.rows {
            guard let xv = table.number(row, xi), let yv = table.number(row, yi), yv.isFinite else { continue }
            let g = bi.map { row[$0] } ?? ""
            if groups[g] == nil { order.append(g) }
            groups[g, default: [:]][xv, default: []].append(yv)
        }
        if order.allSatisfy({ Double($0) != nil }) { order.sort { Double($0)! < Double($1)! } }
        return order.map { g in
            let points = groups[g]!.keys.sorted().map { xv in (xv, mean(groups[g]![xv]!)) }
            let shown = Double(g).map(formatNumber) ?? g
            let name = by.map { "\(y), \($0) = \(shown)" } ?? y
            return Chart.Series(label: label.map { by == nil ? $0 : "\($0), \(name)" } ?? name, points: points)
        }
    }

    /// True when some row has a finite number in `column`.
    static func hasFiniteValue(_ table: ReportTable, _ column: String) -> Bool {
        guard let i = table.columns.firstIndex(of: column) else { return false }
        return table.rows.contains { table.number($0, i)?.isFinite == true }
    }

    /// log x when every value is positive and they span a factor of 20 or more.
    static func isLogScale(_ table: ReportTable, _ column: String) -> Bool {
        guard let i = table.columns.firstIndex(of: column) else { return false }
        let v = table.rows.compactMap { table.number($0, i) }
        guard let lo = v.min(), let hi = v.max(), lo > 0 else { return false }
        return hi / lo >= 20
    }

    /// An axis label with the unit of the column's spec: `frequency (Hz)`, `settle_time_p95 (s)`.
    public static func label(_ column: String, kind: ModelKind? = nil) -> String {
        let unit = ((kind?.parameters ?? []) + Scene.sweepable).first { $0.name == column }?.unit ?? ReportColumns.spec(column)?.unit
        return unit.map { "\(column) (\($0))" } ?? column
    }

    /// One chart per metric (a panel per swept parameter, `_mean` and `_p95` lines, plus one per
    /// set-level metric) and, with two or more swept parameters, a heatmap of each `_p95` (or
    /// rate) over the first two.
    public static func sweepDefaults(_ table: ReportTable, kind: ModelKind) throws -> [Chart] {
        // A word parameter (e.g. completionCurve) has no numeric axis: the first one splits every
        // line into one per word, so its values are seen side by side.
        let isNumeric = { (p: String) -> Bool in
            guard let i = table.columns.firstIndex(of: p) else { return false }
            return table.rows.allSatisfy { table.number($0, i) != nil }
        }
        let params = table.parameterColumns.filter(isNumeric)
        let word = table.parameterColumns.first { !isNumeric($0) }
        guard !params.isEmpty else { return [] }
        var charts: [Chart] = []
        // Metrics no set defines (e.g. the other label pair's rates of a pinch preset) get no chart.
        let items = (kind.metrics.map { ($0, ["\($0.name)_mean", "\($0.name)_p95"]) } + kind.setMetrics.map { ($0, [$0.name]) })
            .filter { _, columns in columns.contains { hasFiniteValue(table, $0) } }
        for (metric, columns) in items {
            let panels = try params.map { p in
                Chart.Panel.lines(title: "vs \(p)", x: label(p, kind: kind), y: "\(metric.name) (\(metric.unit))",
                                  series: try columns.flatMap { try series(table, x: p, y: $0, by: word) }, logX: isLogScale(table, p))
            }
            charts.append(Chart(name: metric.name, title: "\(metric.name) (\(metric.unit), \(Self.betterText(metric.better)); mean over other parameters)", panels: panels))
        }
        if params.count >= 2 {
            for (metric, columns) in items where metric != ReportColumns.unsettled {
                charts.append(try heatmap(table, x: params[0], y: params[1], z: columns.last!, kind: kind))
            }
        }
        return charts
    }

    static func betterText(_ better: MetricSpec.Better) -> String {
        switch better {
        case .lower: "lower is better"
        case .higher: "higher is better"
        case .none: "no better side"
        }
    }

    /// `z` over the grid of `x` × `y` values (mean over other parameters).
    public static func heatmap(_ table: ReportTable, x: String, y: String, z: String, kind: ModelKind? = nil) throws -> Chart {
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
