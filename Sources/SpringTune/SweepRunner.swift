import Dispatch
import Foundation
import SpringLayout
import TraceIO

/// Runs every parameter set of a grid over a trace set, in parallel, and aggregates per set.
/// Results are stored by index, so the output never depends on thread count or scheduling.
public struct SweepRunner: Sendable {
    public var kind: ModelKind
    public var scene: Scene
    public var grid: SweepGrid
    public var traces: [Trace]
    public var threads: Int
    /// The parameter sets to run (a shard), as config ids.
    public var ids: Range<Int>
    /// Keep each trace's run (for the per-trace CSV).
    public var keepPerTrace: Bool

    public init(kind: ModelKind, scene: Scene, grid: SweepGrid, traces: [Trace], threads: Int, ids: Range<Int>? = nil, keepPerTrace: Bool = false) {
        self.kind = kind; self.scene = scene; self.grid = grid; self.traces = traces
        self.threads = max(1, threads); self.ids = ids ?? 0..<grid.count; self.keepPerTrace = keepPerTrace
    }

    /// One parameter set's outcome.
    public struct ConfigResult: Sendable {
        public var id: Int
        public var swept: [Double]
        public var aggregate: Aggregate
        public var runs: [TraceRun]
    }

    /// Runs the sweep; `progress` is called (from any thread) with the number of sets done.
    public func run(progress: (@Sendable (Int) -> Void)? = nil) throws -> [ConfigResult] {
        func typed<M: InteractionModel>(_: M.Type) throws -> [ConfigResult] { try runTyped(M.self, progress: progress) }
        return try typed(kind.type)
    }

    /// Builds the model of one parameter set.
    public static func model<M: InteractionModel>(_: M.Type, values: [String: ParamValue], scene: Scene) throws -> M {
        do {
            return try M(values: ParameterValues.resolve(values, specs: M.parameters), scene: scene)
        } catch {
            throw ToolError(.usage, error.description)
        }
    }

    private func runTyped<M: InteractionModel>(_: M.Type, progress: (@Sendable (Int) -> Void)?) throws -> [ConfigResult] {
        let models: [M] = try ids.map { try Self.model(M.self, values: grid.values($0), scene: scene) }
        // Preparations (e.g. scroll motion) shared by every set with the same key.
        var keyIndex: [[Double]: Int] = [:]
        var preparedSets: [[M.Prepared]] = []
        let modelPrep: [Int] = models.map { model in
            if let i = keyIndex[model.preparationKey] { return i }
            keyIndex[model.preparationKey] = preparedSets.count
            preparedSets.append(parallelMap(traces.count) { model.prepare(traces[$0]) })
            return preparedSets.count - 1
        }
        let shared = preparedSets
        let done = Counter()
        let metricCount = M.metricNames.count
        let intents = traces.map(\.intent)
        let results: [ConfigResult] = parallelMap(models.count) { i in
            let prepared = shared[modelPrep[i]]
            let runs = prepared.map { models[i].run($0, timeline: false) }
            let aggregate = Aggregate(runs: runs, intents: intents, metricCount: metricCount)
            if let progress { progress(done.increment()) }
            return ConfigResult(id: ids.lowerBound + i, swept: grid.sweptValues(ids.lowerBound + i), aggregate: aggregate,
                                runs: keepPerTrace ? runs : [])
        }
        return results
    }

    /// Maps 0..<count on `threads` workers, storing each result by index.
    func parallelMap<T: Sendable>(_ count: Int, _ body: @Sendable (Int) -> T) -> [T] {
        guard count > 0 else { return [] }
        let buffer = UnsafeMutableBufferPointer<T?>.allocate(capacity: count)
        buffer.initialize(repeating: nil)
        defer { buffer.deallocate() }
        nonisolated(unsafe) let shared = buffer
        let workers = min(threads, count)
        DispatchQueue.concurrentPerform(iterations: workers) { w in
            for i in stride(from: w, to: count, by: workers) { shared[i] = body(i) }
        }
        return buffer.map { $0! }
    }
}

/// A thread-safe counter for progress.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func increment() -> Int {
        lock.lock(); defer { lock.unlock() }
        value += 1
        return value
    }
}

/// Per-set aggregates of SPEC §7: `_mean`, `_p95` (nearest rank) and `_max` of each per-trace
/// metric over its defined values, `traces`, `unsettled`, and for decision models the rates.
public struct Aggregate: Sendable {
    public var traces: Int
    public var unsettled: Int
    /// (mean, p95, max) per metric, nil when no trace defines it.
    public var stats: [(mean: Double?, p95: Double?, max: Double?)]
    public var decisions: DecisionRates?

    public init(runs: [TraceRun], intents: [TraceIntent?], metricCount: Int) {
        traces = runs.count
        unsettled = runs.filter(\.unsettled).count
        stats = (0..<metricCount).map { m in Self.summary(runs.compactMap { $0.metrics[m] }) }
        decisions = runs.contains { $0.decision != nil } ? DecisionRates(decisions: runs.map(\.decision), intents: intents) : nil
    }

    /// Mean, nearest-rank 95th percentile (the ⌈0.95·m⌉-th smallest) and max.
    public static func summary(_ values: [Double]) -> (mean: Double?, p95: Double?, max: Double?) {
        guard !values.isEmpty else { return (nil, nil, nil) }
        let sorted = values.sorted()
        let rank = Int((0.95 * Double(sorted.count)).rounded(.up))
        let sum = values.reduce(0, +)
        return (sum / Double(values.count), sorted[max(rank, 1) - 1], sorted.last)
    }
}

/// Decision quality over the labelled traces (SPEC §7).
public struct DecisionRates: Sendable, Equatable {
    /// Correct / labelled (nil when no trace is labelled).
    public var accuracy: Double?
    /// Positive decisions among the negative-labelled traces (`keep` / `cancel`).
    public var falseRate: Double?
    /// Negative decisions among the positive-labelled traces (`dismiss` / `create`).
    public var missedRate: Double?

    public init(decisions: [TraceIntent?], intents: [TraceIntent?]) {
        var labelled = 0, correct = 0, negatives = 0, falsePositives = 0, positives = 0, missed = 0
        for (d, intent) in zip(decisions, intents) {
            guard let intent, let d else { continue }
            labelled += 1
            if d == intent { correct += 1 }
            let positiveLabel = intent == .dismiss || intent == .create
            let positiveDecision = d == .dismiss || d == .create
            if positiveLabel { positives += 1; if !positiveDecision { missed += 1 } } else { negatives += 1; if positiveDecision { falsePositives += 1 } }
        }
        accuracy = labelled > 0 ? Double(correct) / Double(labelled) : nil
        falseRate = negatives > 0 ? Double(falsePositives) / Double(negatives) : nil
        missedRate = positives > 0 ? Double(missed) / Double(positives) : nil
    }
}
