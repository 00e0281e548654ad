/// The next candidates to show (Reference §12): the current best by posterior mean, then, one
/// at a time, the candidate that most raises the expected utility of the best option,
/// EUBO(x₁…x_K) = E[max f(x_i)] under the posterior, chosen from a seeded quasi-random pool
/// and refined by a local search. A candidate the caller's `feasible` rejects is never proposed.
public enum Proposal {
    /// Pool size: quasi-random points of the unit box tried for each candidate.
    public static let poolSize = 768
    /// Standard normal quasi-Monte-Carlo draws for EUBO of three or more candidates.
    static let draws = 128
    /// Trials of the local refinement around each EUBO candidate.
    static let refinements = 24

    /// `count` feasible points of the unit box, snapped to the space (word axes one-hot), from
    /// the R_d sequence shifted by `seed` (at most 20·count tries).
    public static func pool(space: PreferenceSpace, count: Int = poolSize, seed: UInt64, feasible: ([Double]) -> Bool) -> [[Double]] {
        let sequence = RSequence(dimension: space.dimension, seed: seed)
        var out: [[Double]] = []
        var i = 0
        while out.count < count, i < 20 * count {
            let x = space.snap(sequence.point(i))
            if feasible(x) { out.append(x) }
            i += 1
        }
        return out
    }

    /// The next `k` (2…6) candidates, the first being the current best. Fewer come back only when
    /// fewer distinct feasible points were found; none when none is feasible (throws).
    public static func next(k: Int, model: PreferenceModel, seed: UInt64, feasible: @escaping ([Double]) -> Bool = { _ in true }) throws(PreferenceError) -> [Estimate] {
        guard (2...6).contains(k) else { throw PreferenceError("propose 2 to 6 candidates, not \(k)") }
        let pool = Self.pool(space: model.space, seed: seed, feasible: feasible)
        guard let best = model.best(pool: pool, feasible: feasible) else { throw PreferenceError("no feasible candidate in \(20 * poolSize) tries") }
        let normals = Self.normals(seed: seed)
        let incumbent = model.project(best.x)
        var chosen = [incumbent]
        let projected = plausible(pool.map(model.project), incumbent, model: model, keep: 8 * (k - 1))
        while chosen.count < k {
            var top = -Double.infinity, pick: PreferenceModel.Projection?
            for p in projected where !chosen.contains(where: { $0.x == p.x }) {
                let value = eubo(chosen + [p], model: model, normals: normals)
                if value > top { top = value; pick = p }
            }
            guard let pick else { break }
            chosen.append(pick)
        }
        var rng = SplitMix64(seed: seed ^ 0x5EED_0F_EEB0)
        for c in chosen.indices.dropFirst() {
            var value = eubo(chosen, model: model, normals: normals)
            for trial in 0..<refinements {
                let radius = 0.1 * (1 - Double(trial) / Double(refinements)) + 0.01
                let y = model.space.snap(chosen[c].x.map { $0 + radius * rng.normal() })
                guard !chosen.contains(where: { $0.x == y }), feasible(y) else { continue }
                let candidate = model.project(y)
                guard chanceOfBeating(incumbent, candidate, model: model) >= plausibility else { continue }
                var trialSet = chosen
                trialSet[c] = candidate
                let v = eubo(trialSet, model: model, normals: normals)
                if v > value { value = v; chosen = trialSet }
            }
        }
        return chosen.map { model.estimate($0.x) }
    }

    /// The least posterior probability of beating the current best a candidate needs.
    public static let plausibility = 0.15

    /// P(f(x) > f(best)) = Φ((μ_x − μ_best)/θ), θ² = var(f(x) − f(best)).
    static func chanceOfBeating(_ best: PreferenceModel.Projection, _ x: PreferenceModel.Projection, model: PreferenceModel) -> Double {
        let theta = max(0, model.covariance(x, x) + model.covariance(best, best) - 2 * model.covariance(x, best)).squareRoot()
        guard theta > 1e-12 else { return x.mean > best.mean ? 1 : 0 }
        return Normal.cdf((x.mean - best.mean) / theta)
    }

    /// The pool points that could still beat the current best (chance ≥ `plausibility`), or, when
    /// fewer than `keep` can, the `keep` likeliest. A designer who is asked for the worst of a
    /// set tells nothing about its best ones when one candidate is sure to lose; EUBO alone would
    /// keep such a "wild card" in the set, round after round.
    static func plausible(_ pool: [PreferenceModel.Projection], _ best: PreferenceModel.Projection, model: PreferenceModel, keep: Int) -> [PreferenceModel.Projection] {
        let chances = pool.map { chanceOfBeating(best, $0, model: model) }
        let passing = pool.indices.filter { chances[$0] >= plausibility }
        if passing.count >= keep { return passing.map { pool[$0] } }
        return pool.indices.sorted { chances[$0] > chances[$1] || (chances[$0] == chances[$1] && $0 < $1) }.prefix(keep).map { pool[$0] }
    }

    /// Standard normal vectors (6 coordinates, enough for K ≤ 6) from the R_d sequence, the same
    /// for every EUBO of one proposal (common random numbers keep comparisons fair).
    static func normals(seed: UInt64) -> [[Double]] {
        let sequence = RSequence(dimension: 6, seed: seed)
        return (0..<draws).map { i in sequence.point(i).map { Normal.quantile(min(max($0, 1e-12), 1 - 1e-12)) } }
    }

    /// E[max f(x_i)] under the posterior. For two points the closed form
    /// μ₁Φ(δ/θ) + μ₂Φ(−δ/θ) + θφ(δ/θ), δ = μ₁ − μ₂, θ² = var(f₁ − f₂); for more, the mean of
    /// max(μ + L z) over the fixed normal draws z (Σ = L Lᵀ).
    static func eubo(_ set: [PreferenceModel.Projection], model: PreferenceModel, normals: [[Double]]) -> Double {
        let q = set.count
        var cov = [Double](repeating: 0, count: q * q)
        for i in 0..<q {
            for j in 0...i {
                let c = model.covariance(set[i], set[j])
                cov[i * q + j] = c
                cov[j * q + i] = c
            }
        }
        if q == 2 {
            let theta = max(0, cov[0] + cov[3] - 2 * cov[1]).squareRoot()
            let delta = set[0].mean - set[1].mean
            guard theta > 1e-12 else { return max(set[0].mean, set[1].mean) }
            let z = delta / theta
            return set[0].mean * Normal.cdf(z) + set[1].mean * Normal.cdf(-z) + theta * Normal.density(z)
        }
        guard let l = try? Cholesky(cov, n: q) else { return set.map(\.mean).max() ?? 0 }
        var total = 0.0
        for z in normals {
            var top = -Double.infinity
            for i in 0..<q {
                var f = set[i].mean
                for j in 0...i { f += l.lower[i * q + j] * z[j] }
                top = max(top, f)
            }
            total += top
        }
        return total / Double(normals.count)
    }
}
