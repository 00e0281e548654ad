import Foundation

/// Exponential deceleration recovered from the positions of something coasting to rest, as a
/// scroll view does after a flick:
///
///     o(t) = o∞ − A·e^(−λτ),  τ = t − t₀
///
/// so the velocity A·λ·e^(−λτ) falls by the factor e^(−λ/1000) every millisecond: that factor
/// is UIScrollView's `decelerationRate` (0.998 normal, 0.99 fast). For fixed λ the model is
/// linear in (o∞, A), so those come from linear least squares and only ln λ is searched
/// (variable projection): a grid of 200 values of ln λ from 0.01/span to 50/(median step)
/// gives the start, Levenberg–Marquardt refines it.
public struct DecelerationFit: Sendable, Hashable {
    /// Decay rate of the velocity, λ (1/s).
    public var lambda: Double
    /// Where the motion comes to rest, o∞ (the samples' unit).
    public var restPosition: Double
    /// Distance still to go at t₀, A = o∞ − o(t₀) (signed, the samples' unit).
    public var remainingDistance: Double
    /// Time of the first sample, t₀ (s).
    public var startTime: Double
    /// Root mean square of the residuals (the samples' unit).
    public var rms: Double
    /// Number of samples fitted.
    public var sampleCount: Int
    /// Largest minus smallest sample (the samples' unit).
    public var range: Double

    /// Fewest samples a deceleration fit takes.
    public static let minimumSamples = 6
    /// A fit whose RMS exceeds this fraction of the range is refused.
    public static let refusedRelativeRMS = 0.1

    /// Velocity factor per millisecond, e^(−λ/1000): UIScrollView's `decelerationRate`.
    public var decelerationRate: Double { exp(-lambda / 1000) }
    /// Distance travelled to rest per unit of velocity at release, 1/λ (s): a release at v
    /// (pt/s) coasts v/λ pt. UIKit's per-millisecond form (r/1000)/(1 − r) with r the rate is
    /// the same sum taken in 1 ms steps; it is shorter by 0.5 ms, to first order.
    public var projectedDistancePerVelocity: Double { 1 / lambda }
    /// Velocity at t₀, A·λ (the samples' unit per second).
    public var initialVelocity: Double { remainingDistance * lambda }
    /// RMS as a fraction of the range.
    public var relativeRMS: Double { rms / range }

    /// The fitted curve's position at time t.
    public func position(at t: Double) -> Double { restPosition - remainingDistance * exp(-lambda * (t - startTime)) }

    /// Fits positions `values` sampled at `times` (strictly increasing, s).
    public static func fit(times: [Double], values: [Double]) throws(FitError) -> DecelerationFit {
        try FitSamples.check(times: times, values: values, minimum: minimumSamples)
        let t0 = times[0], tau = times.map { $0 - t0 }
        let span = tau[tau.count - 1], step = FitSamples.medianStep(times)
        let lo = values.min()!, hi = values.max()!, centre = 0.5 * (lo + hi), scale = hi - lo
        let y = values.map { ($0 - centre) / scale }
        let lower = log(0.01 / span), upper = log(50 / step)
        let ones = Array(repeating: 1.0, count: tau.count)
        let problem = VariableProjection(
            y: y, basis: { theta in let l = exp(theta[0]); return [ones, tau.map { -exp(-l * $0) }] },
            lower: [lower], upper: [upper])
        let grid = (0..<200).map { lower + (upper - lower) * Double($0) / 199 }
        let start = grid.min { problem.sumOfSquares([$0]) < problem.sumOfSquares([$1]) }!
        let best = problem.minimize(from: [start])
        guard let solution = problem.solve(best.theta) else { throw .notThisMotion("no exponential deceleration fits these samples") }
        let lambda = exp(best.theta[0])
        let fit = DecelerationFit(lambda: lambda, restPosition: centre + scale * solution.coefficients[0],
                                  remainingDistance: scale * solution.coefficients[1], startTime: t0,
                                  rms: scale * (best.sumOfSquares / Double(y.count)).squareRoot(), sampleCount: y.count, range: scale)
        if best.theta[0] <= lower + 1e-9 {
            throw .notThisMotion("the motion does not slow down within the record (λ ran to its floor, 0.01/span): no deceleration to fit")
        }
        if best.theta[0] >= upper - 1e-9 {
            throw .notThisMotion("the motion stops within a sample or two (λ ran to its ceiling): no coasting phase to fit")
        }
        guard fit.relativeRMS <= refusedRelativeRMS else {
            throw .notThisMotion("the samples do not look like an exponential deceleration: the best fit (λ \(short(lambda))/s) leaves an RMS of \(short(fit.rms)), \(short(100 * fit.relativeRMS)) % of their range")
        }
        return fit
    }
}

/// The momentum tail of a scroll-wheel or trackpad gesture: the coasting the system adds
/// after the fingers lift, read from per-event deltas.
public enum WheelMomentum {
    /// A speed may rise from one event to the next by this fraction (plus one quantum of the
    /// deltas) and still count as decaying: timestamps jitter, deltas are rounded.
    public static let riseTolerance = 0.25

    /// The tail of one gesture's events, given their times (non-decreasing, s) and signed
    /// deltas along the gesture's axis: the longest run at the end of the gesture in which
    /// the speed |delta|/Δt never rises by more than ``riseTolerance`` plus one quantum (the
    /// smallest non-zero |delta|), every delta non-zero and in the gesture's net direction. Events that share a time are
    /// merged first. Returns the tail as positions from its first event (0 there, the later
    /// deltas summed) with their times; fewer than two events give an empty tail.
    public static func tail(times: [Double], deltas: [Double]) -> (times: [Double], positions: [Double]) {
        var t: [Double] = [], d: [Double] = []
        for (time, delta) in zip(times, deltas) {
            if let last = t.last, time <= last { d[d.count - 1] += delta } else { t.append(time); d.append(delta) }
        }
        guard t.count >= 2, let quantum = d.map(abs).filter({ $0 > 0 }).min() else { return ([], []) }
        let sign: Double = d.reduce(0, +) < 0 ? -1 : 1
        var k = d.count - 1
        // Walk back while the earlier event is not clearly slower than the later one.
        while k >= 2 {
            let earlier = sign * d[k - 1], later = sign * d[k]
            let sameSpeed = later * (t[k - 1] - t[k - 2]) / (t[k] - t[k - 1])
            guard earlier > 0, earlier >= sameSpeed * (1 - riseTolerance) - quantum else { break }
            k -= 1
        }
        // The first delta of the tail covers the time before its event: it is not part of the coasting.
        var positions = [0.0]
        for i in (k + 1)..<d.count { positions.append(positions[positions.count - 1] + d[i]) }
        return (Array(t[k...]), positions)
    }
}
