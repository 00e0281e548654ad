import Foundation
import SpringLayout
import TraceIO

/// `springtune compare A B`: joins two reports on their parameter columns and compares metrics.
/// Which side is better comes from the column's ``MetricSpec`` (``ReportColumns/spec(_:)``):
/// B is worse on a pair when it loses by more than `tolerance` × |A| (any loss to or from
/// `inf`); columns with no better side are reported as `changed` or `same` and never count as
/// a regression. Pairs with an empty side are not compared.
public struct Comparison: Sendable {
    public struct MetricSummary: Sendable {
        public var metric: String
        public var pairs: Int
        public var better: Int
        public var worse: Int
        public var meanDelta: Double?
    }

    public var parameters: [String]
    public var metrics: [String]
    public var summaries: [MetricSummary]
    public var csv: String
    public var matched: Int
    public var regressions: Int { summaries.reduce(0) { $0 + $1.worse } }

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

    public init(_ a: ReportTable, _ b: ReportTable, metrics requested: [String]?, tolerance: Double) throws {
        guard a.parameterColumns == b.parameterColumns else {
            throw ToolError(.dataError, "reports sweep different parameters: \(a.parameterColumns) vs \(b.parameterColumns)")
        }
        parameters = a.parameterColumns
        let common = a.metricColumns.filter { b.columns.contains($0) }
        metrics = requested ?? common
        for m in metrics where !common.contains(m) { throw ToolError(.usage, "metric '\(m)' is not in both reports") }
        let pa = try parameters.map { try a.index(of: $0) }, pb = try parameters.map { try b.index(of: $0) }
        func key(_ t: ReportTable, _ row: [String], _ idx: [Int]) -> [ParamValue?] { idx.map { t.parameter(row[$0]) } }
        var bRows: [[ParamValue?]: [String]] = [:]
        for row in b.rows { bRows[key(b, row, pb)] = row }
        var w = CSVWriter()
        w.header(parameters + ["metric", "a", "b", "delta", "relative", "verdict"])
        var summaries: [MetricSummary] = []
        var matched = 0
        let joined: [([String], [String])] = a.rows.compactMap { row in bRows[key(a, row, pa)].map { (row, $0) } }
        matched = joined.count
        for m in metrics {
            let ia = try a.index(of: m), ib = try b.index(of: m)
            var s = MetricSummary(metric: m, pairs: 0, better: 0, worse: 0, meanDelta: nil)
            let direction = Self.better(m)
            var deltaSum = 0.0, finiteDeltas = 0
            for (ra, rb) in joined {
                guard let va = a.number(ra, ia), let vb = b.number(rb, ib) else { continue }
                let delta = va == vb ? 0 : vb - va
                let verdict = Self.verdict(a: va, b: vb, better: direction, tolerance: tolerance)
                if verdict == "worse" { s.worse += 1 }
                if verdict == "better" { s.better += 1 }
                s.pairs += 1
                if delta.isFinite { deltaSum += delta; finiteDeltas += 1 }
                let params: [CSVField] = pa.map { .text(ra[$0]) }
                let relative = va != 0 && va.isFinite && delta.isFinite ? delta / abs(va) : nil
                w.row(params + [.text(m), .number(va), .number(vb), .number(delta), CSVField(relative), .text(verdict)])
            }
            s.meanDelta = finiteDeltas > 0 ? deltaSum / Double(finiteDeltas) : nil
            summaries.append(s)
        }
        self.summaries = summaries
        self.matched = matched
        csv = w.text
    }
}
