import SpringCore
import ToolRuntime
import TraceIO

/// One line of `springtune traces stats`: the shape of a trace and its release velocity. For a
/// multi-pointer trace the shape and velocity are those of the pointer that began first.
public struct TraceStats: Sendable {
    public var file: String
    public var trace: String
    public var intent: TraceIntent?
    /// Who made it (Reference §14): its `group`, or its own id when the file names none.
    public var group: String
    public var samples: Int
    /// Fingers in the trace.
    public var pointers: Int
    /// Lift-off time minus touch-down time (s).
    public var duration: Double
    /// Net displacement from `began` to the last position sample (pt).
    public var dx: Double, dy: Double
    /// Largest speed between consecutive position samples with distinct times (pt/s).
    public var peakSpeed: Double
    /// Release velocity by the chosen estimator (pt/s).
    public var release: Velocity

    public init(file: String, trace: Trace, estimator: VelocityEstimator) {
        self.file = file
        self.trace = trace.id
        intent = trace.intent
        group = trace.group ?? trace.id
        samples = trace.samples.count
        pointers = trace.pointers.count
        duration = trace.liftOffTime - (trace.samples.first?.t ?? 0)
        let trace = trace.firstPointer
        let positions = trace.positionSamples
        let first = positions.first, last = positions.last
        dx = (last?.x ?? 0) - (first?.x ?? 0)
        dy = (last?.y ?? 0) - (first?.y ?? 0)
        peakSpeed = zip(positions, positions.dropFirst()).reduce(0) { best, pair in
            let dt = pair.1.t - pair.0.t
            guard dt > 0 else { return best }
            let dx = pair.1.x - pair.0.x, dy = pair.1.y - pair.0.y
            return max(best, (dx * dx + dy * dy).squareRoot() / dt)
        }
        release = estimator.releaseVelocity(of: trace)
    }

    public static let columns = ["file", "trace", "intent", "group", "samples", "pointers", "duration", "dx", "dy", "peak_speed", "release_vx", "release_vy"]

    public var csvFields: [CSVField] {
        [.text(file), .text(trace), .text(intent?.rawValue ?? ""), .text(group), .integer(samples), .integer(pointers), .number(duration), .number(dx), .number(dy),
         .number(peakSpeed), .number(release.x), .number(release.y)]
    }
}

/// The groups of a trace set with their trace counts (Reference §14), in order of first appearance.
public struct TraceGroups: Sendable, Equatable {
    public var names: [String]
    public var counts: [Int]

    public init(_ groups: [String]) {
        var index: [String: Int] = [:]
        names = []; counts = []
        for g in groups {
            if let i = index[g] { counts[i] += 1 } else { index[g] = names.count; names.append(g); counts.append(1) }
        }
    }

    /// `N groups: NAME (COUNT), …` with at most `limit` names (the largest first), the rest counted.
    public func line(limit: Int = 40) -> String {
        let order = names.indices.sorted { counts[$0] != counts[$1] ? counts[$0] > counts[$1] : $0 < $1 }
        let shown = order.prefix(limit).map { "\(Echo.cut(names[$0])) (\(counts[$0]))" }.joined(separator: ", ")
        let more = order.count > limit ? ", and \(order.count - limit) more" : ""
        let own = names.count == counts.reduce(0, +) ? " (one trace each: no group column, or one trace per person)" : ""
        return "\(names.count) group\(names.count == 1 ? "" : "s")\(own): \(shown)\(more)"
    }
}
