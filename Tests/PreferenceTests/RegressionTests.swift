import Foundation
import Testing
@testable import Preference

/// ``Regression`` against the Gaussian-process posterior worked out in closed form.
@Suite struct RegressionTests {
    /// Two points x₁ = 0, x₂ = 1 with standardised values ±1, length-scale ℓ, noise σ²: the
    /// posterior mean at x is k(x)ᵀ(K + σ²I)⁻¹y with K = [[1, r], [r, 1]], r = e^(−1/(2ℓ²)), and
    /// (K + σ²I)⁻¹y = (1/(1 + σ² − r))·[1, −1] for y = [1, −1]; at x = ½ by symmetry the mean is
    /// the values' centre and the variance 1 − 2e^(−1/(4ℓ²))²/(1 + σ² + r).
    @Test func twoPointsInClosedForm() throws {
        let l = 0.4, s2 = 0.01
        let r = try Regression(points: [[0], [1]], standardised: [1, -1], centre: 5, spread: 2,
                               kernel: Kernel(lengthScales: [l]), noise: s2)
        let rho = exp(-1 / (2 * l * l)), a = 1 / (1 + s2 - rho)
        for x in [0.0, 0.3, 1.7] {
            let k1 = exp(-x * x / (2 * l * l)), k2 = exp(-(x - 1) * (x - 1) / (2 * l * l))
            #expect(abs(r.predict([x]).mean - (5 + 2 * a * (k1 - k2))) < 1e-12)
        }
        let k = exp(-0.25 / (2 * l * l))
        let variance = 1 - 2 * k * k / (1 + s2 + rho)
        #expect(abs(r.predict([0.5]).mean - 5) < 1e-12)
        #expect(abs(r.predict([0.5]).sd - 2 * variance.squareRoot()) < 1e-12)
        // log p(y) = −½ yᵀ(K + σ²I)⁻¹y − ½ log det(K + σ²I) − log 2π.
        let evidence = -0.5 * 2 * a - 0.5 * log((1 + s2) * (1 + s2) - rho * rho) - log(2 * Double.pi)
        #expect(abs(r.logEvidence - evidence) < 1e-12)
    }

    /// A smooth function sampled at 30 quasi-random points is predicted within 2 % of its range
    /// between them, and the fit picks a long length-scale over the noisiest choices.
    @Test func fitsASmoothFunction() throws {
        let f = { (x: [Double]) in sin(3 * x[0]) + 0.5 * x[1] * x[1] }
        let sequence = RSequence(dimension: 2, seed: 3)
        let points = (0..<30).map(sequence.point)
        let model = try Regression.fit(points: points, values: points.map(f))
        for x in [[0.5, 0.5], [0.2, 0.8], [0.9, 0.1]] { #expect(abs(model.predict(x).mean - f(x)) < 0.02 * 1.5) }
        #expect(model.noise < 0.01)
        // Observed at its own mean, a point's uncertainty shrinks and the mean stays.
        let x = [0.33, 0.66], before = model.predict(x)
        let after = try model.adding(x, value: before.mean).predict(x)
        #expect(after.sd < before.sd)
        #expect(abs(after.mean - before.mean) < 1e-9)
    }

    @Test func refusesBadInput() {
        #expect(throws: PreferenceError.self) { try Regression.fit(points: [], values: []) }
        #expect(throws: PreferenceError.self) { try Regression.fit(points: [[0]], values: [.nan]) }
    }
}
