import Dispatch
import Foundation
import SpringCore
import SpringLayout
import ToolRuntime
import TraceIO

/// The parameter sets a runner runs, by id: a sweep's grid, or the list of sets a search
/// proposes (``ParameterSetList``).
public protocol ParameterSets: Sendable {
    /// How many sets there are (ids 0..<count).
    var count: Int { get }
    /// Every value of set `id`, by parameter (or scene value) name.
    func values(_ id: Int) -> [String: ParamValue]
    /// The values of set `id` that vary between sets, in the report's parameter-column order.
    func sweptValues(_ id: Int) -> [ParamValue]
}

extension SweepGrid: ParameterSets {}

/// Sets given one by one: `base` with each row's values of `names` over it.
public struct ParameterSetList: ParameterSets {
    /// The names the rows give values to, in column order.
    public var names: [String]
    /// The values every set shares.
    public var base: [String: ParamValue]
    /// Each set's values of ``names``.
    public var rows: [[ParamValue]]

    public init(names: [String], base: [String: ParamValue], rows: [[ParamValue]]) {
        precondition(rows.allSatisfy { $0.count == names.count })
        self.names = names; self.base = base; self.rows = rows
    }

    public var count: Int { rows.count }

    public func values(_ id: Int) -> [String: ParamValue] {
        var out = base
        for (name, value) in zip(names, rows[id]) { out[name] = value }
        return out
    }

    public func sweptValues(_ id: Int) -> [ParamValue] { rows[id] }
}

/// Runs every parameter set of a grid (or list) over a trace set, in parallel, and aggregates
/// per set. Results are stored by index, so the output never depends on thread count or scheduling.
public struct SweepRunner: Sendable {
    public var kind: ModelKind
    public var scene: Scene
    public var sets: any ParameterSets
    public var threads: Int
    /// The parameter sets to run (a shard), as config ids.
    public var ids: Range<Int>
    /// Keep each trace's run (for the per-trace CSV).
    public var keepPerTrace: Bool

    public init(kind: ModelKind, scene: Scene, sets: any ParameterSets, threads: Int, ids: Range<Int>? = nil, keepPerTrace: Bool = false) {
        self.kind = kind; self.scene = scene; self.sets = sets
        self.threads = max(1, threads); self.ids = ids ?? 0..<sets.count; self.keepPerTrace = keepPerTrace
    }

    /// One parameter set's outcome.
    public struct ConfigResult: Sendable {
        public var id: Int
        public var swept: [ParamValue]
        public var aggregate: Aggregate
        /// Every trace's results, when asked for (per-trace CSV).
        public var traces: TraceResults?
    }

    /// Per-trace results held at once (sets × traces, about 50 bytes each): bounds the sets
    /// of a pass.
    public static let runBudget = 1 << 22

    /// Runs every set of ``ids`` over `traces` and returns the results in id order;
    /// `progress` is called (from any thread) with the number of sets done.
    public func run(_ traces: TraceSource, progress: (@Sendable (Int) -> Void)? = nil) throws -> [ConfigResult] {
        var results: [ConfigResult] = []
        try run(traces, blocks: [ids], progress: progress) { _, block in results += block }
        return results
    }

    /// Runs the sets of `blocks` (config id ranges within ``ids``, in order) and hands each
    /// block's results, in id order, to `each` as soon as the block is done (a checkpoint).
    public func run(_ traces: TraceSource, blocks: [Range<Int>], progress: (@Sendable (Int) -> Void)? = nil,
                    each: (Range<Int>, [ConfigResult]) throws -> Void) throws {
        func typed<M: MeasuredModel>(_: M.Type) throws { try runTyped(M.self, traces, blocks: blocks, progress: progress, each: each) }
        try typed(kind.type)
    }

    /// Builds the model of one parameter set; scene values among `values` (`frameRate`, …)
    /// replace the scene's.
    public static func model<M: MeasuredModel>(_: M.Type, values: [String: ParamValue], scene: Scene) throws -> M {
        do {
            let (scene, rest) = try scene.applying(values)
            return try M(values: ParameterValues.resolve(rest, specs: M.parameters), scene: scene)
        } catch {
            throw ToolError(.usage, error.description)
        }
    }

    /// Runs each block in passes of at most ``runBudget`` runs; each pass reads the traces
    /// block by block (``TraceSource``) and runs every set of the pass on each, one preparation
    /// key at a time (its preparations shared by its sets, which run ``MeasuredModel/lanes``
    /// at a time, grouped by ``MeasuredModel/laneAffinity``, in parallel over lane groups and
    /// trace ranges). A set's aggregate reads its results in trace order, so trace blocks,
    /// passes, set blocks, lane groups and threads change no number.
    private func runTyped<M: MeasuredModel>(_: M.Type, _ traces: TraceSource, blocks: [Range<Int>], progress: (@Sendable (Int) -> Void)?,
                                            each: (Range<Int>, [ConfigResult]) throws -> Void) throws {
        let intents = traces.tags.map(\.intent)
        // At least one lane group per pass, in whole lane groups.
        let passSize = max(M.lanes, Self.runBudget / traces.tags.count / M.lanes * M.lanes)
        let done = Counter()
        for block in blocks {
            var results: [ConfigResult] = []
            results.reserveCapacity(block.count)
            for first in stride(from: block.lowerBound, to: block.upperBound, by: passSize) {
                let ids = first..<min(block.upperBound, first + passSize)
                let models: [M] = try ids.map { try Self.model(M.self, values: sets.values($0), scene: scene) }
                var runs = [TraceResults](repeating: TraceResults(metrics: M.metrics), count: models.count)
                try traces.forEachBlock { chunk in
                    // The sets by preparation key (in order of first appearance), one key's
                    // preparations in memory at a time.
                    var keys: [M.PreparationKey] = [], members: [M.PreparationKey: [Int]] = [:]
                    for j in models.indices {
                        let key = models[j].preparationKey
                        if members[key] == nil { keys.append(key) }
                        members[key, default: []].append(j)
                    }
                    for key in keys {
                        let sets = members[key]!.sorted { (models[$0].laneAffinity, $0) < (models[$1].laneAffinity, $1) }
                        let model = models[sets[0]]
                        let prepared = parallelMap(chunk.count) { model.prepare(chunk[$0]) }
                        // Lane groups, each over a few trace ranges so that every core has work.
                        let groups = stride(from: 0, to: sets.count, by: M.lanes).map { Array(sets[$0..<min(sets.count, $0 + M.lanes)]) }
                        let parts = max(1, min(chunk.count, (threads * 4 + groups.count - 1) / groups.count))
                        let tasks = parallelMap(groups.count * parts) { task in
                            let group = groups[task / parts], part = task % parts
                            let lanes = group.map { models[$0] }
                            var results = [TraceResults](repeating: TraceResults(metrics: M.metrics), count: group.count)
                            for t in (chunk.count * part / parts)..<(chunk.count * (part + 1) / parts) {
                                for (j, run) in M.run(lanes, prepared[t]).enumerated() { results[j].append(run) }
                            }
                            return results
                        }
                        for (g, group) in groups.enumerated() {
                            for part in 0..<parts {
                                for (j, r) in zip(group, tasks[g * parts + part]) { runs[j].append(contentsOf: r) }
                            }
                            // Resident traces are one chunk: these sets are done.
                            if traces.isResident, let progress { for _ in group { progress(done.increment()) } }
                        }
                    }
                }
                let passRuns = runs
                results += parallelMap(models.count) { j in
                    let id = ids.lowerBound + j
                    let result = ConfigResult(id: id, swept: sets.sweptValues(id),
                                              aggregate: Aggregate(passRuns[j], intents: intents, labels: M.decisionLabels),
                                              traces: keepPerTrace ? passRuns[j] : nil)
                    if !traces.isResident, let progress { progress(done.increment()) }
                    return result
                }
            }
            try each(block, results)
        }
    }

    /// Maps 0..<count on `threads` workers, storing each result by index.
    func parallelMap<T: Sendable>(_ count: Int, _ body: @Sendable (Int) -> T) -> [T] {
        guard count > 0 else { return [] }
        let buffer = UnsafeMutableBufferPointer<T?>.allocate(capacity: count)
        buffer.initialize(repeating: nil)
        defer {
            // Release the results' storage too: deallocating alone would leak every element.
            _ = buffer.deinitialize()
            buffer.deallocate()
        }
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

/// What every trace did under one parameter set, compactly (about 50 bytes a trace): the
/// metric values in ``metrics`` order, trace after trace, with an undefined value stored as NaN
/// (no metric is ever NaN: each is finite or +∞); whether each trace stayed unsettled; its
/// decision.
public struct TraceResults: Sendable {
    public let metrics: [MetricSpec]
    private var values: [Double] = []
    public private(set) var unsettled: [Bool] = []
    public private(set) var decisions: [TraceIntent?] = []

    public init(metrics: [MetricSpec]) { self.metrics = metrics }

    public var count: Int { unsettled.count }

    public mutating func append(_ run: TraceRun) {
        for m in metrics { values.append(run.metrics[m] ?? .nan) }
        unsettled.append(run.unsettled)
        decisions.append(run.decision)
    }

    public mutating func append(contentsOf other: TraceResults) {
        values += other.values
        unsettled += other.unsettled
        decisions += other.decisions
    }

    /// The results of the traces at `indices`, in that order.
    public func subset(_ indices: [Int]) -> TraceResults {
        var out = TraceResults(metrics: metrics)
        let m = metrics.count
        for i in indices {
            out.values += values[(i * m)..<((i + 1) * m)]
            out.unsettled.append(unsettled[i])
            out.decisions.append(decisions[i])
        }
        return out
    }

    /// Metric `metric` (index in ``metrics``) of trace `trace`, nil when undefined.
    public func value(trace: Int, metric: Int) -> Double? {
        let v = values[trace * metrics.count + metric]
        return v.isNaN ? nil : v
    }
}

/// Per-set aggregates of Reference §8: `_mean`, `_p95` (nearest rank) and `_max` of each per-trace
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

    public init(_ results: TraceResults, intents: [TraceIntent?], labels: [DecisionLabels]) {
        traces = results.count
        unsettled = results.unsettled.filter { $0 }.count
        var stats: [String: Summary] = [:]
        for (m, spec) in results.metrics.enumerated() {
            stats[spec.name] = Self.summary((0..<results.count).compactMap { results.value(trace: $0, metric: m) })
        }
        self.stats = stats
        decisions = labels.map { DecisionRates(decisions: results.decisions, intents: intents, labels: $0) }
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

/// Decision quality over the labelled traces (Reference §8).
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
