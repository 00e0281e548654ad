import Foundation
import SpringCore
import SpringLayout
import SpringTune
import ToolRuntime
import TraceIO

/// The studio's JSON API without the HTTP around it (Reference §10.16): each endpoint a function
/// from its decoded request to its answer (the contract types of StudioRequest.swift and
/// StudioAnswers.swift). Errors are ``StudioError``s.
public final class StudioAPI: Sendable {
    public let engine: StudioEngine
    public let store: SessionStore
    /// Where `POST /api/export` writes: the session's folder, `exports/`.
    public let exportFolder: String
    /// The learner, or why this preset cannot learn (no axis to learn over, a bad constraint).
    let learning: Result<StudioLearner, StudioError>
    /// The objective's rules, judged on every set's metrics.
    let verdicts: StudioVerdicts
    /// One round at a time: a proposal and an answer never interleave.
    private let rounds = NSLock()

    /// The API of `engine` on `store`; `learner` (made here when not given) must be of `engine`.
    public init(engine: StudioEngine, store: SessionStore, learner: StudioLearner? = nil) {
        self.engine = engine
        self.store = store
        verdicts = StudioVerdicts(engine.loaded.preset.objective)
        exportFolder = ((store.path as NSString).deletingLastPathComponent as NSString).appendingPathComponent("exports")
        do {
            learning = .success(try learner ?? StudioLearner(engine: engine))
        } catch {
            learning = .failure(StudioError.conflict("this preset cannot learn from choices: \((error as? ToolError)?.message ?? "\(error)")"))
        }
    }

    /// The learner (409 when the preset cannot learn).
    func learner() throws -> StudioLearner { try learning.get() }

    /// `body` with the round lock held.
    func inRound<T>(_ body: () throws -> T) rethrows -> T {
        rounds.lock()
        defer { rounds.unlock() }
        return try body()
    }

    /// `GET /api/preset`.
    func preset() -> PresetAnswer {
        let kind = engine.loaded.kind, preset = engine.loaded.preset
        return PresetAnswer(
            name: preset.name, model: kind.name,
            axes: engine.axes.map { a in
                .init(name: a.name, unit: a.unit, min: a.min, max: a.max, log: a.log,
                      values: a.isWords ? nil : a.values.compactMap(\.number), words: a.isWords ? a.words : nil, preset: a.preset)
            },
            metrics: kind.reportColumns.map { .init(name: $0.name, unit: $0.unit, better: $0.better.rawValue) },
            objective: .init(constraints: preset.objective.constraints, targets: preset.objective.targets,
                             minimize: preset.objective.minimize, maximize: preset.objective.maximize),
            screen: [preset.scene.width, preset.scene.height],
            traces: engine.infos.map { .init(id: $0.id, kind: $0.kind, intent: $0.intent, duration: $0.duration) })
    }

    /// `POST /api/replay`.
    func replay(_ request: ReplayRequest) throws -> ReplayAnswer {
        let params = try StudioRequest.checked(request.params, axes: engine.axes)
        let replays = try engine.replay(params, traces: request.traces ?? [])
        try store.recordShown(params)
        return ReplayAnswer(params: ParamSet(params), replays: replays.map {
            StudioFrames.answer($0, kind: engine.loaded.kind, verdicts: verdicts, items: request.items ?? false)
        })
    }

    /// `POST /api/evaluate`: the report row's aggregates over every trace.
    func evaluate(_ request: ParamsRequest) throws -> Evaluation {
        let params = try StudioRequest.checked(request.params, axes: engine.axes)
        let row = try metrics(params)
        return Evaluation(params: ParamSet(params), metrics: MetricRow(columns: row), verdicts: verdicts.of(row))
    }

    /// `GET /api/candidates?k=K`: the open round, or a new one of K sets.
    func candidates(k: Int) throws -> RoundAnswer {
        guard (2...6).contains(k) else { throw StudioError.badRequest("k must be an integer from 2 to 6") }
        let round = try inRound {
            if let open = try store.openRound() { return open }
            let choices = try store.choices()
            let number = choices.count + 1
            let sets = try learner().round(number, k: k, choices: choices)
            let trace = engine.infos[(number - 1) % engine.infos.count].id
            return try store.addRound(trace: trace, sets: sets)
        }
        return RoundAnswer(round: round.number, trace: round.trace, candidates: try round.candidates.map { c in
            let row = try metrics(c.params)
            return CandidateAnswer(id: c.id, params: ParamSet(c.params), metrics: MetricRow(columns: row), verdicts: verdicts.of(row))
        })
    }

    /// `POST /api/choices`: the number of answers so far.
    func choose(_ request: ChoiceRequest) throws -> ChoiceCount {
        ChoiceCount(choices: try inRound { try store.answer(round: request.round, request.answer) })
    }

    /// `DELETE /api/choices/last`.
    func undo() throws -> ChoiceCount { ChoiceCount(choices: try inRound { try store.undoLast() }) }

    /// The best estimate and the number of choices it rests on. Before any choice it is the
    /// preset's own set, with no model: a preset that cannot learn still shows and exports it.
    public func bestEstimate() throws -> (best: StudioLearner.Best, choices: Int) {
        try inRound {
            let choices = try store.choices()
            guard !choices.isEmpty else { return (.preset(of: engine), 0) }
            return (try learner().best(choices), choices.count)
        }
    }

    /// `GET /api/best`: the best estimate so far (the preset's values before any choice), its
    /// utility relative to the preset's set, and the utility map.
    func best() throws -> BestAnswer {
        let (best, choices) = try bestEstimate()
        let row = try metrics(best.params)
        return BestAnswer(params: ParamSet(best.params), utility: .init(mean: best.mean, sd: best.sd), metrics: MetricRow(columns: row),
                          verdicts: verdicts.of(row), choices: choices, map: best.map.map(answer))
    }

    /// The map's answer: each axis with its name, unit, log flag and values; the means by row.
    func answer(_ map: StudioLearner.UtilityMap) -> BestAnswer.UtilityMap {
        let axis = { (a: StudioLearner.UtilityMap.Axis) in
            MapAxis(name: a.name, unit: self.engine.axes.first { $0.name == a.name }?.unit ?? "", log: a.log, values: a.values)
        }
        return .init(x: axis(map.x), y: axis(map.y), mean: map.mean)
    }

    /// `POST /api/export` `{name}`: the best estimate as a pinned preset in `exports/NAME.json`.
    func export(_ request: ExportRequest) throws -> ExportAnswer {
        let (best, choices) = try bestEstimate()
        let text = try StudioExport.preset(engine, params: best.params, name: request.name, session: store.path, choices: choices, folder: exportFolder)
        let path = (exportFolder as NSString).appendingPathComponent(request.name + ".json")
        do {
            try FileManager.default.createDirectory(atPath: exportFolder, withIntermediateDirectories: true)
            try AtomicFile.write(text, to: path)
        } catch {
            throw StudioError.conflict("cannot write \(path): \(error)")
        }
        return ExportAnswer(path: path)
    }

    /// The report row of `params`, by column.
    func metrics(_ params: [String: ParamValue]) throws -> [(name: String, value: MetricValue)] {
        try (try? learner()).map { try $0.metrics(params) } ?? engine.evaluate(params)
    }
}
