import SpringCore

/// `pinch-fold` (Reference §7.5, Clear's pinches): two fingers on a list. Pinching open unfolds a new
/// row between them (`mode` `create`); pinching closed folds the row between them away
/// (`mode` `fold`). At the first lift of either finger the row commits when the progress
/// reached `commitFraction`, and a spring (frequency, damping) takes its height hᵣ to
/// `rowHeight` (created or kept) or to 0 (cancelled or deleted).
public struct PinchFold: EngineNumbers {
    /// What the pinch does: open a new row, or fold an existing one away.
    public enum Mode: String, Sendable, CaseIterable {
        /// Pinching open unfolds a new row between the fingers.
        case create
        /// Pinching closed folds the row between the fingers away (deletes it).
        case fold

        /// The outcome of a pinch that commits or not: create or cancel (`create`), dismiss
        /// (delete) or keep (`fold`).
        public func outcome(commits: Bool) -> TraceIntent {
            switch self {
            case .create: commits ? .create : .cancel
            case .fold: commits ? .dismiss : .keep
            }
        }
    }

    /// The spring that takes the row's height to `rowHeight` or 0 after the decision.
    public let spring: SpringParameters
    /// The row's full height (pt).
    public let rowHeight: Double
    /// The row commits when clamp(p, 0, 1) ≥ commitFraction at the first lift (1).
    public let commitFraction: Double
    /// Whether the pinch creates a row or folds one away.
    public let mode: Mode
    /// The screen and clock the model runs in.
    public let scene: Scene

    /// The model of its numbers: the spring, the row's full height (pt), the fraction that
    /// commits and what the pinch does, in `scene` (a preset's values go through ``init(values:scene:)``).
    public init(spring: SpringParameters, rowHeight: Double, commitFraction: Double, mode: Mode, scene: Scene) {
        (self.spring, self.rowHeight, self.commitFraction, self.mode, self.scene) = (spring, rowHeight, commitFraction, mode, scene)
    }

    /// The spring, then rowHeight, commitFraction and the mode's index in `Mode.allCases`
    /// (create, fold) (Reference §15).
    public var numbers: [Double] { spring.numbers + [rowHeight, commitFraction, NumberReader.number(of: mode)] }

    /// The model of ``numbers`` in `scene` (nil when they make none).
    public init?(numbers: [Double], scene: Scene) {
        var r = NumberReader(numbers)
        guard let spring = r.spring(), let h = r.number(), let c = r.number(), let mode = r.choice(Mode.self), r.isAtEnd else { return nil }
        self.init(spring: spring, rowHeight: h, commitFraction: c, mode: mode, scene: scene)
    }

    /// Progress p for separations d₀ (where both fingers were first down) and d (pt):
    /// (d − d₀)/rowHeight when creating, (d₀ − d)/rowHeight when folding.
    public func progress(start d0: Double, now d: Double) -> Double {
        (mode == .create ? d - d0 : d0 - d) / rowHeight
    }

    /// The row's height hᵣ for progress p: rowHeight·clamp(p) (create), rowHeight·(1 − clamp(p)) (fold).
    public func height(progress p: Double) -> Double {
        let c = min(max(p, 0), 1)
        return rowHeight * (mode == .create ? c : 1 - c)
    }

    /// The decision on the progress at the first lift.
    public func commits(progress p: Double) -> Bool { min(max(p, 0), 1) >= commitFraction }
}

#if !hasFeature(Embedded)
/// The model as presets name and check it (the native build: the WebAssembly build is handed
/// the numbers, Reference §15).
extension PinchFold: InteractionModel {
    /// The model's name in presets: `pinch-fold`.
    public static let modelName = "pinch-fold"
    /// The per-frame engine an app drives.
    public typealias Engine = PinchFoldEngine

    /// The row spring (`frequency` Hz, `damping`), then `rowHeight`, `commitFraction` and `mode` with their units, defaults and ranges.
    public static let parameters: [ParameterSpec] = ParameterSpec.springSpecs(frequency: 2.5, damping: 0.8) + [
        .number("rowHeight", "pt", 60, "height of the row the pinch opens or folds", min: 0, inclusive: false, max: ParameterSpec.maxLength, domain: .contentLength),
        .number("commitFraction", "1", 0.75, "commit when clamp(p, 0, 1) ≥ commitFraction at the first lift", min: 0, max: 1, domain: .linear(0.1, 1)),
        .text("mode", "create", Mode.allCases.map(\.rawValue), "create: pinch open adds a row; fold: pinch closed deletes one", tuning: false),
    ]
    /// create/cancel (mode `create`) and dismiss/keep (mode `fold`).
    public static let decisionLabels = Mode.allCases.map(\.labels)

    /// The model of resolved parameter values in `scene`.
    ///
    /// - Throws: ``PresetError`` naming the parameter when the spring or `mode` is invalid.
    public init(values: ParameterValues, scene: Scene) throws(PresetError) {
        self.init(spring: try values.spring(), rowHeight: values.number("rowHeight"), commitFraction: values.number("commitFraction"),
                  mode: try Mode(values["mode"]), scene: scene)
    }
}

extension PinchFold.Mode {
    /// The mode a preset names (`create` or `fold`).
    init(_ v: ParamValue?) throws(PresetError) {
        guard case let .text(s)? = v, let mode = Self(rawValue: s) else {
            throw PresetError(path: "params.mode", message: "'\(v?.description ?? "")' is not create or fold")
        }
        self = mode
    }

    /// The decision's labels: create/cancel, or dismiss (delete)/keep.
    public var labels: DecisionLabels { DecisionLabels(positive: outcome(commits: true), negative: outcome(commits: false)) }
}
#endif

/// The per-frame engine of ``PinchFold`` an app drives: add every finger's samples as they
/// arrive, ask for the row at each display frame. Pointers A and B are the first two to begin;
/// the frame that first sees A or B lifted decides.
public struct PinchFoldEngine: TouchEngine {
    /// The model the engine runs.
    public let model: PinchFold
    /// `create`/`cancel` (mode create) or `dismiss`/`keep` (mode fold), from the deciding frame on.
    public private(set) var decision: TraceIntent?
    /// The separation |y_B − y_A| at the first frame both fingers were down (pt), once known.
    public private(set) var startSeparation: Double?
    /// The spring's initial velocity ḋ (pt/s) at the decision.
    public private(set) var releaseSpeed = 0.0
    private var inputs: [Int: TouchInput] = [:]
    private var order: [Int] = []
    /// The row's height hᵣ after the decision.
    private var spring: Simulation?
    private var target = 0.0

    /// An engine for `model` at rest; without `presentsDragVelocity`, frames present 0 velocity
    /// while the fingers are down (``TouchInput/presentsDragVelocity``: a measurement reading positions only).
    public init(model: PinchFold, presentsDragVelocity: Bool) {
        self.model = model
        self.presentsDragVelocity = presentsDragVelocity
    }

    /// Whether each finger's input presents its velocity while down.
    let presentsDragVelocity: Bool

    /// The pinch progress of the row when this gesture grabbed it: 0 for a row at rest.
    public private(set) var grabProgress = 0.0
    /// What the grabbed row showed beyond [0, rowHeight] (its spring's overshoot), fading.
    private var excess: GrabExcess?

    /// Sends the row's spring to `height` (pt) from time t (s), from where it is and as fast as
    /// it moves then (Reference §7.8); nothing before the release.
    public mutating func retarget(height: Double, at t: Double) {
        guard spring != nil else { return }
        spring?.retarget(height, at: t)
        target = height
    }

    /// A new gesture that grabs the row where this engine presents it at time t (s), Reference
    /// §7.8: the pinch starts at the progress of the row's height then, p₀ = hᵣ/rowHeight
    /// (create) or 1 − hᵣ/rowHeight (fold) within [0, 1], and adds the fingers' progress; what
    /// the spring showed beyond [0, rowHeight] fades on the model's spring. A grab that never becomes a
    /// pinch (one finger) decides on p₀ at its lift. An engine never touched, or at rest at the
    /// height it started from (within ε and 0.5 pt), gives a fresh engine.
    public func interrupted(at t: Double) -> PinchFoldEngine {
        var previous = self
        var next = PinchFoldEngine(model: model)
        let shown = previous.frame(at: t), h = shown.height
        let resting = previous.decision != nil && model.scene.isAtRest(distance: h - restingHeight, speed: shown.velocity)
        guard !order.isEmpty, !resting else { return next }
        let c = min(max(h / model.rowHeight, 0), 1)
        next.grabProgress = model.mode == .create ? c : 1 - c
        next.excess = GrabExcess(amount: h - model.height(progress: next.grabProgress), fade: GrabFade(spring: model.spring, at: t))
        return next
    }

    /// Gives the engine the next sample of any finger (in time order).
    public mutating func add(_ sample: TouchSample) {
        if inputs[sample.pointer] == nil { order.append(sample.pointer) }
        inputs[sample.pointer, default: TouchInput(presentsDragVelocity: presentsDragVelocity)].add(sample)
    }

    /// The row's height before any pinch: 0 for a new row, `rowHeight` for one to fold.
    var restingHeight: Double { model.mode == .create ? 0 : model.rowHeight }

    /// The row's height hᵣ, where it is heading, its rate of change, and its fold, at time t.
    public mutating func frame(at t: Double) -> RowFrame {
        if decision == nil { decide(at: t) }
        guard var s = spring else {
            let extra = excess?.at(t) ?? (value: 0, rate: 0)
            let h = currentHeight + extra.value
            return RowFrame(h, decision == nil ? h : target, decision == nil ? dragSpeed(at: t) + extra.rate : 0, rowHeight: model.rowHeight)
        }
        s.advance(to: t)
        spring = s
        return RowFrame(s.position, target, s.velocity, rowHeight: model.rowHeight)
    }

    /// The two pointers' inputs, A then B, when both have begun.
    private var pair: (a: TouchInput, b: TouchInput)? {
        guard order.count >= 2, let a = inputs[order[0]], let b = inputs[order[1]] else { return nil }
        return (a, b)
    }

    private var separation: Double? {
        guard let (a, b) = pair, let ya = a.latest?.y, let yb = b.latest?.y else { return nil }
        return abs(yb - ya)
    }

    private var currentHeight: Double {
        guard let d0 = startSeparation, let d = separation else { return model.height(progress: grabProgress) }
        return model.height(progress: grabProgress + model.progress(start: d0, now: d))
    }

    /// The row's rate of change while both fingers are down and 0 < p < 1: hᵣ follows the
    /// separation d in both modes, so ḣ = ḋ (pt/s); 0 elsewhere.
    private func dragSpeed(at t: Double) -> Double {
        guard let (a, b) = pair, let d0 = startSeparation, let d = separation else { return 0 }
        let p = grabProgress + model.progress(start: d0, now: d)
        return p > 0 && p < 1 ? separationSpeed(a, b, at: t, presented: true) : 0
    }

    /// ḋ = sign(y_B − y_A)·(v_B − v_A) (pt/s) from each finger's velocity along y at t: as a
    /// frame presents it (`presented`), or as the release spring starts from it.
    private func separationSpeed(_ a: TouchInput, _ b: TouchInput, at t: Double, presented: Bool) -> Double {
        let e = model.scene.estimator
        let (va, vb) = presented ? (a.velocity(e, at: t).y, b.velocity(e, at: t).y) : (a.estimate(e, at: t).y, b.estimate(e, at: t).y)
        let sign: Double = (b.latest!.y - a.latest!.y) >= 0 ? 1 : -1
        return sign * (vb - va)
    }

    /// Tracks the start of the gesture and decides at the first lift of A or B.
    private mutating func decide(at t: Double) {
        let pair = self.pair
        if startSeparation == nil, let (a, b) = pair, !a.isLifted, !b.isLifted { startSeparation = separation }
        let first = order.first.flatMap { inputs[$0] }
        let lifted = pair.map { $0.a.isLifted || $0.b.isLifted } ?? (first?.isLifted ?? false)
        guard lifted else { return }
        let extra = excess?.at(t) ?? (value: 0, rate: 0)
        guard let (a, b) = pair, let d0 = startSeparation, let d = separation else {
            // Never both down: no pinch. A row at rest stays; a grabbed one goes where p₀ says.
            decision = excess != nil && model.commits(progress: grabProgress) ? model.mode.outcome(commits: true) : model.mode.outcome(commits: false)
            target = decision == .create || decision == .keep ? model.rowHeight : 0
            if excess != nil {
                spring = Simulation(spring: model.spring, position: currentHeight + extra.value, velocity: extra.rate, target: target, time: t)
            }
            return
        }
        let p = grabProgress + model.progress(start: d0, now: d)
        decision = model.commits(progress: p) ? model.mode.outcome(commits: true) : model.mode.outcome(commits: false)
        target = decision == .create || decision == .keep ? model.rowHeight : 0
        if (0...1).contains(p) { releaseSpeed = separationSpeed(a, b, at: t, presented: false) }
        let h = model.height(progress: p) + extra.value
        spring = Simulation(spring: model.spring, position: h, velocity: releaseSpeed + extra.rate, target: target, time: t)
    }
}
