import ToolRuntime

/// The header record of a CSV file: its column names, where each starts, and lookup by name.
/// Every reader with a header (traces, sample columns, imported touch CSVs, reports) reads it
/// here, so a name given twice is refused the same way everywhere: `FILE:LINE:COL: duplicate
/// column 'NAME'` at the second one (exit 65).
public struct CSVHeader: Sendable {
    /// The file, as named in messages.
    public let file: String
    /// The column names in file order (without surrounding spaces and tabs when trimmed).
    public let names: [String]
    /// The line of the header (1 unless blank lines come first).
    public let line: Int
    private let positions: [(line: Int, column: Int)]
    private let index: [String: Int]

    /// Reads `record` as the header of `file`. With `trimming`, spaces and tabs around each name
    /// are dropped (hand-written files); without, names are taken exactly (a report's columns
    /// are written back as they were read).
    public init(_ record: CSVRecord, file: String, trimming: Bool = true) throws {
        self.file = file
        names = trimming ? record.fields.map(\.trimmedSpaces) : record.fields
        line = record.position(0).line
        positions = names.indices.map(record.position)
        var index: [String: Int] = [:]
        for (i, name) in names.enumerated() {
            guard index[name] == nil else {
                throw ToolError.data(file, line: positions[i].line, column: positions[i].column, "duplicate column '\(name.prefix(60))'")
            }
            index[name] = i
        }
        self.index = index
    }

    public var count: Int { names.count }

    /// The 0-based index of column `name`, or nil when the header lacks it.
    public subscript(_ name: String) -> Int? { index[name] }

    /// The index of column `name`, else a data error at the header's first column with
    /// `message` (each reader says what it expected).
    public func require(_ name: String, _ message: @autoclosure () -> String) throws -> Int {
        guard let i = index[name] else { throw error(message()) }
        return i
    }

    /// The names not among `known`, in file order (columns a reader ignores).
    public func unknown(besides known: [String]) -> [String] {
        names.filter { !known.contains($0) }
    }

    /// A data error about the header as a whole, at its first column.
    public func error(_ message: String) -> ToolError {
        ToolError.data(file, line: line, column: 1, message)
    }

    /// A data error at the header cell of column `i`.
    public func error(column i: Int, _ message: String) -> ToolError {
        ToolError.data(file, line: positions[i].line, column: positions[i].column, message)
    }
}
