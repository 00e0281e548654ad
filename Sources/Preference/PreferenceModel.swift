/// A point of the unit box with the model's posterior mean and standard deviation there.
public struct Estimate: Hashable, Sendable {
    public var x: [Double]
    public var mean: Double
    public var sd: Double
}

/// The hyperparameters tried by `PreferenceModel.fit`: first every (isotropic length-scale,
/// noise) pair, then, from the best of those, each coordinate's length-scale times each
/// factor in turn, kept when the Laplace evidence rises (coordinates in order, `passes` times),
/// once there are `ardFrom` observations per coordinate.
public struct HyperGrid: Hashable, Sendable {
    public var lengthScales: [Double]
    public var noises: [Double]
    public var ardFactors: [Double]
    public var passes: Int
    /// The shortest length-scale ARD may reach: shorter ones let the mean chase single answers.
    public var shortest: Double
    /// The longest length-scale ARD may reach: longer ones make the mean a trend that runs
    /// to the box's corners.
    public var longest: Double
    /// Observations (comparisons, or a regression's values) per coordinate before ARD is tried:
    /// with fewer, a length-scale per coordinate fits the noise of a few answers and the best
    /// estimate jumps from round to round. Simulated designers in the studio with tweetbot's
    /// `snapFrequency` freed (5 coordinates, 30 comparisons at round 10) reached 0.95 by round 10
    /// in 9 of 20 seeds with ARD from the first answer, 14 of 20 from 7 per coordinate
    /// (docs/Studio.md has the runs and the other thresholds tried).
    public var ardFrom: Int

    /// Length-scales 0.1…1.6 of the unit box, noise variances 1e-6…0.1 of the values' variance,
    /// ARD factors ¼, ½, 2 and 4 within [0.03, 4], two passes: the search's regressions (``Regression``).
    public static let regression = HyperGrid(lengthScales: [0.1, 0.2, 0.4, 0.8, 1.6], noises: [1e-6, 1e-4, 1e-2, 0.1],
                                             ardFactors: [0.25, 0.5, 2, 4], passes: 2, shortest: 0.03, longest: 4, ardFrom: 0)

    /// Tries every (isotropic length-scale, noise) pair, then, `passes` times, each coordinate's
    /// length-scale of the best so far (`best`: its kernel and noise) times each ARD factor
    /// within [shortest, longest] (a factor that changes nothing is skipped); `consider` fits one
    /// candidate and keeps it when it is better. With no best after the first stage, ARD is skipped.
    func search<E: Error>(dimension d: Int, observations: Int, best: () -> (Kernel, Double)?, consider: (Kernel, Double) throws(E) -> Void) throws(E) {
        for l in lengthScales {
            for noise in noises { try consider(Kernel(lengthScales: Array(repeating: l, count: d)), noise) }
        }
        guard observations >= ardFrom * d else { return }
        for _ in 0..<passes {
            for j in 0..<d {
                guard let (base, noise) = best() else { return }
                for factor in ardFactors {
                    var kernel = base
                    kernel.lengthScales[j] = min(longest, max(shortest, kernel.lengthScales[j] * factor))
                    guard kernel != base else { continue }
                    try consider(kernel, noise)
                }
            }
        }
    }

    /// Length-scales 0.125…1 of the unit box, σ 0.03…1 of the prior sd, ARD factors ½ and 2 within [0.1, 1], one pass,
    /// from 7 comparisons per coordinate.
    public static let standard = HyperGrid(lengthScales: [0.125, 0.25, 0.5, 1], noises: [0.03, 0.1, 0.3, 1], ardFactors: [0.5, 2], passes: 1,
                                           shortest: 0.1, longest: 1, ardFrom: 7)
    /// The kernel and noise used when there is no comparison to choose by.
    public static let prior = (lengthScale: 0.3, noise: 0.1)
}

/// A designer's utility learned from comparisons (Reference §12): a Gaussian process with the
/// ARD squared-exponential kernel (prior variance 1), the probit likelihood
/// P(a ≻ b) = Φ((f(a) − f(b))/(√2 σ)), fitted by the Laplace approximation, with the
/// hyperparameters of `HyperGrid` chosen by the Laplace evidence.
public struct PreferenceModel: Sendable {
    public let space: PreferenceSpace
    let fit: LaplaceFit

    public var kernel: Kernel { fit.kernel }
    public var noise: Double { fit.noise }
    /// The points the model was fitted to, and the utility's posterior mode there.
    public var points: [[Double]] { fit.points }
    public var mode: [Double] { fit.mode }
    public var logEvidence: Double { fit.logEvidence }

    /// Fits the model to every comparison in `data` (points must be in `space`'s unit box).
    public static func fit(_ data: PreferenceData, space: PreferenceSpace, grid: HyperGrid = .standard) throws(PreferenceError) -> PreferenceModel {
        let d = space.dimension
        guard data.points.allSatisfy({ $0.count == d }) else { throw PreferenceError("a point's dimension is not the space's \(d)") }
        guard !grid.lengthScales.isEmpty, !grid.noises.isEmpty,
              (grid.lengthScales + grid.noises + grid.ardFactors).allSatisfy({ $0 > 0 && $0.isFinite }) else {
            throw PreferenceError("the hyperparameter grid needs positive length-scales, noises and factors")
        }
        guard !data.comparisons.isEmpty else {
            let kernel = Kernel(lengthScales: Array(repeating: HyperGrid.prior.lengthScale, count: d))
            return PreferenceModel(space: space, fit: try LaplaceFit(points: data.points, comparisons: [], kernel: kernel, noise: HyperGrid.prior.noise))
        }
        var best: LaplaceFit?
        func consider(_ kernel: Kernel, _ noise: Double) throws(PreferenceError) {
            let candidate = try LaplaceFit(points: data.points, comparisons: data.comparisons, kernel: kernel, noise: noise, start: best?.mode)
            if best == nil || candidate.logEvidence > best!.logEvidence { best = candidate }
        }
        try grid.search(dimension: d, observations: data.comparisons.count, best: { best.map { ($0.kernel, $0.noise) } }, consider: consider)
        return PreferenceModel(space: space, fit: best!)
    }

    /// What the posterior needs of one point x: the prior covariances k(x) with the fitted
    /// points, u = L⁻¹k(x) and v = C⁻¹u (B = C Cᵀ), so that mean = k(x)ᵀK⁻¹f̂ and
    /// cov(x, y) = k(x, y) − u_xᵀu_y + v_xᵀv_y (the Laplace posterior covariance
    /// K** − K*ᵀ(K + W⁻¹)⁻¹K*, written without W⁻¹).
    struct Projection: Sendable {
        let x: [Double]
        let mean: Double
        let u: [Double]
        let v: [Double]
    }

    func project(_ x: [Double]) -> Projection {
        let k = fit.points.map { fit.kernel(x, $0) }
        var mean = 0.0
        for (a, b) in zip(k, fit.alpha) { mean += a * b }
        let u = fit.prior.solveLower(k)
        return Projection(x: x, mean: mean, u: u, v: fit.curvature.solveLower(u))
    }

    func covariance(_ a: Projection, _ b: Projection) -> Double {
        var s = fit.kernel(a.x, b.x)
        for i in 0..<a.u.count { s += a.v[i] * b.v[i] - a.u[i] * b.u[i] }
        return s
    }

    /// The posterior mean of the utility at x: k(x)ᵀ K⁻¹ f̂.
    public func mean(_ x: [Double]) -> Double {
        var s = 0.0
        for (p, a) in zip(fit.points, fit.alpha) { s += fit.kernel(x, p) * a }
        return s
    }

    /// The posterior standard deviation of the utility at x.
    public func sd(_ x: [Double]) -> Double {
        let p = project(x)
        return max(0, covariance(p, p)).squareRoot()
    }

    /// The estimate at x.
    public func estimate(_ x: [Double]) -> Estimate { Estimate(x: x, mean: mean(x), sd: sd(x)) }

    /// The posterior of f(x) − f(y): its mean and standard deviation. Comparisons fix only
    /// differences of the utility, so this is what they can make certain (the sd of f(x) alone
    /// keeps the unknown common level).
    public func difference(_ x: [Double], _ y: [Double]) -> (mean: Double, sd: Double) {
        let a = project(x), b = project(y)
        return (a.mean - b.mean, max(0, covariance(a, a) + covariance(b, b) - 2 * covariance(a, b)).squareRoot())
    }

    /// The utility's log-likelihood gradient at the mode; at the exact mode f̂ = K·gradient.
    public var likelihoodGradient: [Double] { LaplaceFit.derivatives(fit.mode, fit.comparisons, fit.noise, fit.points.count).gradient }

    /// The prior covariance matrix K of the fitted points (with the nugget), row-major.
    public var priorCovariance: [Double] { fit.kernel.gram(fit.points, nugget: LaplaceFit.nugget) }

    /// The feasible point of the largest posterior mean among the fitted points and `pool`,
    /// then refined by a compass search on the mean (steps of 0.05 halved down to 0.05/64,
    /// numeric coordinates only, staying feasible). Nil when no point is feasible.
    public func best(pool: [[Double]], feasible: (([Double]) -> Bool)? = nil) -> Estimate? {
        let ok = feasible ?? { _ in true }
        var x: [Double]?, top = -Double.infinity
        for p in fit.points + pool {
            let m = mean(p)
            if m > top, ok(p) { top = m; x = p }
        }
        guard var x else { return nil }
        let numeric = zip(space.axes, space.offsets).compactMap { axis, offset -> Int? in
            if case .numeric = axis.kind { offset } else { nil }
        }
        var h = 0.05
        while h >= 0.05 / 64 {
            var moved = false
            for j in numeric {
                for sign in [1.0, -1.0] {
                    var y = x
                    y[j] = min(1, max(0, y[j] + sign * h))
                    guard y[j] != x[j] else { continue }
                    let m = mean(y)
                    if m > top, ok(y) { top = m; x = y; moved = true }
                }
            }
            if !moved { h /= 2 }
        }
        return estimate(x)
    }
}
