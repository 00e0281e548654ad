#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a matrix could not be factorised.
public struct CholeskyError: Error, Sendable, CustomStringConvertible {
    public var description: String
}

/// The Cholesky factorisation A = L·Lᵀ of a symmetric positive-definite n×n matrix, stored
/// row-major in a `[Double]` of n² entries (only the lower triangle of A is read).
///
/// When A is not numerically positive-definite (a Gram matrix of nearly equal points), the
/// factorisation is retried on A + εI with ε = 1e-10 · mean(diag A), then ×10 each try up to
/// 1e-4 · mean(diag A); `jitter` records the ε used (0 when none was needed). An n of a few
/// hundred costs n³/3 multiply-adds.
public struct Cholesky: Sendable {
    public let n: Int
    /// L, row-major, zeros above the diagonal.
    public let lower: [Double]
    /// The ε added to A's diagonal so it factorised (0 when none was needed).
    public let jitter: Double

    public init(_ a: [Double], n: Int) throws(CholeskyError) {
        guard n >= 0, a.count == n * n else { throw CholeskyError(description: "a \(n)×\(n) matrix needs \(n * n) entries, got \(a.count)") }
        self.n = n
        if let l = Self.factor(a, n: n, jitter: 0) {
            lower = l; jitter = 0; return
        }
        var scale = 0.0
        for i in 0..<n { scale += abs(a[i * n + i]) }
        scale = n > 0 && scale > 0 ? scale / Double(n) : 1
        var eps = 1e-10 * scale
        while eps <= 1e-4 * scale * 1.0000001 {
            if let l = Self.factor(a, n: n, jitter: eps) {
                lower = l; jitter = eps; return
            }
            eps *= 10
        }
        throw CholeskyError(description: "the matrix is not positive-definite, even with \(1e-4 * scale) added to its diagonal")
    }

    /// The row-oriented Cholesky–Banachiewicz recurrence:
    /// L_jj = √(A_jj + ε − Σ_{k<j} L_jk²), L_ij = (A_ij − Σ_{k<j} L_ik L_jk) / L_jj for i > j.
    /// Nil when a pivot is not positive and finite.
    private static func factor(_ a: [Double], n: Int, jitter: Double) -> [Double]? {
        var l = [Double](repeating: 0, count: n * n)
        let ok = l.withUnsafeMutableBufferPointer { l -> Bool in
            a.withUnsafeBufferPointer { a -> Bool in
                for i in 0..<n {
                    let ri = i * n
                    for j in 0...i {
                        let rj = j * n
                        var s = a[ri + j]
                        for k in 0..<j { s -= l[ri + k] * l[rj + k] }
                        if i == j {
                            s += jitter
                            guard s > 0, s.isFinite else { return false }
                            l[ri + i] = s.squareRoot()
                        } else {
                            l[ri + j] = s / l[rj + j]
                        }
                    }
                }
                return true
            }
        }
        return ok ? l : nil
    }

    /// y with L·y = b (forward substitution).
    public func solveLower(_ b: [Double]) -> [Double] {
        precondition(b.count == n)
        var y = b
        lower.withUnsafeBufferPointer { l in
            for i in 0..<n {
                var s = y[i]
                let r = i * n
                for k in 0..<i { s -= l[r + k] * y[k] }
                y[i] = s / l[r + i]
            }
        }
        return y
    }

    /// x with Lᵀ·x = y (back substitution).
    public func solveUpper(_ y: [Double]) -> [Double] {
        precondition(y.count == n)
        var x = y
        lower.withUnsafeBufferPointer { l in
            for i in stride(from: n - 1, through: 0, by: -1) {
                var s = x[i]
                for k in (i + 1)..<n { s -= l[k * n + i] * x[k] }
                x[i] = s / l[i * n + i]
            }
        }
        return x
    }

    /// x with (A + εI)·x = b.
    public func solve(_ b: [Double]) -> [Double] { solveUpper(solveLower(b)) }

    /// L·v.
    public func multiplyLower(_ v: [Double]) -> [Double] {
        precondition(v.count == n)
        var out = [Double](repeating: 0, count: n)
        for i in 0..<n {
            var s = 0.0
            for k in 0...i { s += lower[i * n + k] * v[k] }
            out[i] = s
        }
        return out
    }

    /// log det(A + εI) = 2 Σ log L_ii.
    public var logDeterminant: Double {
        var s = 0.0
        for i in 0..<n { s += log(lower[i * n + i]) }
        return 2 * s
    }
}
