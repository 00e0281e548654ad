import Foundation
import Testing
@testable import Preference

/// ``PreferenceModel`` against the prior, symmetry, and the mode's own equations solved independently.
@Suite struct PreferenceModelTests {
    let space = try! PreferenceSpace(axes: [.numeric("a", min: 0, max: 1), .numeric("b", min: 0, max: 1), .numeric("c", min: 0, max: 1)])
    /// One kernel and noise, so a test sees the Laplace fit alone.
    let fixed = HyperGrid(lengthScales: [0.3], noises: [0.1], ardFactors: [], passes: 0, shortest: 0.1, longest: 1, ardFrom: 0)

    @Test func withoutDataTheMeanIsZeroAndTheSdThePriors() throws {
        let model = try PreferenceModel.fit(PreferenceData(), space: space)
        for x in [[0.1, 0.2, 0.3], [1, 1, 1], [0.5, 0, 0.9]] {
            #expect(model.mean(x) == 0)
            #expect(abs(model.sd(x) - 1) < 1e-12)
        }
    }

    /// The prior's difference f(x) − f(y): mean 0, variance 2 − 2k(x, y) with ℓ = 0.3 (closed form);
    /// after a ≻ b the difference of a over b is positive and surer than the prior's.
    @Test func differencesAgainstThePriorAndAComparison() throws {
        let (x, y) = ([0.1, 0.2, 0.3], [0.4, 0.2, 0.7])
        let prior = try PreferenceModel.fit(PreferenceData(), space: space)
        let k = exp(-0.5 * zip(x, y).reduce(0) { $0 + pow(($1.0 - $1.1) / 0.3, 2) })
        #expect(prior.difference(x, y).mean == 0)
        #expect(abs(prior.difference(x, y).sd - (2 - 2 * k).squareRoot()) < 1e-9)
        #expect(prior.difference(x, x).sd == 0)
        var data = PreferenceData()
        data.prefer(data.add(point: x), over: data.add(point: y))
        let model = try PreferenceModel.fit(data, space: space, grid: fixed)
        let d = model.difference(x, y)
        #expect(d.mean > 0 && d.sd < (2 - 2 * k).squareRoot())
        #expect(abs(d.mean - (model.mean(x) - model.mean(y))) < 1e-12)
    }

    /// One comparison a ≻ b: the mode is f_a = −f_b > 0 and the posterior means at a and b mirror.
    @Test func oneComparisonIsSymmetric() throws {
        var data = PreferenceData()
        let a = data.add(point: [0.2, 0.3, 0.4]), b = data.add(point: [0.7, 0.6, 0.5])
        data.prefer(a, over: b)
        let model = try PreferenceModel.fit(data, space: space)
        let ma = model.mean([0.2, 0.3, 0.4]), mb = model.mean([0.7, 0.6, 0.5])
        #expect(ma > 0 && ma > mb)
        #expect(abs(ma + mb) < 1e-9)
        #expect(abs(model.sd([0.2, 0.3, 0.4]) - model.sd([0.7, 0.6, 0.5])) < 1e-9)
    }

    /// a ≻ b and b ≻ a: nothing to tell them apart, both modes 0.
    @Test func opposedComparisonsCancel() throws {
        var data = PreferenceData()
        let a = data.add(point: [0.2, 0.3, 0.4]), b = data.add(point: [0.7, 0.6, 0.5])
        data.prefer(a, over: b)
        data.prefer(b, over: a)
        let model = try PreferenceModel.fit(data, space: space)
        #expect(model.mode.allSatisfy { abs($0) < 1e-12 })
    }

    /// With one comparison the mode is f_a = −f_b = zs/2 (s = √2σ), where z solves
    /// z = 2(K_aa − K_ab)·λ(z)/s², λ = φ/Φ: found here by bisection with the kernel written out.
    @Test func oneComparisonMatchesABisection() throws {
        var data = PreferenceData()
        let pa = [0.1, 0.5, 0.9], pb = [0.4, 0.45, 0.8]
        data.prefer(data.add(point: pa), over: data.add(point: pb))
        let model = try PreferenceModel.fit(data, space: space)
        let l = model.kernel.lengthScales, s = 2.0.squareRoot() * model.noise
        let kab = exp(-0.5 * (0..<3).reduce(0.0) { $0 + pow((pa[$1] - pb[$1]) / l[$1], 2) })
        let kaa = 1 + 1e-6
        let mills = { (z: Double) in exp(-z * z / 2) / (2 * Double.pi).squareRoot() / (0.5 * erfc(-z / 2.0.squareRoot())) }
        var lo = 0.0, hi = 100.0
        for _ in 0..<200 {
            let z = (lo + hi) / 2
            if z - 2 * (kaa - kab) * mills(z) / (s * s) < 0 { lo = z } else { hi = z }
        }
        let fa = (lo + hi) / 2 * s / 2
        #expect(abs(model.mode[0] - fa) < 1e-9)
        #expect(abs(model.mode[1] + fa) < 1e-9)
    }

    /// ARD waits for `ardFrom` comparisons per coordinate: with 20 comparisons over 3 coordinates
    /// (under 7 each) every length-scale is the same; with 60 of them, where only coordinate a
    /// decides, the fit gives the coordinates different length-scales.
    @Test func ardWaitsForEnoughComparisons() throws {
        var rng = SplitMix64(seed: 3)
        var data = PreferenceData()
        func add(_ n: Int) {
            for _ in 0..<n {
                let p = (0..<3).map { _ in rng.unit() }, q = (0..<3).map { _ in rng.unit() }
                let i = data.add(point: p), j = data.add(point: q)
                if p[0] > q[0] { data.prefer(i, over: j) } else { data.prefer(j, over: i) }
            }
        }
        add(20)
        let few = try PreferenceModel.fit(data, space: space).kernel.lengthScales
        #expect(Set(few).count == 1, "\(few)")
        add(40)
        let many = try PreferenceModel.fit(data, space: space).kernel.lengthScales
        #expect(Set(many).count > 1, "\(many)")
    }

    /// The Laplace mode satisfies f̂ = K·∇log-likelihood(f̂) to 1e-8, on a larger seeded data set.
    @Test func modeSatisfiesItsGradientCondition() throws {
        var data = PreferenceData()
        var rng = SplitMix64(seed: 11)
        for _ in 0..<40 {
            let i = data.add(point: (0..<3).map { _ in rng.unit() }), j = data.add(point: (0..<3).map { _ in rng.unit() })
            data.prefer(i, over: j)
        }
        for grid in [fixed, .standard] {
            let model = try PreferenceModel.fit(data, space: space, grid: grid)
            let k = model.priorCovariance, g = model.likelihoodGradient, m = model.mode.count
            for i in 0..<m {
                let kg = (0..<m).reduce(0.0) { $0 + k[i * m + $1] * g[$1] }
                #expect(abs(model.mode[i] - kg) < 1e-8)
            }
        }
    }

    /// Under fixed hyperparameters, one more win for a point never lowers its posterior mean.
    @Test func moreWinsNeverLowerAPointsMean() throws {
        var rng = SplitMix64(seed: 5)
        var data = PreferenceData()
        let points = (0..<12).map { _ in (0..<3).map { _ in rng.unit() } }
        for p in points { data.add(point: p) }
        for _ in 0..<15 { data.prefer(Int(rng.next() % 12), over: Int(rng.next() % 12)) }
        var before = try PreferenceModel.fit(data, space: space, grid: fixed).mean(points[0])
        for loser in 1..<12 {
            data.prefer(0, over: loser)
            let after = try PreferenceModel.fit(data, space: space, grid: fixed).mean(points[0])
            #expect(after >= before - 1e-12)
            before = after
        }
    }

    /// Worst of K gives K − 1 comparisons against the worst; best of K, K − 1 for the best; "same" none.
    @Test func answersBecomeComparisons() {
        var data = PreferenceData()
        let shown = (0..<4).map { data.add(point: [Double($0) / 4, 0, 0]) }
        #expect(data.add(point: [0.25, 0, 0]) == 1)
        data.record(shown: shown, answer: .worst(shown[2]))
        #expect(data.comparisons == [0, 1, 3].map { Comparison(winner: $0, loser: 2) })
        data.record(shown: shown, answer: .same)
        #expect(data.comparisons.count == 3)
        data.record(shown: shown, answer: .best(shown[3]))
        #expect(Array(data.comparisons[3...]) == [0, 1, 2].map { Comparison(winner: 3, loser: $0) })
    }
}
