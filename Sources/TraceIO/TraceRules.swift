import SpringCore

/// The rules a trace file's traces obey (Reference §3), for traces built in memory: what
/// ``TraceReader`` checks row by row, checked on a whole ``Trace`` so that an importer never
/// writes a trace the reader would refuse (getevent's 0x80000000, evemu's 2^63, times of
/// 1e300 s were written, exit 0).
public enum TraceRules {
    /// Why a sample's numbers are out of range (t, x, y finite; |t| ≤ 1e12 s; |x|, |y| ≤ 1e6 pt),
    /// or nil. The reader reports the same words at the field.
    public static func rangeProblem(t: Double, x: Double, y: Double) -> (field: String, message: String)? {
        for (name, v) in [("t", t), ("x", x), ("y", y)] where !v.isFinite { return (name, "\(name): '\(v)' is not finite") }
        if abs(t) > TraceReader.maxTime { return ("t", "t: \(t) is beyond ±1e12 s") }
        if abs(x) > TraceReader.maxCoordinate { return ("x", "x: \(x) is beyond ±1e6 pt") }
        if abs(y) > TraceReader.maxCoordinate { return ("y", "y: \(y) is beyond ±1e6 pt") }
        return nil
    }

    /// A broken rule: `rule` names it without numbers (a count key in an import's sidecar),
    /// `detail` says it with the offending values.
    public struct Violation: Sendable, Equatable {
        public var rule: String
        public var detail: String
    }

    /// The first rule `trace` breaks, or nil: a non-empty id within a CSV field's length, at
    /// least one sample, numbers in range, times that never go backwards within
    /// ``TraceReader/maxSpan``, pointers 0...``TraceReader/maxPointer``, and each pointer's
    /// rows `began`, moves, then one `ended` or `cancelled`.
    public static func problem(_ trace: Trace) -> Violation? {
        func broken(_ rule: String, _ detail: String? = nil) -> Violation { Violation(rule: rule, detail: detail ?? rule) }
        guard !trace.id.isEmpty, trace.id.utf8.count <= CSVReader.maxFieldBytes else { return broken("trace id empty or longer than \(CSVReader.maxFieldBytes) bytes") }
        guard let first = trace.samples.first else { return broken("no samples") }
        var phases: [Int: TouchPhase] = [:], last = first.t
        for s in trace.samples {
            if let (field, message) = rangeProblem(t: s.t, x: s.x, y: s.y) { return broken("\(field) out of range", message) }
            if s.t < last { return broken("t goes backwards", "t goes backwards (\(s.t) < \(last))") }
            if s.t - first.t > TraceReader.maxSpan { return broken("lasts more than \(Int(TraceReader.maxSpan)) s") }
            guard (0...TraceReader.maxPointer).contains(s.pointer) else { return broken("pointer beyond \(TraceReader.maxPointer)", "pointer \(s.pointer) is not from 0 to \(TraceReader.maxPointer)") }
            switch (phases[s.pointer], s.phase) {
            case (nil, .began), (.began?, .moved), (.began?, .ended), (.began?, .cancelled), (.moved?, .moved), (.moved?, .ended), (.moved?, .cancelled): break
            default: return broken("phases out of order", "pointer \(s.pointer): \(s.phase.rawValue) after \(phases[s.pointer]?.rawValue ?? "nothing")")
            }
            phases[s.pointer] = s.phase
            last = s.t
        }
        if let open = phases.first(where: { !$0.value.isLift }) { return broken("no ended or cancelled row", "pointer \(open.key) ends without an ended or cancelled row") }
        return nil
    }
}
