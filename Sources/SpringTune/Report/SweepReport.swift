import Foundation
import SpringCore
import SpringLayout
import ToolRuntime
import TraceIO

/// A sweep's results, typed: one row per parameter set, each its `config_id`, its swept
/// values and one ``MetricValue`` per report column (Reference §9.2). Everything after the
/// runner shares it: ranking, pick, compare, export, replay, charts, the sweep page and merge
/// read it, and `report.csv`, the checkpoint blocks and `per-trace.csv` are written from it;
/// the sidecar `report.meta.json` travels with it as ``meta``. Files are read back through one
/// decoder, ``read(_:sidecar:)``, the only place where a report cell is parsed.
///
/// A row's parameter values come from the grid: the runner's grid, or the sidecar's axes,
/// and the row's `config_id` (``SweepGrid/sweptValues(_:)``); the decoder checks that the
/// file's cells say the same. Only a report read without a sidecar (a hand-written file, the
/// output of `pick --format csv`) takes them from its cells. They are kept typed in each row,
/// so rows of different grids (the rounds of `--refine`) can be ranked together.
public struct SweepReport: Sendable {
    /// The file it was read from or is written to, for messages.
    public var path: String
    /// The swept parameters in column order with their values: the grid's (in grid order), or,
    /// read without a sidecar, the values found in the file in order of first appearance.
    public var axes: [SweepAxis]
    /// The columns after the parameters, `traces` first (``ModelKind/reportColumns`` for a
    /// sweep); a column springtune does not write gets a spec with no unit and no better side.
    public var specs: [MetricSpec]
    public var rows: [Row]
    /// The sidecar, when the report was read with one or written by a sweep or merge.
    public var meta: ReportMeta?

    /// One parameter set.
    public struct Row: Sendable, Hashable {
        public var configId: Int
        /// In ``SweepReport/axes`` order.
        public var parameters: [ParamValue]
        /// In ``SweepReport/specs`` order.
        public var values: [MetricValue]

        public init(configId: Int, parameters: [ParamValue], values: [MetricValue]) {
            self.configId = configId; self.parameters = parameters; self.values = values
        }

        /// A runner's result: `traces`, `unsettled`, the rates of each label pair, then
        /// `_mean`, `_p95`, `_max` of each of `kind`'s metrics (``ReportColumns/all(metrics:labels:)``).
        public init(_ r: SweepRunner.ConfigResult, kind: ModelKind) {
            var values: [MetricValue] = [.value(Double(r.aggregate.traces)), .value(Double(r.aggregate.unsettled))]
            for rates in r.aggregate.decisions { values += rates.values.map(MetricValue.init(measured:)) }
            for m in kind.metrics {
                let s = r.aggregate.stats[m.name]
                values += [s?.mean, s?.p95, s?.max].map(MetricValue.init(measured:))
            }
            self.init(configId: r.id, parameters: r.swept, values: values)
        }
    }

    public init(path: String, axes: [SweepAxis], specs: [MetricSpec], rows: [Row], meta: ReportMeta? = nil) {
        self.path = path; self.axes = axes; self.specs = specs; self.rows = rows; self.meta = meta
    }

    /// An empty report of `kind` over `axes` (rows are added as they are run).
    public init(path: String, kind: ModelKind, axes: [SweepAxis]) {
        self.init(path: path, axes: axes, specs: kind.reportColumns, rows: [])
    }

    /// Rows gathered from several reports with the same columns (e.g. the rounds of a
    /// refinement): the axes hold every value the rows take.
    public init(path: String, like other: SweepReport, rows: [Row]) {
        self.init(path: path, axes: Self.axes(names: other.parameterColumns, rows: rows), specs: other.specs, rows: rows)
    }

    /// Axes named `names` holding the values `rows` take, in order of first appearance.
    static func axes(names: [String], rows: [Row]) -> [SweepAxis] {
        names.indices.map { i in
            var seen = Set<ParamValue>()
            return SweepAxis(name: names[i], values: rows.map { $0.parameters[i] }.filter { seen.insert($0).inserted })
        }
    }

    /// A column of the report: `config_id`, a parameter (index into ``axes``) or a column after
    /// the parameters (index into ``specs``).
    public enum Column: Sendable, Hashable {
        case configId
        case parameter(Int)
        case metric(Int)
    }

    /// Every column name, as in the CSV header.
    public var columns: [String] { ["config_id"] + parameterColumns + specs.map(\.name) }
    /// The parameter columns: between `config_id` and `traces`.
    public var parameterColumns: [String] { axes.map(\.name) }
    /// The metric columns: after `traces` (including `unsettled` and the rates).
    public var metricColumns: [String] { specs.dropFirst().map(\.name) }

    /// The column named `name`, or nil.
    public func column(_ name: String) -> Column? {
        if name == "config_id" { return .configId }
        if let i = axes.firstIndex(where: { $0.name == name }) { return .parameter(i) }
        return specs.firstIndex { $0.name == name }.map(Column.metric)
    }

    /// The column named `name`; a usage error (exit 64) listing the columns when there is none.
    public func index(of name: String) throws -> Column {
        guard let c = column(name) else {
            throw ToolError(.usage, "\(path): no column '\(name)' (columns: \(columns.joined(separator: ", ")))")
        }
        return c
    }

    /// A cell as a number: the config id, a numeric parameter (nil for a word), or
    /// ``MetricValue/number`` (nil when undefined, +∞ when it never settled).
    public func number(_ row: Row, _ column: Column) -> Double? {
        switch column {
        case .configId: Double(row.configId)
        case let .parameter(i): row.parameters[i].number
        case let .metric(i): row.values[i].number
        }
    }

    /// The values `row`'s set ran with: the sidecar's shared values (none without one) and the
    /// row's swept values.
    public func values(of row: Row) -> [String: ParamValue] {
        var out = meta?.values ?? [:]
        for (axis, v) in zip(axes, row.parameters) { out[axis.name] = v }
        return out
    }

    /// The frame rate (Hz) `row`'s set ran at: its `frameRate` value (swept or `--set`), else
    /// the sidecar's; nil without a sidecar.
    public func frameRate(of row: Row) -> Double? { values(of: row)["frameRate"]?.number ?? meta?.frameRate }

    /// A metric cell's value (nil for `config_id` and the parameters).
    public func value(_ row: Row, _ column: Column) -> MetricValue? {
        if case let .metric(i) = column { row.values[i] } else { nil }
    }

    /// A cell as `report.csv` holds it.
    public func field(_ row: Row, _ column: Column) -> CSVField {
        switch column {
        case .configId: .integer(row.configId)
        case let .parameter(i): CSVField(row.parameters[i])
        case let .metric(i): row.values[i].field
        }
    }

    /// A cell's text as a CSV reader gives it back (a word unquoted).
    public func text(_ row: Row, _ column: Column) -> String {
        switch field(row, column) {
        case let .text(word): word
        case let other: other.encoded
        }
    }

    /// A cell for tables and pages: numbers with a fraction or an exponent to 4 significant
    /// digits (`%.4g`), integers, words, `inf` and empty cells as written.
    public func shortText(_ row: Row, _ column: Column) -> String {
        guard let d = number(row, column), d.isFinite else { return text(row, column) }
        return NumberFormat.short(d)
    }

    /// The fields of a row in column order.
    static func fields(_ row: Row) -> [CSVField] {
        [.integer(row.configId)] + row.parameters.map(CSVField.init) + row.values.map(\.field)
    }

    /// `report.csv`'s text: the header and `rows` (default: every row).
    public func csv(rows selected: [Row]? = nil) -> String {
        var w = CSVWriter()
        w.header(columns)
        for r in selected ?? rows { w.row(Self.fields(r)) }
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
