import SpringCore

/// ``FlowLayout`` as a finger drives it (Reference §5 and §7.1), the shape every engine has
/// (``TouchEngine``): a ``ScrollDriver`` turns the touch into the displayed offset (rubber-banded
/// while down, the exact release motion after the lift) and a ``FlowLayoutEngine`` moves the rows
/// on their springs, one step per frame of the elapsed time. An app that owns its scroll view
/// drives ``FlowLayoutEngine`` directly with the view's offset instead.
public struct FlowLayoutTouchEngine: TouchEngine {
    /// The list at one frame: the displayed offset and every row.
    public struct Frame: EngineFrame {
        /// The displayed scroll offset o (pt).
        public var offset: Double
        /// Each row's screen y, pᵢ − o (pt).
        public var rows: [Double]
        /// Each row's spring velocity (pt/s).
        public var velocities: [Double]
        /// Each row's anchor aᵢ − o on screen (pt).
        public var anchors: [Double]
        /// The rows' screen y.
        public var shown: [Double] { rows }
        /// Every number of the frame: what is shown, then targets and velocities.
        public var values: [Double] { rows + [offset] + velocities + anchors }
    }

    /// The model the engine runs.
    public let model: FlowLayout
    /// The touch samples of this gesture.
    public private(set) var input: TouchInput
    /// The rows and the offset they were last moved to.
    public private(set) var rows: FlowLayoutEngine
    /// The scroll offset's driver, from this gesture's touch-down on; nil before.
    private var driver: ScrollDriver?
    /// Time of the lift row, once it has arrived (s).
    private var liftTime: Double?
    /// Time of the last frame the rows were stepped to (s); nil before the first frame.
    private var frameTime: Double?
    /// The offset shown at touch-down minus the driver's offset there (pt), fading on the scroll
    /// view's bounce spring: 0 but for rounding, except for a list grabbed farther past an edge
    /// than the rubber band reaches (a fast release's bounce can carry it there; the driver starts
    /// within reach, and the rest eases back instead of staying out of bounds).
    private var excess: GrabExcess?

    /// An engine of `model` at rest at the model's initial offset (`auto` starts at the top: a
    /// gesture's direction is not known at touch-down).
    public init(model: FlowLayout, presentsDragVelocity: Bool) {
        self.init(model: model, offset: model.initialOffset(for: Trace(id: "", samples: [])), presentsDragVelocity: presentsDragVelocity)
    }

    /// An engine of `model` at rest with the list displayed at `offset` (pt).
    public init(model: FlowLayout, offset: Double, presentsDragVelocity: Bool = true) {
        self.model = model
        input = TouchInput(presentsDragVelocity: presentsDragVelocity)
        rows = FlowLayoutEngine(layout: model, offset: offset)
    }

    /// Never decides: a list only moves.
    public var decision: TraceIntent? { nil }

    /// Takes the next sample: the touch-down starts the scroll driver at the offset shown, the
    /// lift starts the release motion with the finger's release velocity (Reference §4).
    public mutating func add(_ sample: TouchSample) {
        input.add(sample)
        guard let latest = input.latest else { return }
        if driver == nil {
            let start = ScrollDriver(view: model.scrollView, offset: Self.withinReach(rows.offset, of: model.scrollView), touchDownY: latest.y)
            driver = start
            excess = GrabExcess(amount: rows.offset - start.offset(touchY: latest.y), fade: GrabFade(spring: model.scrollView.bounce, at: latest.t))
        }
        if latest.phase.isLift, liftTime == nil {
            driver?.lift(touchY: latest.y, velocityY: input.releaseVelocity(model.scene.estimator).y)
            liftTime = latest.t
        }
    }

    /// The displayed offset at time t: the finger's while down, the release motion after, and
    /// where the rows were left before any touch.
    func offset(at t: Double) -> Double {
        guard let driver, let latest = input.latest else { return rows.offset }
        let extra = excess?.at(t).value ?? 0
        if let liftTime { return driver.offset(afterRelease: t - liftTime) + extra }
        return driver.offset(touchY: latest.y) + extra
    }

    /// The displayed offset `o` (pt) moved within the rubber band's reach: at most 0.99 V past
    /// either edge (V the viewport height; the rubber band's displayed excess tends to V, whose raw
    /// offset is infinite).
    static func withinReach(_ o: Double, of view: ScrollView) -> Double {
        let reach = 0.99 * view.viewportHeight
        return min(max(o, -reach), view.maxOffset + reach)
    }

    /// The list at time t: the rows stepped by the time since the last frame (no step at the
    /// first frame or a repeated time) toward the anchors of the offset then.
    public mutating func frame(at t: Double) -> Frame {
        let o = offset(at: t), touchY = input.latest?.y ?? 0
        let dt = frameTime.map { max(0, t - $0) } ?? 0
        rows.advance(to: o, touchY: touchY, interval: dt)
        frameTime = max(frameTime ?? t, t)
        return Frame(offset: o, rows: rows.positions.map { $0 - o }, velocities: rows.velocities, anchors: rows.anchors.map { $0 - o })
    }

    /// A new gesture that grabs the list at time t (s): the scroll stops at the offset shown then
    /// (the next touch-down's driver starts there) and the rows keep their springs' motion.
    public func interrupted(at t: Double) -> FlowLayoutTouchEngine {
        var previous = self
        _ = previous.frame(at: t)
        var next = FlowLayoutTouchEngine(model: model, offset: previous.rows.offset, presentsDragVelocity: input.presentsDragVelocity)
        (next.rows, next.frameTime) = (previous.rows, previous.frameTime)
        return next
    }
}
