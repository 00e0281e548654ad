import Foundation
import SpringCore

/// The fold of a Clear-style new row (SPEC §6.4): a row of height `rowHeight` shown at height
/// h as two halves folded by θ = acos(h / rowHeight), standing out by z = (rowHeight/2)·sin θ.
/// The ratio is clamped to [0, 1], so θ and z are defined (never NaN) for every h.
public struct Fold: Hashable, Sendable {
    /// Fold angle θ in radians (0 = flat, π/2 = closed).
    public var angle: Double
    /// Depth z of the fold (pt).
    public var depth: Double

    public init(height: Double, rowHeight: Double) {
        let ratio = rowHeight > 0 && !height.isNaN ? min(1, max(0, height / rowHeight)) : 0
        angle = acos(ratio)
        depth = rowHeight / 2 * sin(angle)
    }
}

/// `pull-to-create` (SPEC §6.4, Clear): pulling a list down at its top unfolds a new row; at
/// release it is created when unfolded to `commitFraction`, and a spring opens it fully or
/// folds it away.
public struct PullToCreate: InteractionModel {
    public static let modelName = "pull-to-create"
    public static let parameters: [ParameterSpec] = ParameterSpec.springSpecs(frequency: 2.5, damping: 0.8) + [
        .number("rowHeight", "pt", 60, "height of the new row", min: 0, inclusive: false),
        .number("commitFraction", "1", 0.75, "create when hᵣ/rowHeight ≥ commitFraction at release", min: 0, max: 1),
    ]
    public static let metricNames = ["overshoot_pt", "overshoot_ratio", "settle_time"]

    public let spring: SpringParameters
    public let rowHeight: Double
    public let commitFraction: Double
    public let scene: Scene

    public init(values: ParameterValues, scene: Scene) throws(PresetError) {
        spring = try Self.spring(values)
        rowHeight = values.number("rowHeight")
        commitFraction = values.number("commitFraction")
        self.scene = scene
    }

    public var preparationKey: [Double] { [] }
    public func prepare(_ trace: Trace) -> TraceFrames { TraceFrames(trace: trace, scene: scene) }

    /// The decision on the pull P (pt) at release.
    public func creates(pull: Double) -> Bool { min(max(0, pull), rowHeight) / rowHeight >= commitFraction }

    public func run(_ prep: TraceFrames, timeline: Bool) -> TraceRun {
        let s = prep.trace.samples, clock = prep.clock, r = clock.releaseFrame
        var rows: [TimelineRow] = []
        func emit(_ k: Int, _ h: Double, _ target: Double, _ v: Double) {
            guard timeline else { return }
            let t = clock.time(k) - clock.t0
            rows.append(TimelineRow(t: t, item: 0, y: h, anchor: target, velocity: v))
            rows.append(TimelineRow(t: t, item: 1, y: Fold(height: h, rowHeight: rowHeight).depth,
                                    anchor: Fold(height: target, rowHeight: rowHeight).depth, velocity: 0))
        }
        func pull(_ k: Int) -> Double { max(0, prep.input(k).y - s[0].y) }
        for k in 0..<r { emit(k, min(pull(k), rowHeight), min(pull(k), rowHeight), 0) }
        let p = pull(r), h = min(p, rowHeight)
        let create = creates(pull: p)
        let target = create ? rowHeight : 0
        let v0 = p < rowHeight ? prep.velocity.y : 0
        let m = DecisionSpring(spring: spring, clock: clock, from: r, last: clock.lastFrame, tolerance: scene.tolerance)
            .run(x0: SIMD2(h - target, 0), v0: SIMD2(v0, 0), displacement: { $0.x }, distance: { abs($0.x) },
                 visit: { k, x, v in emit(k, target + x.x, target, v.x) })
        return TraceRun(metrics: [m.overshootPt, m.overshootRatio, m.settleTime], unsettled: m.unsettled,
                        decision: create ? .create : .cancel, timeline: rows)
    }
}
