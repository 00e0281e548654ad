import Foundation
import Preference
import SpringCore
import SpringLayout
import SpringTune
import ToolRuntime

/// `springtune studio --simulate SEEDS` (Reference §12): simulated designers play rounds of
/// "which of these four is worst?" through the studio's own API functions (the handlers of
/// `GET /api/candidates`, `POST /api/choices` and `GET /api/best`, on a session database in a
/// temporary folder), and each round's best estimate is scored by the designer's hidden utility
/// scaled to [0, 1] over the box. The box is the preset's with the parameters `free` names
/// freed over their domains (Reference §10.16, `studio --simulate N --free NAME…`). The designer
/// is `SimulatedDesigner` of the seed, drawn again (seed + i·φ·2⁶⁴) until its optimum meets the
/// objective (the studio never proposes a set that misses it) and, along every freed
/// parameter, lies outside the preset's own box by at least ``outside`` of the free range: a
/// taste the preset's sliders could not reach. Each seed plays twice: candidates by the model
/// and uniformly random feasible candidates, the best estimate always the model's.
public enum StudioSimulation {
    public struct Outcome: Sendable {
        public var runs: [PreferenceBench.Run]
        /// Per model run, the time (s) of the model's fit to 60 comparisons (20 answers of four)
        /// and its proposal (with the feasibility measurements): the part Reference §12 bounds.
        public var latencies: [Double]
        /// Per model run, the time (s) of the whole `GET /api/candidates` handler then: the fit
        /// and proposal again (the fit memoized) and the choice of the round's trace.
        public var handler: [Double]
        /// Seconds to measure the pool's constraints (once, before the first round).
        public var poolSeconds: Double
        /// Points of the pool that meet the constraints, and the pool's size.
        public var feasible: Int, pool: Int
    }

    /// How far outside the preset's box a freed parameter's optimum lies, at least (a share of its free range).
    static let outside = 0.1

    /// The preset's levers with `free` freed over their domains (64 for an unknown name).
    public static func levers(_ engine: StudioEngine, free: [String]) throws -> StudioSpace {
        let initial = try StudioSpace.initial(engine.loaded)
        do {
            return try StudioSpace(engine.loaded, free: initial.free.filter { !free.contains($0.name) } + free.map { FreeParameter(name: $0) })
        } catch let error as StudioError {
            throw ToolError(.usage, "--free: \(error.message)")
        }
    }

    public static func run(engine: StudioEngine, seeds: Int, rounds: Int, free: [String] = [], k: Int = 4) throws -> Outcome {
        var runs: [PreferenceBench.Run] = [], latencies: [Double] = [], handler: [Double] = []
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("springtune-simulate-\(getpid())-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let levers = try levers(engine, free: free)
        let measured = Memo<[String: ParamValue], [(name: String, value: MetricValue)]>(capacity: 1 << 16)
        let learner = try StudioLearner(engine: engine, levers: levers, verdicts: StudioVerdicts(engine.loaded.preset.objective), measured: measured)
        let presetBox = try StudioSpace.initial(engine.loaded)
        let clock = ContinuousClock(), start = clock.now
        let feasible = learner.feasiblePool().count
        let poolSeconds = seconds(start.duration(to: clock.now))
        for seed in 0..<UInt64(seeds) {
            var scores: [StudioLearner.Strategy: [Double]] = [:]
            for strategy in [StudioLearner.Strategy.model, .random] {
                let store = try SessionStore(path: "\(folder)/\(seed)-\(strategy.rawValue).sqlite", preset: engine.loaded.preset.name, model: engine.loaded.kind.name)
                try store.set(.free, try JSONTextEncoder.encode(levers.free))
                let api = try StudioAPI(engine: engine, store: store, strategy: strategy, measured: measured)
                let designer = try designer(for: learner, seed: seed, outside: presetBox, freed: free)
                var answers = SplitMix64(seed: seed &+ 0xA5_5E55)
                for _ in 0..<rounds {
                    let timed = try strategy == .model && store.choices().count == 20
                    if timed {
                        let choices = try store.choices(), start = clock.now
                        _ = try api.learner().with(.model).round(choices.count + 1, k: k, choices: choices)
                        latencies.append(seconds(start.duration(to: clock.now)))
                    }
                    let start = clock.now
                    _ = try api.candidates(k: k)
                    if timed { handler.append(seconds(start.duration(to: clock.now))) }
                    guard let round = try store.openRound() else { throw ToolError(.software, "no open round after GET /api/candidates") }
                    let shown = round.candidates.map { learner.point($0.params) }
                    let worst = round.candidates[designer.worst(of: shown, using: &answers)].id
                    _ = try api.choose(ChoiceRequest(round: round.number, worst: worst))
                    scores[strategy, default: []].append(designer.utility(learner.point(try api.bestEstimate().best.params)))
                }
            }
            runs.append(PreferenceBench.Run(seed: seed, model: scores[.model] ?? [], random: scores[.random] ?? []))
        }
        return Outcome(runs: runs, latencies: latencies, handler: handler, poolSeconds: poolSeconds, feasible: feasible, pool: StudioLearner.poolSize)
    }

    /// The seed's designer, or the first redraw whose optimum meets the objective and lies
    /// outside `presetBox` along every `freed` parameter.
    static func designer(for learner: StudioLearner, seed: UInt64, outside presetBox: StudioSpace, freed: [String]) throws -> SimulatedDesigner {
        let space = learner.box.space
        // Each freed parameter's unit-box interval that the preset's box covers.
        let covered: [(offset: Int, lo: Double, hi: Double)] = freed.compactMap { name -> (offset: Int, lo: Double, hi: Double)? in
            guard let a = space.axes.firstIndex(where: { $0.name == name }), case .numeric = space.axes[a].kind else { return nil }
            let ends: [ParamValue] = switch presetBox.box?.dimensions.first(where: { $0.name == name })?.extent {
            case let .numbers(lo, hi, _)?: [.number(lo), .number(hi)]
            default: [presetBox.preset[name] ?? .number(0)]
            }
            let u = ends.map { learner.point([name: $0])[space.offsets[a]] }
            return (space.offsets[a], u.min()! - outside, u.max()! + outside)
        }
        for attempt in 0..<UInt64(400) {
            let designer = SimulatedDesigner(dimension: space.dimension, seed: seed &+ attempt &* 0x9E37_79B9_7F4A_7C15)
            guard covered.allSatisfy({ designer.optimum[$0.offset] < $0.lo || designer.optimum[$0.offset] > $0.hi }) else { continue }
            if learner.feasible(learner.parameters(space.snap(designer.optimum))) { return designer }
        }
        throw ToolError(.dataError, "no simulated designer of seed \(seed) has its optimum within the objective and outside the preset's box along \(freed.joined(separator: ", ")) (400 draws)")
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }
}
