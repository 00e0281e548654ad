import Foundation
import SpringCore
import ToolRuntime
import TraceIO

/// `traces filter`: keeps the traces whose shape matches every given condition. Shape is read
/// from the pointer that began first (``TraceStats``): net displacement (dx, dy), duration from
/// touch-down to lift-off, release velocity by the chosen estimator.
public struct TraceFilter: Sendable {
    public enum Direction: String, CaseIterable, Sendable {
        /// |dy| ≥ |dx|, and for up/down the sign of dy (y grows downward).
        case vertical, horizontal, up, down, left, right

        func matches(dx: Double, dy: Double) -> Bool {
            let vertical = abs(dy) >= abs(dx)
            switch self {
            case .vertical: return vertical
            case .horizontal: return !vertical
            case .up: return vertical && dy < 0
            case .down: return vertical && dy > 0
            case .left: return !vertical && dx < 0
            case .right: return !vertical && dx > 0
            }
        }
    }

    public var direction: Direction?
    /// Net displacement |D| (pt) at least this.
    public var minTravel: Double?
    /// Duration (s) bounds.
    public var minDuration: Double?, maxDuration: Double?
    /// |release velocity| (pt/s) at least this.
    public var minReleaseSpeed: Double?
    public var estimator: VelocityEstimator = .lsq2

    public init() {}

    public func keeps(_ trace: Trace) -> Bool {
        let s = TraceStats(file: "", trace: trace, estimator: estimator)
        if let direction, !direction.matches(dx: s.dx, dy: s.dy) { return false }
        if let minTravel, (s.dx * s.dx + s.dy * s.dy).squareRoot() < minTravel { return false }
        if let minDuration, s.duration < minDuration { return false }
        if let maxDuration, s.duration > maxDuration { return false }
        if let minReleaseSpeed, s.release.magnitude < minReleaseSpeed { return false }
        return true
    }
}

/// `traces label`: sets intents by rules applied in order (a later rule overrides an earlier
/// one): every trace, the traces a `trace,intent` file names, or the traces whose shape meets a
/// condition on a ``TraceStats`` column (`release_speed>=1000`).
public struct TraceLabeler: Sendable {
    public enum Rule: Sendable {
        case all(TraceIntent?)
        case named([String: TraceIntent?])
        case condition(Constraint, TraceIntent?)
    }

    public var rules: [Rule]
    public var estimator: VelocityEstimator = .lsq2

    public init(rules: [Rule]) { self.rules = rules }

    /// The columns a condition may name.
    public static let columns = ["samples", "pointers", "duration", "dx", "dy", "travel", "peak_speed", "release_vx", "release_vy", "release_speed"]

    static func value(_ s: TraceStats, _ column: String) -> Double {
        switch column {
        case "samples": Double(s.samples)
        case "pointers": Double(s.pointers)
        case "duration": s.duration
        case "dx": s.dx
        case "dy": s.dy
        case "travel": (s.dx * s.dx + s.dy * s.dy).squareRoot()
        case "peak_speed": s.peakSpeed
        case "release_vx": s.release.x
        case "release_vy": s.release.y
        default: s.release.magnitude
        }
    }

    /// Checks that every condition names a known column and every named trace exists.
    public func validate(traceIDs: Set<String>) throws {
        for rule in rules {
            switch rule {
            case let .condition(c, _) where !Self.columns.contains(c.column):
                throw ToolError(.usage, "--where \(c): unknown column '\(c.column)' (known: \(Self.columns.joined(separator: ", ")))")
            case let .named(labels):
                let missing = labels.keys.filter { !traceIDs.contains($0) }.sorted()
                if let first = missing.first {
                    throw ToolError(.dataError, "labels name \(missing.count) trace(s) not in the input, e.g. '\(first.prefix(80))'")
                }
            default: break
            }
        }
    }

    /// The traces with their intents set; and how many a rule touched.
    public func apply(_ traces: [Trace]) -> (traces: [Trace], labelled: Int) {
        var labelled = 0
        let out = traces.map { trace -> Trace in
            var t = trace
            var touched = false
            let stats = TraceStats(file: "", trace: trace, estimator: estimator)
            for rule in rules {
                switch rule {
                case let .all(intent): t.intent = intent; touched = true
                case let .named(labels): if let intent = labels[t.id] { t.intent = intent; touched = true }
                case let .condition(c, intent): if c.holds(Self.value(stats, c.column)) { t.intent = intent; touched = true }
                }
            }
            if touched { labelled += 1 }
            return t
        }
        return (out, labelled)
    }

    /// Reads a `trace,intent` file (an empty intent clears the label).
    public static func labels(path: String) throws -> [String: TraceIntent?] {
        var columns: [String: Int] = [:], out: [String: TraceIntent?] = [:]
        try CSVReader(path: path).forEachRecord { r in
            if columns.isEmpty {
                for (i, name) in r.fields.enumerated() { columns[name.trimmingCharacters(in: .whitespaces)] = i }
                guard columns["trace"] != nil, columns["intent"] != nil else {
                    throw ToolError.data(path, line: r.position(0).line, column: 1, "expected a header with trace and intent columns")
                }
                return
            }
            let ti = columns["trace"]!, ii = columns["intent"]!
            guard ti < r.fields.count, ii < r.fields.count else { throw ToolError.data(path, line: r.position(0).line, column: 1, "row has too few fields") }
            let text = r.fields[ii].trimmingCharacters(in: .whitespaces)
            guard text.isEmpty || TraceIntent(rawValue: text) != nil else {
                let p = r.position(ii)
                throw ToolError.data(path, line: p.line, column: p.column, "intent '\(text.prefix(40))' is not dismiss, keep, create, cancel or empty")
            }
            out[r.fields[ti]] = TraceIntent(rawValue: text)
        }
        return out
    }
}
