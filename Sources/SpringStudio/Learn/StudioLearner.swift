import Foundation
import Preference
import SpringLayout
import SpringTune
import ToolRuntime

/// What the studio learns from the designer's choices (Reference §12, §10.16): the preference
/// model of the `Preference` module over the free parameters (the levers' box: numbers scaled to
/// [0, 1], log ranges in log space, words one-hot), fitted to every answered round, with
///
/// - candidates: `Proposal.next` (the current best by posterior mean, then EUBO candidates),
///   seeded by the round number, drawn from the feasible pool: the `poolSize` points of the quasi-random
///   pool of seed 0 that meet the designer's objective (every constraint met, every target within
///   its tolerance: the verdicts the page shows), each measured over the studio's traces once
///   per free set (in parallel); a refined candidate is measured and kept only when it meets it too;
/// - the best estimate: the feasible point of the largest posterior mean (`PreferenceModel.best`
///   over the feasible pool), its utility given relative to the preset's own set, u(best) − u(preset),
///   as mean ± sd in units of the prior sd (comparisons fix only differences of u);
/// - a map of the predicted utility over the two most important numeric parameters (the shortest
///   fitted length-scales), the others at the best set's values.
///
/// Rounds answered under another free set are learned where their sets project into this box
/// (``StudioSpace/point(_:)``). Everything follows from the session's rows, the free set and the
/// objective, so a restarted studio answers the same.
public struct StudioLearner: Sendable {
    /// How a round's candidates are chosen: by the model, or uniformly at random among the
    /// feasible sets (the baseline `studio --simulate` compares against).
    public enum Strategy: String, Sendable { case model, random }

    /// The best estimate after some choices.
    public struct Best: Sendable, Equatable {
        /// The free parameters' values.
        public var params: [String: ParamValue]
        /// u(best) − u(preset): posterior mean and sd, in units of the prior sd.
        public var mean: Double, sd: Double
        public var map: UtilityMap?
        /// The unit-box point (nil for the preset's own set before any choice).
        public var point: [Double]?

        /// The preset's own set on the free parameters, at utility 0 ± 0 (the best before any choice).
        public static func preset(of space: StudioSpace) -> Best {
            Best(params: space.preset.filter { space.names.contains($0.key) }, mean: 0, sd: 0, map: nil, point: nil)
        }
    }

    /// The predicted utility over two parameters, relative to the preset's set.
    public struct UtilityMap: Sendable, Equatable {
        public struct Axis: Sendable, Equatable {
            public var name: String
            public var log: Bool
            /// The parameter values of the grid's columns (x) or rows (y), in its unit.
            public var values: [Double]
        }
        public var x: Axis, y: Axis
        /// `mean[j][i]`: at y.values[j], x.values[i].
        public var mean: [[Double]]
    }

    public let engine: StudioEngine
    /// The levers: the free parameters and their box.
    public let levers: StudioSpace
    public let box: SearchBox
    public private(set) var strategy: Strategy
    let presetPoint: [Double]
    /// The designer's objective's rules: feasibility is every verdict met.
    let verdicts: StudioVerdicts
    private let measured: Memo<[String: ParamValue], [(name: String, value: MetricValue)]>
    private let fitted = Memo<PreferenceData, PreferenceModel>()
    private let pool = Once<[[Double]]>()

    /// Quasi-random points of the levers' box measured once per free set, of which the feasible
    /// ones are the candidates' and the best's pool.
    public static let poolSize = Proposal.poolSize
    /// Grid points per map axis.
    public static let mapSize = 21
    /// The seed of the pool candidates and the best estimate are drawn from (fixed: a round
    /// depends on the choices and its number only).
    static let poolSeed: UInt64 = 0

    /// The learner over `levers` (409 while nothing is free) judged by `verdicts`, measuring
    /// through `measured` (shared by every learner of a studio: a set's metrics depend on
    /// neither the levers nor the objective).
    init(engine: StudioEngine, levers: StudioSpace, verdicts: StudioVerdicts, strategy: Strategy = .model,
                measured: Memo<[String: ParamValue], [(name: String, value: MetricValue)]> = Memo()) throws {
        guard let box = levers.box else { throw StudioError.conflict("nothing is free: free a parameter (POST /api/space) to learn over it") }
        self.engine = engine
        self.levers = levers
        self.box = box
        self.verdicts = verdicts
        self.measured = measured
        self.strategy = strategy
        presetPoint = levers.point([:])
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

    /// True when `params` meets the objective: every constraint and target of it met (a set that
    /// cannot be measured does not).
    public func feasible(_ params: [String: ParamValue]) -> Bool {
        guard let row = try? metrics(params) else { return false }
        return verdicts.of(row).allSatisfy(\.met)
    }

    /// The points of the pool of seed 0 that meet the objective, in pool order: measured once,
    /// on every core (each point's verdict is its own, so the list is the same for any count).
    public func feasiblePool() -> [[Double]] {
        pool.get {
            let points = Proposal.pool(space: box.space, count: Self.poolSize, seed: Self.poolSeed)
            // Measured in parallel into the metrics memo, then read back in order.
            DispatchQueue.concurrentPerform(iterations: points.count) { i in _ = feasible(parameters(points[i])) }
            return points.filter { feasible(parameters($0)) }
        }
    }

    /// The free parameters' values at a unit-box point.
    public func parameters(_ x: [Double]) -> [String: ParamValue] {
        Dictionary(uniqueKeysWithValues: zip(levers.names, box.row(x)))
    }

    /// The unit-box point of a set shown in a round (``StudioSpace/point(_:)``).
    public func point(_ params: [String: ParamValue]) -> [Double] { levers.point(params) }

    /// The comparisons of `choices`, after the preset's own point (so that the first round and
    /// the best before any choice start from it).
    func data(_ choices: [SessionStore.Choice]) -> PreferenceData {
        var data = PreferenceData()
        data.add(point: presetPoint)
        for choice in choices {
            let shown = choice.round.candidates.map { data.add(point: point($0.params)) }
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
        let data = data(choices)
        return try fitted.get(data) {
            do { return try PreferenceModel.fit(data, space: box.space) } catch { throw StudioError.conflict("the preference model: \(error)") }
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
                throw StudioError.conflict("no candidate meets the objective within the free parameters' ranges (\(error.description)): free more or loosen a rule")
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
            throw StudioError.conflict("fewer than two sets meet the objective within the free parameters' ranges: nothing to compare; free more or loosen a rule")
        }
        return points.map(parameters)
    }

    /// The best estimate after `choices`: the preset's own set (0 ± 0) before any.
    public func best(_ choices: [SessionStore.Choice]) throws -> Best {
        guard !choices.isEmpty else { return .preset(of: levers) }
        let model = try model(choices)
        guard let top = model.best(pool: feasiblePool(), feasible: { feasible(parameters($0)) }) else {
            throw StudioError.conflict("no set meets the objective within the free parameters' ranges: free more or loosen a rule")
        }
        let gain = model.difference(top.x, presetPoint)
        return Best(params: parameters(top.x), mean: gain.mean, sd: gain.sd, map: map(model, at: top.x), point: top.x)
    }

    /// The predicted utility u(x) − u(preset) over the two numeric axes of the shortest fitted
    /// length-scales (ties: the earlier axis), on a `mapSize`² grid through `centre`; nil with
    /// fewer than two numeric axes.
    func map(_ model: PreferenceModel, at centre: [Double]) -> UtilityMap? {
        let numeric = box.space.axes.indices.filter { if case .numeric = box.space.axes[$0].kind { true } else { false } }
        let scale = { (a: Int) in model.kernel.lengthScales[box.space.offsets[a]] }
        let top = numeric.sorted { scale($0) < scale($1) || (scale($0) == scale($1) && $0 < $1) }.prefix(2)
        guard top.count == 2 else { return nil }
        let (ax, ay) = (top[top.startIndex], top[top.startIndex + 1])
        let steps = (0..<Self.mapSize).map { Double($0) / Double(Self.mapSize - 1) }
        let level = model.mean(presetPoint)
        func axis(_ a: Int) -> UtilityMap.Axis {
            let spec = box.space.axes[a], offset = box.space.offsets[a]
            let values = steps.map { u -> Double in
                var x = centre
                x[offset] = u
                if case let .number(v) = box.space.decode(x)[spec.name] { return v }
                return .nan
            }
            if case let .numeric(_, _, log) = spec.kind { return .init(name: spec.name, log: log, values: values) }
            return .init(name: spec.name, log: false, values: values)
        }
        let (ox, oy) = (box.space.offsets[ax], box.space.offsets[ay])
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
public final class Memo<Key: Hashable & Sendable, Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Key: Value] = [:]
    let capacity: Int

    public init(capacity: Int = 4096) { self.capacity = capacity }

    func get(_ key: Key, make: () throws -> Value) throws -> Value {
        if let v = cached(key) { return v }
        let v = try make()
        put(key, v)
        return v
    }

    /// The value kept for `key`, if any.
    func cached(_ key: Key) -> Value? {
        lock.lock()
        defer { lock.unlock() }
        return values[key]
    }

    /// Keeps `value` for `key` (all dropped first when full).
    func put(_ key: Key, _ value: Value) {
        lock.lock()
        defer { lock.unlock() }
        if values.count >= capacity { values.removeAll(keepingCapacity: true) }
        values[key] = value
    }
}
