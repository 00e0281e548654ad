import Foundation
import SpringCore
import SpringLayout
import ToolRuntime
import TraceIO

/// How sure one chosen set is (Reference §14): its intervals, each constraint judged at the
/// objective's confidence (or, without one, at 90 % as a warning), and its verdicts per group.
public struct HowSure: Sendable {
    public var set: MeasuredSet
    public var intervals: SetIntervals
    /// The confidence judged: the objective's, else 0.9.
    public var confidence: Double
    /// True when the objective asked for it (the verdicts then decide).
    public var asked: Bool
    public var verdicts: [SureVerdict]

    /// The confidence a choice is judged at when the objective sets none.
    public static let defaultConfidence = 0.9

    public init(_ set: MeasuredSet, ranking: Ranking, bootstrap: ClusterBootstrap) {
        self.set = set
        let columns = ranking.keyColumns.filter { set.statistic($0) != nil }
        let intervals = SetIntervals(set, columns: columns, bootstrap: bootstrap)
        self.intervals = intervals
        asked = ranking.confidence != nil
        let confidence = ranking.confidence ?? Self.defaultConfidence
        self.confidence = confidence
        // A constraint on a column with no interval (`traces`) is judged on its measured value.
        verdicts = ranking.constraints.map { c in
            intervals[c.column].map { SureVerdict(c, $0, confidence: confidence) } ?? SureVerdict(c, measured: set.value(c.column), confidence: confidence)
        }
    }

    /// Every constraint met at the confidence.
    public var isSure: Bool { verdicts.allSatisfy(\.met) }

    /// The constraint lines that are not sure.
    public var unsure: [SureVerdict] { verdicts.filter { !$0.met } }

}

/// A chosen set's metrics and verdicts for each group (Reference §14, `per-group.csv`).
public struct PerGroup: Sendable {
    public struct Row: Sendable {
        public var group: String
        public var traces: Int
        /// In ``PerGroup/columns`` order.
        public var values: [Double?]
        /// The constraints this group's traces break (on its measured values; a constraint
        /// whose column this group does not define is not judged).
        public var broken: [Constraint]
    }

    public var columns: [String]
    public var rows: [Row]

    public init(_ set: MeasuredSet, ranking: Ranking) {
        let columns = set.intervalColumns
        self.columns = columns
        var counts = [Int](repeating: 0, count: set.groups.count)
        for g in set.groupOf { counts[g] += 1 }
        let perColumn = columns.map(set.valuesPerGroup)
        rows = set.groups.indices.map { g in
            let values = perColumn.map { $0[g] }
            let broken = ranking.constraints.filter { c in
                guard let i = columns.firstIndex(of: c.column), let v = values[i] else { return false }
                return !c.holds(v)
            }
            return Row(group: set.groups[g], traces: counts[g], values: values, broken: broken)
        }
    }

    /// The groups for which the set breaks a constraint, in group order.
    public var failing: [Row] { rows.filter { !$0.broken.isEmpty } }

    /// `per-group.csv`: `group,traces,verdict,broken,` then every interval column.
    public var csv: String {
        var w = CSVWriter()
        w.header(["group", "traces", "verdict", "broken"] + columns)
        for r in rows {
            w.row([.text(r.group), .integer(r.traces), .text(r.broken.isEmpty ? "met" : "broken"),
                   .text(r.broken.map(\.description).joined(separator: "; "))] + r.values.map { MetricValue($0).field })
        }
        return w.text
    }

    /// One line per failing group (at most `limit`), or one line saying every group met them.
    public func lines(limit: Int = 10) -> [String] {
        let f = failing
        guard !f.isEmpty else { return ["every one of the \(rows.count) groups meets the constraints"] }
        return ["the choice fails for \(f.count) of \(rows.count) groups:"] + f.prefix(limit).map { r in
            "  \(Echo.cut(r.group)) (\(r.traces) traces): " + r.broken.map { c in
                let v = columns.firstIndex(of: c.column).flatMap { r.values[$0] }.map(NumberFormat.short) ?? "empty"
                return "\(c.column) \(v), breaks \(c)"
            }.joined(separator: "; ")
        } + (f.count > limit ? ["  … and \(f.count - limit) more (per-group.csv)"] : [])
    }
}

/// The chosen set measured on the groups it was chosen on and on the groups held out
/// (Reference §14), side by side.
public struct HeldOutCheck: Sendable {
    public var split: GroupSplit
    public var tuned: HowSure
    public var heldOut: HowSure
    public var ranking: Ranking

    public init(split: GroupSplit, tuned: HowSure, heldOut: HowSure, ranking: Ranking) {
        self.split = split; self.tuned = tuned; self.heldOut = heldOut; self.ranking = ranking
    }

    /// The constraints the held-out groups break on their measured values (a column they do not
    /// define, such as a rate with no trace of its intent there, is not judged).
    public var broken: [Constraint] {
        ranking.constraints.filter { c in heldOut.set.value(c.column).map { !c.holds($0) } ?? false }
    }

    /// The held-out verdict on `column`'s constraints: `met`, `broken`, `not defined` or empty.
    public func verdict(_ column: String) -> String {
        let checks = ranking.constraints.filter { $0.column == column }
        guard !checks.isEmpty else { return "" }
        guard let v = heldOut.set.value(column) else { return "not defined" }
        return checks.allSatisfy { $0.holds(v) } ? "met" : "broken"
    }

    /// Every constraint held on the held-out groups (measured values).
    public var held: Bool { broken.isEmpty }

    /// The side-by-side table: each objective column tuned and held out with its interval and
    /// the held-out verdict of each constraint on it.
    public var table: TextTable {
        let rows = tuned.intervals.intervals.map { i -> [String] in
            let h = heldOut.intervals[i.column]
            let checks = ranking.constraints.filter { $0.column == i.column }
            let verdict = h?.value == nil ? (checks.isEmpty ? "" : "not defined there")
                : checks.map { c in c.holds(h?.value) ? "meets \(c)" : "BREAKS \(c)" }.joined(separator: ", ")
            return [i.column, i.text, h?.text ?? "", verdict]
        }
        func groups(_ n: Int) -> String { "\(n) group\(n == 1 ? "" : "s")" }
        return TextTable(header: ["metric", "tuned (\(groups(split.tuning.count)))", "held out (\(groups(split.heldOut.count)))", "verdict on the held-out groups"], rows: rows)
    }
}

extension HeldOutCheck {
    /// Puts the side-by-side table into the run's page (`index.html`, when it was drawn), before
    /// its charts: the page then shows the choice tuned and held out.
    func addSection(toPage path: String) throws {
        guard FileManager.default.fileExists(atPath: path), let page = try? String(contentsOfFile: path, encoding: .utf8),
              let at = page.range(of: "<h2>Which parameter matters</h2>") ?? page.range(of: "<h2>Charts</h2>") else { return }
        let t = table
        var section = "<h2>Held out</h2><p>Chosen on \(split.tuning.count) groups, measured on \(split.heldOut.count) held out: "
            + "\(SweepPage.escape(split.heldOut.joined(separator: ", "))). "
            + (held ? "On the held-out groups the choice meets every constraint." : "On the held-out groups the choice breaks "
                + SweepPage.escape(broken.map(\.description).joined(separator: ", ")) + ".") + "</p>\n<table><tr>"
        section += t.header.map { "<th>\(SweepPage.escape($0))</th>" }.joined() + "</tr>\n"
        for row in t.rows { section += "<tr>" + row.map { "<td>\(SweepPage.escape($0))</td>" }.joined() + "</tr>\n" }
        try AtomicFile.write(page.replacingCharacters(in: at, with: section + "</table>\n" + page[at]), to: path)
    }
}
