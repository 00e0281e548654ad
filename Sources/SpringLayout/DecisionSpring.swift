import SpringCore

/// A spring on up to two axes toward a fixed target, stepped exactly (Reference §2) over whatever
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
/// them (Reference §4) once the lift row has arrived.
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

/// The per-frame engine of a deciding model, as an app and the sweep drive it: touch samples
/// go in as they arrive; the decision is nil until the model has decided.
public protocol DecisionEngine: Sendable {
    mutating func add(_ sample: TouchSample)
    var decision: TraceIntent? { get }
}

extension FlickDismissEngine: DecisionEngine {}
extension CardDismissEngine: DecisionEngine {}
extension PullToCreateEngine: DecisionEngine {}
