import SpringCore

/// `percent-transition` (Reference §7.6, Evernote's edge-pan dismissal of a note): a pan that begins
/// within `edgeWidth` of the left edge drives the note's x offset s = p·W, p = clamp(|x − x₀|/W,
/// 0, 1) (a `UIScreenEdgePanGestureRecognizer` driving a `UIPercentDrivenInteractiveTransition`).
/// At release the transition finishes when the finger moves right faster than `finishVelocity`
/// or p ≥ `finishProgress`, else cancels; s then runs to W or 0 along `completionCurve`.
public struct PercentTransition: EngineNumbers {
    /// How s completes after release.
    public enum Curve: String, Sendable, CaseIterable {
        /// Constant speed over T = duration·(1 − p) (finish) or duration·p (cancel).
        case linear
        /// The same T along the cubic Bézier timing curve (0.42, 0), (0.58, 1).
        case easeInOut
        /// A spring (response, dampingRatio) from s with the finger's speed v_s.
        case spring
    }

    /// The spring of the `spring` completion curve (from `response` and `dampingRatio`).
    public let spring: SpringParameters
    /// A pan must begin within this distance of the left edge to drive the transition (pt).
    public let edgeWidth: Double
    /// The transition finishes when the release velocity's x exceeds this (pt/s).
    public let finishVelocity: Double
    /// The transition finishes when p ≥ finishProgress at release (1; above 1: off).
    public let finishProgress: Double
    /// The completion time of the whole width for the linear and easeInOut curves (s).
    public let duration: Double
    /// How the offset completes after release (`completionCurve`).
    public let curve: Curve
    /// The screen and clock the model runs in.
    public let scene: Scene

    /// The model of its numbers: the spring, the edge's width (pt), the release rule (pt/s, 1),
    /// the completion time (s) and curve, in `scene` (a preset's values go through ``init(values:scene:)``).
    public init(spring: SpringParameters, edgeWidth: Double, finishVelocity: Double, finishProgress: Double, duration: Double, curve: Curve,
                scene: Scene) {
        (self.spring, self.edgeWidth, self.finishVelocity, self.finishProgress) = (spring, edgeWidth, finishVelocity, finishProgress)
        (self.duration, self.curve, self.scene) = (duration, curve, scene)
    }

    /// The spring, then edgeWidth, finishVelocity, finishProgress, duration and the curve's
    /// index in `Curve.allCases` (linear, easeInOut, spring) (Reference §15).
    public var numbers: [Double] {
        spring.numbers + [edgeWidth, finishVelocity, finishProgress, duration, NumberReader.number(of: curve)]
    }

    /// The model of ``numbers`` in `scene` (nil when they make none).
    public init?(numbers: [Double], scene: Scene) {
        var r = NumberReader(numbers)
        guard let spring = r.spring(), let edge = r.number(), let v = r.number(), let p = r.number(), let d = r.number(),
              let curve = r.choice(Curve.self), r.isAtEnd else { return nil }
        self.init(spring: spring, edgeWidth: edge, finishVelocity: v, finishProgress: p, duration: d, curve: curve, scene: scene)
    }

    /// The cubic Bézier ease-in-out (0.42, 0), (0.58, 1): progress y for time fraction x ∈ [0, 1],
    /// x(u) solved for u by bisection to double precision (x is increasing in u).
    public static func easeInOut(_ x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        func bx(_ u: Double) -> Double { 3 * (1 - u) * (1 - u) * u * 0.42 + 3 * (1 - u) * u * u * 0.58 + u * u * u }
        var lo = 0.0, hi = 1.0
        for _ in 0..<60 {
            let mid = (lo + hi) / 2
            if bx(mid) < x { lo = mid } else { hi = mid }
        }
        let u = (lo + hi) / 2
        return u * u * (3 - 2 * u)
    }
}

#if !hasFeature(Embedded)
/// The model as presets name and check it (the native build: the WebAssembly build is handed
/// the numbers, Reference §15).
extension PercentTransition: ResponseSpringModel {
    /// The model's name in presets: `percent-transition`.
    public static let modelName = "percent-transition"
    /// The per-frame engine an app drives.
    public typealias Engine = PercentTransitionEngine

    /// The spring (`response` s, `dampingRatio`), then the transition's parameters with their units, defaults and ranges.
    public static let parameters: [ParameterSpec] = responseSpecs(response: 0.35, dampingRatio: 0.85) + [
        .number("edgeWidth", "pt", 20, "a pan must begin this close to the left edge", min: 0, max: ParameterSpec.maxLength, domain: .linear(0, 100)),
        .number("finishVelocity", "pt/s", 0, "finish when the release velocity x exceeds this", min: -1e6, max: 1e6, domain: .linear(-2000, 2000)),
        .number("finishProgress", "1", 1.01, "finish when p ≥ this at release (above 1: off)", min: 0, domain: .linear(0.1, 1.01)),
        .number("duration", "s", 0.35, "completion time of the whole width for linear and easeInOut", min: 0, domain: .log(0.05, 2)),
        .text("completionCurve", "linear", Curve.allCases.map(\.rawValue), "how the note completes after release"),
    ]
    /// `dismiss` (finished) or `keep` (cancelled).
    public static let decisionLabels = [DecisionLabels(positive: .dismiss, negative: .keep)]

    /// The model of resolved parameter values in `scene`.
    ///
    /// - Throws: ``PresetError`` naming the parameter when the spring or `completionCurve` is invalid.
    public init(values: ParameterValues, scene: Scene) throws(PresetError) {
        let (spring, n) = (try Self.spring(values), values.number)
        guard case let .text(name)? = values["completionCurve"], let curve = Curve(rawValue: name) else {
            throw PresetError(path: "params.completionCurve", message: "not linear, easeInOut or spring")
        }
        self.init(spring: spring, edgeWidth: n("edgeWidth"), finishVelocity: n("finishVelocity"), finishProgress: n("finishProgress"),
                  duration: n("duration"), curve: curve, scene: scene)
    }
}
#endif

/// The per-frame engine of ``PercentTransition`` an app drives: add touch samples as they
/// arrive, ask for the note's x offset at each display frame. The frame that first sees the
/// lift row decides.
public struct PercentTransitionEngine: TouchEngine {
    /// The model the engine runs.
    public let model: PercentTransition
    /// The touch samples given so far.
    public private(set) var input = TouchInput()
    /// `dismiss` (finished) or `keep` (cancelled), from the release frame on.
    public private(set) var decision: TraceIntent?
    /// |ṡ just after release − v_s| (pt/s), from the release frame on (Reference §7.6).
    public private(set) var velocityJump: Double?
    private var start = 0.0, end = 0.0, fingerSpeed = 0.0, completion = 0.0, releaseTime = 0.0
    /// The offset s along the `spring` curve, on a clock that starts at the release.
    private var spring: Simulation?

    /// The note at one frame: its x offset s, where it heads, and ṡ.
    public struct Frame: EngineFrame {
        /// The note's x offset s (pt).
        public var offset: Double
        /// Where s heads: s itself while the finger drives it, then the end of the completion (pt).
        public var target: Double
        /// ṡ (pt/s).
        public var velocity: Double
        init(_ offset: Double, _ target: Double, _ velocity: Double) { (self.offset, self.target, self.velocity) = (offset, target, velocity) }
        /// The offset.
        public var shown: [Double] { [offset] }
        /// Every number of the frame: what is shown, then targets and velocities.
        public var values: [Double] { [offset, target, velocity] }
    }

    /// An engine for `model` at rest; without `presentsDragVelocity`, frames present 0 velocity
    /// while the finger is down (``TouchInput/presentsDragVelocity``: a measurement reading positions only).
    public init(model: PercentTransition, presentsDragVelocity: Bool) {
        self.model = model
        input = TouchInput(presentsDragVelocity: presentsDragVelocity)
    }

    /// The transition's offset s (pt) when this gesture grabbed it, within [0, W]; nil for a gesture from rest.
    public private(set) var grabOffset: Double?
    /// What the grabbed transition showed beyond [0, W] (its spring's overshoot), fading.
    private var excess: GrabExcess?

    /// Sends the transition's spring (`completionCurve` `spring`) to the offset `end` (pt) from
    /// time t (s), from where it is and as fast as it moves then (Reference §7.8); nothing for
    /// the timing curves or before the release.
    public mutating func retarget(offset newEnd: Double, at t: Double) {
        guard spring != nil else { return }
        spring?.retarget(newEnd, at: t - releaseTime)
        end = newEnd
    }

    /// A new gesture that grabs the transition where this engine presents it at time t (s),
    /// Reference §7.8: wherever the finger lands (no edge needed, the view is in hand), the
    /// offset starts at s₀ = s(t) within [0, W] and follows the finger's x translation,
    /// s = s₀ + (x − x₀) within [0, W]; what the spring showed beyond [0, W] fades on the model's spring.
    /// A transition not driven (no touch yet, or not an edge pan) or come to rest where it
    /// started (s within ε of 0, moving less than ε a frame) gives a fresh engine: the next
    /// gesture must be an edge pan again.
    public func interrupted(at t: Double) -> PercentTransitionEngine {
        var previous = self
        var next = PercentTransitionEngine(model: model)
        let shown = previous.frame(at: t)
        let resting = previous.decision != nil && model.scene.isAtRest(distance: shown.offset, speed: shown.velocity)
        guard previous.isEdgePan, !resting else { return next }
        let s0 = min(max(shown.offset, 0), model.scene.width)
        (next.grabOffset, next.excess) = (s0, GrabExcess(amount: shown.offset - s0, fade: GrabFade(spring: model.spring, at: t)))
        return next
    }

    /// The sign of the offset's change with the finger's x: +1 (grabbed, or moving right), −1.
    private var direction: Double {
        guard grabOffset == nil, let first = input.first, let latest = input.latest else { return 1 }
        return latest.x >= first.x ? 1 : -1
    }

    /// Gives the engine the next touch sample (in time order).
    public mutating func add(_ sample: TouchSample) { input.add(sample) }

    /// True when the touch began within `edgeWidth` of the left edge: only then does it drive the transition.
    public var isEdgePan: Bool { grabOffset != nil || input.isEdgePan(edgeWidth: model.edgeWidth) }

    /// Percent p of the latest sample.
    public var percent: Double {
        guard isEdgePan, let first = input.first, let latest = input.latest else { return (grabOffset ?? 0) / model.scene.width }
        let s = grabOffset.map { $0 + latest.x - first.x } ?? abs(latest.x - first.x)
        return min(max(s / model.scene.width, 0), 1)
    }

    /// The note's x offset s, where it is heading, and ṡ, at time t.
    public mutating func frame(at t: Double) -> Frame {
        let w = model.scene.width
        if !input.isLifted {
            // s = |x − x₀| follows the finger while 0 < p < 1: ṡ = ±ẋ.
            let extra = excess?.at(t) ?? (value: 0, rate: 0), s = percent * w + extra.value
            guard isEdgePan, input.first != nil, percent > 0, percent < 1 else { return Frame(s, s, extra.rate) }
            return Frame(s, s, direction * input.velocity(model.scene.estimator, at: t).x + extra.rate)
        }
        if decision == nil { release(at: t) }
        guard isEdgePan else { return Frame(0, 0, 0) }
        let tau = t - releaseTime
        switch model.curve {
        case .spring:
            var s = spring!
            s.advance(to: tau)
            spring = s
            return Frame(s.position, end, s.velocity)
        case .linear, .easeInOut:
            guard completion > 0, tau < completion else { return Frame(end, end, 0) }
            let f = tau / completion
            let eased = model.curve == .linear ? f : PercentTransition.easeInOut(f)
            let speed = model.curve == .linear ? (end - start) / completion : 0
            return Frame(start + (end - start) * eased, end, speed)
        }
    }

    /// Decides on the lift row (Reference §7.6) and sets up the completion.
    private mutating func release(at t: Double) {
        releaseTime = t
        guard isEdgePan, let first = input.first, let lift = input.latest else {
            decision = .keep
            return
        }
        let p = percent, w = model.scene.width, extra = excess?.at(t) ?? (value: 0, rate: 0)
        let vx = input.releaseVelocity(model.scene.estimator).x
        decision = vx > model.finishVelocity || p >= model.finishProgress ? .dismiss : .keep
        start = p * w + extra.value
        end = decision == .dismiss ? w : 0
        fingerSpeed = (lift.x == first.x && grabOffset == nil ? 0 : direction * vx) + extra.rate
        completion = model.duration * (decision == .dismiss ? 1 - p : p)
        let speedAfter: Double
        switch model.curve {
        case .linear: speedAfter = completion > 0 ? (end - start) / completion : 0
        case .easeInOut: speedAfter = 0
        case .spring:
            speedAfter = fingerSpeed
            spring = Simulation(spring: model.spring, position: start, velocity: fingerSpeed, target: end)
        }
        velocityJump = abs(speedAfter - fingerSpeed)
    }
}

extension PercentTransitionEngine.Frame: FrameRates {
    /// The offset s and ṡ.
    var rates: [(value: Double, rate: Double)] { [(offset, velocity)] }
}
