#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The squared-exponential kernel with one length-scale per coordinate (ARD):
/// k(a, b) = s² · exp(−½ Σ_j ((a_j − b_j)/ℓ_j)²).
public struct Kernel: Hashable, Sendable {
    public var lengthScales: [Double]
    /// s², the prior variance of the utility at any point.
    public var variance: Double

    public init(lengthScales: [Double], variance: Double = 1) {
        self.lengthScales = lengthScales
        self.variance = variance
    }

    public func callAsFunction(_ a: [Double], _ b: [Double]) -> Double {
        var s = 0.0
        for j in 0..<lengthScales.count {
            let d = (a[j] - b[j]) / lengthScales[j]
            s += d * d
        }
        return variance * exp(-0.5 * s)
    }

    /// The Gram matrix of `points` plus `nugget`·s² on the diagonal, row-major.
    func gram(_ points: [[Double]], nugget: Double) -> [Double] {
        let m = points.count
        var k = [Double](repeating: 0, count: m * m)
        for i in 0..<m {
            k[i * m + i] = variance * (1 + nugget)
            for j in 0..<i {
                let v = self(points[i], points[j])
                k[i * m + j] = v
                k[j * m + i] = v
            }
        }
        return k
    }
}

/// The Laplace approximation of the posterior of the utilities f at the observed points, for
/// fixed hyperparameters (Reference §12).
///
/// Prior f ~ N(0, K); likelihood Π_k Φ(z_k), z_k = (f_winner − f_loser)/(√2 σ). Newton's method
/// maximises Ψ(f) = Σ log Φ(z_k) − ½ fᵀK⁻¹f (strictly concave) with the step
/// f ← (K⁻¹ + W)⁻¹(W f + ∇) = L B⁻¹ Lᵀ (W f + ∇), K = L Lᵀ, B = I + Lᵀ W L,
/// W = −∇∇ log-likelihood = Σ_k λ_k(z_k + λ_k)/(2σ²) · d_k d_kᵀ (d_k = e_winner − e_loser,
/// λ = φ/Φ), halving a step that would lower Ψ. The mode f̂ satisfies f̂ = K ∇log-likelihood(f̂).
/// The approximate log evidence is Σ log Φ(ẑ_k) − ½ f̂ᵀK⁻¹f̂ − ½ log det B.
struct LaplaceFit: Sendable {
    let kernel: Kernel
    /// σ of the probit likelihood, in the utility's units.
    let noise: Double
    let points: [[Double]]
    let comparisons: [Comparison]
    /// The Cholesky factor of K (with the nugget).
    let prior: Cholesky
    /// The mode f̂ at the points.
    let mode: [Double]
    /// K⁻¹ f̂, so the posterior mean at x is k(x)ᵀ·alpha.
    let alpha: [Double]
    /// The Cholesky factor of B = I + Lᵀ W L at the mode.
    let curvature: Cholesky
    let logEvidence: Double

    /// Relative nugget on K's diagonal: keeps nearly equal points factorisable.
    static let nugget = 1e-6

    init(points: [[Double]], comparisons: [Comparison], kernel: Kernel, noise: Double, start: [Double]? = nil) throws(PreferenceError) {
        let m = points.count
        self.kernel = kernel; self.noise = noise; self.points = points; self.comparisons = comparisons
        do {
            prior = try Cholesky(kernel.gram(points, nugget: Self.nugget), n: m)
        } catch {
            throw PreferenceError("the kernel matrix of \(m) points did not factorise: \(error.description)")
        }
        var f = start ?? [Double](repeating: 0, count: m)
        var psi = Self.objective(f, comparisons, noise, prior)
        var step = Self.derivatives(f, comparisons, noise, m)
        var b: Cholesky
        for _ in 0..<100 {
            b = try Self.curvatureFactor(prior, step.weights, comparisons, m)
            var rhs = step.gradient
            for (k, c) in comparisons.enumerated() {
                let wd = step.weights[k] * (f[c.winner] - f[c.loser])
                rhs[c.winner] += wd
                rhs[c.loser] -= wd
            }
            let target = prior.multiplyLower(b.solve(Self.transposedLowerTimes(prior, rhs)))
            var t = 1.0, next = f, nextPsi = psi, size = 0.0
            while true {
                size = 0
                for i in 0..<m {
                    next[i] = f[i] + t * (target[i] - f[i])
                    size = max(size, abs(t * (target[i] - f[i])))
                }
                nextPsi = Self.objective(next, comparisons, noise, prior)
                if nextPsi >= psi - 1e-12 * abs(psi) || t < 1e-6 { break }
                t /= 2
            }
            f = next; psi = nextPsi
            step = Self.derivatives(f, comparisons, noise, m)
            if size <= 1e-12 * (1 + f.reduce(0) { max($0, abs($1)) }) { break }
        }
        b = try Self.curvatureFactor(prior, step.weights, comparisons, m)
        mode = f
        alpha = prior.solve(f)
        curvature = b
        logEvidence = psi - 0.5 * b.logDeterminant
    }

    /// Ψ(f) = Σ log Φ(z_k) − ½ ‖L⁻¹f‖².
    static func objective(_ f: [Double], _ comparisons: [Comparison], _ noise: Double, _ prior: Cholesky) -> Double {
        let scale = 1 / (2.0.squareRoot() * noise)
        var s = 0.0
        for c in comparisons { s += Normal.logCDF((f[c.winner] - f[c.loser]) * scale) }
        let y = prior.solveLower(f)
        var q = 0.0
        for v in y { q += v * v }
        return s - 0.5 * q
    }

    /// The log-likelihood's gradient at f, and W's weight per comparison λ(z)(z + λ(z))/(2σ²).
    static func derivatives(_ f: [Double], _ comparisons: [Comparison], _ noise: Double, _ m: Int) -> (gradient: [Double], weights: [Double]) {
        let s = 2.0.squareRoot() * noise
        var g = [Double](repeating: 0, count: m)
        var w = [Double](repeating: 0, count: comparisons.count)
        for (k, c) in comparisons.enumerated() {
            let z = (f[c.winner] - f[c.loser]) / s
            let lambda = Normal.millsRatio(z)
            g[c.winner] += lambda / s
            g[c.loser] -= lambda / s
            w[k] = lambda * (z + lambda) / (s * s)
        }
        return (g, w)
    }

    /// Lᵀ·v.
    static func transposedLowerTimes(_ l: Cholesky, _ v: [Double]) -> [Double] {
        let n = l.n
        var out = [Double](repeating: 0, count: n)
        for i in 0..<n {
            let vi = v[i]
            guard vi != 0 else { continue }
            for j in 0...i { out[j] += l.lower[i * n + j] * vi }
        }
        return out
    }

    /// The factor of B = I + Σ_k w_k r_k r_kᵀ, r_k = Lᵀ d_k (row winner of L minus row loser).
    static func curvatureFactor(_ l: Cholesky, _ weights: [Double], _ comparisons: [Comparison], _ m: Int) throws(PreferenceError) -> Cholesky {
        var b = [Double](repeating: 0, count: m * m)
        for i in 0..<m { b[i * m + i] = 1 }
        var r = [Double](repeating: 0, count: m)
        for (k, c) in comparisons.enumerated() where weights[k] > 0 {
            let top = max(c.winner, c.loser)
            for j in 0...top {
                r[j] = (j <= c.winner ? l.lower[c.winner * m + j] : 0) - (j <= c.loser ? l.lower[c.loser * m + j] : 0)
            }
            let w = weights[k]
            for i in 0...top where r[i] != 0 {
                let wi = w * r[i]
                for j in 0...i { b[i * m + j] += wi * r[j] }
            }
        }
        for i in 0..<m { for j in 0..<i { b[j * m + i] = b[i * m + j] } }
        do {
            return try Cholesky(b, n: m)
        } catch {
            throw PreferenceError("the Laplace curvature did not factorise: \(error.description)")
        }
    }
}
