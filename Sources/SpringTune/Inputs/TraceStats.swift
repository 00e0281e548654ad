import SpringCore
import TraceIO

/// One line of `springtune traces stats`: the shape of a trace and its release velocity. For a
/// multi-pointer trace the shape and velocity are those of the pointer that began first.
public struct TraceStats: Sendable {
    public var file: String
    public var trace: String
    public var intent: TraceIntent?
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

    public static let columns = ["file", "trace", "intent", "samples", "pointers", "duration", "dx", "dy", "peak_speed", "release_vx", "release_vy"]

    public var csvFields: [CSVField] {
        [.text(file), .text(trace), .text(intent?.rawValue ?? ""), .integer(samples), .integer(pointers), .number(duration), .number(dx), .number(dy),
         .number(peakSpeed), .number(release.x), .number(release.y)]
    }
}
