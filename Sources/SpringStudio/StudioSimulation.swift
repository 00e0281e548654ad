import Foundation
import Preference
import SpringTune
import ToolRuntime

/// `springtune studio --simulate SEEDS` (Reference §12): simulated designers play rounds of
/// "which of these four is worst?" through the studio's own API functions (the handlers of
/// `GET /api/candidates`, `POST /api/choices` and `GET /api/best`, on a session database in a
/// temporary folder), and each round's best estimate is scored by the designer's hidden utility
/// scaled to [0, 1] over the box. The designer is `SimulatedDesigner` of the seed, drawn again
/// (seed + i·φ·2⁶⁴) until its optimum meets the objective's hard constraints, since the studio
/// never proposes a set that breaks one. Each seed plays twice: candidates by the model and
/// uniformly random feasible candidates, the best estimate always the model's.
public enum StudioSimulation {
    public struct Outcome: Sendable {
        public var runs: [PreferenceBench.Run]
        /// Per model run, the time (s) of the `GET /api/candidates` handler that fits 60
        /// comparisons (20 answers of four) and proposes: fit, proposal, feasibility measurements.
        public var latencies: [Double]
        /// Seconds to measure the pool's constraints (once, before the first round).
        public var poolSeconds: Double
        /// Points of the pool that meet the constraints, and the pool's size.
        public var feasible: Int, pool: Int
    }

    public static func run(engine: StudioEngine, seeds: Int, rounds: Int, k: Int = 4) throws -> Outcome {
        var runs: [PreferenceBench.Run] = [], latencies: [Double] = []
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("springtune-simulate-\(getpid())-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let learner = try StudioLearner(engine: engine)
        let clock = ContinuousClock(), start = clock.now
        let feasible = learner.feasiblePool().count
        let poolSeconds = seconds(start.duration(to: clock.now))
        for seed in 0..<UInt64(seeds) {
            var scores: [StudioLearner.Strategy: [Double]] = [:]
            for strategy in [StudioLearner.Strategy.model, .random] {
                let store = try SessionStore(path: "\(folder)/\(seed)-\(strategy.rawValue).sqlite", preset: engine.loaded.preset.name, model: engine.loaded.kind.name)
                let api = StudioAPI(engine: engine, store: store, learner: learner.with(strategy))
                let designer = try designer(for: learner, seed: seed)
                var answers = SplitMix64(seed: seed &+ 0xA5_5E55)
                for _ in 0..<rounds {
                    let start = clock.now
                    _ = try api.candidates(k: k)
                    if strategy == .model, try store.choices().count == 20 { latencies.append(seconds(start.duration(to: clock.now))) }
                    guard let round = try store.openRound() else { throw ToolError(.software, "no open round after GET /api/candidates") }
                    let shown = try round.candidates.map { try learner.space.point($0.params) }
                    let worst = round.candidates[designer.worst(of: shown, using: &answers)].id
                    _ = try api.choose(ChoiceRequest(round: round.number, worst: worst))
                    scores[strategy, default: []].append(designer.utility(try learner.space.point(try api.bestEstimate().best.params)))
                }
            }
            runs.append(PreferenceBench.Run(seed: seed, model: scores[.model] ?? [], random: scores[.random] ?? []))
        }
        return Outcome(runs: runs, latencies: latencies, poolSeconds: poolSeconds, feasible: feasible, pool: Proposal.poolSize)
    }

    /// The seed's designer, or the first redraw whose optimum meets the constraints.
    static func designer(for learner: StudioLearner, seed: UInt64) throws -> SimulatedDesigner {
        let d = learner.space.space.dimension
        for attempt in 0..<UInt64(200) {
            let designer = SimulatedDesigner(dimension: d, seed: seed &+ attempt &* 0x9E37_79B9_7F4A_7C15)
            if learner.feasible(learner.parameters(learner.space.space.snap(designer.optimum))) { return designer }
        }
        throw ToolError(.dataError, "no simulated designer of seed \(seed) has its optimum within the objective's constraints (200 draws)")
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }
}
