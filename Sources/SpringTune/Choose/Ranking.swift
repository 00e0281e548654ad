import SpringCore
import SpringLayout
import ToolRuntime
import TraceIO

/// A constraint on a report column: `overshoot_pt_p95 <= 4`.
public struct Constraint: Sendable, Equatable, CustomStringConvertible {
    public enum Op: String, Sendable, CaseIterable { case le = "<=", ge = ">=", lt = "<", gt = ">", eq = "==" }
    public var column: String
    public var op: Op
    public var value: Double

    /// Parses `COLUMN OP VALUE` (spaces optional; ``Objective/parseConstraint(_:)``).
    public init(parsing text: String) throws {
        guard let (column, op, value) = Objective.parseConstraint(text), let op = Op(rawValue: op) else {
            throw ToolError(.usage, "constraint '\(text)': expected COLUMN<=VALUE (operators \(Op.allCases.map(\.rawValue).joined(separator: " ")))")
        }
        self.column = column; self.op = op; self.value = value
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

    public var description: String { "\(column) \(op.rawValue) \(NumberFormat.cell(value))" }
}

/// Ranks the parameter sets of a report (Reference §9.1, the one rule of `sweep`, `pick`,
/// `export --best` and `compare`):
/// 1. keeps the sets that meet every constraint;
/// 2. with `targets`, puts the sets on target (every deviation |m − VALUE| / TOL ≤ 1) first;
///    the others follow by their largest deviation, closest first (``note(_:)`` says so when
///    none is on target);
/// 3. orders by the objective column (with `robust`, each set's value is its worst over itself
///    and its grid neighbours: one step up or down on each numeric axis);
/// 4. ranks sets equal on it to a relative 1e-9 by the `tiebreak` columns (compared exactly,
///    each in its metric's better direction; lower for columns with none);
/// 5. resolves sets still equal at the centre of their grid region: closest (in grid steps) to
///    the midpoint of the tied sets' lowest and highest index on each axis first, then by `config_id`.
/// Empty values rank last. In a search's report (Reference §13), a set whose `robust` cell is 0
/// (a ±2 % neighbour breaks a constraint or target) ranks after the other sets of its standing
/// on target, and `robust` grid neighbours do not apply (its rows are no grid). With `worstOver`, the sets that differ only in those axes (e.g.
/// `frameRate`) are judged together by their worst case: every one must meet the constraints,
/// and the worst objective, deviation and tiebreak values count; the group is represented by
/// its lowest `config_id`.
public struct Ranking: Sendable {
    public var constraints: [Constraint]
    public var targets: [Target]
    public var column: String
    public var maximize: Bool
    public var tiebreak: [String]
    public var worstOver: [String]
    public var robust: Bool
    /// The objective's confidence for sure constraints (Reference §14), or nil. Ranking itself
    /// is on the measured values; the commands that choose (``BestIntervals``, a search's choice) keep to sure sets.
    public var confidence: Double?

    /// The columns the objective names, each once, in the order a table shows them: the
    /// objective column, the targets', the constraints', then the tiebreak.
    public var keyColumns: [String] {
        var seen = Set<String>()
        return ([column] + targets.map(\.column) + constraints.map(\.column) + tiebreak).filter { seen.insert($0).inserted }
    }

    /// Relative difference under which two objective values are a tie.
    public static let tieTolerance = 1e-9

    public init(constraints: [Constraint], targets: [Target] = [], column: String, maximize: Bool, tiebreak: [String]? = nil,
                worstOver: [String] = [], robust: Bool = false, confidence: Double? = nil) {
        self.constraints = constraints; self.targets = targets; self.column = column; self.maximize = maximize
        self.tiebreak = tiebreak ?? Self.defaultTiebreak(constraints: constraints, column: column)
        self.worstOver = worstOver; self.robust = robust; self.confidence = confidence
    }

    /// The preset's objective; minimises `settle_time_p95` when it names nothing.
    public init(objective: Objective) throws {
        try self.init(constraints: objective.constraints.map(Constraint.init(parsing:)),
                      targets: objective.targets.map(Self.target(parsing:)),
                      column: objective.maximize ?? objective.minimize ?? "settle_time_p95", maximize: objective.maximize != nil,
                      tiebreak: objective.tiebreak, worstOver: objective.worstOver ?? [], robust: objective.robust, confidence: objective.confidence)
    }

    /// A target as a flag or an objective gives it; a bad one is a usage error (exit 64).
    public static func target(parsing text: String) throws -> Target {
        do { return try Target(parsing: text) } catch { throw ToolError(.usage, "target \(error.message)") }
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
        /// The objective value it was ranked by (the worst case with `worstOver` or `robust`).
        public var objective: Double?
        /// Its largest deviation from the targets (nil: no targets, or an empty value).
        public var deviation: Double?
        /// True when it ties the entry before it on the objective (to the relative 1e-9).
        public var tiesPrevious: Bool
        /// The report rows it stands for (one, or the group over the `worstOver` axes).
        public var rows: [SweepReport.Row]
    }

    /// The kept sets, best first.
    public func rank(_ report: SweepReport) throws -> [SweepReport.Row] { try ranked(report).map(\.row) }

    /// One line when the objective has targets and no kept set is on them, else nil.
    public func note(_ entries: [Entry]) -> String? {
        guard !targets.isEmpty, let first = entries.first, !(first.deviation.map { $0 <= 1 } ?? false) else { return nil }
        let closest = first.deviation.map { ", the closest \(NumberFormat.short($0)) × its tolerance away" } ?? ""
        return "no parameter set is on target (\(targets.map(\.description).joined(separator: ", "))): ranked by largest deviation\(closest)"
    }

    public func ranked(_ report: SweepReport) throws -> [Entry] {
        typealias Row = SweepReport.Row
        let c = try report.index(of: column)
        let checks = try constraints.map { (try report.index(of: $0.column), $0) }
        let aims = try targets.map { (try report.index(of: $0.column), $0) }
        let breaks = try tiebreak.map { (try report.index(of: $0), Comparison.better($0) == .higher) }
        let over = try worstOver.map { try report.index(of: $0) }
        let kept = report.axes.indices.filter { !over.contains(.parameter($0)) }
        let grid = GridPositions(report)
        let robust = robust && report.meta?.search == nil
        let fragileColumn: Int? = if case let .metric(i)? = report.column("robust") { i } else { nil }
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
        /// The worst of `value` over rows (nil when any is empty).
        func worst(_ rows: [Row], higherIsBetter: Bool, _ value: (Row) -> Double?) -> Double? {
            let v = rows.map(value)
            guard v.allSatisfy({ $0 != nil }) else { return nil }
            return higherIsBetter ? v.map { $0! }.min() : v.map { $0! }.max()
        }
        /// The objective value a row is ranked by: its own, or with `robust` its neighbourhood's worst.
        func objective(_ row: Row) -> Double? {
            robust ? worst([row] + grid.neighbours(of: row), higherIsBetter: maximize) { report.number($0, c) } : report.number(row, c)
        }
        struct Candidate { var rows: [Row]; var id: Int; var fragile: Bool; var onTarget: Bool; var deviation: Double?; var objective: Double?; var breaks: [Double?]; var position: [Int]? }
        let candidates: [Candidate] = groups.compactMap { rows in
            guard rows.allSatisfy({ row in checks.allSatisfy { $1.holds(report.number(row, $0)) } }) else { return nil }
            // The largest deviation over the targets and the group's rows (nil: an empty value).
            let deviations = rows.flatMap { row in aims.map { $1.deviation(report.number(row, $0)) } }
            let deviation = aims.isEmpty || deviations.contains(where: { $0 == nil }) ? nil : deviations.map { $0! }.max()
            let id = rows.map(\.configId).min()!
            let row = rows.first { $0.configId == id }!
            let fragile = fragileColumn.map { i in rows.contains { $0.values[i].number == 0 } } ?? false
            return Candidate(rows: rows, id: id, fragile: fragile, onTarget: aims.isEmpty || (deviation.map { $0 <= 1 } ?? false), deviation: deviation,
                             objective: worst(rows, higherIsBetter: maximize, objective),
                             breaks: breaks.map { b in worst(rows, higherIsBetter: b.1) { report.number($0, b.0) } },
                             position: grid.position(row).map { p in kept.map { p[$0] } })
        }
        /// a before b on one value: better first, empty last; nil when equal.
        func before(_ a: Double?, _ b: Double?, higher: Bool) -> Bool? {
            switch (a, b) {
            case let (x?, y?) where x != y: return higher ? x > y : x < y
            case (nil, _?): return false
            case (_?, nil): return true
            default: return nil
            }
        }
        /// On target first; off target by largest deviation; then a set found fragile after the others.
        func byTarget(_ a: Candidate, _ b: Candidate) -> Bool? {
            if a.onTarget != b.onTarget { return a.onTarget }
            if !a.onTarget, let order = before(a.deviation, b.deviation, higher: false) { return order }
            return a.fragile != b.fragile ? !a.fragile : nil
        }
        func byTiebreak(_ a: Candidate, _ b: Candidate) -> Bool? {
            for (k, (_, higher)) in breaks.enumerated() {
                if let order = before(a.breaks[k], b.breaks[k], higher: higher) { return order }
            }
            return nil
        }
        let sorted = candidates.sorted { a, b in
            byTarget(a, b) ?? before(a.objective, b.objective, higher: maximize) ?? byTiebreak(a, b) ?? (a.id < b.id)
        }
        // Tie runs: the same target standing and within a relative 1e-9 of the run's first
        // (best) objective value; each run ordered by the tiebreak, then sets equal on every
        // tiebreak column from the centre of their grid region outwards.
        var out: [Entry] = []
        var start = 0
        while start < sorted.count {
            var end = start + 1
            while end < sorted.count, byTarget(sorted[start], sorted[end]) == nil, Self.ties(sorted[start].objective, sorted[end].objective) { end += 1 }
            let run = sorted[start..<end].sorted { a, b in byTiebreak(a, b) ?? (a.id < b.id) }
            var n = 0
            while n < run.count {
                var m = n + 1
                while m < run.count, byTiebreak(run[n], run[m]) == nil { m += 1 }
                let equal = Array(run[n..<m])
                let distance = GridPositions.distancesToCentre(equal.map(\.position))
                let ordered = zip(equal, distance).sorted { a, b in before(a.1, b.1, higher: false) ?? (a.0.id < b.0.id) }.map(\.0)
                for (k, c) in ordered.enumerated() {
                    out.append(Entry(row: c.rows.first { $0.configId == c.id }!, objective: c.objective, deviation: c.deviation,
                                     tiesPrevious: n + k > 0, rows: c.rows))
                }
                n = m
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
        (maximize ? "maximize " : "minimize ") + column + (robust ? " (robust: worst over grid neighbours)" : "")
            + (worstOver.isEmpty ? "" : " (worst over \(worstOver.joined(separator: ", ")))")
            + (targets.isEmpty ? "" : " on target " + targets.map(\.description).joined(separator: ", "))
            + (constraints.isEmpty ? "" : " where " + constraints.map(\.description).joined(separator: ", "))
            + (tiebreak.isEmpty ? "" : "; ties by " + tiebreak.joined(separator: ", "))
            + (confidence.map { "; constraints sure at \(NumberFormat.short($0 * 100)) %" } ?? "")
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
