import Foundation
import SpringLayout
import TraceIO

/// `sweep --refine N` (issue: a best preset chosen for a reason): after the grid (round 0),
/// N more rounds, each a grid of the same size per numeric axis centred on the best set so far
/// and spanning half the previous spacing on each side (log axes in log space), each written as
/// an ordinary sweep folder `OUT/round-K/`. Deterministic: every round depends only on the
/// reports before it.
public struct Refinement: Sendable {
    public var job: SweepJob
    public var rounds: Int

    public init(job: SweepJob, rounds: Int) {
        self.job = job
        self.rounds = rounds
    }

    /// One round's outcome and its best set under the objective.
    public struct Round: Sendable {
        public var index: Int
        public var outcome: SweepJob.Outcome
        public var best: Ranking.Entry?
    }

    /// Spacing of one axis around the value being refined: linear in pt, Hz, …; log as a
    /// difference of natural logarithms.
    struct AxisSpacing {
        var log: Bool
        var step: Double
    }

    /// Runs round 0 and the refinements; `progress(round, done, total)`.
    public func run(progress: (@Sendable (Int, Int, Int) -> Void)? = nil) throws -> (rounds: [Round], best: Round?) {
        let ranking = try Ranking(objective: job.loaded.preset.objective)
        var results: [Round] = []
        var spacing: [String: AxisSpacing] = [:]
        var current = job
        let base = job.outputDirectory
        let counts = Dictionary(try job.grid().axes.map { ($0.name, $0.values.count) }, uniquingKeysWith: { a, _ in a })
        for k in 0...rounds {
            current.outputDirectory = "\(base)/round-\(k)"
            let index = k
            let outcome = try current.run(progress: progress.map { p in { @Sendable done, total in p(index, done, total) } })
            let best = try ranking.ranked(outcome.table).first
            results.append(Round(index: k, outcome: outcome, best: best))
            guard k < rounds, let overall = try Self.best(results, ranking: ranking), let id = overall.best?.row.configId else { continue }
            let grid = overall.outcome.grid
            if k == 0 { spacing = Self.initialSpacing(grid, around: grid.values(id)) }
            var axes: [SweepAxis] = []
            for axis in grid.axes {
                guard let s = spacing[axis.name], !ranking.worstOver.contains(axis.name),
                      let center = grid.values(id)[axis.name]?.number else {
                    axes.append(axis)
                    continue
                }
                let refined = Self.refine(center: center, spacing: s, count: counts[axis.name] ?? axis.values.count,
                                          spec: (job.loaded.kind.parameters + Scene.sweepable).first { $0.name == axis.name })
                axes.append(SweepAxis(name: axis.name, values: refined.values))
                spacing[axis.name] = refined.spacing
            }
            current.vary = axes
        }
        return (results, try Self.best(results, ranking: ranking))
    }

    /// The round holding the best set over all rounds (earlier rounds win exact ties).
    static func best(_ rounds: [Round], ranking: Ranking) throws -> Round? {
        let candidates = rounds.filter { $0.best != nil }
        guard let first = candidates.first else { return nil }
        // Rank the rounds' best rows together (the columns are the same in every round).
        let table = SweepReport(path: "rounds", like: first.outcome.table, rows: candidates.flatMap { $0.best!.rows })
        guard let winner = try ranking.ranked(table).first else { return nil }
        return candidates.first { $0.best!.rows.contains(winner.row) }
    }

    /// Round 0's spacing of each numeric axis around the best value: a range axis's step (a log
    /// range's in log space), or for listed values the smaller gap to a neighbour.
    static func initialSpacing(_ grid: SweepGrid, around values: [String: ParamValue]) -> [String: AxisSpacing] {
        var out: [String: AxisSpacing] = [:]
        for axis in grid.axes {
            guard let numbers = axis.numbers, numbers.count >= 2, let c = values[axis.name]?.number else { continue }
            let log = axis.range?.log ?? false
            let map: (Double) -> Double = log ? { Foundation.log($0) } : { $0 }
            let sorted = numbers.map(map).sorted(), x = map(c)
            let gaps = zip(sorted, sorted.dropFirst()).filter { $0.0 == x || $0.1 == x }.map { $0.1 - $0.0 }.filter { $0 > 0 }
            if let step = gaps.min() { out[axis.name] = AxisSpacing(log: log, step: step) }
        }
        return out
    }

    /// `count` values (one more when even, so the centre stays in the grid) from c − step/2 to
    /// c + step/2, in log space for log axes, keeping those the parameter accepts; and the new
    /// spacing between them.
    static func refine(center c: Double, spacing s: AxisSpacing, count: Int, spec: ParameterSpec?) -> (values: [ParamValue], spacing: AxisSpacing) {
        let n = count % 2 == 0 ? count + 1 : count
        let x = s.log ? Foundation.log(c) : c
        let step = s.step / Double(n - 1)
        var values: [ParamValue] = []
        for i in 0..<n {
            let u = i == (n - 1) / 2 ? x : x - s.step / 2 + Double(i) * step
            let v = ParamValue.number(s.log ? Foundation.exp(u) : u)
            if spec?.check(v) == nil, !values.contains(v) { values.append(v) }
        }
        return (values, AxisSpacing(log: s.log, step: step))
    }
}
