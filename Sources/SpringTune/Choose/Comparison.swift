import Foundation
import SpringLayout
import ToolRuntime
import TraceIO

/// `springtune compare A B`: joins two reports on their parameter columns and compares metrics.
/// Which side is better comes from the column's ``MetricSpec`` (``ReportColumns/spec(_:)``):
/// B is worse on a pair when it loses by more than the column's ``Tolerance`` margin (any loss
/// to or from `inf`); columns with no better side are reported as `changed` or `same`. Pairs
/// with an empty side are not compared. These counts are reported; the gate is ``ObjectiveVerdict``.
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

    /// The verdict on one pair of values (its raw value is the word `compare.csv` writes).
    public enum Verdict: String, Sendable {
        case better, worse, same
        /// Moved, in a column with no better side.
        case changed
    }

    /// The verdict on one pair: `better`, `worse`, `same`, or `changed` for a column with no
    /// better side. A change counts when |B − A| exceeds `margin` (in the column's unit) plus a
    /// rounding slack of 1e-9 × max(|A|, |B|) + 1e-12 (report values have 12 significant
    /// digits, so a move of exactly the margin is not a change); a change to or from ±∞ always counts.
    public static func verdict(a: Double, b: Double, better: MetricSpec.Better, margin: Double) -> Verdict {
        if a == b { return .same }
        let delta = b - a
        let slack = a.isFinite && b.isFinite ? margin + 1e-9 * max(abs(a), abs(b)) + 1e-12 : 0
        guard abs(delta) > slack else { return .same }
        switch better {
        case .none: return .changed
        case .lower: return delta > 0 ? .worse : .better
        case .higher: return delta < 0 ? .worse : .better
        }
    }

    /// The margin of column `metric` on a pair whose A side is `value` in `row` of `a`: the
    /// tolerance its unit takes from `tolerances` (``Tolerance/applicable(_:unit:)``), frames
    /// counted at the frame rate `row` ran at.
    public static func margin(_ metric: String, value: Double, row: SweepReport.Row, of a: SweepReport, tolerances: [Tolerance]) -> (Double, Tolerance) {
        let tolerance = Tolerance.applicable(tolerances, unit: ReportColumns.spec(metric)?.unit ?? "")
        return (value.isFinite ? tolerance.margin(a: value, frameRate: a.frameRate(of: row)) : 0, tolerance)
    }

    /// `tolerances`: the `--tolerance` values (none: 1 % relative for every column).
    public init(_ a: SweepReport, _ b: SweepReport, metrics requested: [String]?, tolerances: [Tolerance] = []) throws {
        guard a.parameterColumns == b.parameterColumns else {
            throw ToolError(.dataError, "reports sweep different parameters: \(a.parameterColumns) vs \(b.parameterColumns) "
                + "(compare sweeps of the same grid; a pinned export sweeps none: take its baseline by sweeping the export)")
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
                let verdict = Self.verdict(a: va, b: vb, better: direction, margin: Self.margin(m, value: va, row: ra, of: a, tolerances: tolerances).0)
                switch verdict {
                case .worse: s.worse += 1
                case .better: s.better += 1
                case .changed: s.changed += 1
                case .same: break
                }
                s.pairs += 1
                if delta.isFinite { deltas.append(delta) }
                let params = ra.parameters.map(CSVField.init)
                let relative = va != 0 && va.isFinite && delta.isFinite ? delta / abs(va) : nil
                w.row(params + [.text(m), .number(va), .number(vb), .number(delta), CSVField(relative), .text(verdict.rawValue)])
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
