import Foundation
import SpringCore

/// `flick-dismiss` (SPEC §6.2, Tweetbot's photo viewer): a card follows the finger rigidly; at
/// release it is thrown off screen when it moved far enough, fast enough and in the direction
/// it was thrown, else a 2-D spring snaps it back to the centre.
public struct FlickDismiss: InteractionModel {
    public static let modelName = "flick-dismiss"
    public static let springParameterNames = ["snapFrequency", "snapDamping"]
    public static let parameters: [ParameterSpec] = ParameterSpec.springSpecs(frequency: 1.5, damping: 0.7, names: ("snapFrequency", "snapDamping")) + [
        .number("distanceThreshold", "pt", 60, "dismiss needs |D| > distanceThreshold", min: 0),
        .number("flickVelocity", "pt/s", 800, "dismiss needs |v| ≥ flickVelocity", min: 0),
        .number("maxFlickAngle", "deg", 90, "dismiss needs angle(v, D) ≤ maxFlickAngle", min: 0, max: 180),
        .number("velocityScale", "1", 0.1, "thrown card moves velocityScale·v·τ", min: 0),
        .number("gravity", "1000 pt/s²", 0.2, "thrown card accelerates ½·gravity·1000·v̂·τ²", min: 0),
        .number("cardWidth", "pt", 390, "card width", min: 0, inclusive: false),
        .number("cardHeight", "pt", 292, "card height", min: 0, inclusive: false),
    ]
    public static let metricNames = ["overshoot_pt", "overshoot_ratio", "settle_time", "exit_time"]

    public static func springValues(_ s: SpringParameters) -> [String: ParamValue] {
        ["snapFrequency": .number(s.frequency), "snapDamping": .number(s.damping)]
    }

    public static func spring(_ values: ParameterValues) throws(PresetError) -> SpringParameters {
        try values.spring(frequency: "snapFrequency", damping: "snapDamping")
    }

    public let snap: SpringParameters
    public let distanceThreshold: Double, flickVelocity: Double, maxFlickAngle: Double
    public let velocityScale: Double, gravity: Double
    public let cardSize: SIMD2<Double>
    public let scene: Scene

    public init(values: ParameterValues, scene: Scene) throws(PresetError) {
        snap = try Self.spring(values)
        distanceThreshold = values.number("distanceThreshold")
        flickVelocity = values.number("flickVelocity")
        maxFlickAngle = values.number("maxFlickAngle")
        velocityScale = values.number("velocityScale")
        gravity = values.number("gravity")
        cardSize = SIMD2(values.number("cardWidth"), values.number("cardHeight"))
        self.scene = scene
    }

    public var preparationKey: [Double] { [] }

    public func prepare(_ trace: Trace) -> TraceFrames { TraceFrames(trace: trace, scene: scene) }

    /// The decision rule, on displacement D and release velocity v (pt, pt/s).
    public func dismisses(displacement d: SIMD2<Double>, velocity v: SIMD2<Double>) -> Bool {
        let dl = (d * d).sum().squareRoot(), vl = (v * v).sum().squareRoot()
        let angle = dl == 0 || vl == 0 ? 180 : acos(max(-1, min(1, (d * v).sum() / (dl * vl)))) * 180 / .pi
        return dl > distanceThreshold && vl >= flickVelocity && angle <= maxFlickAngle
    }

    public func run(_ prep: TraceFrames, timeline: Bool) -> TraceRun {
        let s = prep.trace.samples, clock = prep.clock, r = clock.releaseFrame
        let center = SIMD2(scene.width / 2, scene.height / 2)
        let touch0 = SIMD2(s[0].x, s[0].y)
        var rows: [TimelineRow] = []
        func emit(_ k: Int, _ c: SIMD2<Double>, _ v: SIMD2<Double>) {
            guard timeline else { return }
            let t = clock.time(k) - clock.t0
            rows.append(TimelineRow(t: t, item: 0, y: c.y, anchor: center.y, velocity: v.y))
            rows.append(TimelineRow(t: t, item: 1, y: c.x, anchor: center.x, velocity: v.x))
        }
        for k in 0..<r { emit(k, center + SIMD2(prep.input(k).x, prep.input(k).y) - touch0, .zero) }
        let lift = prep.input(r)
        let d = SIMD2(lift.x, lift.y) - touch0
        let v = SIMD2(prep.velocity.x, prep.velocity.y)
        if dismisses(displacement: d, velocity: v) {
            let vHat = v / (v * v).sum().squareRoot()
            var exit: Double?
            for k in r...clock.lastFrame {
                let tau = clock.time(k) - clock.time(r)
                let c = center + d + velocityScale * v * tau + 0.5 * gravity * 1000 * vHat * tau * tau
                emit(k, c, velocityScale * v + gravity * 1000 * vHat * tau)
                let half = cardSize / 2
                if c.x + half.x < 0 || c.x - half.x > scene.width || c.y + half.y < 0 || c.y - half.y > scene.height {
                    exit = tau
                    break
                }
            }
            return TraceRun(metrics: [nil, nil, nil, exit], unsettled: false, decision: .dismiss, timeline: rows)
        }
        let dl = (d * d).sum().squareRoot()
        let axis = dl > 0 ? d / dl : .zero
        let m = DecisionSpring(spring: snap, clock: clock, from: r, last: clock.lastFrame, tolerance: scene.tolerance)
            .run(x0: d, v0: v, displacement: { ($0 * axis).sum() }, distance: { ($0 * $0).sum().squareRoot() },
                 visit: { k, x, vel in emit(k, center + x, vel) })
        return TraceRun(metrics: [m.overshootPt, m.overshootRatio, m.settleTime, nil], unsettled: m.unsettled, decision: .keep, timeline: rows)
    }
}
