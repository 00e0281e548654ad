import SpringCore

/// The §7 metrics of the spring that runs after a decision (SPEC §6.2–§6.4): overshoot of a
/// scalar displacement against its sign at the decision frame, and settling of a distance
/// against ε. Fed one frame at a time, from the decision frame to the last.
public struct SpringMetrics: Sendable {
    public let tolerance: Double
    public let from: Int
    private var atDecision: Double?
    private var largest = 0.0
    private var settle = SettleTracker()

    public init(tolerance: Double, from: Int) {
        self.tolerance = tolerance
        self.from = from
    }

    public mutating func record(frame k: Int, displacement d: Double, distance: Double) {
        let d0 = atDecision ?? d
        atDecision = d0
        largest = max(largest, (d0 > 0 ? -1 : 1) * d)
        settle.record(frame: k, outOfBand: distance > tolerance)
    }

    public struct Result: Sendable, Equatable {
        public var overshootPt: Double?
        public var overshootRatio: Double?
        public var settleTime: Double?
        public var unsettled: Bool
    }

    public func result(lastFrame: Int, frameRate: Double) -> Result {
        let d0 = abs(atDecision ?? 0)
        let (settleTime, unsettled) = settle.result(releaseFrame: from, lastFrame: lastFrame, frameRate: frameRate)
        return Result(overshootPt: d0 >= tolerance ? largest : 0, overshootRatio: d0 >= 1 ? largest / d0 : nil,
                      settleTime: settleTime, unsettled: unsettled)
    }
}

/// A spring on up to two axes toward a fixed target, stepped exactly (SPEC §2) over whatever
/// time passes between frames; the step map is cached for a repeated frame interval.
public struct SpringAxes: Sendable {
    public let spring: SpringParameters
    /// Displacement from the target and its velocity, per axis.
    public private(set) var x: SIMD2<Double>
    public private(set) var v: SIMD2<Double>
    private var step: SpringStep?
    private var stepInterval = 0.0

    public init(spring: SpringParameters, x: SIMD2<Double>, v: SIMD2<Double>) {
        self.spring = spring; self.x = x; self.v = v
    }

    /// Moves the state `dt` seconds on. Frame intervals that differ only by rounding of the
    /// frame times (1e-12 relative) reuse the cached map.
    public mutating func advance(by dt: Double) {
        guard dt > 0 else { return }
        if step == nil || abs(dt - stepInterval) > 1e-12 * stepInterval {
            step = SpringStep(spring: spring, dt: dt)
            stepInterval = dt
        }
        let s = step!
        let nx = s.xx * x + s.xv * v
        v = s.vx * x + s.vv * v
        x = nx
    }
}

/// The touch samples an engine has been given, in order; the release velocity comes from
/// them (SPEC §4) once the lift row has arrived.
public struct TouchInput: Sendable {
    public private(set) var samples: [TouchSample] = []

    public init() {}

    public mutating func add(_ sample: TouchSample) { samples.append(sample) }

    public var first: TouchSample? { samples.first }
    public var latest: TouchSample? { samples.last }
    public var isLifted: Bool { samples.last?.phase.isLift ?? false }

    public func releaseVelocity(_ estimator: VelocityEstimator) -> Velocity {
        guard let last = samples.last, last.phase.isLift else { return estimator.releaseVelocity(positions: samples[...], liftOff: nil) }
        return estimator.releaseVelocity(positions: samples.dropLast(), liftOff: last.t)
    }
}

/// Feeds a trace to an engine frame by frame as the sweep does (SPEC §6): before frame k, every
/// sample with time ≤ tₖ (1e-9 s slack) is added.
public struct TraceFeed: Sendable {
    public let trace: Trace
    public let clock: FrameClock
    private var next = 0

    public init(trace: Trace, scene: Scene) {
        self.trace = trace
        clock = FrameClock(trace: trace, scene: scene)
    }

    /// The samples that arrive by frame k (call with increasing k).
    public mutating func samples(upTo k: Int) -> ArraySlice<TouchSample> {
        let start = next, limit = clock.time(k) + FrameClock.slack
        while next < trace.samples.count, trace.samples[next].t <= limit { next += 1 }
        return trace.samples[start..<next]
    }
}
