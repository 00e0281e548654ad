import SpringCore

/// The spring that runs after a decision (SPEC §6.2–§6.4), stepped exactly frame by frame on
/// up to two axes at once, and its §7 metrics: overshoot of a scalar displacement measured
/// against its sign at the decision frame, and settling of a distance against ε.
public struct DecisionSpring: Sendable {
    public var spring: SpringParameters
    public var clock: FrameClock
    /// The decision frame (where the spring starts) and the last frame of the run.
    public var from: Int
    public var last: Int
    public var tolerance: Double

    public init(spring: SpringParameters, clock: FrameClock, from: Int, last: Int, tolerance: Double) {
        self.spring = spring; self.clock = clock; self.from = from; self.last = last; self.tolerance = tolerance
    }

    public struct Metrics: Sendable, Equatable {
        public var overshootPt: Double?
        public var overshootRatio: Double?
        public var settleTime: Double?
        public var unsettled: Bool
    }

    /// Runs from state (x₀, v₀) at frame `from`; `displacement` gives dᵢ of §7 from the axes'
    /// displacements, `distance` what must come within ε; `visit` sees every frame.
    public func run(x0: SIMD2<Double>, v0: SIMD2<Double>, displacement: (SIMD2<Double>) -> Double,
                    distance: (SIMD2<Double>) -> Double, visit: (Int, SIMD2<Double>, SIMD2<Double>) -> Void) -> Metrics {
        let step = SpringStep(spring: spring, dt: 1 / clock.frameRate)
        var x = x0, v = v0
        let d0 = displacement(x0)
        let sign: Double = d0 > 0 ? 1 : -1
        var largest = 0.0
        var settle = SettleTracker()
        for k in from...last {
            if k > from {
                let nx = step.xx * x + step.xv * v
                v = step.vx * x + step.vv * v
                x = nx
            }
            largest = max(largest, -sign * displacement(x))
            settle.record(frame: k, outOfBand: distance(x) > tolerance)
            visit(k, x, v)
        }
        let (settleTime, unsettled) = settle.result(releaseFrame: from, lastFrame: last, frameRate: clock.frameRate)
        return Metrics(overshootPt: abs(d0) >= tolerance ? largest : 0, overshootRatio: abs(d0) >= 1 ? largest / abs(d0) : nil,
                       settleTime: settleTime, unsettled: unsettled)
    }
}
