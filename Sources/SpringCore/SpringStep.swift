#if !hasFeature(Embedded)
import Foundation
#endif

/// The exact propagator of a spring over a fixed time step τ (Reference §2): a 2×2 linear map of
/// (displacement x, velocity v), valid for every damping ratio, with no integration error.
///
/// With e = e^{−ζωτ}, q = ω²(1 − ζ²), C = cos(√q τ) (cosh for q < 0) and S = sin(√q τ)/√q
/// (sinh(√−q τ)/√−q for q < 0, τ for q = 0):
///   x(τ) = e[(C + ζωS)·x₀ + S·v₀],  v(τ) = e[−ω²S·x₀ + (C − ζωS)·v₀].
/// S is evaluated so that it stays accurate as ζ → 1 from either side (no cancellation), and
/// the over-damped branch switches to separate exponentials once cosh/sinh would overflow.
public struct SpringStep: Hashable, Sendable {
    /// x' = xx·x + xv·v
    public let xx: Double, xv: Double
    /// v' = vx·x + vv·v
    public let vx: Double, vv: Double

    /// The step of `spring` over τ = `dt` seconds (τ ≥ 0).
    public init(spring: SpringParameters, dt tau: Double) {
        let w = spring.omega, z = spring.damping
        let (eC, eS) = Self.dampedBasis(omega: w, zeta: z, t: tau)
        xx = eC + z * w * eS
        xv = eS
        vx = -w * w * eS
        vv = eC - z * w * eS
    }

    /// Returns (e·C, e·S) at time t, see the type's documentation.
    static func dampedBasis(omega w: Double, zeta z: Double, t: Double) -> (Double, Double) {
        let q = w * w * (1 - z) * (1 + z)
        let decay = -z * w * t
        if q > 0 {
            let wd = q.squareRoot()
            let e = exp(decay)
            return (e * cos(wd * t), e * sin(wd * t) / wd)
        }
        if q == 0 {
            let e = exp(decay)
            return (e, e * t)
        }
        let a = (-q).squareRoot()
        if a * t < 1 {
            let e = exp(decay)
            return (e * cosh(a * t), e * sinh(a * t) / a)
        }
        // e·cosh(at) = (e^{r₁t} + e^{r₂t})/2, e·sinh(at)/a = (e^{r₁t} − e^{r₂t})/(2a), r₁,₂ = −ζω ± a.
        let slow = exp(decay + a * t), fast = exp(decay - a * t)
        return (0.5 * (slow + fast), 0.5 * (slow - fast) / a)
    }

    /// Applies the step to a state.
    @inlinable
    public func apply(_ s: SpringState) -> SpringState {
        SpringState(x: xx * s.x + xv * s.v, v: vx * s.x + vv * s.v)
    }
}

/// Displacement from the target (pt) and its rate of change (pt/s).
public struct SpringState: Hashable, Sendable {
    /// Displacement x from the target, in pt.
    public var x: Double
    /// Velocity v = dx/dt, in pt/s.
    public var v: Double
    /// A state from its displacement (pt) and velocity (pt/s).
    public init(x: Double, v: Double) { self.x = x; self.v = v }
}
