#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A Gaussian-process regression of one measured quantity over the unit box (Reference §13):
/// the values are standardised (mean 0, sd 1), modelled as f + ε with f ~ GP(0, k), k the ARD
/// squared-exponential ``Kernel`` of prior variance 1 and ε ~ N(0, σ²); the length-scales and
/// σ² are those of ``HyperGrid/regression`` with the largest log marginal likelihood
/// log p(y) = −½ yᵀ(K + σ²I)⁻¹y − ½ log det(K + σ²I) − (n/2) log 2π.
/// The posterior at x: mean k(x)ᵀα (α = (K + σ²I)⁻¹y), variance 1 − k(x)ᵀ(K + σ²I)⁻¹k(x),
/// both mapped back to the values' unit.
public struct Regression: Sendable {
    public let kernel: Kernel
    /// σ², the noise variance in standardised units.
    public let noise: Double
    public let points: [[Double]]
    /// The standardisation: value = centre + spread · standardised.
    public let centre: Double, spread: Double
    let factor: Cholesky
    let alpha: [Double]
    let standardised: [Double]
    public let logEvidence: Double

    /// Fits the regression of `values` at `points` (at least one; all of one dimension), with the
    /// hyperparameters of `grid` chosen by the log marginal likelihood.
    public static func fit(points: [[Double]], values: [Double], grid: HyperGrid = .regression) throws(PreferenceError) -> Regression {
        guard !points.isEmpty, points.count == values.count, let d = points.first?.count, points.allSatisfy({ $0.count == d }) else {
            throw PreferenceError("a regression needs as many points as values, of one dimension")
        }
        guard values.allSatisfy(\.isFinite) else { throw PreferenceError("a regression needs finite values") }
        let n = Double(values.count)
        let centre = values.reduce(0, +) / n
        var spread = (values.reduce(0) { $0 + ($1 - centre) * ($1 - centre) } / n).squareRoot()
        if !(spread > 1e-12 * max(1, abs(centre))) { spread = 1 }
        let y = values.map { ($0 - centre) / spread }
        var best: Regression?
        func consider(_ kernel: Kernel, _ noise: Double) {
            guard let r = try? Regression(points: points, standardised: y, centre: centre, spread: spread, kernel: kernel, noise: noise) else { return }
            if best == nil || r.logEvidence > best!.logEvidence { best = r }
        }
        grid.search(dimension: d, observations: values.count, best: { best.map { ($0.kernel, $0.noise) } }, consider: consider)
        guard best != nil else { throw PreferenceError("no hyperparameters of the grid give a positive-definite covariance") }
        return best!
    }

    init(points: [[Double]], standardised y: [Double], centre: Double, spread: Double, kernel: Kernel, noise: Double) throws(CholeskyError) {
        self.points = points; self.centre = centre; self.spread = spread; self.kernel = kernel; self.noise = noise
        standardised = y
        var k = kernel.gram(points, nugget: 0)
        let n = points.count
        for i in 0..<n { k[i * n + i] += noise }
        factor = try Cholesky(k, n: n)
        alpha = factor.solve(y)
        var fit = 0.0
        for (a, b) in zip(y, alpha) { fit += a * b }
        logEvidence = -0.5 * fit - 0.5 * factor.logDeterminant - 0.5 * Double(n) * log(2 * Double.pi)
    }

    /// The posterior mean and standard deviation at x, in the values' unit.
    public func predict(_ x: [Double]) -> (mean: Double, sd: Double) {
        let k = points.map { kernel(x, $0) }
        var m = 0.0
        for (a, b) in zip(k, alpha) { m += a * b }
        let v = factor.solveLower(k)
        var reduction = 0.0
        for e in v { reduction += e * e }
        return (centre + spread * m, spread * max(0, kernel.variance - reduction).squareRoot())
    }

    /// The same regression (hyperparameters kept) with `value` observed at `x` too: how a batch
    /// is chosen before its values are known ("kriging believer": the value is the posterior
    /// mean there, so only the uncertainty shrinks).
    public func adding(_ x: [Double], value: Double) throws(PreferenceError) -> Regression {
        do {
            return try Regression(points: points + [x], standardised: standardised + [(value - centre) / spread],
                                  centre: centre, spread: spread, kernel: kernel, noise: noise)
        } catch {
            throw PreferenceError(error.description)
        }
    }
}
