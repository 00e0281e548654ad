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

/// Keeps the rows of a report that meet every constraint and orders them best first by one
/// column (ties by `config_id`; rows with an empty objective value last).
public struct Ranking: Sendable {
    public var constraints: [Constraint]
    public var column: String
    public var maximize: Bool

    public init(constraints: [Constraint], column: String, maximize: Bool) {
        self.constraints = constraints; self.column = column; self.maximize = maximize
    }

    /// The preset's objective; minimises `settle_time_p95` when it names nothing.
    public init(objective: Objective) throws {
        try self.init(constraints: objective.constraints.map(Constraint.init(parsing:)),
                      column: objective.maximize ?? objective.minimize ?? "settle_time_p95", maximize: objective.maximize != nil)
    }

    public func rank(_ table: ReportTable) throws -> [[String]] {
        let c = try table.index(of: column)
        let checks = try constraints.map { (try table.index(of: $0.column), $0) }
        let id = try table.index(of: "config_id")
        let kept = table.rows.filter { row in checks.allSatisfy { $1.holds(table.number(row, $0)) } }
        return kept.sorted { a, b in
            let va = table.number(a, c), vb = table.number(b, c)
            switch (va, vb) {
            case let (x?, y?) where x != y: return maximize ? x > y : x < y
            case (nil, _?): return false
            case (_?, nil): return true
            default: return (Int(a[id]) ?? 0) < (Int(b[id]) ?? 0)
            }
        }
    }

    public var summary: String {
        (maximize ? "maximize " : "minimize ") + column + (constraints.isEmpty ? "" : " where " + constraints.map(\.description).joined(separator: ", "))
    }

    /// Non-dominated rows for lower-is-better columns (rows with an empty value are left out).
    public static func paretoFront(_ table: ReportTable, rows: [[String]], columns: [String], maximize: Set<String> = []) throws -> [[String]] {
        let idx = try columns.map { try table.index(of: $0) }
        let signs = columns.map { maximize.contains($0) ? -1.0 : 1.0 }
        let points: [([String], [Double])] = rows.compactMap { row in
            let v = idx.map { table.number(row, $0) }
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
