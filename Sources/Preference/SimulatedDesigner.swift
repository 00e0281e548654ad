#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A stand-in designer for benchmarks and tests (Reference §12): a hidden smooth utility over the
/// unit box, u(x) = −(x − x*)ᵀ A (x − x*), with the optimum x* uniform in [0.15, 0.85]^d and
/// A = Q·diag(λ)·Qᵀ (Q a random rotation, λ log-uniform in [1, 10], so some directions matter
/// more), both from the seed. It is reported scaled to [0, 1] over the box: the maximum is
/// u(x*) = 0 exactly and, u being concave, the minimum is at a vertex (all 2^d for d ≤ 12; else
/// a 4096-point quasi-random sample, the scaled value then clamped to [0, 1]). Asked which of
/// some candidates is worst, it answers the smallest of scaled u + ε, ε ~ N(0, noise²) per
/// candidate: the probit model with σ = noise.
public struct SimulatedDesigner: Sendable {
    public let optimum: [Double]
    /// A, row-major d×d.
    public let curvature: [Double]
    /// The sd of the designer's perception error, in scaled utility (0.05 = 5 % of the range).
    public let noise: Double
    let lowest: Double

    public init(dimension d: Int, seed: UInt64, noise: Double = 0.05) {
        var rng = SplitMix64(seed: seed)
        optimum = (0..<d).map { _ in 0.15 + 0.7 * rng.unit() }
        // Q by Gram–Schmidt on a Gaussian matrix's rows.
        var q: [[Double]] = []
        while q.count < d {
            var v = (0..<d).map { _ in rng.normal() }
            for b in q {
                let dot = zip(v, b).reduce(0) { $0 + $1.0 * $1.1 }
                for i in 0..<d { v[i] -= dot * b[i] }
            }
            let norm = v.reduce(0) { $0 + $1 * $1 }.squareRoot()
            if norm > 1e-6 { q.append(v.map { $0 / norm }) }
        }
        let lambda = (0..<d).map { _ in pow(10, rng.unit()) }
        var a = [Double](repeating: 0, count: d * d)
        for i in 0..<d {
            for j in 0..<d {
                var s = 0.0
                for k in 0..<d { s += q[k][i] * lambda[k] * q[k][j] }
                a[i * d + j] = s
            }
        }
        let center = optimum
        curvature = a
        self.noise = noise
        var low = 0.0
        let raw = { (x: [Double]) -> Double in Self.raw(x, optimum: center, a: a) }
        if d <= 12 {
            for corner in 0..<(1 << d) { low = min(low, raw((0..<d).map { Double((corner >> $0) & 1) })) }
        } else {
            let sequence = RSequence(dimension: d, seed: seed)
            for i in 0..<4096 { low = min(low, raw(sequence.point(i))) }
        }
        lowest = low
    }

    static func raw(_ x: [Double], optimum: [Double], a: [Double]) -> Double {
        let d = optimum.count
        var s = 0.0
        for i in 0..<d {
            var row = 0.0
            for j in 0..<d { row += a[i * d + j] * (x[j] - optimum[j]) }
            s += (x[i] - optimum[i]) * row
        }
        return -s
    }

    /// The utility scaled to [0, 1] over the box: 1 at the optimum.
    public func utility(_ x: [Double]) -> Double {
        min(1, max(0, 1 - Self.raw(x, optimum: optimum, a: curvature) / lowest))
    }

    /// The index of the candidate the designer calls worst.
    public func worst(of candidates: [[Double]], using rng: inout SplitMix64) -> Int {
        var pick = 0, low = Double.infinity
        for (i, x) in candidates.enumerated() {
            let perceived = utility(x) + noise * rng.normal()
            if perceived < low { low = perceived; pick = i }
        }
        return pick
    }

    /// How the candidates of a simulated session are chosen.
    public enum Strategy: String, Sendable, CaseIterable {
        /// `Proposal.next`: the best estimate and EUBO candidates.
        case model
        /// Uniformly random points of the box (the best estimate still from the model).
        case random
    }

    /// What a simulated session leaves: the scaled utility of the best estimate after each
    /// round, and the comparisons it gathered.
    public struct Session: Sendable {
        public var scores: [Double]
        public var data: PreferenceData
    }

    /// Plays `rounds` rounds of "which of these `k` is worst?" with a designer of this `seed` over
    /// `space`, fitting the model after each answer, scoring the model's best estimate
    /// (`PreferenceModel.best` over a pool of the seed) after each round.
    public static func run(space: PreferenceSpace, rounds: Int, seed: UInt64, strategy: Strategy, k: Int = 4,
                           noise: Double = 0.05) throws(PreferenceError) -> Session {
        let designer = SimulatedDesigner(dimension: space.dimension, seed: seed, noise: noise)
        let bestPool = Proposal.pool(space: space, seed: seed)
        var answers = SplitMix64(seed: seed &+ 0xA5_5E55)
        var picks = SplitMix64(seed: seed &+ 0x7A2D_0B)
        var data = PreferenceData()
        var model = try PreferenceModel.fit(data, space: space)
        var scores: [Double] = []
        for round in 0..<rounds {
            let shown: [[Double]]
            switch strategy {
            case .model:
                shown = try Proposal.next(k: k, model: model, seed: seed &* 1000 &+ UInt64(round)).map(\.x)
            case .random:
                shown = (0..<k).map { _ in space.snap((0..<space.dimension).map { _ in picks.unit() }) }
            }
            let indices = shown.map { data.add(point: $0) }
            data.record(shown: indices, answer: .worst(indices[designer.worst(of: shown, using: &answers)]))
            model = try PreferenceModel.fit(data, space: space)
            scores.append(model.best(pool: bestPool).map { designer.utility($0.x) } ?? 0)
        }
        return Session(scores: scores, data: data)
    }
}
