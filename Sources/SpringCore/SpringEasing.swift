import Foundation

/// A spring's step response as a normalised easing curve (Reference §10.4): the progress
/// p(t) = 1 − x(t) of a spring released at rest from x₀ = 1 (one travel) toward 0, on the exact
/// closed form (``SpringMotion``), as the stops of a piecewise-linear curve (CSS `linear()`).
///
/// The curve's duration T is the spring's settle time to half the band (`band`: the scene's
/// tolerance ε over the travel L), rounded up to a whole millisecond (what CSS is given, so the
/// stops' shares of it are exact): after T, |1 − p(t)| ≤ band/2 for good, so the last stop,
/// exactly 1, ends the curve without a jump larger than band/2. The stops are adaptive: from
/// (0, 0), each next stop is the farthest point of a fine grid (``gridPerPeriod`` points per
/// natural period 1/f, at most ``maxGrid``) to which a straight line stays within band/2 of
/// p(t) at every grid point between; the last stop is (T, 1). So the curve is within band/2 of
/// the spring everywhere (to the grid's resolution, about 5e-6 of the travel), not only at its
/// stops, with as few stops as that takes: straight where the spring is nearly straight,
/// dense around its turns.
public struct SpringEasing: Hashable, Sendable {
    /// A point of the curve: time (s from the start) and progress (0 at the start, 1 at the target).
    public struct Stop: Hashable, Sendable {
        /// Seconds from the start of the curve.
        public var time: Double
        /// 0 at the start, 1 at the target (above 1: the overshoot).
        public var progress: Double
    }

    /// The spring whose step response the curve is.
    public let spring: SpringParameters
    /// Settle band as a fraction of the travel (0 < band < 1).
    public let band: Double
    /// Time to half the settle band T, rounded up to a whole millisecond, in seconds.
    public let duration: Double
    /// The curve's stops, in time order: first (0, 0), last (T, 1).
    public let stops: [Stop]
    /// The largest distance between the curve and p(t) at the grid points, as a fraction of the
    /// travel (at most band/2 unless the grid hit ``maxGrid``).
    public let deviation: Double

    /// Grid points per natural period 1/f: the curve's error between two of them is at most
    /// (2π/1024)²/8 ≈ 4.7e-6 of the travel.
    public static let gridPerPeriod = 1024.0
    /// Most grid points (a lightly damped spring settling over thousands of periods).
    public static let maxGrid = 1 << 20

    /// Most stops: a spring that needs more (one bouncing for hundreds of periods) has no CSS easing.
    public static let maxStops = 2000

    /// Nil when the spring never settles into the band (ζ = 0), or needs more than ``maxStops``
    /// stops to be followed within it.
    public init?(spring: SpringParameters, band: Double) {
        precondition(band > 0 && band < 1, "band must be in (0, 1)")
        let motion = SpringMotion(spring: spring, initial: SpringState(x: 1, v: 0))
        let tolerance = band / 2
        guard let settleTime = motion.settleTime(band: tolerance), settleTime > 0, settleTime.isFinite else { return nil }
        // A whole number of milliseconds, as CSS writes it: the stops' shares are of the duration written.
        let settle = (settleTime * 1000).rounded(.up) / 1000
        let n = Int(clamping: (Self.gridPerPeriod * spring.frequency * settle).rounded(.up), to: 2...Self.maxGrid)
        let grid = (0...n).map { k in k == 0 ? 0 : k == n ? 1 : 1 - motion.state(at: settle * Double(k) / Double(n)).x }
        /// Largest distance of grid points i…j from the line between them.
        func gap(_ i: Int, _ j: Int) -> Double {
            var most = 0.0
            let slope = (grid[j] - grid[i]) / Double(j - i)
            for m in i..<j { most = max(most, abs(grid[i] + slope * Double(m - i) - grid[m])) }
            return most
        }
        var indices = [0], deviation = 0.0
        while let i = indices.last, i < n {
            // The farthest j with the line i→j within tolerance: doubling, then bisection.
            var good = i + 1, step = 1
            while good + step <= n, gap(i, good + step) <= tolerance { good += step; step *= 2 }
            var bad = min(n + 1, good + step)
            while bad - good > 1 {
                let mid = (good + bad) / 2
                if mid <= n, gap(i, mid) <= tolerance { good = mid } else { bad = mid }
            }
            deviation = max(deviation, gap(i, good))
            indices.append(good)
            if indices.count > Self.maxStops { return nil }
        }
        self.spring = spring
        self.band = band
        duration = settle
        self.deviation = deviation
        stops = indices.map { Stop(time: $0 == n ? settle : settle * Double($0) / Double(n), progress: grid[$0]) }
    }
}
