import Foundation
import TraceIO

/// `springtune compare A B`: joins two reports on their parameter columns and compares metrics.
/// Lower is better for times, overshoot, lag, stretch, counts and error rates; higher for
/// accuracies. B regresses on a metric when it is worse than A by more than `tolerance`
/// relative to |A| (pairs with an empty side are not compared).
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

    public static func higherIsBetter(_ metric: String) -> Bool { metric.contains("accuracy") }

    public init(_ a: ReportTable, _ b: ReportTable, metrics requested: [String]?, tolerance: Double) throws {
        guard a.parameterColumns == b.parameterColumns else {
            throw ToolError(.dataError, "reports sweep different parameters: \(a.parameterColumns) vs \(b.parameterColumns)")
        }
        parameters = a.parameterColumns
        let common = a.metricColumns.filter { b.columns.contains($0) }
        metrics = requested ?? common
        for m in metrics where !common.contains(m) { throw ToolError(.usage, "metric '\(m)' is not in both reports") }
        let pa = try parameters.map { try a.index(of: $0) }, pb = try parameters.map { try b.index(of: $0) }
        func key(_ t: ReportTable, _ row: [String], _ idx: [Int]) -> [Double] { idx.map { t.number(row, $0) ?? .nan } }
        var bRows: [[Double]: [String]] = [:]
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
            var deltaSum = 0.0
            for (ra, rb) in joined {
                guard let va = a.number(ra, ia), let vb = b.number(rb, ib) else { continue }
                let delta = vb - va
                let worseBy = Self.higherIsBetter(m) ? -delta : delta
                let verdict = worseBy > tolerance * abs(va) + 1e-12 ? "worse" : (worseBy < -(tolerance * abs(va) + 1e-12) ? "better" : "same")
                if verdict == "worse" { s.worse += 1 }
                if verdict == "better" { s.better += 1 }
                s.pairs += 1
                deltaSum += delta
                let params: [CSVField] = pa.map { .text(ra[$0]) }
                w.row(params + [.text(m), .number(va), .number(vb), .number(delta), CSVField(va != 0 ? delta / abs(va) : nil), .text(verdict)])
            }
            s.meanDelta = s.pairs > 0 ? deltaSum / Double(s.pairs) : nil
            summaries.append(s)
        }
        self.summaries = summaries
        self.matched = matched
        csv = w.text
    }
}
