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

    /// `count` points of the unit box, snapped to the space (word axes one-hot), from the R_d
    /// sequence shifted by `seed`.
    public static func pool(space: PreferenceSpace, count: Int = poolSize, seed: UInt64) -> [[Double]] {
        let sequence = RSequence(dimension: space.dimension, seed: seed)
        return (0..<count).map { space.snap(sequence.point($0)) }
    }

    /// The next `k` (2…6) candidates, the first being the current best. Fewer come back only when
    /// fewer distinct feasible points were found; none when none is feasible (throws).
    ///
    /// `feasible` is asked lazily, the most promising point first, and only about a candidate
    /// that would be taken (a few dozen calls per proposal), so it may measure the candidate.
    /// The candidates come from `given` when it is there (a caller's pool, e.g. already known to
    /// be feasible), else from the pool of `seed`.
    public static func next(k: Int, model: PreferenceModel, seed: UInt64, pool given: [[Double]]? = nil,
                            feasible: @escaping ([Double]) -> Bool = { _ in true }) throws(PreferenceError) -> [Estimate] {
        guard (2...6).contains(k) else { throw PreferenceError("propose 2 to 6 candidates, not \(k)") }
        var known: [[Double]: Bool] = [:]
        let ok = { (x: [Double]) -> Bool in
            if let answer = known[x] { return answer }
            let answer = feasible(x)
            known[x] = answer
            return answer
        }
        let pool = given ?? Self.pool(space: model.space, seed: seed)
        guard let best = model.best(pool: pool, feasible: ok) else {
            throw PreferenceError("no feasible candidate among the \(model.points.count) shown points and \(pool.count) pool points")
        }
        let normals = Self.normals(seed: seed)
        let incumbent = model.project(best.x)
        var chosen = [incumbent]
        let projected = pool.map(model.project)
        // The candidates that could still beat the best first; all of the pool when none of them is feasible.
        let tiers = [plausible(projected, incumbent, model: model, keep: 8 * (k - 1)), Array(projected.indices)]
        greedy: while chosen.count < k {
            for tier in tiers {
                let open = tier.filter { i in known[projected[i].x] != false && !chosen.contains { $0.x == projected[i].x } }
                let values = open.map { eubo(chosen + [projected[$0]], model: model, normals: normals) }
                for j in values.indices.sorted(by: { values[$0] > values[$1] || (values[$0] == values[$1] && $0 < $1) })
                where ok(projected[open[j]].x) {
                    chosen.append(projected[open[j]])
                    continue greedy
                }
            }
            break
        }
        var rng = SplitMix64(seed: seed ^ 0x5EED_0F_EEB0)
        for c in chosen.indices.dropFirst() {
            var value = eubo(chosen, model: model, normals: normals)
            for trial in 0..<refinements {
                let radius = 0.1 * (1 - Double(trial) / Double(refinements)) + 0.01
                let y = model.space.snap(chosen[c].x.map { $0 + radius * rng.normal() })
                guard !chosen.contains(where: { $0.x == y }) else { continue }
                let candidate = model.project(y)
                guard chanceOfBeating(incumbent, candidate, model: model) >= plausibility else { continue }
                var trialSet = chosen
                trialSet[c] = candidate
                let v = eubo(trialSet, model: model, normals: normals)
                if v > value, ok(y) { value = v; chosen = trialSet }
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

    /// The indices of the pool points that could still beat the current best (chance ≥
    /// `plausibility`), or, when fewer than `keep` can, of the `keep` likeliest. A designer asked
    /// for the worst of a set tells nothing about its better ones when one candidate is sure to
    /// lose; EUBO alone would keep such a "wild card" in the set, round after round.
    static func plausible(_ pool: [PreferenceModel.Projection], _ best: PreferenceModel.Projection, model: PreferenceModel, keep: Int) -> [Int] {
        let chances = pool.map { chanceOfBeating(best, $0, model: model) }
        let passing = pool.indices.filter { chances[$0] >= plausibility }
        if passing.count >= keep { return passing }
        return Array(pool.indices.sorted { chances[$0] > chances[$1] || (chances[$0] == chances[$1] && $0 < $1) }.prefix(keep))
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
