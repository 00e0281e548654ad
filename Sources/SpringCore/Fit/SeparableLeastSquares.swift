import Foundation

/// Why a fit of recorded motion failed: one sentence for the user.
public enum FitError: Error, Equatable, CustomStringConvertible {
    /// Fewer samples than the fit needs.
    case tooFewSamples(count: Int, minimum: Int)
    /// More samples than a fit takes.
    case tooManySamples(count: Int, maximum: Int)
    /// Sample `index` (0-based) is not later than the one before it by at least
    /// ``FitSamples/minimumStep``.
    case timeNotIncreasing(index: Int)
    /// The samples span more than ``FitSamples/maximumSpan``.
    case spanTooLong(Double)
    /// Every value is the same: there is no motion.
    case constant
    /// The best the model can do is far from the samples (or degenerate): why, in words.
    case notThisMotion(String)

    /// Why the fit failed, in one line for the user.
    public var description: String {
        switch self {
        case let .tooFewSamples(n, m): "\(n) samples: a fit needs at least \(m)"
        case let .tooManySamples(n, m): "\(n) samples: a fit takes at most \(m) (thin the file)"
        case .timeNotIncreasing: "times must increase from sample to sample, by at least 1e-9 s"
        case let .spanTooLong(s): "the samples span \(s) s; a fit takes at most \(FitSamples.maximumSpan) s"
        case .constant: "the values do not change: there is no motion to fit"
        case let .notThisMotion(why): why
        }
    }
}

/// Checks shared by the fits: enough samples, increasing times, a bounded span, some motion.
public enum FitSamples {
    /// Smallest accepted step between consecutive times (s).
    public static let minimumStep = 1e-9
    /// Longest accepted span, first to last sample (s).
    public static let maximumSpan = 1e6
    /// Most samples one fit takes.
    public static let maximumCount = 100_000

    /// Throws the first problem of `times`/`values` (same length) for a fit needing `minimum` samples.
    public static func check(times: [Double], values: [Double], minimum: Int) throws(FitError) {
        precondition(times.count == values.count, "times and values differ in length")
        guard times.count >= minimum else { throw .tooFewSamples(count: times.count, minimum: minimum) }
        guard times.count <= maximumCount else { throw .tooManySamples(count: times.count, maximum: maximumCount) }
        for i in 1..<times.count where !(times[i] - times[i - 1] >= minimumStep) { throw .timeNotIncreasing(index: i) }
        let span = times[times.count - 1] - times[0]
        guard span <= maximumSpan else { throw .spanTooLong(span) }
        let lo = values.min()!, hi = values.max()!
        guard hi - lo > 1e-9 * max(abs(lo), abs(hi)) else { throw .constant }
    }

    /// The median spacing of the times (s).
    static func medianStep(_ times: [Double]) -> Double {
        median(zip(times.dropFirst(), times).map { $0 - $1 })
    }

    /// The median of a non-empty list (the mean of the middle two for an even count).
    public static func median(_ values: [Double]) -> Double {
        let s = values.sorted(), n = s.count
        return n % 2 == 1 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2])
    }
}

/// Linear least squares min ‖Σⱼ cⱼ·aⱼ − y‖ over the columns aⱼ, by Gram–Schmidt with a
/// second orthogonalisation pass (as accurate as Householder QR for the residual). A column
/// that is (numerically) a combination of the earlier ones gets coefficient 0.
struct LinearLeastSquares {
    /// The coefficients cⱼ, one per column.
    var coefficients: [Double]
    /// y − Σⱼ cⱼ·aⱼ.
    var residuals: [Double]
    /// ‖residuals‖².
    var sumOfSquares: Double

    init(columns: [[Double]], _ y: [Double]) {
        let n = y.count, p = columns.count
        var q = [Double](repeating: 0, count: p * n)    // orthonormal basis of the kept columns, one after another
        var kept: [Int] = []
        var r = [Double](repeating: 0, count: p * p)    // r[k·p + j]: component of column j along basis vector k
        var res = y
        var qty = [Double](repeating: 0, count: p)
        q.withUnsafeMutableBufferPointer { q in
            r.withUnsafeMutableBufferPointer { r in
                for (j, a) in columns.enumerated() {
                    var v = a
                    let norm0 = v.withUnsafeBufferPointer { Self.dot($0, $0) }.squareRoot()
                    guard norm0 > 0, norm0.isFinite else { continue }
                    let norm = v.withUnsafeMutableBufferPointer { v in
                        for _ in 0..<2 {
                            for k in 0..<kept.count { r[k * p + j] += Self.subtractProjection(from: v, onto: q, at: k * n) }
                        }
                        return Self.dot(UnsafeBufferPointer(v), UnsafeBufferPointer(v)).squareRoot()
                    }
                    guard norm > 1e-10 * norm0 else { continue }
                    r[kept.count * p + j] = norm
                    for i in 0..<n { q[kept.count * n + i] = v[i] / norm }
                    kept.append(j)
                }
            }
            res.withUnsafeMutableBufferPointer { res in
                for _ in 0..<2 {
                    for k in 0..<kept.count { qty[k] += Self.subtractProjection(from: res, onto: q, at: k * n) }
                }
            }
        }
        // Back substitution on the kept columns: R c = Qᵀy.
        var c = [Double](repeating: 0, count: p)
        for k in stride(from: kept.count - 1, through: 0, by: -1) {
            var s = qty[k]
            for m in (k + 1)..<kept.count { s -= r[k * p + kept[m]] * c[kept[m]] }
            c[kept[k]] = s / r[k * p + kept[k]]
        }
        coefficients = c
        residuals = res
        sumOfSquares = res.withUnsafeBufferPointer { Self.dot($0, $0) }
    }

    /// v −= (q·v)·q for the basis vector q starting at `offset`; returns q·v.
    private static func subtractProjection(from v: UnsafeMutableBufferPointer<Double>, onto q: UnsafeMutableBufferPointer<Double>, at offset: Int) -> Double {
        var d = 0.0
        for i in 0..<v.count { d += q[offset + i] * v[i] }
        for i in 0..<v.count { v[i] -= d * q[offset + i] }
        return d
    }

    static func dot(_ a: UnsafeBufferPointer<Double>, _ b: UnsafeBufferPointer<Double>) -> Double {
        var s = 0.0
        for i in 0..<a.count { s += a[i] * b[i] }
        return s
    }

    static func dot(_ a: [Double], _ b: [Double]) -> Double {
        a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { dot(a, $0) } }
    }
}

/// Separable nonlinear least squares by variable projection: the model is Σⱼ cⱼ·φⱼ(θ; t),
/// linear in the coefficients c for fixed nonlinear parameters θ. For each θ the best c comes
/// from ``LinearLeastSquares``, which leaves the residual r(θ); θ minimises ‖r(θ)‖² by
/// Levenberg–Marquardt within box bounds, with the Jacobian of r by central differences
/// (one-sided at a bound).
struct VariableProjection {
    /// The samples fitted.
    let y: [Double]
    /// θ ↦ the model's columns φⱼ(θ; tᵢ), or nil where θ is not allowed.
    let basis: ([Double]) -> [[Double]]?
    let lower: [Double]
    let upper: [Double]

    /// The linear solution at θ, or nil when θ is not allowed or the result is not finite.
    func solve(_ theta: [Double]) -> LinearLeastSquares? {
        guard let columns = basis(theta) else { return nil }
        let s = LinearLeastSquares(columns: columns, y)
        return s.sumOfSquares.isFinite ? s : nil
    }

    /// ‖r(θ)‖², +∞ where θ is not allowed.
    func sumOfSquares(_ theta: [Double]) -> Double { solve(theta)?.sumOfSquares ?? .infinity }

    /// Levenberg–Marquardt from `start`: stops when a step changes no parameter by more than
    /// 1e-13 (relative to max(1, |θₖ|)), when no damping makes progress, or after 300 steps.
    func minimize(from start: [Double]) -> (theta: [Double], sumOfSquares: Double) {
        var theta = zip(zip(start, lower), upper).map { min(max($0.0, $0.1), $1) }
        guard var current = solve(theta) else { return (theta, .infinity) }
        var mu = 1e-3
        let p = theta.count
        for _ in 0..<300 {
            guard let jacobian = self.jacobian(at: theta) else { break }
            // Normal equations of the linearised problem: (JᵀJ + μ·diag JᵀJ) δ = −Jᵀr.
            var h = Array(repeating: Array(repeating: 0.0, count: p), count: p), g = Array(repeating: 0.0, count: p)
            for a in 0..<p {
                g[a] = LinearLeastSquares.dot(jacobian[a], current.residuals)
                for b in 0..<p { h[a][b] = LinearLeastSquares.dot(jacobian[a], jacobian[b]) }
            }
            let scale = h.indices.map { h[$0][$0] }.max() ?? 0
            guard scale > 0, scale.isFinite else { break }
            var accepted = false, converged = false
            while mu < 1e14 {
                var m = h
                for a in 0..<p { m[a][a] += mu * max(h[a][a], 1e-12 * scale) }
                guard let delta = Self.solveSmall(m, g.map { -$0 }) else { mu *= 10; continue }
                let next = (0..<p).map { min(max(theta[$0] + delta[$0], lower[$0]), upper[$0]) }
                if (0..<p).allSatisfy({ abs(next[$0] - theta[$0]) <= 1e-13 * max(1, abs(theta[$0])) }) { converged = true; break }
                if let trial = solve(next), trial.sumOfSquares < current.sumOfSquares {
                    theta = next
                    current = trial
                    mu = max(mu / 10, 1e-15)
                    accepted = true
                    break
                }
                mu *= 10
            }
            if converged || !accepted || current.sumOfSquares == 0 { break }
        }
        return (theta, current.sumOfSquares)
    }

    /// Columns ∂r/∂θₖ by central differences (one-sided at a bound), nil if r is undefined there.
    private func jacobian(at theta: [Double]) -> [[Double]]? {
        var columns: [[Double]] = []
        for k in theta.indices {
            let h = 1e-6 * max(1, abs(theta[k]))
            var plus = theta, minus = theta
            plus[k] = min(theta[k] + h, upper[k])
            minus[k] = max(theta[k] - h, lower[k])
            guard plus[k] > minus[k], let rp = solve(plus)?.residuals, let rm = solve(minus)?.residuals else { return nil }
            let step = plus[k] - minus[k]
            columns.append(zip(rp, rm).map { ($0 - $1) / step })
        }
        return columns
    }

    /// Solves the small system m·x = b by Gaussian elimination with partial pivoting; nil if singular.
    static func solveSmall(_ m: [[Double]], _ b: [Double]) -> [Double]? {
        var a = m, x = b
        let n = b.count
        for col in 0..<n {
            let pivot = (col..<n).max { abs(a[$0][col]) < abs(a[$1][col]) }!
            guard abs(a[pivot][col]) > 0, a[pivot][col].isFinite else { return nil }
            a.swapAt(col, pivot); x.swapAt(col, pivot)
            for row in (col + 1)..<n {
                let f = a[row][col] / a[col][col]
                for c in col..<n { a[row][c] -= f * a[col][c] }
                x[row] -= f * x[col]
            }
        }
        for row in stride(from: n - 1, through: 0, by: -1) {
            var s = x[row]
            for c in (row + 1)..<n { s -= a[row][c] * x[c] }
            x[row] = s / a[row][row]
        }
        return x.allSatisfy(\.isFinite) ? x : nil
    }
}
