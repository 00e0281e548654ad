import Foundation
import Testing
@testable import Preference

/// ``Cholesky`` against factorisations worked out by hand.
@Suite struct CholeskyTests {
    func close(_ a: [Double], _ b: [Double], _ tolerance: Double = 1e-12) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= tolerance * max(1, abs($1)) }
    }

    /// [[4, 2], [2, 3]] = L Lᵀ with L = [[2, 0], [1, √2]]: L₁₁ = √4, L₂₁ = 2/2, L₂₂ = √(3 − 1).
    @Test func twoByTwoByHand() throws {
        let c = try Cholesky([4, 2, 2, 3], n: 2)
        #expect(close(c.lower, [2, 0, 1, 2.0.squareRoot()]))
        #expect(c.jitter == 0)
        #expect(abs(c.logDeterminant - log(8)) < 1e-14)
    }

    /// The textbook example [[4, 12, −16], [12, 37, −43], [−16, −43, 98]], L = [[2, 0, 0], [6, 1, 0], [−8, 5, 3]].
    @Test func knownThreeByThree() throws {
        let c = try Cholesky([4, 12, -16, 12, 37, -43, -16, -43, 98], n: 3)
        #expect(close(c.lower, [2, 0, 0, 6, 1, 0, -8, 5, 3]))
        #expect(abs(c.logDeterminant - log(36)) < 1e-12)  // det = (2·1·3)²
    }

    /// A = M Mᵀ + I for a seeded M: L·Lᵀ gives A back, and solving A x = A·x₀ gives x₀.
    @Test func reconstructsAndSolves() throws {
        let n = 40
        var rng = SplitMix64(seed: 7)
        let m = (0..<(n * n)).map { _ in rng.normal() }
        var a = [Double](repeating: 0, count: n * n)
        for i in 0..<n { for j in 0..<n {
            var s = i == j ? 1.0 : 0
            for k in 0..<n { s += m[i * n + k] * m[j * n + k] }
            a[i * n + j] = s
        } }
        let c = try Cholesky(a, n: n)
        var back = [Double](repeating: 0, count: n * n)
        for i in 0..<n { for j in 0..<n {
            var s = 0.0
            for k in 0..<n { s += c.lower[i * n + k] * c.lower[j * n + k] }
            back[i * n + j] = s
        } }
        #expect(close(back, a, 1e-12))
        let x0 = (0..<n).map { Double($0 % 7) - 3 }
        let b = (0..<n).map { i in (0..<n).reduce(0.0) { $0 + a[i * n + $1] * x0[$1] } }
        #expect(close(c.solve(b), x0, 1e-8))
    }

    @Test func logDeterminantOfADiagonal() throws {
        let d = [0.5, 2, 8, 1e-3]
        var a = [Double](repeating: 0, count: 16)
        for i in 0..<4 { a[i * 4 + i] = d[i] }
        let c = try Cholesky(a, n: 4)
        #expect(abs(c.logDeterminant - d.map(log).reduce(0, +)) < 1e-13)
    }

    /// [[1, 1], [1, 1]] is singular: it factorises with a small jitter; a negative definite matrix never does.
    @Test func jitterEscalation() throws {
        let c = try Cholesky([1, 1, 1, 1], n: 2)
        #expect(c.jitter > 0 && c.jitter <= 1e-4)
        #expect(throws: CholeskyError.self) { try Cholesky([-1, 0, 0, -1], n: 2) }
        #expect(throws: CholeskyError.self) { try Cholesky([1, 2, 3], n: 2) }
    }
}

/// ``Normal`` against known values and its own inverse.
@Suite struct NormalTests {
    @Test func knownValues() {
        #expect(Normal.cdf(0) == 0.5)
        #expect(abs(Normal.cdf(1.959963984540054) - 0.975) < 1e-15)
        #expect(abs(Normal.quantile(0.975) - 1.959963984540054) < 1e-12)
        for z in stride(from: -8.0, through: 3, by: 0.37) { #expect(abs(Normal.quantile(Normal.cdf(z)) - z) < 1e-9 * max(1, abs(z))) }
    }

    /// The tail series agrees with erfc where both work (just past the switch at z = −30), and
    /// log Φ stays finite far out.
    @Test func tailsAreContinuous() {
        for z in [-30.5, -32.0, -36.0] {
            let direct = 0.5 * erfc(-z / 2.0.squareRoot())
            #expect(abs(Normal.logCDF(z) - log(direct)) < 1e-9 * abs(log(direct)))
            #expect(abs(Normal.millsRatio(z) - Normal.density(z) / direct) < 1e-9 * abs(z))
        }
        #expect(Normal.logCDF(-1e3).isFinite && Normal.millsRatio(-1e3) > 1e3 - 1e-3)
        #expect(abs(Normal.millsRatio(0) - 2 * Normal.density(0)) < 1e-15)
    }
}
