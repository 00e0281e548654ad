import Foundation
import ToolRuntime

/// Reads a text file line by line in 1 MB chunks, so memory is bounded by the longest line,
/// not the file. Lines end at `\n` (a trailing `\r` is kept; callers split on whitespace).
public enum LineReader {
    /// The longest line accepted (bytes): no line of a recording format comes near it.
    public static let maxLineBytes = 1 << 20

    /// Calls `body` with every line and its 1-based number. Throws `FILE:LINE:1` for a line
    /// longer than ``maxLineBytes`` and 66 when the file cannot be opened.
    public static func forEachLine(path: String, _ body: (Substring, Int) throws -> Void) throws {
        let file = try openForReading(path)
        defer { fclose(file) }
        var pending: [UInt8] = [], number = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        func emit(_ bytes: ArraySlice<UInt8>) throws {
            number += 1
            guard bytes.count <= maxLineBytes else { throw tooLong(number) }
            try body(Substring(decoding: bytes, as: UTF8.self), number)
        }
        func tooLong(_ line: Int) -> ToolError {
            ToolError.data(path, line: line, column: 1, "line longer than \(maxLineBytes) bytes: not a text recording")
        }
        while true {
            let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if n == 0 { break }
            var start = 0
            for i in 0..<n where chunk[i] == UInt8(ascii: "\n") {
                if pending.isEmpty {
                    try emit(chunk[start..<i])
                } else {
                    pending += chunk[start..<i]
                    try emit(pending[...])
                    pending.removeAll(keepingCapacity: true)
                }
                start = i + 1
            }
            pending += chunk[start..<n]
            if pending.count > maxLineBytes { throw tooLong(number + 1) }
        }
        if ferror(file) != 0 { throw ToolError(.ioError, "\(path): read error") }
        if !pending.isEmpty { try emit(pending[...]) }
    }
}
