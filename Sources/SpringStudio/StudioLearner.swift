import Foundation
import Preference
import SpringLayout
import SpringTune
import ToolRuntime

/// What the studio learns from the designer's choices (Reference §12): the preference model of
/// the `Preference` module over the studio's axes (the sweep box widened to the preset's own
/// values, log axes in log space, word axes one-hot), fitted to every answered round, with
///
/// - candidates: `Proposal.next` (the current best by posterior mean, then EUBO candidates),
///   seeded by the round number, drawn from the feasible pool: the 768 points of the quasi-random
///   pool of seed 0 that meet the objective's hard constraints, each measured over the studio's
///   traces once per studio (in parallel); a refined candidate is measured and kept only when it
///   meets them too;
/// - the best estimate: the feasible point of the largest posterior mean (`PreferenceModel.best`
///   over the feasible pool), its utility given relative to the preset's own set, u(best) − u(preset),
///   as mean ± sd in units of the prior sd (comparisons fix only differences of u);
/// - a map of the predicted utility over the two most important numeric axes (the shortest
///   fitted length-scales), the others at the best set's values.
///
/// Everything follows from the session's rows, so a restarted studio answers the same.
public struct StudioLearner: Sendable {
    /// How a round's candidates are chosen: by the model, or uniformly at random among the
    /// feasible sets (the baseline `studio --simulate` compares against).
    public enum Strategy: String, Sendable { case model, random }

    /// The best estimate after some choices.
    public struct Best: Sendable, Equatable {
        public var params: [String: ParamValue]
        /// u(best) − u(preset): posterior mean and sd, in units of the prior sd.
        public var mean: Double, sd: Double
        public var map: UtilityMap?

        /// The preset's own set of `engine`, at utility 0 ± 0 (the best before any choice).
        public static func preset(of engine: StudioEngine) -> Best { Best(params: engine.presetParams, mean: 0, sd: 0, map: nil) }
    }

    /// The predicted utility over two axes, relative to the preset's set.
    public struct UtilityMap: Sendable, Equatable {
        public struct Axis: Sendable, Equatable {
            public var name: String
            public var log: Bool
            /// The axis values of the grid's columns (x) or rows (y), in the axis's unit.
            public var values: [Double]
        }
        public var x: Axis, y: Axis
        /// `mean[j][i]`: at y.values[j], x.values[i].
        public var mean: [[Double]]
    }

    public let engine: StudioEngine
    public let space: PresetPreferenceSpace
    public private(set) var strategy: Strategy
    let presetPoint: [Double]
    let constraints: [Constraint]
    private let measured = Memo<[String: ParamValue], [(name: String, value: MetricValue)]>()
    private let fitted = Memo<PreferenceData, PreferenceModel>()
    private let pool = Once<[[Double]]>()

    /// Grid points per map axis.
    public static let mapSize = 21
    /// The seed of the pool candidates and the best estimate are drawn from (fixed: a round
    /// depends on the choices and its number only).
    static let poolSeed: UInt64 = 0

    public init(engine: StudioEngine, strategy: Strategy = .model) throws {
        let shown = Set(engine.axes.map(\.name))
        space = try PresetPreferenceSpace(axes: engine.loaded.preset.sweep.filter { shown.contains($0.name) }, including: engine.presetParams)
        presetPoint = try space.point(engine.presetParams)
        constraints = try engine.loaded.preset.objective.constraints.map(Constraint.init(parsing:))
        self.engine = engine
        self.strategy = strategy
    }

    /// This learner with candidates by `strategy`, sharing its measurements and fits.
    public func with(_ strategy: Strategy) -> StudioLearner {
        var copy = self
        copy.strategy = strategy
        return copy
    }

    /// The report row of `params` over every trace, measured once per distinct set.
    public func metrics(_ params: [String: ParamValue]) throws -> [(name: String, value: MetricValue)] {
        try measured.get(params) { try engine.evaluate(params) }
    }

    /// True when `params` meets every hard constraint of the objective (a set that cannot be
    /// measured does not).
    public func feasible(_ params: [String: ParamValue]) -> Bool {
        guard let row = try? metrics(params) else { return false }
        return constraints.allSatisfy { c in c.holds(row.first { $0.name == c.column }?.value.number) }
    }

    /// The points of the pool of seed 0 that meet the constraints, in pool order: measured once,
    /// on every core (each point's verdict is its own, so the list is the same for any count).
    public func feasiblePool() -> [[Double]] {
        pool.get {
            let points = Proposal.pool(space: space.space, seed: Self.poolSeed)
            // Measured in parallel into the metrics memo, then read back in order.
            DispatchQueue.concurrentPerform(iterations: points.count) { i in _ = feasible(parameters(points[i])) }
            return points.filter { feasible(parameters($0)) }
        }
    }

    /// The parameter set of a unit-box point, on the shown axes.
    func parameters(_ x: [Double]) -> [String: ParamValue] {
        space.parameters(x).filter { name, _ in engine.axes.contains { $0.name == name } }
    }

    /// The comparisons of `choices`, after the preset's own point (so that the first round and
    /// the best before any choice start from it).
    func data(_ choices: [SessionStore.Choice]) throws -> PreferenceData {
        var data = PreferenceData()
        data.add(point: presetPoint)
        for choice in choices {
            let shown = try choice.round.candidates.map { data.add(point: try space.point($0.params)) }
            let slot = { (id: Int) in choice.round.candidates.firstIndex { $0.id == id }.map { shown[$0] } }
            switch choice.answer {
            case let .worst(id): if let i = slot(id) { data.record(shown: shown, answer: .worst(i)) }
            case let .best(id): if let i = slot(id) { data.record(shown: shown, answer: .best(i)) }
            case .same: break
            }
        }
        return data
    }

    /// The model fitted to `choices` (kept for the next call with the same comparisons).
    public func model(_ choices: [SessionStore.Choice]) throws -> PreferenceModel {
        let data = try data(choices)
        return try fitted.get(data) {
            do { return try PreferenceModel.fit(data, space: space.space) } catch { throw StudioError.conflict("the preference model: \(error)") }
        }
    }

    /// The `k` sets of round `number` after `choices`: distinct, each meeting the constraints.
    public func round(_ number: Int, k: Int, choices: [SessionStore.Choice]) throws -> [[String: ParamValue]] {
        let ok = { (x: [Double]) in feasible(parameters(x)) }
        var points: [[Double]] = []
        switch strategy {
        case .model:
            do {
                points = try Proposal.next(k: k, model: try model(choices), seed: UInt64(number), pool: feasiblePool(), feasible: ok).map(\.x)
            } catch let error as PreferenceError {
                throw StudioError.conflict("no candidate meets the objective's constraints within the axes (\(error.description))")
            }
        case .random:
            let feasible = feasiblePool()
            var rng = SplitMix64(seed: UInt64(number))
            for _ in 0..<(8 * k) where points.count < k && !feasible.isEmpty {
                let x = feasible[Int(rng.next() % UInt64(feasible.count))]
                if !points.contains(x) { points.append(x) }
            }
        }
        guard points.count >= 2 else {
            throw StudioError.conflict("fewer than two sets meet the objective's constraints within the axes: nothing to compare")
        }
        return points.map(parameters)
    }

    /// The best estimate after `choices`: the preset's own set (0 ± 0) before any.
    public func best(_ choices: [SessionStore.Choice]) throws -> Best {
        guard !choices.isEmpty else { return .preset(of: engine) }
        let model = try model(choices)
        guard let top = model.best(pool: feasiblePool(), feasible: { feasible(parameters($0)) }) else {
            throw StudioError.conflict("no set meets the objective's constraints within the axes")
        }
        let gain = model.difference(top.x, presetPoint)
        return Best(params: parameters(top.x), mean: gain.mean, sd: gain.sd, map: map(model, at: top.x))
    }

    /// The predicted utility u(x) − u(preset) over the two numeric axes of the shortest fitted
    /// length-scales (ties: the earlier axis), on a `mapSize`² grid through `centre`; nil with
    /// fewer than two numeric axes.
    func map(_ model: PreferenceModel, at centre: [Double]) -> UtilityMap? {
        let numeric = space.space.axes.indices.filter { if case .numeric = space.space.axes[$0].kind { true } else { false } }
        let scale = { (a: Int) in model.kernel.lengthScales[space.space.offsets[a]] }
        let top = numeric.sorted { scale($0) < scale($1) || (scale($0) == scale($1) && $0 < $1) }.prefix(2)
        guard top.count == 2 else { return nil }
        let (ax, ay) = (top[top.startIndex], top[top.startIndex + 1])
        let steps = (0..<Self.mapSize).map { Double($0) / Double(Self.mapSize - 1) }
        let level = model.mean(presetPoint)
        func axis(_ a: Int) -> UtilityMap.Axis {
            let spec = space.space.axes[a], offset = space.space.offsets[a]
            let values = steps.map { u -> Double in
                var x = centre
                x[offset] = u
                if case let .number(v) = space.space.decode(x)[spec.name] { return v }
                return .nan
            }
            if case let .numeric(_, _, log) = spec.kind { return .init(name: spec.name, log: log, values: values) }
            return .init(name: spec.name, log: false, values: values)
        }
        let (ox, oy) = (space.space.offsets[ax], space.space.offsets[ay])
        let mean = steps.map { v in
            steps.map { u in
                var x = centre
                x[ox] = u
                x[oy] = v
                return model.mean(x) - level
            }
        }
        return UtilityMap(x: axis(ax), y: axis(ay), mean: mean)
    }
}

/// A value made once, on first use, thread-safe.
final class Once<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value?

    func get(_ make: () -> Value) -> Value {
        lock.lock()
        defer { lock.unlock() }
        if let value { return value }
        let made = make()
        value = made
        return made
    }
}

/// A bounded, thread-safe memo of `make(key)`: at most `capacity` entries, all dropped when
/// full (the studio's answers stay bounded whatever sets a page asks about).
final class Memo<Key: Hashable & Sendable, Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Key: Value] = [:]
    let capacity: Int

    init(capacity: Int = 4096) { self.capacity = capacity }

    func get(_ key: Key, make: () throws -> Value) throws -> Value {
        lock.lock()
        if let v = values[key] { lock.unlock(); return v }
        lock.unlock()
        let v = try make()
        lock.lock()
        if values.count >= capacity { values.removeAll(keepingCapacity: true) }
        values[key] = v
        lock.unlock()
        return v
    }
}
