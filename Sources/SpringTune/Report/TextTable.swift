/// A plain-text table with right-aligned columns, for terminal output.
public struct TextTable: Sendable {
    public var header: [String]
    public var rows: [[String]]

    public init(header: [String], rows: [[String]]) {
        self.header = header
        self.rows = rows
    }

    public var rendered: String {
        let all = [header] + rows
        let widths = header.indices.map { i in all.map { i < $0.count ? $0[i].count : 0 }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { i, cell in String(repeating: " ", count: widths[i] - cell.count) + cell }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }
}
