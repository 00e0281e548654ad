import Foundation
import SpringCore
import SpringLayout
import SpringTune
import ToolRuntime
import TraceIO

/// What the designer has set in the studio (Reference §10.16): the levers (free parameters) and
/// the objective, and what follows from the two: the rules' verdicts, the learner over the
/// levers judged by those rules, and the best's margins. A value: `POST /api/space`,
/// `PUT /api/objective` and a recording added to the traces replace it whole.
public struct StudioSetting: Sendable {
    public let engine: StudioEngine
    public let levers: StudioSpace
    public let objective: Objective
    let verdicts: StudioVerdicts
    /// The learner, or why there is none (409: nothing is free).
    let learning: Result<StudioLearner, StudioError>
    private let strategy: StudioLearner.Strategy
    private let measured: Memo<[String: ParamValue], [(name: String, value: MetricValue)]>
    /// The sets shown (panels, candidates, the best) measured trace by trace with their
    /// intervals: like `measured`, they depend on the traces only.
    private let measures: Memo<[String: ParamValue], StudioMeasure>
    /// The margins of each best asked for under this setting.
    private let margined = Memo<[String: ParamValue], [SearchMeta.Margin]>(capacity: 64)
    /// The objective as `sweep` ranks by it (a checked objective always parses).
    let ranking: Result<Ranking, any Error>

    /// Sets measured trace by trace kept at once (a set's per-trace results: about 50 bytes a
    /// trace, as ``SweepRunner/runBudget`` counts them).
    static let measuresKept = 64

    init(engine: StudioEngine, levers: StudioSpace, objective: Objective, strategy: StudioLearner.Strategy,
         measured: Memo<[String: ParamValue], [(name: String, value: MetricValue)]>,
         measures: Memo<[String: ParamValue], StudioMeasure> = Memo(capacity: StudioSetting.measuresKept)) {
        self.engine = engine; self.levers = levers; self.objective = objective; self.strategy = strategy
        self.measured = measured; self.measures = measures
        ranking = Result { try Ranking(objective: objective) }
        verdicts = StudioVerdicts(objective)
        do {
            learning = .success(try StudioLearner(engine: engine, levers: levers, verdicts: verdicts, strategy: strategy, measured: measured))
        } catch let error as StudioError {
            learning = .failure(error)
        } catch {
            learning = .failure(StudioError.conflict("this preset cannot learn from choices: \(error)"))
        }
    }

    func with(levers: StudioSpace) -> StudioSetting {
        StudioSetting(engine: engine, levers: levers, objective: objective, strategy: strategy, measured: measured, measures: measures)
    }

    func with(objective: Objective) -> StudioSetting {
        StudioSetting(engine: engine, levers: levers, objective: objective, strategy: strategy, measured: measured, measures: measures)
    }

    /// The same levers and objective over another set of traces: every set is measured afresh.
    func with(engine: StudioEngine) -> StudioSetting {
        StudioSetting(engine: engine, levers: levers, objective: objective, strategy: strategy, measured: Memo())
    }

    /// The report row of `params` over the traces, measured once per set under this setting's traces.
    func evaluate(_ params: [String: ParamValue]) throws -> [(name: String, value: MetricValue)] {
        try measured.get(params) { try measure([params])[0].row }
    }

    /// `sets` measured trace by trace with their intervals (Reference §14), once per set under
    /// this setting's traces: the sets not measured yet run together, and their report rows
    /// are kept as ``evaluate(_:)``'s.
    func measure(_ sets: [[String: ParamValue]]) throws -> [StudioMeasure] {
        var missing: [[String: ParamValue]] = []
        for set in sets where measures.cached(set) == nil && !missing.contains(set) { missing.append(set) }
        for (set, m) in zip(missing, try StudioMeasure.measure(missing, on: engine)) {
            measures.put(set, m)
            measured.put(set, m.row)
        }
        return try sets.map { set in try measures.get(set) { StudioMeasure(try engine.measure([set])[0]) } }
    }

    /// How sure a measured set is (its constraints at the objective's confidence, or 0.9) and
    /// its verdicts on each group's traces alone (Reference §14.3, §14.5).
    func howSure(_ measure: StudioMeasure) throws -> (sure: HowSure, groups: PerGroup) {
        let ranking = try ranking.get()
        return (HowSure(measure.set, ranking: ranking, bootstrap: StudioMeasure.bootstrap), PerGroup(measure.set, ranking: ranking))
    }

    /// The margins of `params` (free values) along each free numeric parameter (Reference §13):
    /// how far it moves, the others fixed, before a constraint or target of the objective
    /// breaks, to 0.1 % of its range within ±25 % of it. Without a rule nothing can break: no
    /// evaluation, every margin beyond 25 %. A set that already misses a rule has none: each
    /// margin is 0, naming the rule it misses.
    func margins(_ params: [String: ParamValue], metrics row: [(name: String, value: MetricValue)]) throws -> [SearchMeta.Margin] {
        guard let box = levers.box else { return [] }
        let values = box.dimensions.map { params[$0.name] ?? levers.preset[$0.name] ?? .number(.nan) }
        let missed = verdicts.of(row).first { !$0.met }
        guard missed == nil, !objective.constraints.isEmpty || !objective.targets.isEmpty else {
            return zip(box.dimensions, values).compactMap { (d, v) -> SearchMeta.Margin? in
                guard case .numbers = d.extent, let x = v.number else { return nil }
                let zero: Double? = missed == nil ? nil : 0
                return SearchMeta.Margin(name: d.name, unit: d.unit, value: x, down: zero, up: zero, breaks: missed.map { "\($0.rule) is missed already" })
            }
        }
        return try margined.get(params) {
            var ranking = try ranking.get()
            ranking.robust = false
            let scene = engine.loaded.preset.scene
            let evaluator = SearchEvaluator(kind: engine.loaded.kind, scene: scene, box: box,
                                            traces: engine.source,
                                            threads: ProcessInfo.processInfo.activeProcessorCount)
            return try evaluator.margins(of: values, verdict: RowVerdict(ranking: ranking, specs: engine.loaded.kind.reportColumns))
        }
    }

    /// The rounds the best at unit-box point `x` rests on: the answered rounds (not "no
    /// difference") whose nearest candidate lies closest to it (unit-box distance), at most
    /// ``supportCount``, in round order: the answers that placed the model's best where it is.
    func support(_ x: [Double], choices: [SessionStore.Choice]) -> [BestAnswer.Support] {
        func distance(_ c: SessionStore.Candidate) -> Double {
            var sum = 0.0
            for (a, b) in zip(levers.point(c.params), x) { sum += (a - b) * (a - b) }
            return sum.squareRoot()
        }
        var near: [(choice: SessionStore.Choice, distance: Double)] = []
        for c in choices where c.answer != .same {
            near.append((c, c.round.candidates.map(distance).min() ?? .infinity))
        }
        let picked = near.sorted { a, b in a.distance < b.distance || (a.distance == b.distance && a.choice.round.number < b.choice.round.number) }
            .prefix(Self.supportCount).sorted { $0.choice.round.number < $1.choice.round.number }
        return picked.map { c, d in
            let kind: String, id: Int?
            switch c.answer {
            case let .worst(w): kind = "worst"; id = w
            case let .best(b): kind = "best"; id = b
            case .same: kind = "same"; id = nil
            }
            return BestAnswer.Support(round: c.round.number, trace: c.round.trace, candidates: c.round.candidates.map(\.id),
                                      answer: kind, candidate: id, distance: NumberFormat.typed(d))
        }
    }

    /// Most rounds `support` names.
    static let supportCount = 3
}
