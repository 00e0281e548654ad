import Foundation
import SpringLayout
import TraceIO

/// `springtune compare A B`: joins two reports on their parameter columns and compares metrics.
/// Which side is better comes from the column's ``MetricSpec`` (``ReportColumns/spec(_:)``):
/// B is worse on a pair when it loses by more than `tolerance` × |A| (any loss to or from
/// `inf`); columns with no better side are reported as `changed` or `same`. Pairs with an empty
/// side are not compared. These counts are reported; the gate is ``ObjectiveVerdict``.
public struct Comparison: Sendable {
    public struct MetricSummary: Sendable {
        public var metric: String
        public var pairs: Int
        public var better: Int
        public var worse: Int
        public var same: Int { pairs - better - worse - changed }
        public var changed: Int
        /// Median of the finite paired deltas B − A.
        public var medianDelta: Double?
    }

    public var parameters: [String]
    public var metrics: [String]
    public var summaries: [MetricSummary]
    public var csv: String
    public var matched: Int
    /// Pairs (set, metric) where B is worse.
    public var regressions: Int { summaries.reduce(0) { $0 + $1.worse } }
    /// The joined rows (A's, B's), in A's order.
    public var joined: [(SweepReport.Row, SweepReport.Row)]

    /// The better side of a report column (`none` for columns springtune does not know).
    public static func better(_ column: String) -> MetricSpec.Better { ReportColumns.spec(column)?.better ?? .none }

    /// The verdict on one pair: `better`, `worse`, `same`, or `changed` for a column with no
    /// better side.
    public static func verdict(a: Double, b: Double, better: MetricSpec.Better, tolerance: Double) -> String {
        if a == b { return "same" }
        let delta = b - a
        let margin = a.isFinite && b.isFinite ? tolerance * abs(a) + 1e-12 : 0
        guard abs(delta) > margin else { return "same" }
        switch better {
        case .none: return "changed"
        case .lower: return delta > 0 ? "worse" : "better"
        case .higher: return delta < 0 ? "worse" : "better"
        }
    }

    public init(_ a: SweepReport, _ b: SweepReport, metrics requested: [String]?, tolerance: Double) throws {
        guard a.parameterColumns == b.parameterColumns else {
            throw ToolError(.dataError, "reports sweep different parameters: \(a.parameterColumns) vs \(b.parameterColumns)")
        }
        parameters = a.parameterColumns
        guard !a.rows.isEmpty, !b.rows.isEmpty else {
            throw ToolError(.dataError, "\(a.rows.isEmpty ? a.path : b.path): no parameter sets to compare")
        }
        let onlyA = a.metricColumns.filter { !b.columns.contains($0) }, onlyB = b.metricColumns.filter { !a.columns.contains($0) }
        guard onlyA.isEmpty, onlyB.isEmpty else {
            throw ToolError(.dataError, "the reports have different metric columns (only in A: \(onlyA.prefix(5).joined(separator: ", ")); only in B: \(onlyB.prefix(5).joined(separator: ", ")))")
        }
        let common = a.metricColumns.filter { b.columns.contains($0) }
        metrics = requested ?? common
        for m in metrics where !common.contains(m) { throw ToolError(.usage, "metric '\(m)' is not in both reports") }
        // Both sweep the same parameters in the same order: rows join on their values.
        var bRows: [[ParamValue]: SweepReport.Row] = [:]
        for row in b.rows { bRows[row.parameters] = row }
        var w = CSVWriter()
        w.header(parameters + ["metric", "a", "b", "delta", "relative", "verdict"])
        var summaries: [MetricSummary] = []
        var matched = 0
        let joined: [(SweepReport.Row, SweepReport.Row)] = a.rows.compactMap { row in bRows[row.parameters].map { (row, $0) } }
        matched = joined.count
        guard matched > 0 else { throw ToolError(.dataError, "no parameter set of \(a.path) matches one of \(b.path): nothing to compare") }
        for m in metrics {
            let ia = try a.index(of: m), ib = try b.index(of: m)
            var s = MetricSummary(metric: m, pairs: 0, better: 0, worse: 0, changed: 0, medianDelta: nil)
            let direction = Self.better(m)
            var deltas: [Double] = []
            for (ra, rb) in joined {
                guard let va = a.number(ra, ia), let vb = b.number(rb, ib) else { continue }
                let delta = va == vb ? 0 : vb - va
                let verdict = Self.verdict(a: va, b: vb, better: direction, tolerance: tolerance)
                if verdict == "worse" { s.worse += 1 }
                if verdict == "better" { s.better += 1 }
                if verdict == "changed" { s.changed += 1 }
                s.pairs += 1
                if delta.isFinite { deltas.append(delta) }
                let params = ra.parameters.map(CSVField.init)
                let relative = va != 0 && va.isFinite && delta.isFinite ? delta / abs(va) : nil
                w.row(params + [.text(m), .number(va), .number(vb), .number(delta), CSVField(relative), .text(verdict)])
            }
            deltas.sort()
            s.medianDelta = deltas.isEmpty ? nil : deltas.count % 2 == 1 ? deltas[deltas.count / 2] : (deltas[deltas.count / 2 - 1] + deltas[deltas.count / 2]) / 2
            summaries.append(s)
        }
        self.summaries = summaries
        self.matched = matched
        self.joined = joined
        csv = w.text
    }
}

/// The gate of `compare --fail-on-regression`: it concerns the objective only. B regresses
/// when (1) the set A's objective chooses is worse in B on the objective column by more than
/// `tolerance` × |A|, (2) a constraint that set met in A fails in B, or (3) B's best set under
/// the objective is worse than A's best by more than the tolerance (or B has none while A has
/// one). Worse non-chosen sets are reported but do not fail the gate.
public struct ObjectiveVerdict: Sendable {
    public var ranking: Ranking
    /// A's chosen row and its match in B (nil when B has no set with those parameters).
    public var chosenA: SweepReport.Row?
    public var chosenInB: SweepReport.Row?
    public var bestB: SweepReport.Row?
    /// Why B regresses; empty when it does not.
    public var reasons: [String]
    /// Up to three matched sets that lost most on the objective column: (A row, B row, B − A).
    public var worstSets: [(SweepReport.Row, SweepReport.Row, Double)]

    public var isRegression: Bool { !reasons.isEmpty }

    public init(_ a: SweepReport, _ b: SweepReport, comparison: Comparison, ranking: Ranking, tolerance: Double) throws {
        self.ranking = ranking
        let ca = try a.index(of: ranking.column), cb = try b.index(of: ranking.column)
        let better: MetricSpec.Better = ranking.maximize ? .higher : .lower
        let bestA = try ranking.ranked(a).first, bestB = try ranking.ranked(b).first
        chosenA = bestA?.row
        self.bestB = bestB?.row
        var reasons: [String] = []
        let id = { (row: SweepReport.Row) in "config \(row.configId)" }
        if let chosen = bestA?.row {
            let match = comparison.joined.first { $0.0 == chosen }?.1
            chosenInB = match
            if let match {
                let va = a.number(chosen, ca), vb = b.number(match, cb)
                if let va, let vb, Comparison.verdict(a: va, b: vb, better: better, tolerance: tolerance) == "worse" {
                    reasons.append("the chosen set (\(id(chosen)) in A) is worse on \(ranking.column): \(formatNumber(va)) → \(formatNumber(vb))")
                } else if vb == nil {
                    reasons.append("the chosen set (\(id(chosen)) in A) has no \(ranking.column) in B")
                }
                for c in ranking.constraints {
                    let ia = try a.index(of: c.column), ib = try b.index(of: c.column)
                    if c.holds(a.number(chosen, ia)) && !c.holds(b.number(match, ib)) {
                        reasons.append("the chosen set (\(id(chosen)) in A) no longer meets \(c) (\(b.number(match, ib).map(formatNumber) ?? "empty") in B)")
                    }
                }
            }
            if let bb = bestB?.row {
                if let va = a.number(chosen, ca), let vb = b.number(bb, cb),
                   Comparison.verdict(a: va, b: vb, better: better, tolerance: tolerance) == "worse" {
                    reasons.append("B's best (\(id(bb))) is worse than A's best on \(ranking.column): \(formatNumber(va)) → \(formatNumber(vb))")
                }
            } else {
                reasons.append("no set of B meets the objective's constraints, while A's \(id(chosen)) does")
            }
        }
        self.reasons = reasons
        let sign = ranking.maximize ? -1.0 : 1.0
        worstSets = comparison.joined.compactMap { ra, rb -> (SweepReport.Row, SweepReport.Row, Double)? in
            guard let va = a.number(ra, ca), let vb = b.number(rb, cb), va != vb else { return nil }
            let delta = vb - va
            return sign * delta > 0 ? (ra, rb, delta) : nil
        }.sorted { sign * $0.2 > sign * $1.2 }.prefix(3).map { $0 }
    }
}
