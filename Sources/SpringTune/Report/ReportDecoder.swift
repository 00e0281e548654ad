import SpringCore
import Foundation
import SpringLayout
import ToolRuntime
import TraceIO

/// Reading a report back: the one decoder of `report.csv` (and of the checkpoint blocks, which
/// are small reports). Cells from other people's files are checked: config ids are integers
/// ≥ 0, parameters finite numbers or words, the other columns numbers, `inf` or empty; any
/// other cell is `FILE:LINE:COL: message` (COL the field's number), exit 65.
extension SweepReport {
    /// What ``read(_:sidecar:)`` does with the sidecar `report.meta.json` beside the report.
    public enum Sidecar: Sendable {
        /// Needed (`export`, `merge`, `compare --animate`): exit 66 when missing.
        case required
        /// Used when present (`pick`, `plot`, `compare`); a hand-written report has none.
        case ifPresent
    }

    /// What a file must match besides being a report: the grid's axes (a row's parameters are
    /// then its config id's values, and its cells must say so), or for a search's rows only
    /// these parameter names (``names``, values from the cells), and, for a checkpoint block,
    /// exactly these columns after the parameters.
    struct Expected {
        var axes: [SweepAxis]
        var specs: [MetricSpec]?
        /// True when the rows are not a grid's: the axes name the parameter columns only.
        var listed = false
    }

    /// Reads the report at `path` with its sidecar: the rows' parameter values come from the
    /// sidecar's axes and each row's `config_id`, and the cells must agree with them. Without
    /// a sidecar (`.ifPresent` and none beside it) they come from the cells.
    public static func read(_ path: String, sidecar: Sidecar = .ifPresent) throws -> SweepReport {
        var meta: ReportMeta?
        if sidecar == .required || FileManager.default.fileExists(atPath: ReportMeta.path(forReport: path)) {
            meta = try ReportMeta.read(forReport: path)
        }
        if let meta, meta.search != nil {
            // A search's rows are a list, not a grid: their values come from the cells.
            var report = try SweepReport(decoding: path, expected: Expected(axes: meta.axes, listed: true))
            report.meta = meta
            return report
        }
        if let meta {
            // The sidecar must describe this grid: its axes give exactly `configs` sets, and its
            // own id range lies inside them (an edited axis list matched the rows and passed).
            let count = SweepGrid.size(meta.axes) ?? -1, ids = meta.configIds
            guard count >= 0, count == meta.configs, ids.count == 2, 0 <= ids[0], ids[0] <= ids[1] + 1, ids[1] < count else {
                throw ToolError(.dataError, "\(ReportMeta.path(forReport: path)): its axes give \(count) sets, not its configs (\(meta.configs)) and config ids \(ids.map(String.init).joined(separator: "-")): edited or not this report's")
            }
        }
        var report = try SweepReport(decoding: path, expected: meta.map { Expected(axes: $0.axes) })
        report.meta = meta
        return report
    }

    /// The decoder itself.
    init(decoding path: String, expected: Expected?) throws {
        var header: CSVHeader?
        var tracesColumn = 0
        var specs: [MetricSpec] = []
        var rows: [Row] = []
        let grid = expected.flatMap { $0.listed ? nil : SweepGrid(axes: $0.axes, base: [:]) }
        try CSVReader(path: path).forEachRecord { r in
            guard let h = header else {
                let h = try CSVHeader(r, file: path, trimming: false)
                guard h.names.first == "config_id" else { throw h.error("not a springtune report (first column must be config_id)") }
                guard let t = h["traces"] else { throw h.error("not a springtune report (no traces column after the parameters)") }
                let parameters = Array(h.names[1..<t])
                specs = h.names[t...].map { ReportColumns.spec($0) ?? MetricSpec($0, "", .none, "a column springtune does not write") }
                if let expected {
                    let axes = expected.axes.map(\.name)
                    guard parameters == axes else {
                        throw h.error("the parameter columns (\(parameters.joined(separator: ", ").prefix(200))) are not the sidecar's axes (\(axes.joined(separator: ", ")))")
                    }
                    if let want = expected.specs?.map(\.name), want != specs.map(\.name) {
                        throw h.error("the columns after the parameters differ from the sweep's (\(want.joined(separator: ", ").prefix(200)))")
                    }
                }
                header = h
                tracesColumn = t
                return
            }
            rows.append(try Self.row(r, header: h, parameters: tracesColumn - 1, grid: grid))
        }
        guard let header else { throw ToolError.data(path, line: 1, column: 1, "not a springtune report (first column must be config_id)") }
        self.init(path: path, axes: grid?.axes ?? Self.axes(names: Array(header.names[1..<tracesColumn]), rows: rows), specs: specs, rows: rows)
        if let expected, expected.listed { axes = Self.axes(names: expected.axes.map(\.name), rows: rows) }
    }

    /// One record as a row; `grid` gives the parameter values when the sweep's axes are known.
    private static func row(_ r: CSVRecord, header h: CSVHeader, parameters count: Int, grid: SweepGrid?) throws -> Row {
        let file = h.file, line = r.position(0).line, cells = r.fields
        func fail(_ i: Int, _ message: String) -> ToolError { ToolError.data(file, line: line, column: i + 1, message) }
        guard cells.count == h.count else { throw ToolError.data(file, line: line, column: 1, "row has \(cells.count) fields, header has \(h.count)") }
        guard let id = Int(cells[0]), id >= 0 else { throw fail(0, "config_id '\(cells[0].prefix(40))' is not an integer >= 0") }
        var parameters: [ParamValue] = []
        if let grid {
            guard id < grid.count else { throw fail(0, "config_id \(id) is outside the grid of \(grid.count) sets of the sidecar") }
            parameters = grid.sweptValues(id)
            for (k, value) in parameters.enumerated() where !Self.cell(cells[k + 1], says: value) {
                throw fail(k + 1, "parameter \(h.names[k + 1].prefix(60)): '\(cells[k + 1].prefix(40))' is not config \(id)'s value in the sidecar's axes (\(value))")
            }
        } else {
            for k in 1..<(count + 1) {
                let cell = cells[k]
                if let d = NumberFormat.decimal(cell) {
                    guard d.isFinite else { throw fail(k, "parameter \(h.names[k].prefix(60)): '\(cell.prefix(40))' is not a finite number or a word") }
                    parameters.append(.number(d))
                } else {
                    guard !cell.isEmpty, !cell.lowercased().contains("nan"), cell.count <= 100 else {
                        throw fail(k, "parameter \(h.names[k].prefix(60)): '\(cell.prefix(40))' is not a finite number or a word")
                    }
                    parameters.append(.text(cell))
                }
            }
        }
        var values: [MetricValue] = []
        values.reserveCapacity(cells.count - count - 1)
        for i in (count + 1)..<cells.count {
            guard let v = MetricValue(cell: cells[i]) else {
                throw fail(i, "\(h.names[i].prefix(60)): '\(cells[i].prefix(40))' is not a number, inf or empty")
            }
            values.append(v)
        }
        return Row(configId: id, parameters: parameters, values: values)
    }

    /// Whether a parameter cell holds `value`: as written, or the same number written otherwise.
    private static func cell(_ text: String, says value: ParamValue) -> Bool {
        switch value {
        case let .number(d): text == NumberFormat.cell(d) || NumberFormat.decimal(text) == d
        case let .text(word): text == word
        }
    }
}
