import Foundation
import SpringCore

/// Records an app's touches as springtune's trace CSV (`trace,t,x,y,phase,intent,pointer`), so a
/// team can tune on its own users' gestures. Feed it from touch handlers; read ``csv`` and get
/// the file off the device. No UIKit: it takes plain numbers.
///
/// ```swift
/// var recorder = TraceRecorder()
/// recorder.record(trace: "pan-1", phase: .began, time: t, x: x, y: y)   // also pointer:, intent:
/// let csv: String = recorder.csv
/// ```
///
/// Times may start anywhere (`UITouch.timestamp`, `CACurrentMediaTime()`): each trace's times
/// are written from its first row, in seconds. Rows are kept in the order recorded, grouped by
/// trace. So that the file always validates, a row that would break a trace is adjusted, never
/// dropped silently: a time earlier than the trace's previous row is raised to it, a row for a
/// pointer that has not begun becomes its `began`, rows after a pointer lifted start it again only
/// through a new trace id (they are counted in ``ignoredRows``), and pointers still down when
/// ``csv`` is read end `cancelled` at their last time.
public struct TraceRecorder: Sendable {
    private struct Row: Sendable {
        var t: Double, x: Double, y: Double, phase: TouchPhase, pointer: Int
    }

    private struct Recording: Sendable {
        var id: String
        var intent: TraceIntent?
        var start: Double
        var rows: [Row] = []
        /// Last phase per pointer.
        var phases: [Int: TouchPhase] = [:]
    }

    private var recordings: [Recording] = []
    private var index: [String: Int] = [:]
    /// Rows refused because their pointer had already lifted, or a number was not finite.
    public private(set) var ignoredRows = 0

    /// An empty recorder.
    public init() {}

    /// Records one sample. `time` in seconds on any clock, `x`, `y` in points (y down);
    /// `intent` labels the trace (the last one given wins).
    public mutating func record(trace: String, phase: TouchPhase, time: Double, x: Double, y: Double,
                                pointer: Int = 0, intent: TraceIntent? = nil) {
        guard time.isFinite, x.isFinite, y.isFinite, pointer >= 0 else { ignoredRows += 1; return }
        let i: Int
        if let existing = index[trace] {
            i = existing
        } else {
            i = recordings.count
            index[trace] = i
            recordings.append(Recording(id: trace, start: time))
        }
        var r = recordings[i]
        recordings[i].rows = []   // keep the rows uniquely referenced while appending
        defer { recordings[i] = r }
        if let intent { r.intent = intent }
        if r.phases[pointer]?.isLift == true { ignoredRows += 1; return }
        var p = phase
        if r.phases[pointer] == nil { p = .began } else if p == .began { p = .moved }
        let t = max(time - r.start, r.rows.last?.t ?? 0)
        r.rows.append(Row(t: t, x: x, y: y, phase: p, pointer: pointer))
        r.phases[pointer] = p
    }

    /// Traces recorded so far.
    public var traceCount: Int { recordings.count }

    /// The recording as springtune's trace CSV; open pointers end `cancelled`.
    public var csv: String {
        var out = "trace,t,x,y,phase,intent,pointer\n"
        for r in recordings {
            let id = Self.quoted(r.id), intent = r.intent?.rawValue ?? ""
            func line(_ row: Row) {
                out += "\(id),\(Self.number(row.t)),\(Self.number(row.x)),\(Self.number(row.y)),\(row.phase.rawValue),\(intent),\(row.pointer)\n"
            }
            r.rows.forEach(line)
            let lastT = r.rows.last?.t ?? 0
            for (pointer, phase) in r.phases.sorted(by: { $0.key < $1.key }) where !phase.isLift {
                let last = r.rows.last { $0.pointer == pointer }!
                line(Row(t: lastT, x: last.x, y: last.y, phase: .cancelled, pointer: pointer))
            }
        }
        return out
    }

    /// Shortest round-trip decimal (`0.25`, `120`).
    static func number(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : "\(d)"
    }

    /// A CSV field, quoted when it holds a comma, quote or line break.
    static func quoted(_ s: String) -> String {
        guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) || s.hasPrefix(" ") || s.hasSuffix(" ") else { return s }
        return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
