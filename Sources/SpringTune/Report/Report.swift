import Foundation
import SpringLayout
import TraceIO

/// The CSV reports of Reference §9: `report.csv` (one row per parameter set, grid order) and the
/// optional `per-trace.csv`.
public enum Report {
    /// `config_id`, the swept parameters, then every column of the model's
    /// ``ModelKind/reportColumns`` (`traces`, `unsettled`, the rates, `_mean/_p95/_max` of
    /// every per-trace metric).
    public static func columns(kind: ModelKind, axes: [SweepAxis]) -> [String] {
        ["config_id"] + axes.map(\.name) + kind.reportColumns.map(\.name)
    }

    public static func row(_ r: SweepRunner.ConfigResult, kind: ModelKind) -> [CSVField] {
        var fields: [CSVField] = [.integer(r.id)] + r.swept.map(CSVField.init)
        fields += [.integer(r.aggregate.traces), .integer(r.aggregate.unsettled)]
        for rates in r.aggregate.decisions { fields += rates.values.map(CSVField.init) }
        for m in kind.metrics {
            let s = r.aggregate.stats[m.name]
            fields += [CSVField(s?.mean), CSVField(s?.p95), CSVField(s?.max)]
        }
        return fields
    }

    /// Per-trace CSV: `config_id`, swept parameters, `trace`, `intent`, [`decision`], then the
    /// per-trace metrics by their names (undefined and never-settled values empty) and `unsettled`.
    /// Without `header`, the rows alone (a block of them).
    public static func perTraceCSV(_ results: [SweepRunner.ConfigResult], traces: [TraceSource.Tag], kind: ModelKind, axes: [SweepAxis],
                                   header: Bool = true) -> String {
        var w = CSVWriter()
        let decides = !kind.decisionLabels.isEmpty
        if header { w.header(["config_id"] + axes.map(\.name) + ["trace", "intent"] + (decides ? ["decision"] : []) + kind.metrics.map(\.name) + ["unsettled"]) }
        for r in results {
            guard let runs = r.traces else { continue }
            for (i, trace) in traces.enumerated() {
                var fields: [CSVField] = [.integer(r.id)] + r.swept.map(CSVField.init)
                fields += [.text(trace.id), .text(trace.intent?.rawValue ?? "")]
                if decides { fields.append(.text(runs.decisions[i]?.rawValue ?? "")) }
                fields += kind.metrics.indices.map { m in CSVField(runs.value(trace: i, metric: m).flatMap { $0.isFinite ? $0 : nil }) }
                fields.append(.integer(runs.unsettled[i] ? 1 : 0))
                w.row(fields)
            }
        }
        return w.text
    }
}

extension CSVField {
    /// A parameter value as a report cell: a number, or the word.
    init(_ value: ParamValue) {
        switch value {
        case let .number(d): self = .number(d)
        case let .text(s): self = .text(s)
        }
    }
}

/// A report CSV read back: columns and text cells, with typed access.
public struct ReportTable: Sendable {
    public var path: String
    public var columns: [String]
    public var rows: [[String]]

    public init(path: String) throws {
        self.path = path
        var columns: [String] = []
        var rows: [[String]] = []
        try CSVReader(path: path).forEachRecord { r in
            if columns.isEmpty {
                columns = r.fields
                return
            }
            guard r.fields.count == columns.count else {
                throw ToolError.data(path, line: r.position(0).line, column: 1, "row has \(r.fields.count) fields, header has \(columns.count)")
            }
            rows.append(r.fields)
        }
        guard columns.first == "config_id" else { throw ToolError.data(path, line: 1, column: 1, "not a springtune report (first column must be config_id)") }
        guard let tracesColumn = columns.firstIndex(of: "traces") else {
            throw ToolError.data(path, line: 1, column: 1, "not a springtune report (no traces column after the parameters)")
        }
        var names = Set<String>()
        for c in columns where !names.insert(c).inserted { throw ToolError.data(path, line: 1, column: 1, "column '\(c.prefix(60))' appears twice") }
        // Cells from other people's files: config ids are integers, parameters finite numbers or
        // words, metrics numbers (inf allowed) or empty.
        for (n, row) in rows.enumerated() {
            let line = n + 2
            guard let id = Int(row[0]), id >= 0 else { throw ToolError.data(path, line: line, column: 1, "config_id '\(row[0].prefix(40))' is not an integer >= 0") }
            for i in 1..<columns.count where !row[i].isEmpty || i < tracesColumn {
                let cell = row[i]
                if i < tracesColumn {
                    let number = Double(cell)
                    guard number.map(\.isFinite) ?? (!cell.isEmpty && !cell.lowercased().contains("nan") && cell.count <= 100) else {
                        throw ToolError.data(path, line: line, column: i + 1, "parameter \(columns[i].prefix(60)): '\(cell.prefix(40))' is not a finite number or a word")
                    }
                } else {
                    guard let v = Double(cell), !v.isNaN else {
                        throw ToolError.data(path, line: line, column: i + 1, "\(columns[i].prefix(60)): '\(cell.prefix(40))' is not a number, inf or empty")
                    }
                }
            }
        }
        self.columns = columns
        self.rows = rows
    }

    public init(path: String, columns: [String], rows: [[String]]) {
        self.path = path; self.columns = columns; self.rows = rows
    }

    public func index(of column: String) throws -> Int {
        guard let i = columns.firstIndex(of: column) else {
            throw ToolError(.usage, "\(path): no column '\(column)' (columns: \(columns.joined(separator: ", ")))")
        }
        return i
    }

    /// The parameter columns: between `config_id` and `traces`.
    public var parameterColumns: [String] {
        guard let t = columns.firstIndex(of: "traces") else { return [] }
        return Array(columns[1..<t])
    }

    /// The metric columns: after `traces` (including `unsettled` and the rates).
    public var metricColumns: [String] {
        guard let t = columns.firstIndex(of: "traces") else { return [] }
        return Array(columns[(t + 1)...])
    }

    public func number(_ row: [String], _ column: Int) -> Double? { Double(row[column]) }

    /// A parameter cell: a finite number, or a word for a word parameter; nil when empty or
    /// not finite.
    public func parameter(_ cell: String) -> ParamValue? {
        if let d = Double(cell) { return d.isFinite ? .number(d) : nil }
        return cell.isEmpty ? nil : .text(cell)
    }

    /// The text of the rows, re-encoded.
    public func csv(rows selected: [[String]]) -> String {
        var w = CSVWriter()
        w.header(columns)
        for r in selected { w.row(r.map(CSVField.text)) }
        return w.text
    }
}
