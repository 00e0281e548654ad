import SpringCore

/// The touch samples an engine has been given, in order; the release velocity comes from
/// them (Reference §4) once the lift row has arrived.
public struct TouchInput: Sendable {
    public private(set) var samples: [TouchSample] = []

    public init() {}

    public mutating func add(_ sample: TouchSample) { samples.append(sample) }

    public var first: TouchSample? { samples.first }
    public var latest: TouchSample? { samples.last }
    public var isLifted: Bool { samples.last?.phase.isLift ?? false }

    /// True when the touch began within `edgeWidth` (pt) of the screen's left edge (an edge
    /// pan); false before any sample.
    public func isEdgePan(edgeWidth: Double) -> Bool { (first?.x ?? .infinity) <= edgeWidth }

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
