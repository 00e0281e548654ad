import Foundation

/// A spring's step response as a normalised easing curve (Reference §10.4): the progress
/// p(t) = 1 − x(t) of a spring released at rest from x₀ = 1 (one travel) toward 0, on the exact
/// closed form (``SpringMotion``), timed to the settle band.
///
/// The curve's duration T is the spring's settle time to `band` (a fraction of the travel:
/// the scene's tolerance ε over the travel L): after T, |1 − p(t)| ≤ band for good. The curve
/// is sampled at n + 1 evenly spaced times tᵢ = i·T/n, with n = clamp(⌈32·f·T⌉, 32, 2000)
/// (32 samples per natural period 1/f), p(t₀) = 0 and the last point set to exactly 1 (the
/// jump there is at most `band`).
public struct SpringEasing: Hashable, Sendable {
    /// The spring whose step response the curve is.
    public let spring: SpringParameters
    /// Settle band as a fraction of the travel (0 < band < 1).
    public let band: Double
    /// Time to the settle band T, in seconds.
    public let duration: Double
    /// Progress at tᵢ = i·T/n, i = 0…n: first 0, last 1.
    public let points: [Double]

    /// Samples per natural period 1/f, and the bounds on the number of intervals.
    public static let samplesPerPeriod = 32.0
    /// The bounds on the number of intervals n: 32 to 2000.
    public static let intervals = 32...2000

    /// Nil when the spring never settles into the band (ζ = 0).
    public init?(spring: SpringParameters, band: Double) {
        precondition(band > 0 && band < 1, "band must be in (0, 1)")
        let motion = SpringMotion(spring: spring, initial: SpringState(x: 1, v: 0))
        guard let settle = motion.settleTime(band: band), settle > 0 else { return nil }
        let n = Int(clamping: (Self.samplesPerPeriod * spring.frequency * settle).rounded(.up), to: Self.intervals)
        self.spring = spring
        self.band = band
        duration = settle
        points = (0...n).map { i in i == 0 ? 0 : i == n ? 1 : 1 - motion.state(at: settle * Double(i) / Double(n)).x }
    }

    /// Time between samples T/n, in seconds.
    public var step: Double { duration / Double(points.count - 1) }
}
