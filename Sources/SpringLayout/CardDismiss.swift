import Foundation
import SpringCore

/// A rectangle in screen points.
public struct Rect: Hashable, Sendable {
    public var x: Double, y: Double, width: Double, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) { self.x = x; self.y = y; self.width = width; self.height = height }

    /// Left, right, top and bottom edges.
    public var edges: [Double] { [x, x + width, y, y + height] }

    /// Component-wise interpolation: a + (b − a)·u.
    public static func lerp(_ a: Rect, _ b: Rect, _ u: Double) -> Rect {
        Rect(x: a.x + (b.x - a.x) * u, y: a.y + (b.y - a.y) * u, width: a.width + (b.width - a.width) * u, height: a.height + (b.height - a.height) * u)
    }
}

/// `card-dismiss` (SPEC §6.3, the App Store "Today" card detail): dragging down (or panning
/// from the left edge) shrinks the full-screen card; past `commitProgress` it commits to
/// dismiss at once, else a flick decides at release. A spring (response, dampingRatio) then
/// takes the card to its place in the list (dismiss) or back to full screen (keep).
public struct CardDismiss: InteractionModel {
    public static let modelName = "card-dismiss"
    public static let springParameterNames = ["response", "dampingRatio"]
    public static let parameters: [ParameterSpec] = [
        .number("response", "s", 0.6, "spring response (ω = 2π/response)", min: 0, inclusive: false),
        .number("dampingRatio", "ratio", 0.7, "spring damping ratio", min: 0),
        .number("edgeWidth", "pt", 20, "a touch starting this close to the left edge is an edge pan", min: 0),
        .number("dismissDistance", "pt", 333, "translation for progress 1", min: 0, inclusive: false),
        .number("commitProgress", "1", 0.3, "progress that commits the dismissal while dragging", min: 0, inclusive: false),
        .number("flickVelocity", "pt/s", 800, "release velocity along the gesture that dismisses", min: 0),
        .number("minScale", "1", 0.86, "card scale at commitProgress", min: 0, inclusive: false, max: 1),
        .number("cardX", "pt", 20, "dismissed card frame x", min: -10_000),
        .number("cardY", "pt", 160, "dismissed card frame y", min: -10_000),
        .number("cardWidth", "pt", 350, "dismissed card frame width", min: 0, inclusive: false),
        .number("cardHeight", "pt", 420, "dismissed card frame height", min: 0, inclusive: false),
    ]
    public static let metricNames = ["overshoot_pt", "overshoot_ratio", "settle_time", "decision_time"]

    public static func springValues(_ s: SpringParameters) -> [String: ParamValue] {
        ["response": .number(s.response), "dampingRatio": .number(s.damping)]
    }

    public static func spring(_ values: ParameterValues) throws(PresetError) -> SpringParameters {
        do {
            return try SpringParameters(response: values.number("response"), dampingRatio: values.number("dampingRatio"))
        } catch {
            throw PresetError(path: "spring", message: error.description)
        }
    }

    public let spring: SpringParameters
    public let edgeWidth: Double, dismissDistance: Double, commitProgress: Double, flickVelocity: Double, minScale: Double
    public let cardFrame: Rect
    public let scene: Scene

    public init(values: ParameterValues, scene: Scene) throws(PresetError) {
        spring = try Self.spring(values)
        edgeWidth = values.number("edgeWidth")
        dismissDistance = values.number("dismissDistance")
        commitProgress = values.number("commitProgress")
        flickVelocity = values.number("flickVelocity")
        minScale = values.number("minScale")
        cardFrame = Rect(x: values.number("cardX"), y: values.number("cardY"), width: values.number("cardWidth"), height: values.number("cardHeight"))
        self.scene = scene
    }

    public var preparationKey: [Double] { [] }
    public func prepare(_ trace: Trace) -> TraceFrames { TraceFrames(trace: trace, scene: scene) }

    var screen: Rect { Rect(x: 0, y: 0, width: scene.width, height: scene.height) }

    /// The full-screen frame scaled about its centre for progress p.
    public func frame(progress p: Double) -> Rect {
        let s = 1 - (1 - minScale) * min(p / commitProgress, 1)
        let w = scene.width * s, h = scene.height * s
        return Rect(x: (scene.width - w) / 2, y: (scene.height - h) / 2, width: w, height: h)
    }

    public func run(_ prep: TraceFrames, timeline: Bool) -> TraceRun {
        let s = prep.trace.samples, clock = prep.clock, r = clock.releaseFrame
        let edgePan = s[0].x <= edgeWidth
        func progress(_ k: Int) -> Double {
            let p = prep.input(k)
            return max(0, edgePan ? p.x - s[0].x : p.y - s[0].y) / dismissDistance
        }
        var rows: [TimelineRow] = []
        func emit(_ k: Int, _ f: Rect, _ target: Rect, _ du: Double, _ start: Rect) {
            guard timeline else { return }
            rows.append(TimelineRow(t: clock.time(k) - clock.t0, item: 0, y: f.y, anchor: target.y, velocity: du * (target.y - start.y)))
            rows.append(TimelineRow(t: clock.time(k) - clock.t0, item: 1, y: f.height, anchor: target.height, velocity: du * (target.height - start.height)))
        }
        // The decision: the first frame past commitProgress, else a flick at release.
        var decisionFrame = r, dismiss = false
        for k in 0...r {
            if progress(k) >= commitProgress { decisionFrame = k; dismiss = true; break }
            if k < r { emit(k, frame(progress: progress(k)), frame(progress: progress(k)), 0, frame(progress: progress(k))) }
        }
        if !dismiss {
            let v = edgePan ? prep.velocity.x : prep.velocity.y
            dismiss = v >= flickVelocity
        }
        let start = frame(progress: progress(decisionFrame))
        let target = dismiss ? cardFrame : screen
        let travel = zip(start.edges, target.edges).map { abs($1 - $0) }.max() ?? 0
        let m = DecisionSpring(spring: spring, clock: clock, from: decisionFrame, last: decisionFrame + scene.tailFrames, tolerance: scene.tolerance)
            .run(x0: SIMD2(-1, 0), v0: .zero, displacement: { $0.x * travel }, distance: { abs($0.x * travel) },
                 visit: { k, x, v in emit(k, Rect.lerp(start, target, 1 + x.x), target, v.x, start) })
        return TraceRun(metrics: [m.overshootPt, m.overshootRatio, m.settleTime, Double(decisionFrame) / clock.frameRate],
                        unsettled: m.unsettled, decision: dismiss ? .dismiss : .keep, timeline: rows)
    }
}
