import Preference
import SpringCore

/// `springtune bench --preference` (Reference §12): the latency of one fit plus one proposal,
/// and simulated designers' convergence, over a preset's preference space.
public enum PreferenceBench {
    /// Percentiles of one `PreferenceModel.fit` plus one `Proposal.next(k: 4)`, in seconds.
    public struct Latency: Sendable {
        public var comparisons: Int
        public var points: Int
        public var repetitions: Int
        public var p50: Double
        public var p95: Double
        public var max: Double
    }

    /// Times fit + proposal of 4 on the comparisons of a simulated 20-round session (60
    /// comparisons of worst-of-four answers) with a monotonic clock, `repetitions` times.
    /// Percentiles by nearest rank: the ⌈p·n⌉-th smallest time.
    public static func latency(space: PreferenceSpace, repetitions: Int, seed: UInt64 = 1) throws(PreferenceError) -> Latency {
        let data = try SimulatedDesigner.run(space: space, rounds: 20, seed: seed, strategy: .model).data
        let clock = ContinuousClock()
        var times: [Double] = []
        for r in 0..<repetitions {
            let start = clock.now
            let model = try PreferenceModel.fit(data, space: space)
            _ = try Proposal.next(k: 4, model: model, seed: UInt64(r))
            let elapsed = start.duration(to: clock.now).components
            times.append(Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18)
        }
        times.sort()
        let rank = { (p: Double) in times[Swift.max(0, Int((p * Double(times.count)).rounded(.up)) - 1)] }
        return Latency(comparisons: data.comparisons.count, points: data.points.count, repetitions: repetitions,
                       p50: rank(0.5), p95: rank(0.95), max: times.last!)
    }

    /// The rounds after which the table reports the best estimate (those within `rounds`).
    public static func checkpoints(rounds: Int) -> [Int] { [5, 10, 20, 30].filter { $0 <= rounds } }

    /// One seed's scaled utilities of the best estimate after each round, model and random proposals.
    public struct Run: Sendable {
        public var seed: UInt64
        public var model: [Double]
        public var random: [Double]
        public init(seed: UInt64, model: [Double], random: [Double]) { self.seed = seed; self.model = model; self.random = random }
    }

    public static func convergence(space: PreferenceSpace, seeds: Int, rounds: Int) throws(PreferenceError) -> [Run] {
        var runs: [Run] = []
        for seed in 0..<UInt64(seeds) {
            runs.append(Run(seed: seed,
                            model: try SimulatedDesigner.run(space: space, rounds: rounds, seed: seed, strategy: .model).scores,
                            random: try SimulatedDesigner.run(space: space, rounds: rounds, seed: seed, strategy: .random).scores))
        }
        return runs
    }

    /// The median of `values` (the mean of the middle two for an even count).
    public static func median(_ values: [Double]) -> Double {
        let s = values.sorted(), n = s.count
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2
    }

    /// The convergence table: per seed the scaled utility after each checkpoint round, model
    /// then random, a median row, and the count of seeds at ≥ 0.95 at round 20 (or the last),
    /// naming the parameters freed beyond the preset's box.
    public static func table(_ runs: [Run], rounds: Int, free: [String] = []) -> String {
        let marks = checkpoints(rounds: rounds)
        let header = ["seed"] + marks.map { "model@\($0)" } + marks.map { "random@\($0)" }
        let cell = { (x: Double) in NumberFormat.fixed(x, 3) }
        var rows = runs.map { run in [String(run.seed)] + marks.map { cell(run.model[$0 - 1]) } + marks.map { cell(run.random[$0 - 1]) } }
        rows.append(["median"] + marks.map { m in cell(median(runs.map { $0.model[m - 1] })) } + marks.map { m in cell(median(runs.map { $0.random[m - 1] })) })
        let at = Swift.min(20, rounds)
        let model = runs.filter { $0.model[at - 1] >= 0.95 }.count, random = runs.filter { $0.random[at - 1] >= 0.95 }.count
        return TextTable(header: header, rows: rows).rendered
            + "seeds at ≥ 0.95 after round \(at)\(free.isEmpty ? "" : " (free: \(free.joined(separator: ", ")))"): model \(model) of \(runs.count), random \(random) of \(runs.count)\n"
    }
}
