import Foundation

/// A damped spring recovered from sampled positions of something moving freely toward a
/// target (Reference §2): the spring (f, ζ), the target, and the displacement and velocity at the
/// first sample that, propagated exactly, best reproduce the samples in least squares.
///
/// Model, with τ = t − t₀ (t₀ the first sample's time) and the exact propagator of
/// ``SpringStep`` (x(τ) = xx(τ)·x₀ + xv(τ)·v₀):
///
///     position(t) = target + x₀·xx(τ) + v₀·xv(τ)
///
/// For fixed (f, ζ) this is linear in (target, x₀, v₀) — in (x₀, v₀) when the target is
/// given — so those come from linear least squares and only the spring is searched (variable
/// projection). The search runs on stiffness and damping coefficient (k = ω², c = 2ζω, in
/// units of the record's span), where ζ = 1 is no boundary and the long valleys of
/// over-damped motion are straight: a grid over ln f from 0.01/span to the Nyquist frequency
/// 1/(2·median step) and ζ from 0 to 35 gives starting points (the grid's best local minima),
/// and Levenberg–Marquardt refines each to convergence (grid and starts on the first 1000
/// samples; the best is then refined on all). xx and xv are continuous and accurate
/// across ζ = 1, so under-, critically and over-damped motion fit alike. Samples need not be
/// evenly spaced; exact samples give f and ζ to about 1e-9 relative.
public struct SpringFit: Sendable, Hashable {
    /// The fitted spring (unit mass).
    public var spring: SpringParameters
    /// The position the spring pulls toward (the samples' unit, e.g. pt).
    public var target: Double
    /// True when the target was fitted, false when it was given.
    public var targetFitted: Bool
    /// Time of the first sample, t₀ (s).
    public var startTime: Double
    /// Displacement from the target x₀ and velocity v₀ at t₀ (unit, unit/s).
    public var initial: SpringState
    /// Root mean square of the residuals (the samples' unit).
    public var rms: Double
    /// Number of samples fitted.
    public var sampleCount: Int
    /// Largest minus smallest sample: the size of the motion (the samples' unit).
    public var range: Double
    /// Smallest and largest sample.
    public var valueRange: ClosedRange<Double>
    /// Median time between samples (s).
    public var medianStep: Double
    /// What makes the result doubtful, in words (empty when nothing does).
    public var warnings: [String]

    /// Fewest samples a spring fit takes (five unknowns, and one sample to spare).
    public static let minimumSamples = 6
    /// The damping coefficient searched goes up to 2·35·ω at the Nyquist frequency.
    public static let maximumDamping = 35.0
    /// Starting points are searched on at most this many first samples.
    static let startWindow = 1000
    /// A fit whose RMS exceeds this fraction of the range is refused: not a spring's motion.
    public static let refusedRelativeRMS = 0.1
    /// A fit whose RMS exceeds this fraction of the range carries a warning.
    public static let doubtfulRelativeRMS = 0.02

    /// The fitted curve's position at time t.
    public func position(at t: Double) -> Double {
        let step = SpringStep(spring: spring, dt: t - startTime)
        return target + step.xx * initial.x + step.xv * initial.v
    }

    /// RMS as a fraction of the range.
    public var relativeRMS: Double { rms / range }

    /// Fits `values` sampled at `times` (strictly increasing, s). With `target` the target is
    /// fixed, else it is fitted too.
    public static func fit(times: [Double], values: [Double], target: Double? = nil) throws(FitError) -> SpringFit {
        try FitSamples.check(times: times, values: values, minimum: minimumSamples)
        if let target, !target.isFinite { throw .notThisMotion("the target must be a finite number") }
        let t0 = times[0], tau = times.map { $0 - t0 }
        let span = tau[tau.count - 1], step = FitSamples.medianStep(times)
        let lo = values.min()!, hi = values.max()!
        // Work on centred, scaled values so the numbers are of order one.
        let centre = target ?? 0.5 * (lo + hi), scale = hi - lo
        let y = values.map { ($0 - centre) / scale }
        // Searched: stiffness and damping coefficient in units of the span (k·span², c·span).
        // In these the model's valleys are straight (a slow mode of rate s keeps k = s·c − s²),
        // which Levenberg–Marquardt walks far better than (ln f, ζ), and ζ = 1 is no boundary.
        let fLow = 0.01 / span, fHigh = 0.5 / step
        func spring(_ theta: [Double]) -> SpringParameters? {
            try? SpringParameters(stiffness: theta[0] / (span * span), dampingCoefficient: theta[1] / span)
        }
        func theta(frequency f: Double, damping z: Double) -> [Double] {
            let w = 2 * Double.pi * f * span
            return [w * w, 2 * z * w]
        }
        let ceiling = theta(frequency: fHigh, damping: maximumDamping)
        /// The least-squares problem over the first `n` samples.
        func problem(_ n: Int) -> VariableProjection {
            let ones = [Double](repeating: 1, count: n), tau = Array(tau.prefix(n))
            return VariableProjection(
                y: Array(y.prefix(n)),
                basis: { theta in
                    guard let s = spring(theta) else { return nil }
                    var xx = [Double](repeating: 0, count: n), xv = xx
                    for (i, t) in tau.enumerated() {
                        let step = SpringStep(spring: s, dt: t)
                        xx[i] = step.xx
                        xv[i] = step.xv
                    }
                    return target == nil ? [ones, xx, xv] : [xx, xv]
                },
                lower: [theta(frequency: fLow, damping: 0)[0], 0], upper: ceiling)
        }

        // Starting points: the best local minima of a grid over ln f and ζ, each refined, on
        // the first `window` samples (where a free motion shows most); the best is then
        // refined on all samples.
        let window = problem(min(y.count, startWindow))
        let fs = (0..<60).map { fLow * pow(fHigh / fLow, Double($0) / 59) }
        let zs: [Double] = [0, 0.03, 0.07, 0.12, 0.18, 0.25, 0.33, 0.42, 0.52, 0.63, 0.75, 0.88, 1, 1.15, 1.35, 1.7, 2.2, 3, 4.5, 7, 12, 20, 35]
        let grid = fs.map { f in zs.map { window.sumOfSquares(theta(frequency: f, damping: $0)) } }
        var minima: [(Double, Int, Int)] = []
        for i in fs.indices {
            for j in zs.indices where grid[i][j].isFinite {
                let neighbours = (-1...1).flatMap { di in (-1...1).map { (i + di, j + $0) } }
                    .filter { $0 != (i, j) && fs.indices.contains($0.0) && zs.indices.contains($0.1) }
                if neighbours.allSatisfy({ grid[$0.0][$0.1] >= grid[i][j] }) { minima.append((grid[i][j], i, j)) }
            }
        }
        minima.sort { $0.0 < $1.0 }
        var start: (theta: [Double], sumOfSquares: Double)?
        for (_, i, j) in minima.prefix(4) {
            let r = window.minimize(from: theta(frequency: fs[i], damping: zs[j]))
            if r.sumOfSquares < start?.sumOfSquares ?? .infinity { start = r }
        }
        let problem = y.count > startWindow ? problem(y.count) : window
        let best = start.map { y.count > startWindow ? problem.minimize(from: $0.theta) : $0 }
        guard let best, let solution = problem.solve(best.theta), let spring = spring(best.theta) else {
            throw .notThisMotion("no damped spring fits these samples")
        }
        let c = solution.coefficients
        let fittedTarget = target ?? centre + scale * c[0]
        let free = target == nil ? Array(c.dropFirst()) : c
        let rms = scale * (best.sumOfSquares / Double(y.count)).squareRoot()
        var fit = SpringFit(spring: spring, target: fittedTarget, targetFitted: target == nil, startTime: t0,
                            initial: SpringState(x: scale * free[0], v: scale * free[1]), rms: rms, sampleCount: y.count,
                            range: scale, valueRange: lo...hi, medianStep: step, warnings: [])
        guard fit.relativeRMS <= refusedRelativeRMS else {
            throw .notThisMotion("the samples do not look like a damped spring: the best fit (f \(short(spring.frequency)) Hz, ζ \(short(spring.damping))) leaves an RMS of \(short(rms)), \(short(100 * fit.relativeRMS)) % of their range")
        }
        let exponential = try? DecelerationFit.fit(times: times, values: values)
        fit.warnings = fit.doubts(exponential: exponential, frequencyAtLimit: spring.frequency >= fHigh * (1 - 1e-9), frequencyAtFloor: spring.frequency <= fLow * (1 + 1e-9),
                                  dampingAtLimit: best.theta[1] >= ceiling[1] * (1 - 1e-9))
        return fit
    }

    /// The reasons to distrust this fit.
    private func doubts(exponential: DecelerationFit?, frequencyAtLimit: Bool, frequencyAtFloor: Bool, dampingAtLimit: Bool) -> [String] {
        var out: [String] = []
        if relativeRMS > Self.doubtfulRelativeRMS {
            out.append("the residual RMS is \(short(100 * relativeRMS)) % of the motion's range: noisy samples or not a free spring; treat f and ζ as rough")
        }
        if frequencyAtLimit {
            out.append("the frequency ran to the Nyquist limit of the sampling (\(short(0.5 / medianStep)) Hz): the motion is faster than the samples can show")
        } else if spring.frequency > 0.25 / medianStep {
            out.append("fewer than 4 samples per period (f \(short(spring.frequency)) Hz, samples every \(short(medianStep)) s): aliasing may have produced this frequency")
        }
        if frequencyAtFloor {
            out.append("the frequency ran to the search floor (0.01 cycles over the record): the samples show too little of the motion")
        }
        if dampingAtLimit {
            out.append("the damping coefficient ran to the search limit: the motion looks like a single exponential, which fixes only f/ζ, not f and ζ apart")
        }
        if let exponential, exponential.rms <= 1.5 * rms + 1e-9 * range {
            out.append("a single exponential (rate \(short(exponential.lambda))/s) fits as well (RMS \(short(exponential.rms))): the samples show one decay rate, which any over-damped spring with that slow mode matches, so f and ζ are not determined apart")
        }
        if targetFitted {
            let outside = max(valueRange.lowerBound - target, target - valueRange.upperBound, 0)
            if outside > 0.5 * range {
                out.append("the fitted target \(short(target)) lies well outside the samples (\(short(valueRange.lowerBound)) to \(short(valueRange.upperBound))): the record shows only the start of the motion, so f and ζ are poorly determined")
            }
        }
        return out
    }
}

/// A number in messages: six significant digits (``NumberFormat/significant(_:_:)``).
func short(_ x: Double) -> String { NumberFormat.significant(x, 6) }
