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
        public var swept: [ParamValue]
        public var aggregate: Aggregate
        public var runs: [TraceRun]
    }

    /// Runs the sweep; `progress` is called (from any thread) with the number of sets done.
    public func run(progress: (@Sendable (Int) -> Void)? = nil) throws -> [ConfigResult] {
        func typed<M: MeasuredModel>(_: M.Type) throws -> [ConfigResult] { try runTyped(M.self, progress: progress) }
        return try typed(kind.type)
    }

    /// Builds the model of one parameter set.
    /// Builds the model of one parameter set; scene values among `values` (`frameRate`, …)
    /// replace the scene's.
    public static func model<M: MeasuredModel>(_: M.Type, values: [String: ParamValue], scene: Scene) throws -> M {
        let (scene, rest) = scene.applying(values)
        do {
            return try M(values: ParameterValues.resolve(rest, specs: M.parameters), scene: scene)
        } catch {
            throw ToolError(.usage, error.description)
        }
    }

    private func runTyped<M: MeasuredModel>(_: M.Type, progress: (@Sendable (Int) -> Void)?) throws -> [ConfigResult] {
        let models: [M] = try ids.map { try Self.model(M.self, values: grid.values($0), scene: scene) }
        // Preparations (e.g. scroll motion) shared by every set with the same key.
        var keyIndex: [M.PreparationKey: Int] = [:]
        var preparedSets: [[M.Prepared]] = []
        let modelPrep: [Int] = models.map { model in
            if let i = keyIndex[model.preparationKey] { return i }
            keyIndex[model.preparationKey] = preparedSets.count
            preparedSets.append(parallelMap(traces.count) { model.prepare(traces[$0]) })
            return preparedSets.count - 1
        }
        let shared = preparedSets
        let done = Counter()
        let intents = traces.map(\.intent)
        let results: [ConfigResult] = parallelMap(models.count) { i in
            let prepared = shared[modelPrep[i]]
            let runs = prepared.map { models[i].run($0, timeline: false) }
            let aggregate = Aggregate(runs: runs, intents: intents, metrics: M.metrics, labels: M.decisionLabels)
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
/// metric, `traces`, `unsettled`, and for deciding models the rates.
public struct Aggregate: Sendable {
    /// Mean, 95th percentile and maximum of one metric over the traces; nil when undefined.
    public struct Summary: Sendable, Equatable {
        public var mean: Double?
        public var p95: Double?
        public var max: Double?
    }

    public var traces: Int
    public var unsettled: Int
    /// Per metric name.
    public var stats: [String: Summary]
    /// One set of rates per label pair of the model (none for models that do not decide).
    public var decisions: [DecisionRates]

    public init(runs: [TraceRun], intents: [TraceIntent?], metrics: [MetricSpec], labels: [DecisionLabels]) {
        traces = runs.count
        unsettled = runs.filter(\.unsettled).count
        var stats: [String: Summary] = [:]
        for m in metrics { stats[m.name] = Self.summary(runs.compactMap { $0.metrics[m] }) }
        self.stats = stats
        decisions = labels.map { DecisionRates(decisions: runs.map(\.decision), intents: intents, labels: $0) }
    }

    /// The mean over the finite values (a never-settled trace, +∞, is left out of it), and the
    /// nearest-rank 95th percentile (the ⌈0.95·m⌉-th smallest of the m values) and the maximum
    /// over all of them (+∞ included).
    public static func summary(_ values: [Double]) -> Summary {
        guard !values.isEmpty else { return Summary() }
        let sorted = values.sorted()
        let rank = Int((0.95 * Double(sorted.count)).rounded(.up))
        let finite = values.filter(\.isFinite)
        let mean = finite.isEmpty ? nil : finite.reduce(0, +) / Double(finite.count)
        return Summary(mean: mean, p95: sorted[Swift.max(rank, 1) - 1], max: sorted.last)
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

    /// Traces whose intent is not one of the model's labels are not counted.
    public init(decisions: [TraceIntent?], intents: [TraceIntent?], labels: DecisionLabels) {
        var labelled = 0, correct = 0, negatives = 0, falsePositives = 0, positives = 0, missed = 0
        for (d, intent) in zip(decisions, intents) {
            guard let intent, let d, labels.contains(intent) else { continue }
            labelled += 1
            if d == intent { correct += 1 }
            let positiveDecision = d == labels.positive
            if intent == labels.positive {
                positives += 1
                if !positiveDecision { missed += 1 }
            } else {
                negatives += 1
                if positiveDecision { falsePositives += 1 }
            }
        }
        accuracy = labelled > 0 ? Double(correct) / Double(labelled) : nil
        falseRate = negatives > 0 ? Double(falsePositives) / Double(negatives) : nil
        missedRate = positives > 0 ? Double(missed) / Double(positives) : nil
    }

    /// The rates in the order of ``ReportColumns/rates(_:)``.
    public var values: [Double?] { [accuracy, falseRate, missedRate] }
}
