import Foundation
import SpringCore
import SpringLayout
import ToolRuntime
import TraceIO

/// The gate's noise (Reference §14): A's chosen set and its match in B measured again trace by
/// trace from each report's sidecar (its preset, values, scene and trace files), paired on the
/// traces both ran (by trace id, in A's order), and the difference B − A of each judged column
/// bootstrapped over A's groups with the same resamples on both sides.
public struct PairedGate: Sendable {
    /// A column's paired difference: B − A as the reports give it, and its 95 % interval.
    public struct Difference: Sendable {
        public var column: String
        public var lo: Double?
        public var hi: Double?
    }

    public var differences: [String: Difference]
    /// Each side's own intervals of the judged columns, over the paired traces.
    public var a: SetIntervals
    public var b: SetIntervals
    /// Traces paired, and their groups.
    public var traces: Int
    public var groups: Int
    /// Traces only one side ran (not paired).
    public var unpaired: Int
    public var bootstrap: ClusterBootstrap

    /// Measures row `ra` of `a` and row `rb` of `b` again and bootstraps `columns`. Throws when a
    /// report has no sidecar, or a trace file is missing or no longer what the report ran.
    public init(_ a: SweepReport, _ ra: SweepReport.Row, _ b: SweepReport, _ rb: SweepReport.Row, columns: [String],
                bootstrap: ClusterBootstrap, threads: Int) throws {
        let sa = try ReportRerun(a, threads: threads).measure(ra), sb = try ReportRerun(b, threads: threads).measure(rb)
        // Run again, each set must give its report's own values: else the report was edited or
        // made by another version, and pairing today's runs would hide what it says.
        for (report, row, set) in [(a, ra, sa), (b, rb, sb)] {
            for column in columns {
                guard let i = try? report.index(of: column), let j = set.kind.reportColumns.firstIndex(where: { $0.name == column }) else { continue }
                let was = report.number(row, i), now = set.row.values[j].number
                guard Ranking.ties(was, now) else {
                    throw ToolError(.dataError, "\(report.path) does not run again to its own values (\(column): \(was.map(NumberFormat.short) ?? "empty") in the report, \(now.map(NumberFormat.short) ?? "empty") now)")
                }
            }
        }
        var inB: [String: Int] = [:]
        for (i, tag) in sb.tags.enumerated() where inB[tag.id] == nil { inB[tag.id] = i }
        let pairs = sa.tags.indices.compactMap { i in inB[sa.tags[i].id].map { (i, $0) } }
        guard !pairs.isEmpty else { throw ToolError(.dataError, "\(a.path) and \(b.path) ran no trace in common: nothing to pair") }
        let pa = sa.restricted(to: pairs.map(\.0), tags: pairs.map { sa.tags[$0.0] })
        // B keeps its own labels; both sides take A's groups, so one resample weighs both alike.
        let pb = sb.restricted(to: pairs.map(\.1), tags: pairs.map { var tag = sb.tags[$0.1]; tag.group = sa.tags[$0.0].group; return tag })
        let judged = columns.filter { pa.statistic($0) != nil && pb.statistic($0) != nil }
        let dists = bootstrap.distributions(judged.map { .difference(pa.statistic($0)!, pb.statistic($0)!) }, groups: pa.groups.count)
        differences = Dictionary(uniqueKeysWithValues: zip(judged, dists).map { column, d in
            let i = d.interval()
            return (column, Difference(column: column, lo: i.flatMap { MetricValue(measured: $0.lo).number }, hi: i.flatMap { MetricValue(measured: $0.hi).number }))
        })
        self.a = SetIntervals(pa, columns: judged, bootstrap: bootstrap)
        self.b = SetIntervals(pb, columns: judged, bootstrap: bootstrap)
        traces = pairs.count
        groups = pa.groups.count
        unpaired = sa.tags.count + sb.tags.count - 2 * pairs.count
        self.bootstrap = bootstrap
    }

    /// Whether a move of `column` from `a` to `b`, worse on the `better` side by more than
    /// `margin`, lies outside the noise: its paired interval excludes 0 plus the margin.
    public func outsideNoise(_ column: String, better: MetricSpec.Better, margin: Double) -> Bool? {
        guard let d = differences[column], let lo = d.lo, let hi = d.hi else { return nil }
        switch better {
        case .lower: return lo > margin
        case .higher: return hi < -margin
        case .none: return lo > margin || hi < -margin
        }
    }

    /// One row per judged column: A and B with their intervals, and B − A with the paired one.
    public var table: TextTable {
        TextTable(header: ["metric", "A", "B", "B − A (paired)"], rows: a.intervals.map { ia in
            let ib = b[ia.column], d = differences[ia.column]
            let delta = ia.value.flatMap { x in ib?.value.map { $0 - x } }
            let paired = d.flatMap { d in d.lo.flatMap { lo in d.hi.map { "[\(NumberFormat.short(lo)), \(NumberFormat.short($0))]" } } } ?? ""
            return [ia.column, ia.text, ib?.text ?? "", "\(delta.map(NumberFormat.short) ?? "") \(paired)"]
        })
    }

    /// `[lo, hi]` of a column's paired difference.
    public func text(_ column: String) -> String {
        guard let d = differences[column], let lo = d.lo, let hi = d.hi else { return "no interval" }
        return "95 % interval of the paired difference [\(NumberFormat.short(lo)), \(NumberFormat.short(hi))] over \(traces) traces in \(groups) groups"
    }
}

extension MeasuredSet {
    /// The traces at `indices` only (in that order), with `tags` as their tags.
    func restricted(to indices: [Int], tags: [TraceSource.Tag]) -> MeasuredSet {
        var out = self
        out.results = results.subset(indices)
        out.tags = tags
        (out.groups, out.groupOf) = Self.groups(of: tags)
        return out
    }
}
