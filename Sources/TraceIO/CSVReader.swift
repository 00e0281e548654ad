import CLibCSV
import Foundation
import ToolRuntime

/// One CSV record with the position (line, column, 1-based) where each field starts.
public struct CSVRecord: Sendable {
    public var fields: [String]
    public var positions: [(line: Int, column: Int)]

    /// Position of field `i`, or of the record's end for a field that is missing.
    public func position(_ i: Int) -> (line: Int, column: Int) {
        i < positions.count ? positions[i] : (positions.last.map { ($0.line, $0.column + fields[fields.count - 1].utf8.count) } ?? (0, 0))
    }
}

/// A streaming CSV reader on libcsv (strict mode): reads 1 MiB at a time, so memory stays
/// bounded by the longest record whatever the file size. Records come with field positions for
/// `FILE:LINE:COL` errors; invalid UTF-8, unterminated quotes and malformed quoting are
/// errors at the offending byte. Files saved by spreadsheets read too: a UTF-8 byte-order mark
/// is skipped, CRLF line ends work, and a first line with no comma but semicolons (or tabs)
/// makes that the separator for the whole file. A line longer than ``maxLineBytes`` or a field
/// longer than ``maxFieldBytes`` (a quoted one across lines included) is a data error at its
/// start, before it is held in memory whole (a file without a newline grew to 920 MB).
public struct CSVReader {
    /// The longest line accepted: 1 MiB, as for text recordings (``LineReader/maxLineBytes``).
    public static let maxLineBytes = LineReader.maxLineBytes
    /// The longest field accepted: 64 KiB (no number, name or id of springtune's comes near it).
    public static let maxFieldBytes = 1 << 16

    public let path: String
    /// Name used in error messages (defaults to the path).
    public let displayName: String

    public init(path: String, displayName: String? = nil) {
        self.path = path
        self.displayName = displayName ?? path
    }

    /// Calls `body` for every record in file order.
    public func forEachRecord(_ body: (CSVRecord) throws -> Void) throws {
        let file = try openForReading(path, displayName: displayName)
        defer { fclose(file) }
        let state = ParseState()
        var parser = csv_parser()
        guard csv_init(&parser, UInt8(CSV_STRICT | CSV_STRICT_FINI)) == 0 else { throw ToolError(.software, "libcsv: init failed") }
        defer { csv_free(&parser) }
        let context = Unmanaged.passUnretained(state).toOpaque()

        func deliver() throws {
            for record in state.completed { try body(record) }
            state.completed.removeAll(keepingCapacity: true)
        }

        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var pending: [UInt8] = []
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n == 0 { break }
            var start = 0
            for i in 0..<n where chunk[i] == UInt8(ascii: "\n") {
                pending.append(contentsOf: chunk[start...i])
                try feed(line: pending, state: state, parser: &parser, context: context)
                try deliver()
                pending.removeAll(keepingCapacity: true)
                start = i + 1
            }
            pending.append(contentsOf: chunk[start..<n])
            if pending.count > Self.maxLineBytes {
                throw ToolError.data(displayName, line: state.line + 1, column: 1, "line longer than \(Self.maxLineBytes) bytes")
            }
        }
        if ferror(file) != 0 { throw ToolError(.ioError, "\(displayName): read error") }
        if !pending.isEmpty { try feed(line: pending, state: state, parser: &parser, context: context) }
        if state.inQuote {
            throw ToolError.data(displayName, line: state.quoteLine, column: state.quoteColumn, "unterminated quote")
        }
        if csv_fini(&parser, fieldCallback, rowCallback, context) != 0 {
            throw ToolError.data(displayName, line: state.line, column: 1, String(cString: csv_strerror(csv_error(&parser))))
        }
        if let long = state.longField {
            throw ToolError.data(displayName, line: long.line, column: long.column, "field longer than \(Self.maxFieldBytes) bytes")
        }
        try deliver()
    }

    /// Scans one physical line for positions and UTF-8, then hands it to libcsv. The first line
    /// loses a byte-order mark and chooses the separator.
    private func feed(line: [UInt8], state: ParseState, parser: inout csv_parser,
                      context: UnsafeMutableRawPointer) throws {
        var line = line
        if state.line == 0 {
            if line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
            state.delimiter = Self.separator(firstLine: line)
            csv_set_delim(&parser, state.delimiter)
        }
        state.line += 1
        if let bad = firstInvalidUTF8(line) {
            throw ToolError.data(displayName, line: state.line, column: bad + 1, "invalid UTF-8 byte 0x\(String(line[bad], radix: 16))")
        }
        state.scan(line)
        state.quotedBytes = state.inQuote ? state.quotedBytes + line.count : 0
        if state.quotedBytes > Self.maxFieldBytes {
            throw ToolError.data(displayName, line: state.quoteLine, column: state.quoteColumn, "quoted field longer than \(Self.maxFieldBytes) bytes")
        }
        let used = line.withUnsafeBytes { csv_parse(&parser, $0.baseAddress, $0.count, fieldCallback, rowCallback, context) }
        if let long = state.longField {
            throw ToolError.data(displayName, line: long.line, column: long.column, "field longer than \(Self.maxFieldBytes) bytes")
        }
        if used != line.count {
            throw ToolError.data(displayName, line: state.line, column: used + 1, String(cString: csv_strerror(csv_error(&parser))))
        }
    }
}

extension CSVReader {
    /// The separator a header line uses: `,` when it has one, else `;` or a tab when present.
    static func separator(firstLine: [UInt8]) -> UInt8 {
        let comma = UInt8(ascii: ","), semicolon = UInt8(ascii: ";"), tab = UInt8(ascii: "\t")
        if firstLine.contains(comma) { return comma }
        if firstLine.contains(semicolon) { return semicolon }
        if firstLine.contains(tab) { return tab }
        return comma
    }
}

/// Offset of the first byte that is not valid UTF-8, or nil.
func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
    var i = 0
    let n = bytes.count
    while i < n {
        let b = bytes[i]
        if b < 0x80 { i += 1; continue }
        let len: Int
        if b & 0xE0 == 0xC0, b >= 0xC2 { len = 2 } else if b & 0xF0 == 0xE0 { len = 3 } else if b & 0xF8 == 0xF0, b <= 0xF4 { len = 4 } else { return i }
        guard i + len <= n else { return i }
        for k in 1..<len where bytes[i + k] & 0xC0 != 0x80 { return i + k }
        if len == 3 {
            let cp = (Int(b & 0x0F) << 12) | (Int(bytes[i + 1] & 0x3F) << 6)
            if cp < 0x800 || (cp >= 0xD800 && cp < 0xE000) { return i }
        } else if len == 4 {
            let cp = (Int(b & 0x07) << 18) | (Int(bytes[i + 1] & 0x3F) << 12)
            if cp < 0x10000 || cp > 0x10FFFF { return i }
        }
        i += len
    }
    return nil
}

/// The libcsv callback context: fields of the record being built, the positions of field
/// starts found by our own scan (in the same order libcsv ends them), and finished records.
final class ParseState {
    @exclusivity(unchecked) var line = 0
    /// The field separator (`,`, or `;` / tab for spreadsheet exports).
    @exclusivity(unchecked) var delimiter = UInt8(ascii: ",")
    @exclusivity(unchecked) var inQuote = false
    @exclusivity(unchecked) var quoteLine = 0
    @exclusivity(unchecked) var quoteColumn = 0
    @exclusivity(unchecked) var fields: [String] = []
    @exclusivity(unchecked) var positions: [(line: Int, column: Int)] = []
    @exclusivity(unchecked) var starts: [(line: Int, column: Int)] = []
    @exclusivity(unchecked) var nextStart = 0
    @exclusivity(unchecked) var completed: [CSVRecord] = []
    /// Bytes of the lines a quoted field has spanned so far (0 outside quotes).
    @exclusivity(unchecked) var quotedBytes = 0
    /// Where the first field longer than ``CSVReader/maxFieldBytes`` starts.
    @exclusivity(unchecked) var longField: (line: Int, column: Int)?

    /// Records where fields start on this line, following libcsv's rules: blank lines outside
    /// quotes hold no record; a quote opens only at a field's start.
    func scan(_ bytes: [UInt8]) {
        let comma = delimiter, quote = UInt8(ascii: "\""), cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")
        let content = bytes.prefix { $0 != cr && $0 != lf }
        if !inQuote && content.isEmpty { return }
        var atFieldStart = !inQuote
        if atFieldStart { starts.append((line, 1)) }
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if inQuote {
                if b == quote {
                    if i + 1 < bytes.count, bytes[i + 1] == quote { i += 2; continue }
                    inQuote = false
                }
            } else if b == quote && atFieldStart {
                inQuote = true
                quoteLine = line
                quoteColumn = i + 1
            } else if b == comma {
                starts.append((line, i + 2))
                atFieldStart = true
                i += 1
                continue
            } else if b == cr || b == lf {
                break
            }
            if b != UInt8(ascii: " ") && b != UInt8(ascii: "\t") { atFieldStart = false }
            i += 1
        }
    }

    func endField(_ bytes: UnsafeRawBufferPointer) {
        let position = nextStart < starts.count ? starts[nextStart] : (line, 1)
        if bytes.count > CSVReader.maxFieldBytes && longField == nil { longField = position }
        fields.append(longField == nil ? String(decoding: bytes, as: UTF8.self) : "")
        positions.append(position)
        nextStart += 1
    }

    func endRecord() {
        completed.append(CSVRecord(fields: fields, positions: positions))
        fields.removeAll(keepingCapacity: true)
        positions.removeAll(keepingCapacity: true)
        starts.removeFirst(min(nextStart, starts.count))
        nextStart = 0
    }
}

private func fieldCallback(_ data: UnsafeMutableRawPointer?, _ length: Int, _ context: UnsafeMutableRawPointer?) {
    let state = Unmanaged<ParseState>.fromOpaque(context!).takeUnretainedValue()
    state.endField(UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : length))
}

private func rowCallback(_ terminator: Int32, _ context: UnsafeMutableRawPointer?) {
    Unmanaged<ParseState>.fromOpaque(context!).takeUnretainedValue().endRecord()
}
