import SpringCore

/// The touch samples an engine has been given, in order; the release velocity comes from
/// them (Reference §4) once the lift row has arrived.
public struct TouchInput: Sendable {
    /// The samples in the order given.
    public private(set) var samples: [TouchSample] = []
    /// False when nothing reads the velocity a frame presents while the finger is down (a
    /// sweep's or a search's measurement, which reads positions only): ``velocity(_:at:)`` then
    /// gives 0 until the lift instead of running the estimator every frame. The release
    /// velocity, and so every position, is the same either way.
    public var presentsDragVelocity: Bool

    /// No samples yet; `presentsDragVelocity` as ``presentsDragVelocity``.
    public init(presentsDragVelocity: Bool = true) { self.presentsDragVelocity = presentsDragVelocity }

    /// Appends a sample with its coordinates clamped to ±``TouchInput/coordinateLimit``. A touch
    /// with no place moves nothing: a NaN coordinate keeps the previous sample's, and a first
    /// sample with one is dropped (the gesture begins at its first placed sample).
    public mutating func add(_ sample: TouchSample) {
        guard let latest else {
            if !sample.x.isNaN, !sample.y.isNaN { samples.append(Self.clamped(sample)) }
            return
        }
        var s = sample
        if s.x.isNaN { s.x = latest.x }
        if s.y.isNaN { s.y = latest.y }
        samples.append(Self.clamped(s))
    }

    /// `sample` with its coordinates clamped.
    static func clamped(_ sample: TouchSample) -> TouchSample {
        var s = sample
        (s.x, s.y) = (clamp(s.x), clamp(s.y))
        return s
    }

    /// The largest touch coordinate an engine takes (pt): a trace's bound (Reference §11), 1e6 pt,
    /// which is also the largest length a parameter takes (``ParameterSpec/maxLength``). An app's
    /// coordinate beyond ±1e6 pt is clamped to it, so that translations, release velocities and
    /// the motion after release stay finite (a finger at 1e308 pt made the flick centre NaN).
    public static let coordinateLimit = 1e6

    /// A coordinate clamped to [−coordinateLimit, coordinateLimit] (pt); NaN gives 0 (Swift's
    /// `min` and `max` would pass it through).
    public static func clamp(_ v: Double) -> Double { v.isNaN ? 0 : min(max(v, -coordinateLimit), coordinateLimit) }

    /// The touch-down sample, nil before any.
    public var first: TouchSample? { samples.first }
    /// The latest sample, nil before any.
    public var latest: TouchSample? { samples.last }
    /// True once the lift row (`ended` or `cancelled`) has arrived.
    public var isLifted: Bool { samples.last?.phase.isLift ?? false }

    /// True when the touch began within `edgeWidth` (pt) of the screen's left edge (an edge
    /// pan); false before any sample.
    public func isEdgePan(edgeWidth: Double) -> Bool { (first?.x ?? .infinity) <= edgeWidth }

    /// The finger's velocity (pt/s): the release velocity of Reference §4 once lifted, and while
    /// down the same estimate over the samples so far (without the 40 ms rule: the decision on a
    /// trace's last row).
    public func releaseVelocity(_ estimator: VelocityEstimator) -> Velocity {
        guard let last = samples.last, last.phase.isLift else { return estimator.releaseVelocity(positions: samples[...], liftOff: nil) }
        return estimator.releaseVelocity(positions: samples.dropLast(), liftOff: last.t)
    }

    /// The finger's velocity a frame at time t presents (pt/s): the release velocity once lifted;
    /// while down the same estimate with the 40 ms rule run from t, so a finger that has sent no
    /// sample for more than 40 ms (held still) presents 0; 0 while down without ``presentsDragVelocity``.
    public func velocity(_ estimator: VelocityEstimator, at t: Double) -> Velocity {
        guard presentsDragVelocity || isLifted else { return .zero }
        return estimate(estimator, at: t)
    }

    /// The finger's velocity at time t as ``velocity(_:at:)`` gives it, whatever
    /// ``presentsDragVelocity`` says: for motion that starts from it (a pinch released by one finger
    /// while the other is still down).
    public func estimate(_ estimator: VelocityEstimator, at t: Double) -> Velocity {
        guard let last = samples.last, last.phase.isLift else { return estimator.releaseVelocity(positions: samples[...], liftOff: t) }
        return estimator.releaseVelocity(positions: samples.dropLast(), liftOff: last.t)
    }
}

/// What an engine presents at one display frame: what is on screen, where it heads and how fast
/// it moves. Each engine has its own frame type with named fields (a card's rectangle, a row's
/// height and fold, …); this is the shape every one of them shares.
public protocol EngineFrame: Sendable {
    /// What is on screen (pt): the positions and sizes an app draws, in a fixed order. A grab
    /// (``TouchEngine/interrupted(at:)``) keeps these where they were.
    var shown: [Double] { get }
    /// Every number of the frame, `shown` first, then targets and velocities (pt, pt/s): all
    /// finite for any touch input.
    var values: [Double] { get }
}

/// The per-frame engine of an ``InteractionModel``, as an app, the sweep, the studio and the
/// fuzzer drive it (Reference §7.8): touch samples go in as they arrive (every pointer's
/// interleaved, in time order), a frame comes out at each display time, a new gesture grabs the
/// motion where it is, and the frame carries the velocity the motion has.
public protocol TouchEngine: Sendable {
    /// The model whose engine this is (an ``InteractionModel`` whose ``InteractionModel/Engine``
    /// is this type; only the model's numbers in the WebAssembly build, Reference §15).
    associatedtype Model: Sendable
    /// What one frame presents.
    associatedtype Frame: EngineFrame

    /// An engine of `model` at rest, before any touch. Without `presentsDragVelocity`, frames
    /// present 0 velocity while the finger is down (``TouchInput/presentsDragVelocity``: a
    /// measurement that reads positions only); every position is the same either way.
    init(model: Model, presentsDragVelocity: Bool)
    /// Gives the engine the next touch sample (samples in time order).
    mutating func add(_ sample: TouchSample)
    /// What is on screen at time t (s, on the samples' clock; frames in increasing time).
    mutating func frame(at t: Double) -> Frame
    /// A new gesture that grabs the motion where this engine presents it at time t (s): the new
    /// engine has no samples and shows what this one showed at t until its finger moves.
    func interrupted(at t: Double) -> Self
    /// The outcome (one of the model's ``InteractionModel/decisionLabels``), nil until the model
    /// has decided, and always nil for a model that does not decide.
    var decision: TraceIntent? { get }
}

extension TouchEngine {
    /// An engine of `model` at rest whose frames present the finger's velocity while it is down.
    public init(model: Model) { self.init(model: model, presentsDragVelocity: true) }
}
