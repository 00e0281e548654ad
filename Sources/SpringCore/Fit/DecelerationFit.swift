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
        let sums = grid.map { problem.sumOfSquares([$0]) }
        let best = problem.minimize(from: [grid[sums.indices.min { sums[$0] < sums[$1] }!]])
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
/// after the fingers lift, read from per-event deltas along the gesture's axis.
///
/// The system emits momentum deltas once per display frame; the browser's timestamps of those
/// events jitter by a millisecond or two, so a delta divided by its own interval is a noisy
/// speed. The deltas are therefore compared per frame: an event spanning Δt covers
/// n = max(1, round(Δt/T)) frames, T the median interval over the gesture's second half (the
/// coasting end). Faster finger events (8 ms apart on a Mac) then count as one frame each and
/// look slow, which is where the tail stops.
public struct WheelMomentum: Sendable, Hashable {
    /// Times of the tail's events (s).
    public var times: [Double]
    /// Travel from the tail's first event (0 there; the later deltas summed: the first event's
    /// own delta covers the time before it, not coasting).
    public var positions: [Double]

    /// From one event to the next (walking back in time) the per-frame delta may change by
    /// this fraction, plus one quantum of the deltas, and still belong to the tail.
    public static let tolerance = 0.25
    /// A tail carrying less than this share of the gesture's travel is refused: a finger
    /// slowing down at the end of a drag, not the momentum of a flick.
    public static let minimumShare = 0.1

    /// The tail of one gesture, given its events' times (non-decreasing, s) and signed deltas
    /// along its axis: the longest run at the end of the gesture in which every delta is
    /// non-zero and in the gesture's net direction, and the per-frame delta of each event is
    /// within ``tolerance`` plus one quantum (the smallest non-zero |delta|) of the next
    /// event's. Events that share a time are merged first. Throws when the run has fewer than
    /// ``DecelerationFit/minimumSamples`` events or less than ``minimumShare`` of the travel.
    public init(times: [Double], deltas: [Double]) throws(FitError) {
        var t: [Double] = [], d: [Double] = []
        for (time, delta) in zip(times, deltas) {
            if let last = t.last, time <= last { d[d.count - 1] += delta } else { t.append(time); d.append(delta) }
        }
        let travel = d.reduce(0) { $0 + abs($1) }
        guard t.count > DecelerationFit.minimumSamples, travel > 0 else {
            throw .notThisMotion("no momentum tail: \(t.count) events with distinct times and \(travel) of travel")
        }
        let quantum = d.map(abs).filter { $0 > 0 }.min()!
        let sign: Double = d.reduce(0, +) < 0 ? -1 : 1
        let intervals = (1..<t.count).map { t[$0] - t[$0 - 1] }
        let frame = FitSamples.median(Array(intervals.suffix(intervals.count / 2 + 1)))
        /// Delta per frame of event i ≥ 1, along the gesture's direction.
        func perFrame(_ i: Int) -> Double { sign * d[i] / max(1, ((t[i] - t[i - 1]) / frame).rounded()) }
        var k = d.count - 1
        while k >= 2 {
            let earlier = perFrame(k - 1), later = perFrame(k)
            guard d[k - 1] * sign > 0, abs(earlier - later) <= Self.tolerance * later + quantum else { break }
            k -= 1
        }
        guard d.count - k >= DecelerationFit.minimumSamples else {
            throw .notThisMotion("no momentum tail: the smooth run at the end has \(d.count - k) event\(d.count - k == 1 ? "" : "s") (\(DecelerationFit.minimumSamples) needed)")
        }
        var positions = [0.0]
        for i in (k + 1)..<d.count { positions.append(positions[positions.count - 1] + d[i]) }
        let share = abs(positions[positions.count - 1]) / travel
        guard share >= Self.minimumShare else {
            throw .notThisMotion("the smooth run at the end (\(d.count - k) events) carries \(short(100 * share)) % of the gesture's travel: a finger slowing down, not momentum after a flick")
        }
        self.times = Array(t[k...])
        self.positions = positions
    }

    /// The exponential deceleration of the tail.
    public func fit() throws(FitError) -> DecelerationFit { try DecelerationFit.fit(times: times, values: positions) }
}
