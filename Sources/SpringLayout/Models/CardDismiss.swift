import SpringCore

/// `card-dismiss` (Reference §7.3, the App Store "Today" card detail): dragging down (or panning
/// from the left edge) shrinks the full-screen card; past `commitProgress` it commits to
/// dismiss at once, else a flick decides at release. A spring (response, dampingRatio) then
/// takes the card to its place in the list (dismiss) or back to full screen (keep), from rest
/// or (`releaseVelocity: finger`) with the frame's velocity along its path.
public struct CardDismiss: EngineNumbers {
    /// The card's spring (from `response` and `dampingRatio`), which takes it to its place in the list or back to full screen.
    public let spring: SpringParameters
    /// A touch starting within this distance of the left edge is an edge pan (pt).
    public let edgeWidth: Double
    /// The translation L for progress 1 (pt): progress p = translation / L.
    public let dismissDistance: Double
    /// How far a drag down first scrolls the detail's content to its top before it counts (pt).
    public let contentOffset: Double
    /// The progress that commits the dismissal while dragging (1, fraction of `dismissDistance`).
    public let commitProgress: Double
    /// The release velocity along the gesture that dismisses (pt/s).
    public let flickVelocity: Double
    /// The card's scale at `commitProgress` (1, in (0, 1]): scale s = 1 − (1 − minScale)·min(p/commitProgress, 1).
    public let minScale: Double
    /// The dismissed card's frame in the list (pt): where a dismissed card lands.
    public let cardFrame: Rect
    /// True when the card spring starts with the frame's velocity at release along its path
    /// (`releaseVelocity: finger`); false (`rest`, the default): it starts at rest.
    public let carriesVelocity: Bool
    /// The screen and clock the model runs in.
    public let scene: Scene

    /// The model of its numbers, in `scene` (a preset's values go through ``init(values:scene:)``).
    public init(spring: SpringParameters, edgeWidth: Double, dismissDistance: Double, contentOffset: Double, commitProgress: Double,
                flickVelocity: Double, minScale: Double, cardFrame: Rect, carriesVelocity: Bool, scene: Scene) {
        (self.spring, self.edgeWidth, self.dismissDistance, self.contentOffset) = (spring, edgeWidth, dismissDistance, contentOffset)
        (self.commitProgress, self.flickVelocity, self.minScale) = (commitProgress, flickVelocity, minScale)
        (self.cardFrame, self.carriesVelocity, self.scene) = (cardFrame, carriesVelocity, scene)
    }

    /// The spring, then edgeWidth, dismissDistance, contentOffset, commitProgress, flickVelocity,
    /// minScale, the dismissed card's frame (x, y, width, height) and whether the card spring
    /// carries the release velocity (1) or starts at rest (0) (Reference §15).
    public var numbers: [Double] {
        spring.numbers + [edgeWidth, dismissDistance, contentOffset, commitProgress, flickVelocity, minScale,
                          cardFrame.x, cardFrame.y, cardFrame.width, cardFrame.height, carriesVelocity ? 1 : 0]
    }

    /// The model of ``numbers`` in `scene` (nil when they make none).
    public init?(numbers: [Double], scene: Scene) {
        var r = NumberReader(numbers)
        guard let spring = r.spring(), let edge = r.number(), let distance = r.number(), let offset = r.number(), let commit = r.number(),
              let v = r.number(), let scale = r.number(), let x = r.number(), let y = r.number(), let w = r.number(), let h = r.number(),
              let carries = r.flag(), r.isAtEnd else { return nil }
        self.init(spring: spring, edgeWidth: edge, dismissDistance: distance, contentOffset: offset, commitProgress: commit, flickVelocity: v,
                  minScale: scale, cardFrame: Rect(x: x, y: y, width: w, height: h), carriesVelocity: carries, scene: scene)
    }

    var screen: Rect { Rect(x: 0, y: 0, width: scene.width, height: scene.height) }

    /// The full-screen frame scaled about its centre for progress p.
    public func frame(progress p: Double) -> Rect {
        let s = 1 - (1 - minScale) * min(p / commitProgress, 1)
        let w = scene.width * s, h = scene.height * s
        return Rect(x: (scene.width - w) / 2, y: (scene.height - h) / 2, width: w, height: h)
    }
}

#if !hasFeature(Embedded)
/// The model as presets name and check it (the native build: the WebAssembly build is handed
/// the numbers, Reference §15).
extension CardDismiss: ResponseSpringModel {
    /// The model's name in presets: `card-dismiss`.
    public static let modelName = "card-dismiss"
    /// The per-frame engine an app drives.
    public typealias Engine = CardDismissEngine
    /// The spring (`response` s, `dampingRatio`), then the card's parameters with their units, defaults and ranges.
    public static let parameters: [ParameterSpec] = responseSpecs(response: 0.6, dampingRatio: 0.7) + [
        .number("edgeWidth", "pt", 20, "a touch starting this close to the left edge is an edge pan", min: 0, max: ParameterSpec.maxLength, domain: .linear(0, 100)),
        .number("dismissDistance", "pt", 333, "translation for progress 1", min: 0, inclusive: false, max: ParameterSpec.maxLength, domain: .log(50, 2000)),
        .number("contentOffset", "pt", 0, "a drag down first scrolls the detail's content this far to its top; only the rest counts", min: 0, max: ParameterSpec.maxLength, domain: .linear(0, 2000, tuning: false)),
        .number("commitProgress", "1", 0.3, "progress that commits the dismissal while dragging", min: 0, inclusive: false, domain: .linear(0.05, 1)),
        .number("flickVelocity", "pt/s", 800, "release velocity along the gesture that dismisses", min: 0, domain: .log(100, 5000)),
        .number("minScale", "1", 0.86, "card scale at commitProgress", min: 0, inclusive: false, max: 1, domain: .linear(0.5, 1)),
        .number("cardX", "pt", 20, "dismissed card frame x", min: -10_000, max: ParameterSpec.maxLength, domain: .linear(-1000, 2000, tuning: false)),
        .number("cardY", "pt", 160, "dismissed card frame y", min: -10_000, max: ParameterSpec.maxLength, domain: .linear(-1000, 2000, tuning: false)),
        .number("cardWidth", "pt", 350, "dismissed card frame width", min: 0, inclusive: false, max: ParameterSpec.maxLength, domain: .contentLength),
        .number("cardHeight", "pt", 420, "dismissed card frame height", min: 0, inclusive: false, max: ParameterSpec.maxLength, domain: .contentLength),
        .text("releaseVelocity", "rest", ["rest", "finger"], "the card spring starts at rest, or with the frame's velocity at release (the finger's)"),
    ]
    /// `dismiss` or `keep`.
    public static let decisionLabels = [DecisionLabels(positive: .dismiss, negative: .keep)]

    /// The model of resolved parameter values in `scene`.
    ///
    /// - Throws: ``PresetError`` naming the parameter when the spring is out of range.
    public init(values: ParameterValues, scene: Scene) throws(PresetError) {
        let n = values.number
        self.init(spring: try Self.spring(values), edgeWidth: n("edgeWidth"), dismissDistance: n("dismissDistance"), contentOffset: n("contentOffset"),
                  commitProgress: n("commitProgress"), flickVelocity: n("flickVelocity"), minScale: n("minScale"),
                  cardFrame: Rect(x: n("cardX"), y: n("cardY"), width: n("cardWidth"), height: n("cardHeight")),
                  carriesVelocity: values["releaseVelocity"] == .text("finger"), scene: scene)
    }
}
#endif

/// The per-frame engine of ``CardDismiss`` an app drives: add touch samples as they arrive, ask
/// for the card's frame at each display frame. The decision comes at the first frame past
/// `commitProgress`, else at the frame that first sees the lift row.
public struct CardDismissEngine: TouchEngine {
    /// The model the engine runs.
    public let model: CardDismiss
    /// The touch samples given so far.
    public private(set) var input = TouchInput()
    /// `dismiss` or `keep`, from the deciding frame on; nil before.
    public private(set) var decision: TraceIntent?
    /// Time of the decision frame.
    public private(set) var decisionTime: Double?
    /// Reference §8 displacement of the card spring: (u − 1)·L (0 before the decision).
    public private(set) var displacement = 0.0
    private var start = Rect(x: 0, y: 0, width: 0, height: 0), target = Rect(x: 0, y: 0, width: 0, height: 0)
    private var travel = 0.0
    /// The progress u of the card from `start` (0) to `target` (1).
    private var spring: Simulation?
    /// Set when this gesture grabbed a moving card: the gesture progress of the grabbed frame,
    /// the previous gesture's axis (true: an edge pan), and the grabbed frame minus the drag
    /// path's frame at that progress (each edge, pt), fading on the model's spring.
    private var grabbed: (progress: Double, edgePan: Bool, excess: Rect, fade: GrabFade)?

    /// The card at one frame: its frame, the frame it heads for, and the frame's rate of change.
    public struct Frame: EngineFrame {
        /// The card's frame (pt).
        public var frame: Rect
        /// Where the card heads: the frame itself while dragged, then the spring's target (pt).
        public var target: Rect
        /// The frame's rate of change (pt/s).
        public var velocity: FrameVelocity
        init(_ frame: Rect, _ target: Rect, _ velocity: FrameVelocity) { self.frame = frame; self.target = target; self.velocity = velocity }
        /// The frame's edges: left, right, top, bottom.
        public var shown: [Double] { frame.edges }
        /// Every number of the frame: what is shown, then targets and velocities.
        public var values: [Double] { frame.edges + target.edges + [velocity.x, velocity.y, velocity.width, velocity.height] }
    }

    /// An engine for `model` at rest; without `presentsDragVelocity`, frames present 0 velocity
    /// while the finger is down (``TouchInput/presentsDragVelocity``: a measurement reading positions only).
    public init(model: CardDismiss, presentsDragVelocity: Bool) {
        self.model = model
        input = TouchInput(presentsDragVelocity: presentsDragVelocity)
    }

    /// Sends the card toward the frame `newTarget` from time t (s), Reference §7.8: the spring
    /// starts again on u from the frame shown then (u = 0) to `newTarget` (u = 1), with the rate
    /// u̇ = (ḟ · d)/(d · d) that keeps the frame's velocity ḟ along the new path d = newTarget −
    /// frame (its part across the path cannot be kept by one spring). Nothing before the decision;
    /// a t before the last frame's counts as that frame's time.
    public mutating func retarget(_ newTarget: Rect, at t: Double) {
        guard let current = spring else { return }
        let t = max(t, current.time)
        let shown = self.frame(at: t), frame = shown.frame
        (start, target) = (frame, newTarget)
        travel = zip(start.edges, target.edges).map { abs($1 - $0) }.max() ?? 0
        spring = Simulation(spring: model.spring, position: 0, velocity: Self.rate(shown.velocity, from: frame, to: newTarget), target: 1, time: t)
    }

    /// The rate u̇ (1/s) of a frame moving at `velocity` along the path from `frame` (u = 0) to
    /// `target` (u = 1): u̇ = (ḟ · d)/(d · d), d = target − frame, the part of ḟ along the path.
    static func rate(_ velocity: FrameVelocity, from frame: Rect, to target: Rect) -> Double {
        let d = zip(target.edges, frame.edges).map { $0 - $1 }
        let dd = d.reduce(0) { $0 + $1 * $1 }
        return dd > 0 ? zip(velocity.edges, d).reduce(0) { $0 + $1.0 * $1.1 } / dd : 0
    }

    /// A new gesture that grabs the card where this engine presents it at time t (s), Reference
    /// §7.8. A card that has moved is taken at the gesture progress of its frame's scale,
    /// p₀ = (1 − width/W)/(1 − minScale)·commitProgress, and the new gesture adds its
    /// translation along the previous gesture's axis over `dismissDistance` (no `contentOffset`
    /// dead zone: the card is already in hand). The frame shown is the drag path's frame at p
    /// plus what the grabbed frame differed from the path's at p₀, fading on the model's spring: 0 for
    /// a card returning to full screen (it stays centred), the way off the path for a card
    /// flying to its place in the list. A card never touched, or back at rest on the full
    /// screen (every edge within ε, moving less than ε a frame), gives a fresh engine.
    public func interrupted(at t: Double) -> CardDismissEngine {
        var next = CardDismissEngine(model: model)
        guard input.first != nil else { return next }
        var previous = self
        let shown = previous.frame(at: t), f = shown.frame, rate = shown.velocity
        let resting = previous.decision != nil
            && zip(zip(f.edges, model.screen.edges), rate.edges).allSatisfy { model.scene.isAtRest(distance: $0.0 - $0.1, speed: $1) }
        guard !resting else { return next }
        let p0 = model.minScale < 1 ? max(0, 1 - f.width / model.scene.width) / (1 - model.minScale) * model.commitProgress : 0
        let path = model.frame(progress: p0)
        let excess = Rect(x: f.x - path.x, y: f.y - path.y, width: f.width - path.width, height: f.height - path.height)
        next.grabbed = (p0, isEdgePan, excess, GrabFade(spring: model.spring, at: t))
        return next
    }

    /// The frame shown at gesture progress p and time t, with its rate while dragging: the drag
    /// path's frame plus a grabbed card's fading excess.
    private func dragFrame(progress p: Double, at t: Double) -> (frame: Rect, velocity: FrameVelocity) {
        let f = model.frame(progress: p), v = dragVelocity(progress: p, at: t)
        guard let grabbed else { return (f, v) }
        let (a, rate) = grabbed.fade.share(at: t), e = grabbed.excess
        return (Rect(x: f.x + e.x * a, y: f.y + e.y * a, width: f.width + e.width * a, height: f.height + e.height * a),
                FrameVelocity(x: v.x + e.x * rate, y: v.y + e.y * rate, width: v.width + e.width * rate, height: v.height + e.height * rate))
    }

    /// Gives the engine the next touch sample (in time order).
    public mutating func add(_ sample: TouchSample) { input.add(sample) }

    /// True when the touch began within `edgeWidth` of the left edge (an edge pan).
    public var isEdgePan: Bool { grabbed?.edgePan ?? input.isEdgePan(edgeWidth: model.edgeWidth) }

    /// Gesture progress p of the latest sample: the translation over `dismissDistance`, where a
    /// drag down counts only past the content's top (y − y₀ − contentOffset) and an edge pan
    /// counts x − x₀; a grabbed card (``interrupted(at:)``) adds the translation to its grab progress.
    public var progress: Double {
        guard let first = input.first, let latest = input.latest else { return grabbed?.progress ?? 0 }
        let along = isEdgePan ? latest.x - first.x : latest.y - first.y
        guard let grabbed else { return max(0, isEdgePan ? along : along - model.contentOffset) / model.dismissDistance }
        return max(0, grabbed.progress + along / model.dismissDistance)
    }

    /// The finger's velocity along the gesture's axis (pt/s) in the frame at time t: while down
    /// (0 once no sample has come for 40 ms), and the release velocity once lifted.
    func fingerSpeed(at t: Double) -> Double {
        let v = input.velocity(model.scene.estimator, at: t)
        return isEdgePan ? v.x : v.y
    }

    /// The frame's rate of change while dragging: where the frame scales (0 < p < commitProgress,
    /// the translation past the content's top), ds/dt = −(1 − minScale)/commitProgress · v/L,
    /// so d(width)/dt = W·ds/dt and the origin moves by half of the size's rate the other way.
    func dragVelocity(progress p: Double, at t: Double) -> FrameVelocity {
        guard p > 0, p < model.commitProgress, input.first != nil else { return .zero }
        let ds = -(1 - model.minScale) / model.commitProgress * fingerSpeed(at: t) / model.dismissDistance
        let w = model.scene.width * ds, h = model.scene.height * ds
        return FrameVelocity(x: -w / 2, y: -h / 2, width: w, height: h)
    }

    /// The card's frame, where it is heading, and the frame's rate of change, at time t.
    public mutating func frame(at t: Double) -> Frame {
        if decision == nil {
            let p = progress
            let committed = p >= model.commitProgress
            let shown = dragFrame(progress: p, at: t)
            guard committed || input.isLifted else { return Frame(shown.frame, shown.frame, shown.velocity) }
            decision = committed || fingerSpeed(at: t) >= model.flickVelocity ? .dismiss : .keep
            decisionTime = t
            start = shown.frame
            target = decision == .dismiss ? model.cardFrame : model.screen
            travel = zip(start.edges, target.edges).map { abs($1 - $0) }.max() ?? 0
            let rate = model.carriesVelocity ? Self.rate(shown.velocity, from: start, to: target) : 0
            spring = Simulation(spring: model.spring, position: 0, velocity: rate, target: 1, time: t)
        }
        var s = spring!
        s.advance(to: t)
        spring = s
        displacement = s.displacement * travel
        return Frame(Rect.lerp(start, target, s.position), target, .along(start, target, rate: s.velocity))
    }
}

extension CardDismissEngine.Frame: FrameRates {
    /// The frame's edges (left, right, top, bottom) with their rates.
    var rates: [(value: Double, rate: Double)] { zip(frame.edges, velocity.edges).map { ($0, $1) } }
}
