import Foundation
import SpringCore
import ToolRuntime

/// Reads and validates trace CSV files (Reference §3), streaming one trace at a time.
///
/// Strict by default: the first violation throws `FILE:LINE:COL: message` (exit 65). With
/// `skipInvalid`, a trace with a bad row is dropped (and every row up to its end skipped) and
/// the reason is counted in ``TraceFileReport``; file-level faults (a missing column,
/// invalid UTF-8, an unterminated quote) still throw.
public struct TraceReader {
    public static let requiredColumns = ["trace", "t", "x", "y", "phase"]
    public static let optionalColumns = ["intent", "pointer", "synthetic", "group"]
    /// The longest `group` word (bytes): a person's or device's name, not a document.
    public static let maxGroupBytes = 200
    /// Pointer numbers above this are refused (a gesture has a handful of fingers).
    public static let maxPointer = 63
    /// The longest trace, first row to last (s): a touch, not a recording session.
    public static let maxSpan = 600.0
    /// Largest |t| (s) and |x|, |y| (pt) accepted.
    public static let maxTime = 1e12, maxCoordinate = 1e6

    public var skipInvalid: Bool

    /// `text` as a `group` word the reader accepts: without control characters, cut to at most
    /// ``maxGroupBytes`` bytes at a character boundary (a file name taken as a group).
    public static func groupWord(_ text: String) -> String {
        var out = String.UnicodeScalarView(), bytes = 0
        for scalar in text.unicodeScalars where scalar.value >= 0x20 && scalar.value != 0x7F {
            bytes += String(scalar).utf8.count
            if bytes > maxGroupBytes { break }
            out.append(scalar)
        }
        return String(out).trimmedSpaces
    }

    public init(skipInvalid: Bool = false) { self.skipInvalid = skipInvalid }

    /// Reads every trace of `path`, in file order.
    public func read(path: String) throws -> (traces: [Trace], report: TraceFileReport) {
        var traces: [Trace] = []
        let report = try forEachTrace(path: path) { traces.append($0) }
        return (traces, report)
    }

    /// Calls `body` for every valid trace of `path`, in file order, holding one trace at a time.
    @discardableResult
    public func forEachTrace(path: String, _ body: (Trace) throws -> Void) throws -> TraceFileReport {
        var builder = Builder(file: path, skipInvalid: skipInvalid)
        try CSVReader(path: path).forEachRecord { record in
            if let trace = try builder.consume(record) { try body(trace) }
        }
        try builder.finish().map(body)
        if builder.columns == nil { throw ToolError.data(path, line: 1, column: 1, "empty file: header required") }
        return builder.report
    }

    /// The per-file validation state machine.
    struct Builder {
        let file: String
        let skipInvalid: Bool
        var columns: CSVHeader?
        var report = TraceFileReport()
        var current: Trace?
        var currentLine = 0
        var currentInvalid = false
        /// The last phase of each pointer of the current trace.
        var pointerPhases: [Int: TouchPhase] = [:]
        var seen = Set<String>()
        var lastRecordEnd = (line: 0, column: 0)

        init(file: String, skipInvalid: Bool) {
            self.file = file
            self.skipInvalid = skipInvalid
        }

        mutating func consume(_ r: CSVRecord) throws -> Trace? {
            guard let columns else {
                try readHeader(r)
                return nil
            }
            lastRecordEnd = r.position(r.fields.count)
            let id = field(r, columns["trace"]!)
            var finished: Trace?
            if current?.id != id {
                finished = try closeCurrent(nextLine: r.positions.first?.line ?? 0)
                current = Trace(id: id, samples: [])
                currentLine = r.positions.first?.line ?? 0
                currentInvalid = false
                pointerPhases = [:]
                if !seen.insert(id).inserted {
                    let p = r.position(columns["trace"]!)
                    let error = ToolError.data(file, line: p.line, column: p.column, "trace '\(id)' appears again after other traces (rows of a trace must be contiguous)")
                    guard skipInvalid else { throw error }
                    report.skip(id, reason: error.message)
                    currentInvalid = true
                    return finished
                }
            }
            if currentInvalid { return finished }
            do {
                try append(r, columns)
            } catch let error as ToolError where skipInvalid {
                report.skip(current!.id, reason: error.message)
                currentInvalid = true
            }
            return finished
        }

        mutating func finish() throws -> Trace? {
            try closeCurrent(nextLine: lastRecordEnd.line + 1)
        }

        private mutating func readHeader(_ r: CSVRecord) throws {
            let header = try CSVHeader(r, file: file)
            report.unknownColumns = header.unknown(besides: TraceReader.requiredColumns + TraceReader.optionalColumns)
            report.synthetic = header["synthetic"] != nil
            for name in TraceReader.requiredColumns { _ = try header.require(name, "missing required column '\(name)'") }
            columns = header
        }

        private func field(_ r: CSVRecord, _ i: Int) -> String {
            i < r.fields.count ? r.fields[i] : ""
        }

        private func fail(_ r: CSVRecord, _ i: Int, _ message: String) throws -> Never {
            let p = r.position(i)
            throw ToolError.data(file, line: p.line, column: p.column, message)
        }

        private func number(_ r: CSVRecord, _ i: Int, _ name: String) throws -> Double {
            let text = field(r, i).trimmedSpaces
            guard let v = NumberFormat.decimal(text) else {
                let hint = text.contains(",") ? " (a decimal comma? springtune reads decimal points)" : ""
                try fail(r, i, "\(name): '\(text.prefix(40))' is not a number\(hint)")
            }
            guard v.isFinite else { try fail(r, i, "\(name): '\(text.prefix(40))' is not finite") }
            return v
        }

        private mutating func append(_ r: CSVRecord, _ c: CSVHeader) throws {
            if r.fields.count < c.count {
                try fail(r, r.fields.count, "row has \(r.fields.count) fields, header has \(c.count)")
            }
            let t = try number(r, c["t"]!, "t"), x = try number(r, c["x"]!, "x"), y = try number(r, c["y"]!, "y")
            if let (name, message) = TraceRules.rangeProblem(t: t, x: x, y: y) { try fail(r, c[name]!, message) }
            if let first = current?.samples.first, t - first.t > TraceReader.maxSpan {
                try fail(r, c["t"]!, "trace '\(current!.id.prefix(60))' lasts more than \(Int(TraceReader.maxSpan)) s (t \(t) after \(first.t)): one touch, not a recording")
            }
            let phaseText = field(r, c["phase"]!).trimmedSpaces
            guard let phase = TouchPhase(name: phaseText) else {
                try fail(r, c["phase"]!, "phase: '\(phaseText)' is not began, moved, ended or cancelled")
            }
            let pointer = try self.pointer(r, c)
            // Taken out of `current` so that appending does not copy the samples (linear time).
            var trace = current!
            current = nil
            defer { current = trace }
            let who = pointer == 0 ? "trace '\(trace.id)'" : "pointer \(pointer) of trace '\(trace.id)'"
            if let last = trace.samples.last, t < last.t { try fail(r, c["t"]!, "t goes backwards (\(t) < \(last.t))") }
            if let previous = pointerPhases[pointer] {
                if previous.isLift { try fail(r, c["phase"]!, "\(who) has rows after its \(previous.rawValue) row") }
                if phase == .began { try fail(r, c["phase"]!, "\(who) has a second began row") }
            } else if phase != .began {
                try fail(r, c["phase"]!, "\(who) starts with \(phase.rawValue), not began")
            }
            if let ic = c["intent"] {
                let text = field(r, ic).trimmedSpaces
                let intent: TraceIntent? = text.isEmpty ? nil : TraceIntent(rawValue: text)
                if !text.isEmpty && intent == nil { try fail(r, ic, "intent: '\(text)' is not dismiss, keep, create, cancel or empty") }
                if trace.samples.isEmpty { trace.intent = intent } else if trace.intent != intent {
                    try fail(r, ic, "intent changes within trace '\(trace.id)'")
                }
            }
            if let gc = c["group"] {
                let text = field(r, gc).trimmedSpaces
                if text.utf8.count > TraceReader.maxGroupBytes { try fail(r, gc, "group: longer than \(TraceReader.maxGroupBytes) bytes") }
                if text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) { try fail(r, gc, "group: control characters are not allowed") }
                let group: String? = text.isEmpty ? nil : text
                if trace.samples.isEmpty { trace.group = group } else if trace.group != group {
                    try fail(r, gc, "group changes within trace '\(trace.id)'")
                }
            }
            trace.samples.append(TouchSample(t: t, x: x, y: y, phase: phase, pointer: pointer))
            pointerPhases[pointer] = phase
        }

        /// The `pointer` field: empty or absent is 0; otherwise an integer in 0...maxPointer.
        private func pointer(_ r: CSVRecord, _ c: CSVHeader) throws -> Int {
            guard let pc = c["pointer"] else { return 0 }
            let text = field(r, pc).trimmedSpaces
            if text.isEmpty { return 0 }
            guard let p = Int(text), (0...TraceReader.maxPointer).contains(p) else {
                try fail(r, pc, "pointer: '\(text.prefix(40))' is not an integer from 0 to \(TraceReader.maxPointer)")
            }
            return p
        }

        private mutating func closeCurrent(nextLine: Int) throws -> Trace? {
            guard let trace = current else { return nil }
            current = nil
            if currentInvalid { return nil }
            let open = pointerPhases.filter { !$0.value.isLift }.keys.sorted()
            guard open.isEmpty, !trace.samples.isEmpty else {
                let which = open.count == 1 && open[0] == 0 ? "" : " (pointer \(open.map(String.init).joined(separator: ", ")))"
                let message = "\(file):\(nextLine):1: trace '\(trace.id)' (from line \(currentLine)) ends without an ended or cancelled row\(which)"
                if skipInvalid { report.skip(trace.id, reason: message); return nil }
                throw ToolError(.dataError, message)
            }
            report.traces += 1
            return trace
        }
    }
}

/// What reading a trace file found besides the traces.
public struct TraceFileReport: Sendable {
    /// Valid traces delivered.
    public var traces = 0
    /// Columns the reader does not know (ignored).
    public var unknownColumns: [String] = []
    /// True when the file has a `synthetic` column (traces made by `traces synthesize`).
    public var synthetic = false
    /// Dropped traces with the first reason for each (only with `skipInvalid`).
    public var skipped: [(trace: String, reason: String)] = []

    mutating func skip(_ trace: String, reason: String) { skipped.append((trace, reason)) }
}

extension String {
    /// Without leading and trailing spaces and tabs; the string itself when it has none (the
    /// common case, without Foundation's character-set machinery, which cost 60 % of reading).
    var trimmedSpaces: String {
        let u = utf8
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }
        guard let first = u.first, let last = u.last, isSpace(first) || isSpace(last) else { return self }
        guard let start = u.firstIndex(where: { !isSpace($0) }), let end = u.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[start...end])
    }
}
