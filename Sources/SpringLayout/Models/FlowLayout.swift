import SpringCore

/// Where a flow layout's scroll view starts (Reference §5).
public enum InitialOffset: Hashable, Sendable {
    /// Offset 0: the first row at the top of the viewport.
    case top
    /// The last row at the bottom of the viewport (offset M = content − viewport height).
    case bottom
    /// Halfway, M/2.
    case middle
    /// Per trace: the top when the finger's net drag is downward (pulling past the top edge), else the bottom.
    case auto
    /// This offset, in pt.
    case value(Double)
}

/// `flow-layout` (Reference §7.1): a list of n rows whose content positions are attached by springs
/// to anchors, driven by the scroll view. Boundary stretch (Evernote) opens gaps between rows
/// pulled past an edge; scroll lag (Messages) makes rows far from the finger trail behind it.
public struct FlowLayout: EngineNumbers {
    /// The spring that attaches each row to its anchor.
    public let spring: SpringParameters
    /// Boundary stretch: each row's gap grows by overscroll / boundaryResistance (1; 0 = off).
    public let boundaryResistance: Double
    /// Scroll lag: a row lags by its distance from the touch / scrollResistance (pt; 0 = off).
    public let scrollResistance: Double
    /// n rows of height h spaced s apart.
    public let itemCount: Int, itemHeight: Double, itemSpacing: Double
    /// Where the scroll view starts.
    public let initialOffset: InitialOffset
    /// The scroll view the rows live in: content of n rows, the scene's height as viewport.
    public let scrollView: ScrollView
    /// The screen and clock the model runs in.
    public let scene: Scene

    /// The model of its numbers: the row spring, boundary stretch and scroll lag, `itemCount`
    /// rows of `itemHeight` spaced `itemSpacing` apart (pt), where the scroll view starts and the
    /// scroll view's rubber band, deceleration rate (per ms) and edge bounce, with the scene's
    /// height as its viewport (a preset's values go through ``init(values:scene:)``).
    ///
    /// - Throws: ``/SpringCore/SpringError`` when `itemCount` is not 1…``maxItemCount`` or the
    ///   scroll view's values are out of range.
    public init(spring: SpringParameters, boundaryResistance: Double, scrollResistance: Double, itemCount: Int, itemHeight: Double,
                itemSpacing: Double, initialOffset: InitialOffset, rubberBand: Double, decelerationRate: Double, bounce: SpringParameters,
                scene: Scene) throws(SpringError) {
        guard (1...Self.maxItemCount).contains(itemCount) else { throw .outOfRange("itemCount", Double(itemCount), "must be from 1 to 10000") }
        (self.spring, self.scene, self.boundaryResistance, self.scrollResistance) = (spring, scene, boundaryResistance, scrollResistance)
        (self.itemCount, self.itemHeight, self.itemSpacing, self.initialOffset) = (itemCount, itemHeight, itemSpacing, initialOffset)
        restingCenters = (0..<itemCount).map { i in itemHeight / 2 + Double(i) * (itemHeight + itemSpacing) }
        let content = Double(itemCount) * itemHeight + Double(itemCount - 1) * itemSpacing
        scrollView = try ScrollView(contentHeight: content, viewportHeight: scene.height, rubberBand: rubberBand,
                                    decelerationRate: decelerationRate, bounce: bounce)
    }

    /// The most rows the numbers may ask for (what a preset may: `itemCount` ≤ 10,000).
    public static let maxItemCount = 10_000

    /// The row spring, then boundaryResistance, scrollResistance, itemCount, itemHeight,
    /// itemSpacing, where the scroll view starts (the index in top, bottom, middle, auto, an
    /// offset, then that offset in pt or 0), rubberBand, decelerationRate and the edge bounce
    /// spring's frequency and damping ratio (Reference §15).
    public var numbers: [Double] {
        let start: [Double] = switch initialOffset {
        case .top: [0, 0]
        case .bottom: [1, 0]
        case .middle: [2, 0]
        case .auto: [3, 0]
        case let .value(d): [4, d]
        }
        return spring.numbers + [boundaryResistance, scrollResistance, Double(itemCount), itemHeight, itemSpacing] + start
            + [scrollView.rubberBand, scrollView.decelerationRate] + scrollView.bounce.numbers
    }

    /// The model of ``numbers`` in `scene` (nil when they make none, or ask for more than
    /// ``maxItemCount`` rows).
    public init?(numbers: [Double], scene: Scene) {
        var r = NumberReader(numbers)
        guard let spring = r.spring(), let boundary = r.number(), let lag = r.number(), let n = r.integer(in: 1...Self.maxItemCount),
              let h = r.number(), let gap = r.number(), let kind = r.index(count: 5), let offset = r.number(),
              let band = r.number(), let rate = r.number(), let bounce = r.spring(), r.isAtEnd else { return nil }
        let start: InitialOffset = [.top, .bottom, .middle, .auto, .value(offset)][kind]
        guard let model = try? FlowLayout(spring: spring, boundaryResistance: boundary, scrollResistance: lag, itemCount: n, itemHeight: h,
                                          itemSpacing: gap, initialOffset: start, rubberBand: band, decelerationRate: rate, bounce: bounce,
                                          scene: scene) else { return nil }
        self = model
    }

    /// Resting content y of row i: cᵢ = h/2 + i(h + s).
    @inlinable public func restingCenter(_ i: Int) -> Double { itemHeight / 2 + Double(i) * (itemHeight + itemSpacing) }
    /// cᵢ for every row.
    public let restingCenters: [Double]

    /// Initial displayed offset for a trace.
    public func initialOffset(for trace: Trace) -> Double {
        let m = scrollView.maxOffset
        switch initialOffset {
        case .top: return 0
        case .bottom: return m
        case .middle: return m / 2
        case let .value(d): return d
        case .auto:
            let p = trace.positionSamples
            let net = (p.last?.y ?? 0) - (p.first?.y ?? 0)
            return net >= 0 ? 0 : m
        }
    }

    /// Anchors aᵢ for a displayed offset o (Reference §7.1).
    func anchors(_ o: Double, into anchors: inout [Double]) {
        let n = itemCount, m = scrollView.maxOffset
        restingCenters.withUnsafeBufferPointer { c in
            anchors.withUnsafeMutableBufferPointer { a in
                if boundaryResistance > 0 && o < 0 {
                    let delta = -o, g = delta / boundaryResistance
                    for i in 0..<n { a[i] = c[i] + g * Double(i + 1) - delta }
                } else if boundaryResistance > 0 && o > m {
                    let delta = o - m, g = delta / boundaryResistance
                    for i in 0..<n { a[i] = c[i] - g * Double(n - i) + delta }
                } else {
                    for i in 0..<n { a[i] = c[i] }
                }
            }
        }
    }
}

#if !hasFeature(Embedded)
extension InitialOffset {
    init(_ v: ParamValue) throws(PresetError) {
        switch v {
        case let .number(d): self = .value(d)
        case .text("top"): self = .top
        case .text("bottom"): self = .bottom
        case .text("middle"): self = .middle
        case .text("auto"): self = .auto
        case let .text(s): throw PresetError(path: "params.initialOffset", message: "'\(s)' is not top, bottom, middle, auto or a number")
        }
    }
}

/// The model as presets name and check it (the native build: the WebAssembly build is handed
/// the numbers, Reference §15).
extension FlowLayout: InteractionModel {
    /// The model's name in presets: `flow-layout`.
    public static let modelName = "flow-layout"
    /// The per-frame engine an app drives.
    public typealias Engine = FlowLayoutTouchEngine

    /// The row spring (`frequency` Hz, `damping`), then the list's and scroll view's parameters with their units, defaults and ranges.
    public static let parameters: [ParameterSpec] = ParameterSpec.springSpecs(frequency: 1, damping: 1) + [
        .number("boundaryResistance", "1", 10, "gap growth: g = overscroll / boundaryResistance per row; 0 = off", min: 0, domain: .log(1, 50)),
        .number("scrollResistance", "pt", 0, "scroll lag: rows lag by distance-from-touch / scrollResistance; 0 = off", min: 0, max: ParameterSpec.maxLength, domain: .log(50, 10_000)),
        .number("itemCount", "rows", 30, "number of rows n", min: 1, max: 10_000, domain: .log(1, 1000, tuning: false)),
        .number("itemHeight", "pt", 44, "row height h", min: 0, inclusive: false, max: ParameterSpec.maxLength, domain: .contentLength),
        .number("itemSpacing", "pt", 10, "spacing s between rows", min: 0, max: ParameterSpec.maxLength, domain: .linear(0, 100, tuning: false)),
        ParameterSpec("initialOffset", "pt", .text("auto"), "top, bottom, middle, auto, or an offset in pt",
                      domain: .words(["auto", "top", "middle", "bottom"], tuning: false)) { v in
            do throws(PresetError) { _ = try InitialOffset(v); return nil } catch { return error.message }
        },
        .number("rubberBand", "1", 0.55, "rubber-band coefficient c", min: 0, inclusive: false, max: 100, domain: .log(0.1, 2)),
        .number("decelerationRate", "per ms", 0.998, "scroll deceleration rate r", min: 0, inclusive: false, max: 1, maxInclusive: false, domain: .linear(0.98, 0.9995)),
        .number("bounceStiffness", "1/s²", 100, "edge bounce spring stiffness (unit mass)", min: 0, inclusive: false, max: 1e8, domain: .log(10, 10_000)),
        .number("bounceDampingRatio", "ratio", 1, "edge bounce damping ratio (≥ 1)", min: 1, max: SpringSpec.maxDamping, domain: .linear(1, 3)),
    ]

    /// The model of resolved parameter values in `scene`.
    ///
    /// - Throws: ``PresetError`` naming the parameter when a value is out of range (the spring, `initialOffset`, the scroll view's).
    public init(values: ParameterValues, scene: Scene) throws(PresetError) {
        let (spring, n) = (try values.spring(), values.number)
        let start = try InitialOffset(values["initialOffset"] ?? .text("auto"))
        do {
            try self.init(spring: spring, boundaryResistance: n("boundaryResistance"), scrollResistance: n("scrollResistance"),
                          itemCount: Int(n("itemCount")), itemHeight: n("itemHeight"), itemSpacing: n("itemSpacing"), initialOffset: start,
                          rubberBand: n("rubberBand"), decelerationRate: n("decelerationRate"), bounce: try Self.bounce(values), scene: scene)
        } catch {
            throw PresetError(path: "params", message: error.description)
        }
    }

    /// The scroll view's edge bounce spring: stiffness k = bounceStiffness (unit mass),
    /// damping coefficient c = 2·bounceDampingRatio·√k.
    static func bounce(_ values: ParameterValues) throws(SpringError) -> SpringParameters {
        try SpringParameters(stiffness: values.number("bounceStiffness"),
                             dampingCoefficient: 2 * values.number("bounceDampingRatio") * values.number("bounceStiffness").squareRoot())
    }

    /// The model with `initialOffset` settled for `trace`: the offset ``initialOffset(for:)`` picks.
    public func running(_ trace: Trace) -> FlowLayout {
        (try? FlowLayout(spring: spring, boundaryResistance: boundaryResistance, scrollResistance: scrollResistance, itemCount: itemCount,
                         itemHeight: itemHeight, itemSpacing: itemSpacing, initialOffset: .value(initialOffset(for: trace)),
                         rubberBand: scrollView.rubberBand, decelerationRate: scrollView.decelerationRate, bounce: scrollView.bounce,
                         scene: scene)) ?? self
    }

    /// The cell spring, then the scroll view's edge bounce.
    public static var springGroups: [SpringGroup] {
        [.main(of: Self.self), SpringGroup(name: "bounce", parameterNames: ["bounceStiffness", "bounceDampingRatio"]) { values throws(PresetError) in
            do throws(SpringError) { return try bounce(values) } catch { throw PresetError(path: "params", message: error.description) }
        }]
    }
}
#endif

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
    /// Time of the frame that first saw the lift row (s): the release motion starts there, as
    /// every engine's release starts at the frame that sees the lift (Reference §6).
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

    /// Takes the next sample: the touch-down starts the scroll driver at the offset shown; the
    /// first frame that sees the lift starts the release motion with the finger's release
    /// velocity (Reference §4).
    public mutating func add(_ sample: TouchSample) {
        input.add(sample)
        guard let latest = input.latest, driver == nil else { return }
        let start = ScrollDriver(view: model.scrollView, offset: Self.withinReach(rows.offset, of: model.scrollView), touchDownY: latest.y)
        driver = start
        excess = GrabExcess(amount: rows.offset - start.offset(touchY: latest.y), fade: GrabFade(spring: model.scrollView.bounce, at: latest.t))
    }

    /// The displayed offset at time t: the finger's while down, the release motion from the
    /// frame that first sees the lift, and where the rows were left before any touch.
    mutating func offset(at t: Double) -> Double {
        guard let latest = input.latest else { return rows.offset }
        if latest.phase.isLift, liftTime == nil {
            driver?.lift(touchY: latest.y, velocityY: input.releaseVelocity(model.scene.estimator).y)
            liftTime = t
        }
        guard let driver else { return rows.offset }
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

/// The per-frame engine of ``FlowLayout`` an app drives (a `UICollectionViewFlowLayout`
/// subclass calls it from its display link): give it the scroll view's offset and the finger's
/// screen y each frame; read every row's content position, velocity and anchor.
public struct FlowLayoutEngine: Sendable {
    /// The model the engine runs.
    public let layout: FlowLayout
    /// Content y of each row pᵢ (pt).
    public private(set) var positions: [Double]
    /// Each row's spring velocity dpᵢ/dt (pt/s).
    public private(set) var velocities: [Double]
    /// Each row's anchor aᵢ, where its spring pulls it (content y, pt).
    public private(set) var anchors: [Double]
    /// The displayed scroll offset of the last frame.
    public private(set) var offset: Double
    private var previousAnchors: [Double]
    private var step: SpringStep
    private var interval: Double

    /// Rows at rest at their anchors for a displayed offset (Reference §7.1, frame 0).
    public init(layout: FlowLayout, offset: Double) {
        self.layout = layout
        self.offset = offset
        anchors = [Double](repeating: 0, count: layout.itemCount)
        layout.anchors(offset, into: &anchors)
        positions = anchors
        previousAnchors = anchors
        velocities = [Double](repeating: 0, count: layout.itemCount)
        interval = 1 / layout.scene.frameRate
        step = SpringStep(spring: layout.spring, dt: interval)
    }

    /// Screen y of row i (pᵢ − o).
    public func screenY(_ i: Int) -> Double { positions[i] - offset }

    /// One frame, in Reference §7.1's order: (1) springs step `interval` toward the previous frame's
    /// anchors; (2)–(3) the new offset sets the anchors; (4) the scroll carries the rows (the
    /// overscrolled part pins them for boundary stretch; scroll lag uses each row's distance
    /// from the finger's content y, `touchY` + offset, after its spring step). A row moves only
    /// by a non-zero carry (adding 0 would only turn a −0 position into +0; the batched sweep
    /// skips frames with nothing to carry and relies on this).
    public mutating func advance(to o: Double, touchY: Double, interval dt: Double? = nil) {
        let n = layout.itemCount, m = layout.scrollView.maxOffset
        if let dt, dt != interval {
            interval = dt
            step = SpringStep(spring: layout.spring, dt: dt)
        }
        swap(&anchors, &previousAnchors)
        // Work on locals (moved out and back) so the loops run without per-element checks.
        var p = positions, v = velocities
        positions = []; velocities = []
        defer { positions = p; velocities = v }
        let s = step
        previousAnchors.withUnsafeBufferPointer { a in
            for i in 0..<n {
                let x = p[i] - a[i]
                p[i] = a[i] + s.xx * x + s.xv * v[i]
                v[i] = s.vx * x + s.vv * v[i]
            }
        }
        layout.anchors(o, into: &anchors)
        let dIn = min(max(o, 0), m) - min(max(offset, 0), m)
        let dPin = (o - offset) - dIn
        let stretch = layout.boundaryResistance > 0, lag = layout.scrollResistance > 0
        if stretch || lag {
            let touch = TouchInput.clamp(touchY) + o
            for i in 0..<n {
                var carry = stretch ? dPin : 0
                if lag { carry += dIn * min(1, abs(touch - p[i]) / layout.scrollResistance) }
                if carry != 0 { p[i] += carry }
            }
        }
        offset = o
    }
}

extension FlowLayoutTouchEngine.Frame: FrameRates {
    /// Each row's content position pᵢ (its screen y + o) with its spring velocity dpᵢ/dt: the
    /// rate of pᵢ while the offset holds still (the scroll carries rows without a spring velocity).
    var rates: [(value: Double, rate: Double)] { zip(rows, velocities).map { ($0 + offset, $1) } }
}
