import SpringCore

/// `pull-to-create` (Reference §7.4, Clear): pulling a list down at its top unfolds a new row; at
/// release it is created when unfolded to `commitFraction`, and a spring opens it fully or
/// folds it away.
public struct PullToCreate: EngineNumbers {
    /// The spring that opens the row fully or folds it away after release.
    public let spring: SpringParameters
    /// The open row's height hᵣ (pt).
    public let rowHeight: Double
    /// The row is created when hᵣ/rowHeight ≥ commitFraction at release (1).
    public let commitFraction: Double
    /// The screen and clock the model runs in.
    public let scene: Scene

    /// The model of its numbers: the spring, the open row's height (pt) and the fraction that
    /// creates it, in `scene` (a preset's values go through ``init(values:scene:)``).
    public init(spring: SpringParameters, rowHeight: Double, commitFraction: Double, scene: Scene) {
        (self.spring, self.rowHeight, self.commitFraction, self.scene) = (spring, rowHeight, commitFraction, scene)
    }

    /// The spring, then rowHeight and commitFraction (Reference §15).
    public var numbers: [Double] { spring.numbers + [rowHeight, commitFraction] }

    /// The model of ``numbers`` in `scene` (nil when they make none).
    public init?(numbers: [Double], scene: Scene) {
        var r = NumberReader(numbers)
        guard let spring = r.spring(), let h = r.number(), let c = r.number(), r.isAtEnd else { return nil }
        self.init(spring: spring, rowHeight: h, commitFraction: c, scene: scene)
    }

    /// The decision on the pull P (pt) at release.
    public func creates(pull: Double) -> Bool { min(max(0, pull), rowHeight) / rowHeight >= commitFraction }
}

#if !hasFeature(Embedded)
/// The model as presets name and check it (the native build: the WebAssembly build is handed
/// the numbers, Reference §15).
extension PullToCreate: InteractionModel {
    /// The model's name in presets: `pull-to-create`.
    public static let modelName = "pull-to-create"
    /// The per-frame engine an app drives.
    public typealias Engine = PullToCreateEngine
    /// The row spring (`frequency` Hz, `damping`), then `rowHeight` and `commitFraction` with their units, defaults and ranges.
    public static let parameters: [ParameterSpec] = ParameterSpec.springSpecs(frequency: 2.5, damping: 0.8) + [
        .number("rowHeight", "pt", 60, "height of the new row", min: 0, inclusive: false, max: ParameterSpec.maxLength, domain: .contentLength),
        .number("commitFraction", "1", 0.75, "create when hᵣ/rowHeight ≥ commitFraction at release", min: 0, max: 1, domain: .linear(0.1, 1)),
    ]
    /// `create` or `cancel`.
    public static let decisionLabels = [DecisionLabels(positive: .create, negative: .cancel)]

    /// The model of resolved parameter values in `scene`.
    ///
    /// - Throws: ``PresetError`` naming the parameter when the spring is out of range.
    public init(values: ParameterValues, scene: Scene) throws(PresetError) {
        self.init(spring: try Self.spring(values), rowHeight: values.number("rowHeight"), commitFraction: values.number("commitFraction"), scene: scene)
    }
}
#endif

/// The per-frame engine of ``PullToCreate`` an app drives: add touch samples as they arrive,
/// ask for the new row's height and fold at each display frame. The frame that first sees the
/// lift row decides.
public struct PullToCreateEngine: TouchEngine {
    /// The model the engine runs.
    public let model: PullToCreate
    /// The touch samples given so far.
    public private(set) var input = TouchInput()
    /// `create` or `cancel`, from the release frame on.
    public private(set) var decision: TraceIntent?
    /// The row's height hᵣ after the release.
    private var spring: Simulation?

    /// An engine for `model` at rest; without `presentsDragVelocity`, frames present 0 velocity
    /// while the finger is down (``TouchInput/presentsDragVelocity``: a measurement reading positions only).
    public init(model: PullToCreate, presentsDragVelocity: Bool) {
        self.model = model
        input = TouchInput(presentsDragVelocity: presentsDragVelocity)
    }

    /// The row's height when this gesture grabbed it (pt), within [0, rowHeight]: 0 for a list at rest.
    public private(set) var grabHeight = 0.0
    /// What the grabbed row showed beyond [0, rowHeight] (its spring's overshoot), fading.
    private var excess: GrabExcess?

    /// Sends the row's spring to `height` (pt) from time t (s), from where it is and as fast as
    /// it moves then (Reference §7.8); nothing before the release.
    public mutating func retarget(height: Double, at t: Double) { spring?.retarget(height, at: t) }

    /// A new gesture that grabs the row where this engine presents it at time t (s), Reference
    /// §7.8: the pull starts at the row's height h₀ then, clamped to [0, rowHeight], and adds the
    /// finger's y translation; what the spring showed beyond that range fades on the model's spring.
    public func interrupted(at t: Double) -> PullToCreateEngine {
        var previous = self
        var next = PullToCreateEngine(model: model)
        let h = previous.frame(at: t).height
        next.grabHeight = min(max(0, h), model.rowHeight)
        next.excess = GrabExcess(amount: h - next.grabHeight, fade: GrabFade(spring: model.spring, at: t))
        return next
    }

    /// Gives the engine the next touch sample (in time order).
    public mutating func add(_ sample: TouchSample) { input.add(sample) }

    /// Pull P = max(0, y − y₀) of the latest sample.
    public var pull: Double {
        guard let first = input.first, let latest = input.latest else { return grabHeight }
        return max(0, grabHeight + latest.y - first.y)
    }

    /// The row's height hᵣ, where it is heading, its rate of change, and its fold, at time t.
    public mutating func frame(at t: Double) -> RowFrame {
        let extra = excess?.at(t) ?? (value: 0, rate: 0)
        let h = min(pull, model.rowHeight) + extra.value
        if !input.isLifted {
            // hᵣ = min(P, rowHeight) follows the finger's y while the row is not fully open.
            let v = (pull > 0 && pull < model.rowHeight ? input.velocity(model.scene.estimator, at: t).y : 0) + extra.rate
            return RowFrame(h, h, v, rowHeight: model.rowHeight)
        }
        if decision == nil {
            decision = model.creates(pull: pull) ? .create : .cancel
            let target = decision == .create ? model.rowHeight : 0
            let v0 = pull < model.rowHeight ? input.releaseVelocity(model.scene.estimator).y : 0
            spring = Simulation(spring: model.spring, position: h, velocity: v0 + extra.rate, target: target, time: t)
        }
        var s = spring!
        s.advance(to: t)
        spring = s
        return RowFrame(s.position, s.target, s.velocity, rowHeight: model.rowHeight)
    }
}
