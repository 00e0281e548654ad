import SpringLayout
import TraceIO

/// A constraint on a report column: `overshoot_pt_p95 <= 4`.
public struct Constraint: Sendable, Equatable, CustomStringConvertible {
    public enum Op: String, Sendable, CaseIterable { case le = "<=", ge = ">=", lt = "<", gt = ">", eq = "==" }
    public var column: String
    public var op: Op
    public var value: Double

    /// Parses `COLUMN OP VALUE` (spaces optional).
    public init(parsing text: String) throws {
        for op in [Op.le, .ge, .eq, .lt, .gt] {
            guard let range = text.range(of: op.rawValue) else { continue }
            let column = text[..<range.lowerBound].trimmingCharacters(in: .whitespaces)
            let rhs = text[range.upperBound...].trimmingCharacters(in: .whitespaces)
            guard !column.isEmpty, let value = Double(rhs) else { break }
            self.column = column; self.op = op; self.value = value
            return
        }
        throw ToolError(.usage, "constraint '\(text)': expected COLUMN<=VALUE (operators \(Op.allCases.map(\.rawValue).joined(separator: " ")))")
    }

    /// An empty (undefined) value never meets a constraint.
    public func holds(_ v: Double?) -> Bool {
        guard let v else { return false }
        switch op {
        case .le: return v <= value
        case .ge: return v >= value
        case .lt: return v < value
        case .gt: return v > value
        case .eq: return v == value
        }
    }

    public var description: String { "\(column) \(op.rawValue) \(formatNumber(value))" }
}

/// Ranks the parameter sets of a report (Reference §9.1): keeps the sets that meet every constraint,
/// orders them by the objective column, ranks sets equal on it to a relative 1e-9 by the
/// `tiebreak` columns (compared exactly, each in its metric's better direction; lower for
/// columns with none), then by `config_id`. Empty values rank last. With `worstOver`, the sets
/// that differ only in those axes (e.g. `frameRate`) are judged together by their worst case:
/// every one must meet the constraints, and the worst objective and tiebreak values count; the
/// group is represented by its lowest `config_id`.
public struct Ranking: Sendable {
    public var constraints: [Constraint]
    public var column: String
    public var maximize: Bool
    public var tiebreak: [String]
    public var worstOver: [String]

    /// Relative difference under which two objective values are a tie.
    public static let tieTolerance = 1e-9

    public init(constraints: [Constraint], column: String, maximize: Bool, tiebreak: [String]? = nil, worstOver: [String] = []) {
        self.constraints = constraints; self.column = column; self.maximize = maximize
        self.tiebreak = tiebreak ?? Self.defaultTiebreak(constraints: constraints, column: column)
        self.worstOver = worstOver
    }

    /// The preset's objective; minimises `settle_time_p95` when it names nothing.
    public init(objective: Objective) throws {
        try self.init(constraints: objective.constraints.map(Constraint.init(parsing:)),
                      column: objective.maximize ?? objective.minimize ?? "settle_time_p95", maximize: objective.maximize != nil,
                      tiebreak: objective.tiebreak, worstOver: objective.worstOver ?? [])
    }

    /// The objective's other metrics, in order: its constraint columns.
    public static func defaultTiebreak(constraints: [Constraint], column: String) -> [String] {
        var seen: Set<String> = [column]
        return constraints.map(\.column).filter { seen.insert($0).inserted }
    }

    /// One ranked parameter set.
    public struct Entry: Sendable {
        /// The report row (the group's lowest `config_id` with `worstOver`).
        public var row: SweepReport.Row
        /// The objective value it was ranked by (the worst case with `worstOver`).
        public var objective: Double?
        /// True when it ties the entry before it on the objective (to the relative 1e-9).
        public var tiesPrevious: Bool
        /// The report rows it stands for (one, or the group over the `worstOver` axes).
        public var rows: [SweepReport.Row]
    }

    /// The kept sets, best first.
    public func rank(_ report: SweepReport) throws -> [SweepReport.Row] { try ranked(report).map(\.row) }

    public func ranked(_ report: SweepReport) throws -> [Entry] {
        typealias Row = SweepReport.Row
        let c = try report.index(of: column)
        let checks = try constraints.map { (try report.index(of: $0.column), $0) }
        let breaks = try tiebreak.map { (try report.index(of: $0), Comparison.better($0) == .higher) }
        let over = try worstOver.map { try report.index(of: $0) }
        let kept = report.axes.indices.filter { !over.contains(.parameter($0)) }
        // Groups of rows judged together (each row alone without `worstOver`), in report order.
        var groups: [[Row]] = []
        if over.isEmpty {
            groups = report.rows.map { [$0] }
        } else {
            var index: [[ParamValue]: Int] = [:]
            for row in report.rows {
                let key = kept.map { row.parameters[$0] }
                if let g = index[key] { groups[g].append(row) } else { index[key] = groups.count; groups.append([row]) }
            }
        }
        /// The worst value of a column over a group (nil when any is empty).
        func worst(_ rows: [Row], _ column: SweepReport.Column, higherIsBetter: Bool) -> Double? {
            let v = rows.map { report.number($0, column) }
            guard v.allSatisfy({ $0 != nil }) else { return nil }
            return higherIsBetter ? v.map { $0! }.min() : v.map { $0! }.max()
        }
        struct Candidate { var rows: [Row]; var id: Int; var objective: Double?; var breaks: [Double?] }
        let candidates: [Candidate] = groups.compactMap { rows in
            guard rows.allSatisfy({ row in checks.allSatisfy { $1.holds(report.number(row, $0)) } }) else { return nil }
            return Candidate(rows: rows, id: rows.map(\.configId).min()!,
                             objective: worst(rows, c, higherIsBetter: maximize),
                             breaks: breaks.map { worst(rows, $0.0, higherIsBetter: $0.1) })
        }
        /// a before b on one value: better first, empty last.
        func before(_ a: Double?, _ b: Double?, higher: Bool) -> Bool? {
            switch (a, b) {
            case let (x?, y?) where x != y: return higher ? x > y : x < y
            case (nil, _?): return false
            case (_?, nil): return true
            default: return nil
            }
        }
        func byTiebreak(_ a: Candidate, _ b: Candidate) -> Bool {
            for (k, (_, higher)) in breaks.enumerated() {
                if let order = before(a.breaks[k], b.breaks[k], higher: higher) { return order }
            }
            return a.id < b.id
        }
        let sorted = candidates.sorted { a, b in before(a.objective, b.objective, higher: maximize) ?? byTiebreak(a, b) }
        // Tie groups: runs within a relative 1e-9 of the run's first (best) value, then each run
        // ordered by the tiebreak.
        var out: [Entry] = []
        var start = 0
        while start < sorted.count {
            var end = start + 1
            while end < sorted.count, Self.ties(sorted[start].objective, sorted[end].objective) { end += 1 }
            for (n, c) in sorted[start..<end].sorted(by: byTiebreak).enumerated() {
                out.append(Entry(row: c.rows.first { $0.configId == c.id }!, objective: c.objective, tiesPrevious: n > 0, rows: c.rows))
            }
            start = end
        }
        return out
    }

    /// Equal to a relative 1e-9 (both empty, or both the same infinity, also tie).
    public static func ties(_ a: Double?, _ b: Double?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        if a == b { return true }
        return abs(a - b) <= tieTolerance * max(abs(a), abs(b))
    }

    public var summary: String {
        (maximize ? "maximize " : "minimize ") + column + (worstOver.isEmpty ? "" : " (worst over \(worstOver.joined(separator: ", ")))")
            + (constraints.isEmpty ? "" : " where " + constraints.map(\.description).joined(separator: ", "))
            + (tiebreak.isEmpty ? "" : "; ties by " + tiebreak.joined(separator: ", "))
    }

    /// Non-dominated rows for lower-is-better columns (rows with an empty value are left out).
    public static func paretoFront(_ report: SweepReport, rows: [SweepReport.Row], columns: [String], maximize: Set<String> = []) throws -> [SweepReport.Row] {
        let idx = try columns.map { try report.index(of: $0) }
        let signs = columns.map { maximize.contains($0) ? -1.0 : 1.0 }
        let points: [(SweepReport.Row, [Double])] = rows.compactMap { row in
            let v = idx.map { report.number(row, $0) }
            guard v.allSatisfy({ $0 != nil }) else { return nil }
            return (row, zip(v, signs).map { $0! * $1 })
        }
        return points.filter { p in
            !points.contains { q in
                zip(q.1, p.1).allSatisfy { $0 <= $1 } && zip(q.1, p.1).contains { $0 < $1 }
            }
        }.map(\.0)
    }
}
