import CLibCSV
import Foundation
import SpringCore
import ToolRuntime

/// Builds CSV text: numbers in Swift's shortest round-trip form (deterministic bytes), text
/// fields quoted through libcsv's `csv_write` only when they need it.
public struct CSVWriter: Sendable {
    public private(set) var text = ""

    public init() {}

    /// Appends one record; `nil` is an empty field (an undefined value).
    public mutating func row(_ fields: [CSVField]) {
        for (i, f) in fields.enumerated() {
            if i > 0 { text += "," }
            text += f.encoded
        }
        text += "\n"
    }

    public mutating func header(_ names: [String]) { row(names.map(CSVField.text)) }

    /// The text so far, leaving the writer empty (for writing in chunks).
    public mutating func take() -> String {
        defer { text = "" }
        return text
    }
}

/// A CSV field value.
public enum CSVField: Sendable, Equatable {
    case text(String)
    case number(Double)
    case integer(Int)
    case empty

    public init(_ value: Double?) { self = value.map(CSVField.number) ?? .empty }

    /// The field as it appears in the file.
    public var encoded: String {
        switch self {
        case .empty: ""
        case let .integer(i): String(i)
        case let .number(d): NumberFormat.cell(d)
        case let .text(s): needsQuoting(s) ? quoted(s) : s
        }
    }
}

private func needsQuoting(_ s: String) -> Bool {
    s.utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }
        || s.first == " " || s.last == " "
}

private func quoted(_ s: String) -> String {
    let src = Array(s.utf8)
    var dest = [UInt8](repeating: 0, count: src.count * 2 + 2)
    let n = src.withUnsafeBytes { sp in dest.withUnsafeMutableBytes { dp in csv_write(dp.baseAddress, dp.count, sp.baseAddress, sp.count) } }
    return String(decoding: dest[0..<n], as: UTF8.self)
}

/// Writes files atomically: a temporary file beside the target, then rename, so a failed run
/// never leaves a half-written file.
public enum AtomicFile {
    public static func write(_ text: String, to path: String) throws {
        try write(to: path) { emit in try emit(Data(text.utf8)) }
    }

    public static func write(_ data: Data, to path: String) throws {
        try write(to: path) { emit in try emit(data) }
    }

    /// Writes what `produce` emits, chunk by chunk, into a temporary file beside `path`
    /// (removed on SIGINT/SIGTERM and on any error), fsyncs it and renames it over `path`.
    /// Never replaces what is not a regular file (a device node, a symlink, a folder).
    public static func write(to path: String, _ produce: (_ emit: (Data) throws -> Void) throws -> Void) throws {
        guard !path.isEmpty else { throw ToolError(.usage, "empty output path") }
        let url = URL(fileURLWithPath: path)
        let dir = url.deletingLastPathComponent()
        var info = stat()
        if lstat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
            throw ToolError(.cantCreate, "\(path): exists and is not a regular file (a link, device or folder); refusing to replace it")
        }
        do {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        } catch {
            throw ToolError(.cantCreate, "\(dir.path): cannot create directory: \(error.localizedDescription)")
        }
        removeStaleTemporaries(of: url)
        let temp = dir.appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())").path
        Cleanup.shared.register(temp)
        defer { Cleanup.shared.unregister(temp) }
        func fail(_ reason: String) -> ToolError {
            unlink(temp)
            return ToolError(.cantCreate, "\(path): cannot write: \(reason)")
        }
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw fail(String(cString: strerror(errno))) }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        do {
            try produce { data in try handle.write(contentsOf: data) }
            try handle.synchronize()
            try handle.close()
        } catch let error as ToolError {
            try? handle.close()
            unlink(temp)
            throw error
        } catch {
            try? handle.close()
            throw fail(error.localizedDescription)
        }
        guard rename(temp, url.path) == 0 else { throw fail(String(cString: strerror(errno))) }
    }

    /// Removes `.NAME.tmp-PID` files beside `url` left by runs that were killed (-9) before
    /// their rename: those whose process no longer exists.
    static func removeStaleTemporaries(of url: URL) {
        let dir = url.deletingLastPathComponent().path, prefix = ".\(url.lastPathComponent).tmp-"
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] where entry.hasPrefix(prefix) {
            guard let pid = Int32(entry.dropFirst(prefix.count)), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            unlink("\(dir)/\(entry)")
        }
    }
}

/// A file name made from untrusted text (a column or preset name): letters, digits, `.`, `_`
/// and `-` kept, anything else `_`, no leading dot, at most 100 characters; never a path.
public func safeFileName(_ text: String) -> String {
    var out = String(text.unicodeScalars.prefix(100).map { c -> Character in
        let ok = (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9") || c == "." || c == "_" || c == "-"
        return ok ? Character(c) : "_"
    })
    while out.hasPrefix(".") { out = "_" + out.dropFirst() }
    return out.isEmpty ? "_" : out
}
