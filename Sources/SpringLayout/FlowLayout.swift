import Foundation
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

/// `flow-layout` (Reference §7.1): a list of n rows whose content positions are attached by springs
/// to anchors, driven by the scroll view. Boundary stretch (Evernote) opens gaps between rows
/// pulled past an edge; scroll lag (Messages) makes rows far from the finger trail behind it.
public struct FlowLayout: InteractionModel {
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

    /// The model of resolved parameter values in `scene`.
    ///
    /// - Throws: ``PresetError`` naming the parameter when a value is out of range (the spring, `initialOffset`, the scroll view's).
    public init(values: ParameterValues, scene: Scene) throws(PresetError) {
        (spring, self.scene) = (try values.spring(), scene)
        let n = values.number
        (boundaryResistance, scrollResistance) = (n("boundaryResistance"), n("scrollResistance"))
        (itemCount, itemHeight, itemSpacing) = (Int(n("itemCount")), n("itemHeight"), n("itemSpacing"))
        initialOffset = try InitialOffset(values["initialOffset"] ?? .text("auto"))
        restingCenters = (0..<itemCount).map { [itemHeight, itemSpacing] i in itemHeight / 2 + Double(i) * (itemHeight + itemSpacing) }
        let content = Double(itemCount) * itemHeight + Double(itemCount - 1) * itemSpacing
        do {
            let bounce = try Self.bounce(values)
            scrollView = try ScrollView(contentHeight: content, viewportHeight: scene.height, rubberBand: values.number("rubberBand"),
                                        decelerationRate: values.number("decelerationRate"), bounce: bounce)
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

    /// The cell spring, then the scroll view's edge bounce.
    public static var springGroups: [SpringGroup] {
        [.main(of: Self.self), SpringGroup(name: "bounce", parameterNames: ["bounceStiffness", "bounceDampingRatio"]) { values throws(PresetError) in
            do throws(SpringError) { return try bounce(values) } catch { throw PresetError(path: "params", message: error.description) }
        }]
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

/// Drives a ``ScrollView``'s displayed offset from a touch (Reference §5): rubber-banded while the
/// finger is down, then the exact release motion.
public struct ScrollDriver: Sendable {
    /// The scroll view whose offset the driver moves.
    public let view: ScrollView
    /// The un-rubber-banded initial offset raw₀ (pt).
    public let rawStart: Double
    /// The finger's screen y at touch-down, y₀ (pt).
    public let touchDownY: Double
    /// The release motion, from the lift on; nil while the finger is down.
    public private(set) var release: ScrollRelease?

    /// A driver for `view` displayed at `offset` (pt) when the finger touched down at screen y `touchDownY` (pt).
    public init(view: ScrollView, offset: Double, touchDownY: Double) {
        self.view = view
        rawStart = view.raw(displayed: offset)
        self.touchDownY = TouchInput.clamp(touchDownY)
    }

    /// Displayed offset while the finger is at screen y: R(raw₀ − (y − y₀)) past an edge.
    /// The finger's y is clamped to ±``TouchInput/coordinateLimit`` as in every engine.
    public func offset(touchY y: Double) -> Double { view.displayed(raw: rawStart - (TouchInput.clamp(y) - touchDownY)) }

    /// Lift-off at screen y with the finger's release velocity (pt/s, y down): the content
    /// moves at u = −vy from the offset the finger left it at.
    public mutating func lift(touchY y: Double, velocityY: Double) {
        release = view.release(offset: offset(touchY: y), velocity: -velocityY)
    }

    /// Displayed offset τ seconds after lift-off.
    public func offset(afterRelease tau: Double) -> Double { release?.state(at: tau).offset ?? rawStart }

    /// Where the release motion comes to rest (nil before lift-off).
    public var restOffset: Double? { release?.restOffset }
}
