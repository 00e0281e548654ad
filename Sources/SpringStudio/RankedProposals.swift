import Foundation
import SpringLayout
import SpringTune
import ToolRuntime

/// Candidates and the best estimate before the studio learns (Reference §11): round r shows the
/// preset's grid sets ranked r·K − K + 1 … r·K under its objective (a sweep of the preset's
/// grid over the studio's traces, run once when the first round is asked for; sets that break
/// a hard constraint are never shown), and the best estimate is the shown set with the highest
/// share of comparisons won (ties: the better-ranked set), its uncertainty the binomial
/// standard error of that share.
public struct RankedProposals: Sendable {
    /// The ranked sets, best first, on the shown axes.
    public let ranked: [[String: ParamValue]]

    /// Sweeps the preset's grid over `engine`'s traces and ranks it.
    public init(_ engine: StudioEngine) throws {
        let loaded = engine.loaded
        let grid = try SweepGrid.make(preset: loaded.preset, kind: loaded.kind, vary: [], set: [:])
        let threads = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let runner = SweepRunner(kind: loaded.kind, scene: loaded.preset.scene, grid: grid, threads: threads)
        let results = try runner.run(TraceSource(traces: engine.traces, kind: loaded.kind))
        var table = SweepReport(path: "studio", kind: loaded.kind, axes: grid.axes)
        table.rows = results.map { SweepReport.Row($0, kind: loaded.kind) }
        let names = engine.axes.map(\.name)
        ranked = try Ranking(objective: loaded.preset.objective).rank(table).map { entry in
            grid.values(entry.configId).filter { names.contains($0.key) }
        }
    }

    /// The `k` sets of round `number` (1-based), wrapping around the ranking.
    public func round(_ number: Int, k: Int) throws -> [[String: ParamValue]] {
        guard !ranked.isEmpty else {
            throw StudioError.conflict("no set of the preset's grid meets its objective's constraints: nothing to propose")
        }
        let first = (number - 1) * k
        return (0..<min(k, ranked.count)).map { ranked[(first + $0) % ranked.count] }
    }

    /// The best estimate after `choices`: params, mean (share of comparisons won) and sd.
    public func best(_ choices: [SessionStore.Choice], preset: [String: ParamValue]) -> (params: [String: ParamValue], mean: Double, sd: Double) {
        var won: [Int: Int] = [:], played: [Int: Int] = [:], params: [Int: [String: ParamValue]] = [:]
        for choice in choices {
            let ids = choice.round.candidates.map(\.id)
            for c in choice.round.candidates { params[c.id] = c.params }
            // Comparisons of the answer: each other set ≻ the worst, or the best ≻ each other.
            let pairs: [(Int, Int)]
            switch choice.answer {
            case let .worst(w): pairs = ids.filter { $0 != w }.map { ($0, w) }
            case let .best(b): pairs = ids.filter { $0 != b }.map { (b, $0) }
            case .same: pairs = []
            }
            for (winner, loser) in pairs {
                won[winner, default: 0] += 1
                played[winner, default: 0] += 1
                played[loser, default: 0] += 1
            }
        }
        let rank = { (set: [String: ParamValue]) in ranked.firstIndex(of: set) ?? ranked.count }
        let scored = played.keys.map { id -> (id: Int, share: Double, n: Int) in
            (id, Double(won[id] ?? 0) / Double(played[id]!), played[id]!)
        }
        guard let top = scored.min(by: { a, b in
            a.share != b.share ? a.share > b.share : rank(params[a.id]!) != rank(params[b.id]!) ? rank(params[a.id]!) < rank(params[b.id]!) : a.id < b.id
        }) else { return (preset, 0.5, 0.5) }
        return (params[top.id]!, top.share, (top.share * (1 - top.share) / Double(top.n)).squareRoot())
    }
}
