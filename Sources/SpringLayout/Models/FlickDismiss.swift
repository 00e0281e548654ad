#if !hasFeature(Embedded)
import Foundation
#endif
import SpringCore

/// `flick-dismiss` (Reference §7.2, Tweetbot's photo viewer): a card follows the finger rigidly; at
/// release it is thrown off screen when it moved far enough, fast enough and in the direction
/// it was thrown, else a 2-D spring snaps it back to the centre.
public struct FlickDismiss: EngineNumbers {
    /// The spring that snaps a kept card back to the centre, per axis.
    public let snap: SpringParameters
    /// Dismissing needs the card's displacement |D| > distanceThreshold (pt).
    public let distanceThreshold: Double
    /// Dismissing needs the release speed |v| ≥ flickVelocity (pt/s).
    public let flickVelocity: Double
    /// Dismissing needs the angle between v and D ≤ maxFlickAngle (degrees, 0…180).
    public let maxFlickAngle: Double
    /// A thrown card moves velocityScale·v·τ from its release position (1).
    public let velocityScale: Double
    /// A thrown card accelerates by ½·gravity·1000·v̂·τ² along its throw (1000 pt/s²).
    public let gravity: Double
    /// The card's width and height (pt).
    public let cardSize: SIMD2<Double>
    /// The screen and clock the model runs in.
    public let scene: Scene

    /// The model of its numbers: the snap-back spring, the throw's thresholds (pt, pt/s,
    /// degrees), its velocity scale and gravity (1, 1000 pt/s²) and the card's size (pt), in
    /// `scene` (what the WebAssembly build is handed, Reference §15; a preset's values go
    /// through ``init(values:scene:)``).
    public init(snap: SpringParameters, distanceThreshold: Double, flickVelocity: Double, maxFlickAngle: Double,
                velocityScale: Double, gravity: Double, cardSize: SIMD2<Double>, scene: Scene) {
        (self.snap, self.distanceThreshold, self.flickVelocity, self.maxFlickAngle) = (snap, distanceThreshold, flickVelocity, maxFlickAngle)
        (self.velocityScale, self.gravity, self.cardSize, self.scene) = (velocityScale, gravity, cardSize, scene)
    }

    /// The snap-back spring, then distanceThreshold, flickVelocity, maxFlickAngle,
    /// velocityScale, gravity and the card's width and height (Reference §15).
    public var numbers: [Double] {
        snap.numbers + [distanceThreshold, flickVelocity, maxFlickAngle, velocityScale, gravity, cardSize.x, cardSize.y]
    }

    /// The model of ``numbers`` in `scene` (nil when they make none).
    public init?(numbers: [Double], scene: Scene) {
        var r = NumberReader(numbers)
        guard let snap = r.spring(), let d = r.number(), let v = r.number(), let angle = r.number(), let scale = r.number(),
              let g = r.number(), let w = r.number(), let h = r.number(), r.isAtEnd else { return nil }
        self.init(snap: snap, distanceThreshold: d, flickVelocity: v, maxFlickAngle: angle, velocityScale: scale, gravity: g,
                  cardSize: SIMD2(w, h), scene: scene)
    }

    /// The decision rule, on displacement D and release velocity v (pt, pt/s).
    public func dismisses(displacement d: SIMD2<Double>, velocity v: SIMD2<Double>) -> Bool {
        let dl = (d * d).sum().squareRoot(), vl = (v * v).sum().squareRoot()
        let angle = dl == 0 || vl == 0 ? 180 : acos(max(-1, min(1, (d * v).sum() / (dl * vl)))) * 180 / .pi
        return dl > distanceThreshold && vl >= flickVelocity && angle <= maxFlickAngle
    }
}

#if !hasFeature(Embedded)
/// The model as presets name and check it (the native build: the WebAssembly build is handed
/// the numbers, Reference §15).
extension FlickDismiss: InteractionModel {
    /// The model's name in presets: `flick-dismiss`.
    public static let modelName = "flick-dismiss"
    /// The per-frame engine an app drives.
    public typealias Engine = FlickDismissEngine
    /// The snap-back spring's parameters: `snapFrequency` (Hz) and `snapDamping` (ratio).
    public static let springParameterNames = ["snapFrequency", "snapDamping"]
    /// The snap-back spring (`snapFrequency` Hz, `snapDamping`), then the throw's parameters with their units, defaults and ranges.
    public static let parameters: [ParameterSpec] = ParameterSpec.springSpecs(frequency: 1.5, damping: 0.7, names: ("snapFrequency", "snapDamping")) + [
        .number("distanceThreshold", "pt", 60, "dismiss needs |D| > distanceThreshold", min: 0, max: ParameterSpec.maxLength, domain: .linear(0, 300)),
        .number("flickVelocity", "pt/s", 800, "dismiss needs |v| ≥ flickVelocity (> 0: a throw has a direction)", min: 0, inclusive: false, domain: .log(100, 5000)),
        .number("maxFlickAngle", "deg", 90, "dismiss needs angle(v, D) ≤ maxFlickAngle", min: 0, max: 180, domain: .linear(10, 180)),
        .number("velocityScale", "1", 0.1, "thrown card moves velocityScale·v·τ", min: 0, max: 10, domain: .linear(0, 1)),
        .number("gravity", "1000 pt/s²", 0.2, "thrown card accelerates ½·gravity·1000·v̂·τ²", min: 0, max: 1000, domain: .linear(0, 5)),
        .number("cardWidth", "pt", 390, "card width", min: 0, inclusive: false, max: ParameterSpec.maxLength, domain: .contentLength),
        .number("cardHeight", "pt", 292, "card height", min: 0, inclusive: false, max: ParameterSpec.maxLength, domain: .contentLength),
    ]
    /// `dismiss` or `keep`.
    public static let decisionLabels = [DecisionLabels(positive: .dismiss, negative: .keep)]
    /// One spring, exported as `snap`.
    public static var springGroups: [SpringGroup] { [.main(of: Self.self, name: "snap")] }

    /// A canonical spring as `snapFrequency` = f (Hz) and `snapDamping` = ζ.
    public static func springValues(_ s: SpringParameters) -> [String: ParamValue] {
        ["snapFrequency": .number(s.frequency), "snapDamping": .number(s.damping)]
    }

    /// The snap-back spring of `snapFrequency` (Hz) and `snapDamping`.
    ///
    /// - Throws: ``PresetError`` when they are out of range.
    public static func spring(_ values: ParameterValues) throws(PresetError) -> SpringParameters {
        try values.spring(frequency: "snapFrequency", damping: "snapDamping")
    }

    /// The model of resolved parameter values in `scene`.
    ///
    /// - Throws: ``PresetError`` naming the parameter when the spring is out of range.
    public init(values: ParameterValues, scene: Scene) throws(PresetError) {
        let n = values.number
        self.init(snap: try Self.spring(values), distanceThreshold: n("distanceThreshold"), flickVelocity: n("flickVelocity"),
                  maxFlickAngle: n("maxFlickAngle"), velocityScale: n("velocityScale"), gravity: n("gravity"),
                  cardSize: SIMD2(n("cardWidth"), n("cardHeight")), scene: scene)
    }
}
#endif

/// The per-frame engine of ``FlickDismiss`` an app drives: add touch samples as they arrive,
/// ask for the card at each display frame. The frame that first sees the lift row decides.
public struct FlickDismissEngine: TouchEngine {
    /// The model the engine runs.
    public let model: FlickDismiss
    /// The touch samples given so far.
    public private(set) var input = TouchInput()
    /// `dismiss` or `keep`, from the release frame on.
    public private(set) var decision: TraceIntent?
    /// The card's resting centre C₀ (the screen's centre).
    public var restCenter: SIMD2<Double> { SIMD2(model.scene.width / 2, model.scene.height / 2) }
    /// D/|D| at release (zero when D = 0): the direction overshoot is measured along.
    public private(set) var throwAxis = SIMD2<Double>.zero
    private var releaseTime = 0.0
    private var displacement = SIMD2<Double>.zero, velocity = SIMD2<Double>.zero
    /// The snap-back spring per axis, on the card's displacement from C₀ (kept photos only).
    private var snap: (x: Simulation, y: Simulation)?
    /// The card's displacement from C₀ when this gesture grabbed it (pt): zero for a card at rest.
    public private(set) var grabOffset = SIMD2<Double>.zero

    /// The card at one frame: its centre (pt) and velocity (pt/s).
    public struct Frame: EngineFrame {
        /// The card's centre (pt).
        public var center: SIMD2<Double>
        /// The centre's velocity (pt/s).
        public var velocity: SIMD2<Double>
        init(_ center: SIMD2<Double>, _ velocity: SIMD2<Double>) { self.center = center; self.velocity = velocity }
        /// The centre, x then y.
        public var shown: [Double] { [center.x, center.y] }
        /// Every number of the frame: what is shown, then targets and velocities.
        public var values: [Double] { shown + [velocity.x, velocity.y] }
    }

    /// An engine for `model` at rest; without `presentsDragVelocity`, frames present 0 velocity
    /// while the finger is down (``TouchInput/presentsDragVelocity``: a measurement reading positions only).
    public init(model: FlickDismiss, presentsDragVelocity: Bool) {
        self.model = model
        input = TouchInput(presentsDragVelocity: presentsDragVelocity)
    }

    /// Sends a kept card springing back to `center` (pt) instead of C₀ from time t (s), where
    /// it is and as fast as it moves then (Reference §7.8); nothing for a thrown card or before
    /// the release.
    public mutating func retarget(center: SIMD2<Double>, at t: Double) {
        guard var spring = snap else { return }
        spring.x.retarget(center.x - restCenter.x, at: t)
        spring.y.retarget(center.y - restCenter.y, at: t)
        snap = spring
    }

    /// A new gesture that grabs the card where this engine presents it at time t (s), mid-flight
    /// or at rest: the new engine has no samples, shows the card there until the finger moves,
    /// then moves it by the finger's translation from its touch-down, and judges the release on
    /// the card's whole displacement from C₀ (grab offset + translation). Reference §7.8.
    public func interrupted(at t: Double) -> FlickDismissEngine {
        var previous = self
        var next = FlickDismissEngine(model: model)
        next.grabOffset = previous.frame(at: t).center - restCenter
        return next
    }

    /// Gives the engine the next touch sample (in time order).
    public mutating func add(_ sample: TouchSample) { input.add(sample) }

    /// The card's centre and velocity at time t (frames in increasing time).
    public mutating func frame(at t: Double) -> Frame {
        guard let first = input.first, let latest = input.latest else { return Frame(restCenter + grabOffset, .zero) }
        let offset = grabOffset + SIMD2(latest.x - first.x, latest.y - first.y)
        if !input.isLifted {
            // The card follows the finger rigidly: its velocity is the finger's.
            let v = input.velocity(model.scene.estimator, at: t)
            return Frame(restCenter + offset, SIMD2(v.x, v.y))
        }
        if decision == nil {
            let v = input.releaseVelocity(model.scene.estimator)
            displacement = offset
            velocity = SIMD2(v.x, v.y)
            let length = (offset * offset).sum().squareRoot()
            throwAxis = length > 0 ? offset / length : .zero
            releaseTime = t
            if model.dismisses(displacement: offset, velocity: velocity) {
                decision = .dismiss
            } else {
                decision = .keep
                snap = (Simulation(spring: model.snap, position: offset.x, velocity: velocity.x, target: 0, time: t),
                        Simulation(spring: model.snap, position: offset.y, velocity: velocity.y, target: 0, time: t))
            }
        }
        if var spring = snap {
            spring.x.advance(to: t)
            spring.y.advance(to: t)
            snap = spring
            return Frame(restCenter + SIMD2(spring.x.position, spring.y.position), SIMD2(spring.x.velocity, spring.y.velocity))
        }
        // Thrown: C₀ + D + velocityScale·v·τ + ½·gravity·1000·v̂·τ².
        let tau = t - releaseTime
        let vHat = velocity / (velocity * velocity).sum().squareRoot()
        let g = model.gravity * 1000
        return Frame(restCenter + displacement + model.velocityScale * velocity * tau + 0.5 * g * vHat * tau * tau,
                model.velocityScale * velocity + g * vHat * tau)
    }

    /// True while the card's rectangle meets the screen's.
    public func isOnScreen(_ center: SIMD2<Double>) -> Bool {
        let half = model.cardSize / 2
        return !(center.x + half.x < 0 || center.x - half.x > model.scene.width || center.y + half.y < 0 || center.y - half.y > model.scene.height)
    }
}

extension FlickDismissEngine.Frame: FrameRates {
    /// The centre's x and y with their velocities.
    var rates: [(value: Double, rate: Double)] { [(center.x, velocity.x), (center.y, velocity.y)] }
}
