#if !hasFeature(Embedded)
import Foundation
#endif
import SpringCore

/// A vertical scroll view (Reference §5) as a value: rubber banding while touching, and the exact
/// hybrid release motion (exponential deceleration in bounds, a bounce spring past an edge).
/// Offsets are in points, 0 at the top, M = `maxOffset` at the bottom.
public struct ScrollView: Hashable, Sendable {
    /// Content height C (pt).
    public var contentHeight: Double
    /// Viewport height V (pt).
    public var viewportHeight: Double
    /// Rubber-band coefficient c (dimensionless, 0.55 on iOS).
    public var rubberBand: Double
    /// Deceleration rate r per millisecond (0.998 = UIScrollView normal).
    public var decelerationRate: Double
    /// Spring that pulls an overscrolled offset back to its edge (damping ratio ≥ 1).
    public var bounce: SpringParameters

    /// A scroll view of `contentHeight` (pt) in a viewport of `viewportHeight` (pt), with rubber-band coefficient c, deceleration rate r per ms and the edge bounce spring (default: critically damped, stiffness 100 1/s²).
    ///
    /// - Throws: ``/SpringCore/SpringError`` naming the value when the viewport is not > 0, c is not > 0, or r is not in (0, 1).
    public init(contentHeight: Double, viewportHeight: Double, rubberBand: Double = 0.55,
                decelerationRate: Double = 0.998, bounce: SpringParameters? = nil) throws(SpringError) {
        guard viewportHeight.isFinite, viewportHeight > 0 else { throw .outOfRange("viewportHeight", viewportHeight, "must be > 0") }
        guard rubberBand.isFinite, rubberBand > 0 else { throw .outOfRange("rubberBand", rubberBand, "must be > 0") }
        guard decelerationRate.isFinite, decelerationRate > 0, decelerationRate < 1 else {
            throw .outOfRange("decelerationRate", decelerationRate, "must be in (0, 1)")
        }
        let spring = if let bounce { bounce } else { try Self.defaultBounce() }
        guard spring.damping >= 1 else { throw .outOfRange("bounce.damping", spring.damping, "must be >= 1 (an under-damped bounce is rejected)") }
        self.contentHeight = contentHeight
        self.viewportHeight = viewportHeight
        self.rubberBand = rubberBand
        self.decelerationRate = decelerationRate
        self.bounce = spring
    }

    /// The default bounce: stiffness 100, damping ratio 1 (ω = 10 rad/s).
    static func defaultBounce() throws(SpringError) -> SpringParameters {
        try SpringParameters(stiffness: 100, dampingCoefficient: 20)
    }

    /// M = max(0, C − V).
    public var maxOffset: Double { max(0, contentHeight - viewportHeight) }
    /// λ = −1000·ln r, per second.
    public var lambda: Double { -1000 * log(decelerationRate) }

    /// Displayed excess for a raw excess x ≥ 0 past an edge: R(x) = x·V·c / (V + c·x).
    public func rubberBanded(_ x: Double) -> Double {
        x * viewportHeight * rubberBand / (viewportHeight + rubberBand * x)
    }

    /// Raw excess for a displayed excess r (0 ≤ r < V): R⁻¹(r) = r·V / (c·(V − r)).
    public func unRubberBanded(_ r: Double) -> Double {
        r * viewportHeight / (rubberBand * (viewportHeight - r))
    }

    /// Displayed offset for a raw (finger-driven) offset.
    public func displayed(raw: Double) -> Double {
        if raw < 0 { return -rubberBanded(-raw) }
        let m = maxOffset
        if raw > m { return m + rubberBanded(raw - m) }
        return raw
    }

    /// Raw offset for a displayed one (inverse of ``displayed(raw:)``).
    public func raw(displayed o: Double) -> Double {
        if o < 0 { return -unRubberBanded(-o) }
        let m = maxOffset
        if o > m { return m + unRubberBanded(o - m) }
        return o
    }

    /// Projected rest offset of an in-bounds deceleration: o + u/λ (Reference §5; 1000 pt/s at
    /// r = 0.998 projects 499 pt).
    public func projection(offset o: Double, velocity u: Double) -> Double { o + u / lambda }

    /// The exact release motion from a displayed offset and content velocity u (pt/s).
    public func release(offset: Double, velocity: Double) -> ScrollRelease {
        ScrollRelease(view: self, offset: offset, velocity: velocity)
    }
}

/// One phase of a release motion, starting at `start` seconds after release.
public struct ScrollPhase: Hashable, Sendable {
    /// What moves the offset in a phase.
    public enum Kind: Hashable, Sendable {
        /// In bounds: o(τ) = o₀ + (u₀/λ)(1 − e^{−λτ}).
        case deceleration
        /// Past the edge at offset `edge` (0 or M): the excess o − edge follows the bounce spring.
        case bounce(edge: Double)
    }
    /// Deceleration in bounds, or a bounce past an edge.
    public var kind: Kind
    /// When the phase starts, in seconds after release.
    public var start: Double
    /// The offset at `start` (pt).
    public var offset: Double
    /// The offset's velocity at `start` (pt/s).
    public var velocity: Double
}

/// The hybrid release motion of a ``ScrollView`` (Reference §5), exact at any time τ ≥ 0. Each phase
/// starts from the position and velocity where the previous one ended.
public struct ScrollRelease: Hashable, Sendable {
    /// The scroll view that moves.
    public let view: ScrollView
    /// The phases in time order: deceleration and bounce, as the motion crosses edges.
    public private(set) var phases: [ScrollPhase] = []
    /// Where the motion comes to rest (an edge, or the deceleration's end).
    public private(set) var restOffset: Double = 0

    init(view: ScrollView, offset: Double, velocity: Double) {
        self.view = view
        let m = view.maxOffset, lambda = view.lambda
        var start = 0.0, o = offset, u = velocity
        // Each bounce either rests at its edge or crosses into bounds once; each deceleration
        // either rests or reaches an edge. A handful of phases covers every case.
        for _ in 0..<16 {
            if o < 0 || o > m || (o == 0 && u < 0) || (o == m && u > 0) {
                let edge = o < 0 || (o == 0 && u < 0) ? 0.0 : m
                phases.append(ScrollPhase(kind: .bounce(edge: edge), start: start, offset: o, velocity: u))
                let motion = SpringMotion(spring: view.bounce, initial: SpringState(x: o - edge, v: u))
                guard o != edge, let tc = motion.firstZeroCrossing() else { restOffset = edge; return }
                start += tc
                o = edge
                u = motion.state(at: tc).v
                continue
            }
            phases.append(ScrollPhase(kind: .deceleration, start: start, offset: o, velocity: u))
            let end = o + u / lambda
            let edge = end < 0 ? 0.0 : (end > m ? m : nil)
            guard let edge else { restOffset = end; return }
            // Solve o + (u/λ)(1 − e^{−λτ}) = edge.
            let tau = -log(1 - lambda * (edge - o) / u) / lambda
            start += tau
            u *= exp(-lambda * tau)
            o = edge
        }
        restOffset = o
    }

    /// Offset and content velocity at τ seconds after release.
    public func state(at tau: Double) -> (offset: Double, velocity: Double) {
        let phase = phases.last { $0.start <= tau } ?? phases[0]
        let dt = max(0, tau - phase.start)
        switch phase.kind {
        case .deceleration:
            let lambda = view.lambda, decay = exp(-lambda * dt)
            return (phase.offset + phase.velocity / lambda * (1 - decay), phase.velocity * decay)
        case let .bounce(edge):
            let s = SpringMotion(spring: view.bounce, initial: SpringState(x: phase.offset - edge, v: phase.velocity)).state(at: dt)
            return (edge + s.x, s.v)
        }
    }
}
