import SpringCore
import Foundation
import ToolRuntime

/// Columns of a CSV file picked by header name and read as numbers (plus, optionally, one text
/// column that names a group, such as a gesture id), for fitting recorded motion.
///
/// The header is required; other columns are ignored. Every asked-for cell must be a finite
/// number within its column's limit; otherwise reading fails with `FILE:LINE:COL: message`
/// (exit 65), as the trace reader does. The positions of the cells are kept so a later check
/// (times that do not increase) can point at the offending cell too.
public struct SampleColumns: Sendable {
    /// A numeric column to read: its header name and the largest magnitude accepted.
    public struct Column: Sendable {
        public var name: String
        public var limit: Double
        public init(_ name: String, limit: Double) { self.name = name; self.limit = limit }
    }

    /// The file, as named in messages.
    public let file: String
    /// `values[c][row]`: column `c` of the columns asked for, in their order.
    public private(set) var values: [[Double]]
    /// The group column's text per row (empty when none was asked for).
    public private(set) var groups: [String] = []
    /// The line of each row, and the 1-based column (byte offset + 1) of each asked-for cell.
    private var lines: [Int] = []
    private var cellColumns: [[Int]]
    private var groupColumns: [Int] = []

    /// Rows read, at most ``maxRows``.
    public var count: Int { lines.count }
    /// Most data rows read from one file.
    public static let maxRows = 1_000_000

    /// Reads `columns` (and the text column `group`, when given) from the CSV file at `path`.
    public init(path: String, columns: [Column], group: String? = nil, displayName: String? = nil) throws {
        let file = displayName ?? path
        self.file = file
        values = Array(repeating: [], count: columns.count)
        cellColumns = Array(repeating: [], count: columns.count)
        var indices: [Int]?
        var groupIndex: Int?
        var fieldCount = 0
        var rows = 0
        try CSVReader(path: path, displayName: file).forEachRecord { r in
            guard let map = indices else {
                let header = try CSVHeader(r, file: file)
                let known = header.names.prefix(12).map { "'\($0.prefix(30))'" }.joined(separator: ", ")
                func find(_ name: String) throws -> Int { try header.require(name, "missing column '\(name.prefix(40))' (the header has \(known))") }
                indices = try columns.map { try find($0.name) }
                groupIndex = try group.map(find)
                fieldCount = r.fields.count
                return
            }
            rows += 1
            guard rows <= Self.maxRows else {
                throw ToolError.data(file, line: r.position(0).line, column: 1, "more than \(Self.maxRows) rows: too many samples for a fit")
            }
            if r.fields.count < fieldCount {
                let p = r.position(r.fields.count)
                throw ToolError.data(file, line: p.line, column: p.column, "row has \(r.fields.count) fields, header has \(fieldCount)")
            }
            for (c, i) in map.enumerated() {
                let p = r.position(i), text = r.fields[i].trimmedSpaces, name = columns[c].name.prefix(40)
                guard let v = NumberFormat.decimal(text) else {
                    let hint = text.contains(",") ? " (a decimal comma? springtune reads decimal points)" : ""
                    throw ToolError.data(file, line: p.line, column: p.column, "\(name): '\(text.prefix(40))' is not a number\(hint)")
                }
                guard v.isFinite else { throw ToolError.data(file, line: p.line, column: p.column, "\(name): '\(text.prefix(40))' is not finite") }
                guard abs(v) <= columns[c].limit else {
                    throw ToolError.data(file, line: p.line, column: p.column, "\(name): '\(text.prefix(40))' is beyond ±\(NumberFormat.cell(columns[c].limit))")
                }
                values[c].append(v)
                cellColumns[c].append(p.column)
            }
            if let g = groupIndex {
                groups.append(r.fields[g].trimmedSpaces)
                groupColumns.append(r.position(g).column)
            }
            lines.append(r.position(0).line)
        }
        guard indices != nil else { throw ToolError.data(file, line: 1, column: 1, "empty file: header required") }
        guard !lines.isEmpty else { throw ToolError(.dataError, "\(file): no samples (only a header)") }
    }

    /// A data error at the cell of column `column` (index into the columns asked for) in `row`.
    public func error(row: Int, column: Int, _ message: String) -> ToolError {
        ToolError.data(file, line: lines[row], column: cellColumns[column][row], message)
    }

    /// A data error at the group cell of `row`.
    public func groupError(row: Int, _ message: String) -> ToolError {
        ToolError.data(file, line: lines[row], column: groupColumns[row], message)
    }
}
