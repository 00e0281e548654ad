import Foundation
import Preference
import SpringCore
import SpringLayout
import ToolRuntime
import TraceIO

/// How the search picks its next batch (Reference §13): a Gaussian-process regression
/// (``Regression``) of the objective column and of every column a constraint or target names,
/// fitted to the sets evaluated so far in the box's unit coordinates, and the acquisition
///
///   a(x) = EI(x) · P(feasible at x),  EI(x) = (y* − μ)Φ(z) + σφ(z), z = (y* − μ)/σ,
///
/// where y* is the best feasible objective so far (lower is better; a maximised column is
/// negated) and P(feasible) the product over constraints of Φ((c − μ)/σ) (for ≤; mirrored for
/// ≥) and over targets of Φ((V + T − μ)/σ) − Φ((V − T − μ)/σ). Before any set is feasible,
/// a(x) = P(feasible at x). A batch is chosen one point at a time, each new point added to every
/// regression at its posterior mean ("kriging believer") so that the next one goes elsewhere.
/// Empty values (a rate with no labelled trace) and never-settled ones (+∞) are given the worst
/// finite value seen, half the observed range beyond it, on the side that fails.
struct Acquisition {
    /// One modelled column and what it must do.
    enum Role {
        case objective(maximize: Bool)
        case constraint(Constraint)
        case target(Target)
    }

    struct Modelled {
        var role: Role
        var regression: Regression
    }

    var models: [Modelled]
    /// y*: the best feasible objective so far (negated when maximised); nil when none is feasible.
    var incumbent: Double?
    let space: PreferenceSpace

    /// Fits one regression per column of `ranking` to `points` (unit-box coordinates) and their
    /// `values` (by column, the report's numbers: nil empty, +∞ never settled).
    init(ranking: Ranking, space: PreferenceSpace, points: [[Double]], values: [String: [Double?]], feasible: [Bool]) throws {
        self.space = space
        var roles: [(String, Role)] = [(ranking.column, .objective(maximize: ranking.maximize))]
        roles += ranking.constraints.map { ($0.column, .constraint($0)) }
        roles += ranking.targets.map { ($0.column, .target($0)) }
        models = try roles.map { column, role in
            let y = Self.imputed(values[column]!, role: role)
            do {
                return Modelled(role: role, regression: try Regression.fit(points: points, values: y))
            } catch {
                throw ToolError(.software, "search: the model of \(column) could not be fitted: \(error)")
            }
        }
        let objective = values[ranking.column]!.map { $0.map { ranking.maximize ? -$0 : $0 } }
        incumbent = zip(objective, feasible).compactMap { v, ok in ok ? v : nil }.filter(\.isFinite).min()
    }

    /// The values a regression is fitted to: finite ones as they are (an objective negated when
    /// maximised), the others at the failing side's worst, half the finite range beyond it.
    static func imputed(_ values: [Double?], role: Role) -> [Double] {
        let finite = values.compactMap { $0 }.filter(\.isFinite)
        guard let lo = finite.min(), let hi = finite.max() else { return values.map { _ in 0 } }
        let margin = max(0.5 * (hi - lo), 1e-9 * max(1, abs(hi)))
        // Which side fails: high for an objective to minimise and for ≤ constraints.
        let high: Bool
        switch role {
        case let .objective(maximize): high = !maximize
        case let .constraint(c): high = c.op == .le || c.op == .lt || (c.op == .eq && hi - c.value >= c.value - lo)
        case let .target(t): high = hi - t.value >= t.value - lo
        }
        return values.map { v in
            let x = v.flatMap { $0.isFinite ? $0 : nil } ?? (v == .infinity ? hi + margin : high ? hi + margin : lo - margin)
            if case .objective(true) = role { return -x }
            return x
        }
    }

    /// P(feasible at x) and the objective's posterior there (negated when maximised).
    func feasibility(_ x: [Double]) -> (probability: Double, objective: (mean: Double, sd: Double)) {
        var p = 1.0, objective = (mean: 0.0, sd: 0.0)
        for m in models {
            let (mu, sd) = m.regression.predict(x)
            let s = max(sd, 1e-12 * max(1, abs(mu)))
            switch m.role {
            case .objective:
                objective = (mu, s)
            case let .constraint(c):
                switch c.op {
                case .le, .lt: p *= Normal.cdf((c.value - mu) / s)
                case .ge, .gt: p *= Normal.cdf((mu - c.value) / s)
                case .eq:
                    let band = 1e-9 * max(1, abs(c.value))
                    p *= Normal.cdf((c.value + band - mu) / s) - Normal.cdf((c.value - band - mu) / s)
                }
            case let .target(t):
                p *= Normal.cdf((t.value + t.tolerance - mu) / s) - Normal.cdf((t.value - t.tolerance - mu) / s)
            }
        }
        return (p, objective)
    }

    /// a(x) (see the type's comment).
    func value(_ x: [Double]) -> Double {
        let (p, o) = feasibility(x)
        guard let best = incumbent else { return p }
        let z = (best - o.mean) / o.sd
        let ei = (best - o.mean) * Normal.cdf(z) + o.sd * Normal.density(z)
        return max(0, ei) * p
    }

    /// Every regression with x observed at its posterior mean (the batch's next point goes elsewhere).
    func believing(_ x: [Double]) throws -> Acquisition {
        var next = self
        next.models = try models.map { m in
            do {
                return Modelled(role: m.role, regression: try m.regression.adding(x, value: m.regression.predict(x).mean))
            } catch {
                throw ToolError(.software, "search: \(error)")
            }
        }
        return next
    }

    /// Quasi-random points tried for each point of a batch.
    static let poolSize = 512
    /// Perturbations tried around each of the best few sets so far.
    static let localTrials = 48
    /// The least distance (largest coordinate difference in the unit box) between a proposal and
    /// any set evaluated or proposed before it: closer sets would teach almost nothing.
    static let spacing = 0.005

    /// The next `count` points: each the best of a seeded quasi-random pool and of perturbations
    /// around the best sets so far (`near`), refined by a compass search on a(x) (steps of 0.05
    /// halved down to 0.05/32 on numeric coordinates), never within ``spacing`` of a point in `taken`.
    func batch(_ count: Int, near: [[Double]], taken: [[Double]], seed: UInt64) throws -> [[Double]] {
        var acquisition = self, taken = taken, out: [[Double]] = []
        var rng = Preference.SplitMix64(seed: seed ^ 0xB0_5EA_4C4)
        let pool = Proposal.pool(space: space, count: Self.poolSize, seed: seed)
        let numeric = zip(space.axes, space.offsets).compactMap { axis, offset -> Int? in
            if case .numeric = axis.kind { offset } else { nil }
        }
        func isNew(_ y: [Double]) -> Bool { !taken.contains { Self.distance($0, y) < Self.spacing } }
        for _ in 0..<count {
            var candidates = pool
            for centre in near {
                for trial in 0..<Self.localTrials {
                    let radius = 0.2 * Foundation.pow(0.5, Double(trial % 6))
                    candidates.append(space.snap(centre.map { $0 + radius * rng.normal() }))
                }
            }
            var best: [Double]?, top = -Double.infinity
            for y in candidates where isNew(y) {
                let v = acquisition.value(y)
                if v > top { top = v; best = y }
            }
            guard var x = best else { break }
            var h = 0.05
            while h >= 0.05 / 32 {
                var moved = false
                for j in numeric {
                    for sign in [1.0, -1.0] {
                        var y = x
                        y[j] = min(1, max(0, y[j] + sign * h))
                        guard y[j] != x[j], isNew(y) else { continue }
                        let v = acquisition.value(y)
                        if v > top { top = v; x = y; moved = true }
                    }
                }
                if !moved { h /= 2 }
            }
            out.append(x)
            taken.append(x)
            acquisition = try acquisition.believing(x)
        }
        return out
    }

    static func distance(_ a: [Double], _ b: [Double]) -> Double {
        var s = 0.0
        for (x, y) in zip(a, b) { s = max(s, abs(x - y)) }
        return s
    }
}
