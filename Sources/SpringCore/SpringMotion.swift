#if !hasFeature(Embedded)
import Foundation
#endif

/// The free motion of a spring from an initial displacement and velocity, in continuous time
/// (Reference §2): exact position and velocity at any t, peak overshoot, settle time and the first
/// crossing of the target, found on the closed form rather than on sampled frames.
public struct SpringMotion: Hashable, Sendable {
    /// The spring's frequency f (Hz) and damping ratio ζ.
    public let spring: SpringParameters
    /// Initial displacement from the target x₀ (pt) and velocity v₀ = dx/dt (pt/s).
    public let initial: SpringState

    /// The motion of `spring` released with displacement `initial.x` (pt) and velocity `initial.v` (pt/s).
    public init(spring: SpringParameters, initial: SpringState) {
        self.spring = spring
        self.initial = initial
    }

    /// Exact state at time t ≥ 0.
    public func state(at t: Double) -> SpringState {
        SpringStep(spring: spring, dt: t).apply(initial)
    }

    /// Times t > 0 where the velocity is zero (the extrema of x), in increasing order, at most
    /// `limit` of them. An under-damped spring has one every π/ω_d; otherwise at most one.
    public func extremumTimes(limit: Int) -> [Double] {
        let w = spring.omega, z = spring.damping, x0 = initial.x, v0 = initial.v
        // v(t) = e[v₀C − (ζωv₀ + ω²x₀)S] = 0.
        let k = z * w * v0 + w * w * x0
        let q = w * w * (1 - z) * (1 + z)
        if q > 0 {
            let wd = q.squareRoot()
            if x0 == 0 && v0 == 0 { return [] }
            var theta = atan2(v0 * wd, k)         // ω_d t solves tan(ω_d t) = v₀ω_d / k
            if theta <= 0 { theta += .pi }        // the first root after t = 0
            return (0..<limit).map { (theta + Double($0) * .pi) / wd }
        }
        // Over- or critically damped: tanh(at)/a = v₀ / k has at most one root.
        guard v0 != 0, k != 0 else { return [] }
        let m = v0 / k
        guard m > 0 else { return [] }
        let a = (-q).squareRoot()
        if a == 0 { return [m] }
        guard a * m < 1 else { return [] }
        return [atanh(a * m) / a]
    }

    /// Extrema ``settleTime(band:)`` looks back over from the envelope's band crossing.
    static let walkBack = 64

    /// Largest excursion past the target, opposite to the initial displacement: (ratio of
    /// |x₀|, time). Nil when the motion never crosses the target or x₀ = 0.
    public func peakOvershoot() -> (ratio: Double, time: Double)? {
        let x0 = initial.x
        guard x0 != 0 else { return nil }
        // Extremum magnitudes decay monotonically, so the first one of opposite sign is the peak.
        for t in extremumTimes(limit: 2) {
            let x = state(at: t).x
            if x * x0 < 0 { return (abs(x) / abs(x0), t) }
        }
        return nil
    }

    /// The last time |x(t)| exceeds `band` (> 0), to 1e-9 s or better; 0 if it never does; nil
    /// if it never settles (an undamped spring whose amplitude exceeds the band), or would only
    /// after more than 1e15 half periods. When the last 64 extrema before the envelope
    /// ae^(−ζωt) (a = ``amplitudeBound``) reaches the band are all within rounding of it, the
    /// time the envelope reaches it, ln(a/band)/(ζω), to within 64 half periods.
    public func settleTime(band: Double) -> Double? {
        precondition(band > 0, "band must be > 0")
        let w = spring.omega, z = spring.damping
        // Candidate turning points: t = 0 and the extrema. After the last one with |x| > band,
        // x moves monotonically toward the next extremum, so |x| − band has one root there.
        var last: Double? = abs(initial.x) > band ? 0 : nil
        var next = Double.infinity
        if z < 1 {
            let amplitude = amplitudeBound
            if z == 0 && amplitude > band { return nil }
            // The envelope falls below the band after tEnv: no extremum after that counts.
            let tEnv = z > 0 ? max(0, log(amplitude / band) / (z * w)) : 0
            let ex = extremumTimes(limit: 1)
            if let t0 = ex.first {
                let halfPeriod = .pi / (w * ((1 - z) * (1 + z)).squareRoot())
                // Beyond 1e15 half periods (a band that underflows the amplitude, a ζ of 1e-300)
                // no time is worth reporting: treat it as never settling rather than trap.
                let kd = ((tEnv - t0) / halfPeriod).rounded(.down) + 1
                guard kd.isFinite, kd < 1e15 else { return nil }
                var k = Int(clamping: kd, to: 0...Int.max)
                // Walk back to the last extremum above the band: a couple of steps, unless the
                // envelope falls so slowly (ζ of 1e-14 at 1e188 Hz) that the extrema before tEnv
                // all sit within rounding of the band; after `walkBack` of them the settle time
                // is tEnv, within walkBack half periods (that walk once ran 1e14 steps).
                let lowest = k - Self.walkBack
                while k >= 0 && k > lowest {
                    let t = t0 + Double(k) * halfPeriod
                    if abs(state(at: t).x) > band { last = t; next = t + halfPeriod; break }
                    k -= 1
                }
                if k >= 0 && k == lowest { return tEnv }
                if k < 0 { next = t0 }
            }
        } else if let te = extremumTimes(limit: 1).first {
            if abs(state(at: te).x) > band { last = te } else { next = te }
        }
        guard let lo0 = last else { return 0 }
        if next == .infinity {
            next = lo0 + 1 / w
            while abs(state(at: next).x) > band { next = lo0 + 2 * (next - lo0) }
        }
        return bisect(lo0, next) { abs(self.state(at: $0).x) > band }
    }

    /// First time t > 0 at which x crosses zero (x₀ ≠ 0), or nil if it never does.
    public func firstZeroCrossing() -> Double? {
        let x0 = initial.x
        guard x0 != 0 else { return nil }
        if spring.damping < 1 {
            // Between consecutive extrema x is monotone; the sign changes before the first
            // extremum of opposite sign.
            var lo = 0.0
            for t in extremumTimes(limit: 2) {
                if state(at: t).x * x0 <= 0 { return bisect(lo, t) { self.state(at: $0).x * x0 > 0 } }
                lo = t
            }
            return nil
        }
        // Over/critically damped: crosses iff the slow mode's coefficient has the other sign,
        // i.e. v₀ + (ζ + √(ζ²−1))ω x₀ has the sign opposite to x₀.
        let w = spring.omega, z = spring.damping
        let slow = initial.v + (z + (z * z - 1).squareRoot()) * w * x0
        guard slow * x0 < 0 else { return nil }
        var hi = 1 / w
        while state(at: hi).x * x0 > 0 { hi *= 2 }
        return bisect(0, hi) { self.state(at: $0).x * x0 > 0 }
    }

    /// Upper bound of |x(t)| for all t ≥ 0 on an under-damped spring's envelope:
    /// √(x₀² + ((v₀ + ζωx₀)/ω_d)²); for other springs √(x₀² + (v₀/ω)²) (Reference §6 amplitude bound).
    public var amplitudeBound: Double {
        let w = spring.omega, z = spring.damping, x0 = initial.x, v0 = initial.v
        if z < 1 {
            let wd = w * ((1 - z) * (1 + z)).squareRoot()
            let s = (v0 + z * w * x0) / wd
            return (x0 * x0 + s * s).squareRoot()
        }
        return (x0 * x0 + (v0 / w) * (v0 / w)).squareRoot()
    }
}

/// Bisection on [lo, hi] for the boundary where `isBefore` turns false; `isBefore(lo)` is
/// assumed true and `isBefore(hi)` false. Runs to the resolution of Double.
func bisect(_ lo: Double, _ hi: Double, _ isBefore: (Double) -> Bool) -> Double {
    var lo = lo, hi = hi
    for _ in 0..<200 {
        let mid = 0.5 * (lo + hi)
        if mid <= lo || mid >= hi { break }
        if isBefore(mid) { lo = mid } else { hi = mid }
    }
    return hi
}
