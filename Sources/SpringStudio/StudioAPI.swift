import Foundation
import SpringCore
import SpringLayout
import SpringTune
import ToolRuntime
import TraceIO

/// The studio's JSON API without the HTTP around it (Reference §10.16): each operation a
/// function from its decoded request to its answer (the contract types of `Contract/`; the
/// operations list, `Server/StudioOperations.swift`, routes them). Errors are ``StudioError``s.
public final class StudioAPI: Sendable {
    /// The preset and its trace files, without the session's recordings.
    let base: StudioEngine
    public let store: SessionStore
    /// Where `POST /api/export` writes: the session's folder, `exports/`.
    public let exportFolder: String
    let strategy: StudioLearner.Strategy
    /// The designer's levers and objective, and what follows from them.
    private let setting: Guarded<StudioSetting>
    /// One round at a time: a proposal, an answer and a change of levers or objective never interleave.
    private let rounds = NSLock()

    /// The API of `engine` on `store`, with the levers and objective the session holds (the
    /// preset's before the designer changed them); a session whose stored levers or objective
    /// this preset refuses is refused (65), as a hand-edited file should be.
    public init(engine: StudioEngine, store: SessionStore, strategy: StudioLearner.Strategy = .model,
                measured: Memo<[String: ParamValue], [(name: String, value: MetricValue)]> = Memo()) throws {
        base = engine
        self.store = store
        self.strategy = strategy
        exportFolder = ((store.path as NSString).deletingLastPathComponent as NSString).appendingPathComponent("exports")
        let loaded = engine.loaded
        do {
            let levers = try store.value(SessionStore.Key.free).map { try StudioSpace(loaded, free: try StudioRequest.decode([FreeParameter].self, from: Array($0.utf8))) }
                ?? StudioSpace.initial(loaded)
            let objective = try store.value(SessionStore.Key.objective).map { try ObjectiveBody.checked(try StudioRequest.decode(ObjectiveBody.self, from: Array($0.utf8)), loaded: loaded) }
                ?? loaded.preset.objective
            // Every set's report row is measured once per trace set (it depends on neither the
            // levers nor the objective): `measured` serves while no recording is added.
            let recordings = try store.recordings()
            let withRecordings = recordings.contains(where: \.used)
            setting = Guarded(StudioSetting(engine: try Self.engine(engine, with: recordings), levers: levers, objective: objective,
                                            strategy: strategy, measured: withRecordings ? Memo() : measured))
        } catch let error as StudioError {
            throw ToolError(.dataError, "\(store.path): the session's levers or objective: \(error.message); give another --session")
        }
    }

    /// The levers, objective and learner now.
    var current: StudioSetting { setting.value }

    /// The preset and the traces now: the trace files' and the recordings added to them.
    public var engine: StudioEngine { current.engine }

    /// The learner (409 while nothing is free).
    func learner() throws -> StudioLearner { try current.learning.get() }

    /// `body` with the round lock held.
    func inRound<T>(_ body: () throws -> T) rethrows -> T {
        rounds.lock()
        defer { rounds.unlock() }
        return try body()
    }

    /// `GET /api/preset`.
    func preset() -> PresetAnswer {
        let kind = engine.loaded.kind, preset = engine.loaded.preset, s = current
        let start = s.levers.start
        return PresetAnswer(
            name: preset.name, model: kind.name,
            axes: (s.levers.box?.dimensions ?? []).map { d in
                switch d.extent {
                case let .numbers(lo, hi, isLog): .init(name: d.name, unit: d.unit, min: lo, max: hi, log: isLog, words: nil, preset: start[d.name]!)
                case let .words(words): .init(name: d.name, unit: d.unit, min: nil, max: nil, log: false, words: words.map(\.description), preset: start[d.name]!)
                }
            },
            parameters: kind.parameters.compactMap { spec in
                guard let domain = spec.domain, let value = s.levers.preset[spec.name] else { return nil }
                let free = s.levers.box?.dimensions.first { $0.name == spec.name }
                return PresetAnswer.Parameter(spec: spec, value: value, domain: domain, free: free)
            },
            metrics: kind.reportColumns.map { .init(name: $0.name, unit: $0.unit, better: $0.better.rawValue) },
            objective: ObjectiveBody(s.objective),
            screen: [preset.scene.width, preset.scene.height],
            traces: engine.infos.map { .init(id: $0.id, kind: $0.kind, intent: $0.intent, duration: $0.duration) })
    }

    /// `POST /api/space`: replaces the free set, drops the open round (proposed under the old
    /// one) and answers as `GET /api/preset`.
    func space(_ request: SpaceRequest) throws -> PresetAnswer {
        let levers = try StudioSpace(engine.loaded, free: request.free)
        try change(.free, to: try JSONTextEncoder.encode(request.free)) { $0.with(levers: levers) }
        return preset()
    }

    /// `GET /api/objective`.
    func objective() -> ObjectiveBody { ObjectiveBody(current.objective) }

    /// `PUT /api/objective`: the designer's objective, checked as a preset's (400 naming the
    /// rule), stored in the session; drops the open round.
    func setObjective(_ body: ObjectiveBody) throws -> ObjectiveBody {
        let objective = try ObjectiveBody.checked(body, loaded: engine.loaded)
        try change(.objective, to: try JSONTextEncoder.encode(ObjectiveBody(objective))) { $0.with(objective: objective) }
        return ObjectiveBody(objective)
    }

    /// Stores `text` under `key`, drops the open round and moves to the setting `next` makes.
    private func change(_ key: SessionStore.Key, to text: String, _ next: (StudioSetting) -> StudioSetting) throws {
        try inRound {
            try store.set(key, text)
            setting.update(next)
        }
        warmPool()
    }

    /// Measures the feasible pool in the background (a few seconds), so that the next round does not wait for it.
    public func warmPool() {
        if let learner = try? learner() { Thread { _ = learner.feasiblePool() }.start() }
    }

    /// `POST /api/replay`.
    func replay(_ request: ReplayRequest) throws -> ReplayAnswer {
        let params = try StudioRequest.checked(request.params, kind: engine.loaded.kind)
        let ids = request.traces ?? []
        let replays = try ids.isEmpty ? engine.replay(params, traces: []) : replay(params, ids: ids, on: engine)
        try store.recordShown(params)
        let verdicts = current.verdicts, loaded = engine.loaded
        return ReplayAnswer(params: ParamSet(params), engine: EngineStartAnswer(try Replay.engineStart(loaded, set: params)), replays: try replays.map {
            let record = request.engine == true ? try Replay.engine(loaded, set: params, trace: $0.outcome.trace) : nil
            return StudioFrames.answer($0, kind: loaded.kind, verdicts: verdicts, items: request.items ?? false, engine: record)
        })
    }

    /// The traces `ids` replayed under `params` on `engine`: a live recording (`live-N`) not among
    /// its traces replays by itself (a trace of the studio with that id goes first).
    func replay(_ params: [String: ParamValue], ids: [String], on engine: StudioEngine) throws -> [StudioEngine.TraceReplay] {
        let recorded = ids.contains(where: { id in SessionStore.recordingNumber(id) != nil && !engine.infos.contains { $0.id == id } })
            ? Dictionary(try store.recordings().map { ($0.id, $0.trace) }, uniquingKeysWith: { a, _ in a }) : [:]
        return try ids.map { id in
            if let trace = recorded[id], !engine.infos.contains(where: { $0.id == id }) { return try engine.replay(params, trace: trace) }
            return try engine.replay(params, traces: [id])[0]
        }
    }

    /// `base` with the recordings `used` after it (`base` itself when none is).
    static func engine(_ base: StudioEngine, with recordings: [SessionStore.Recording]) throws -> StudioEngine {
        let used = recordings.filter(\.used).map(\.trace)
        return used.isEmpty ? base : try base.adding(used)
    }

    /// `GET /api/recordings`: the live gestures kept in the session.
    func recordings() throws -> RecordingsAnswer {
        let estimator = base.loaded.preset.scene.estimator
        return RecordingsAnswer(recordings: try store.recordings().map { r in
            let info = StudioEngine.info(r.trace, estimator: estimator)
            return .init(id: r.id, kind: info.kind, intent: r.intent?.rawValue, used: r.used,
                         duration: info.duration, screen: r.screen, dpr: r.dpr, params: ParamSet(r.params))
        })
    }

    /// `POST /api/recordings/ID` `{intent, used}`: labels a recording with one of the model's
    /// intents, adds it to the traces or takes it out. A change of the traces (a recording added
    /// or taken out, or an added one labelled) drops the open round and measures afresh.
    func update(_ id: String, _ request: LabelRequest) throws -> RecordingsAnswer {
        if let intent = request.intent {
            let allowed = base.loaded.kind.decisionLabels.flatMap { [$0.positive, $0.negative] }
            if !allowed.isEmpty, !allowed.contains(intent) {
                throw StudioError.badRequest("intent must be one of \(allowed.map(\.rawValue).joined(separator: ", ")) for \(base.loaded.kind.name)")
            }
        }
        try inRound {
            // The traces after the change, made before it is stored: a refused one (409) changes nothing.
            let recordings = try store.recordings()
            guard recordings.contains(where: { $0.id == id }) else { throw StudioError.notFound("no recording '\(id.prefix(80))' in this session") }
            let changed = recordings.map { r in
                var r = r
                if r.id == id {
                    r.used = request.used ?? r.used
                    if let intent = request.intent { r.intent = intent; r.trace.intent = intent }
                }
                return r
            }
            let now = try Self.engine(base, with: changed)
            try store.update(recording: id, intent: request.intent, used: request.used)
            guard now.infos != engine.infos else { return }
            setting.update { $0.with(engine: now) }
            warmPool()
        }
        return try recordings()
    }

    /// `GET /api/recordings.csv`: the recordings as one trace CSV (Reference §3).
    func recordingsCSV() throws -> String { TraceWriter.csv(try store.recordings().map(\.trace)) }

    /// `GET /api/recordings.meta.json`: the CSV's sidecar.
    func recordingsMeta() throws -> RecordingsMeta {
        RecordingsMeta(session: store.path, preset: engine.loaded.preset.name, model: engine.loaded.kind.name, recordings: try recordings().recordings)
    }

    /// `POST /api/evaluate`: the report row's aggregates over every trace, with their verdicts
    /// and 95 % intervals.
    func evaluate(_ request: ParamsRequest) throws -> Evaluation {
        let params = try StudioRequest.checked(request.params, kind: engine.loaded.kind)
        let s = current, measure = try s.measure([params])[0]
        return Evaluation(params: ParamSet(params), metrics: MetricRow(columns: measure.row), verdicts: s.verdicts.of(measure.row),
                          intervals: IntervalsAnswer(measure.intervals))
    }

    /// `GET /api/candidates?k=K`: the open round, or a new one of K sets, watched on the trace
    /// where they differ most from 0.3 s before its release; each candidate with its intervals
    /// and whether it differs from the best-looking one only inside the noise.
    func candidates(k: Int) throws -> RoundAnswer {
        guard (2...6).contains(k) else { throw StudioError.badRequest("k must be an integer from 2 to 6") }
        let (round, s) = try inRound {
            let s = current
            if let open = try store.openRound() { return (open, s) }
            let choices = try store.choices()
            let sets = try s.learning.get().round(choices.count + 1, k: k, choices: choices)
            let watch = try engine.mostDifferent(sets)
            return (try store.addRound(trace: watch.trace, start: watch.start, sets: sets), s)
        }
        let measures = try s.measure(round.candidates.map(\.params))
        let noise = RoundNoise(measures.map(\.set), ranking: try s.ranking.get())
        return RoundAnswer(round: round.number, trace: round.trace, start: round.start,
                           noise: noise.map { .init(metric: $0.metric, candidate: round.candidates[$0.reference].id) },
                           candidates: zip(round.candidates, measures).enumerated().map { i, pair in
            let (c, m) = pair
            return CandidateAnswer(id: c.id, params: ParamSet(c.params), metrics: MetricRow(columns: m.row), verdicts: s.verdicts.of(m.row),
                                   intervals: IntervalsAnswer(m.intervals), insideNoise: noise?.inside[i] ?? false)
        })
    }

    /// `POST /api/choices`: the number of answers so far, and whether the model learns from it.
    func choose(_ request: ChoiceRequest) throws -> ChoiceCount {
        let count = try inRound { try store.answer(round: request.round, request.answer) }
        return ChoiceCount(choices: count, learned: request.answer != .same)
    }

    /// `DELETE /api/choices/last`.
    func undo() throws -> ChoiceCount { ChoiceCount(choices: try inRound { try store.undoLast() }, learned: true) }

    /// The best estimate and the choices it rests on. Before any choice it is the preset's own
    /// set, with no model: a preset that cannot learn still shows and exports it.
    public func bestEstimate() throws -> (best: StudioLearner.Best, choices: [SessionStore.Choice], setting: StudioSetting) {
        try inRound {
            let s = current, choices = try store.choices()
            guard !choices.isEmpty else { return (.preset(of: s.levers), choices, s) }
            return (try s.learning.get().best(choices), choices, s)
        }
    }

    /// `GET /api/best`: the best estimate so far (the preset's values before any choice), its
    /// utility relative to the preset's set, the utility map, the free parameters it sits at an
    /// end of, its margins, the rounds it rests on, each metric's change against the preset,
    /// its intervals, how sure its constraints are and its verdicts per group.
    func best() throws -> BestAnswer {
        let (best, choices, s) = try bestEstimate()
        let measure = try s.measure([best.params])[0], (sure, perGroup) = try s.howSure(measure)
        let row = measure.row, presetRow = try s.evaluate([:])
        let margins = try s.margins(best.params, metrics: row)
        var changes: [(name: String, value: MetricValue)] = []
        for (m, p) in zip(row, presetRow) {
            if let a = m.value.number, let b = p.value.number, a.isFinite, b.isFinite { changes.append((m.name, .value(NumberFormat.typed(a - b)))) }
        }
        return BestAnswer(
            params: ParamSet(best.params), utility: .init(mean: best.mean, sd: best.sd), metrics: MetricRow(columns: row),
            verdicts: s.verdicts.of(row), intervals: IntervalsAnswer(measure.intervals), sure: SureAnswer(sure),
            groups: GroupAnswer.rows(perGroup, ranking: try s.ranking.get()), choices: choices.count, map: best.map.map { answer($0, levers: s.levers) },
            edges: (s.levers.box?.dimensions ?? []).compactMap { d in best.params[d.name]?.number.flatMap(d.end(of:)).map { _ in d.name } },
            margins: Margins(margins), support: best.point.map { s.support($0, choices: choices) } ?? [],
            changes: MetricRow(columns: changes))
    }

    /// The map's answer: each parameter with its name, unit, log flag and values; the means by row.
    func answer(_ map: StudioLearner.UtilityMap, levers: StudioSpace) -> BestAnswer.UtilityMap {
        let axis = { (a: StudioLearner.UtilityMap.Axis) in
            MapAxis(name: a.name, unit: levers.box?.dimensions.first { $0.name == a.name }?.unit ?? "", log: a.log, values: a.values)
        }
        return .init(x: axis(map.x), y: axis(map.y), mean: map.mean)
    }

    /// `POST /api/export` `{name}`: the best estimate as a pinned preset in `exports/NAME.json`,
    /// with the designer's objective as its own.
    func export(_ request: ExportRequest) throws -> ExportAnswer {
        let (best, choices, s) = try bestEstimate()
        let text = try StudioExport.preset(s.engine, params: best.params, objective: s.objective, name: request.name, session: store.path,
                                           choices: choices.count, folder: exportFolder)
        let path = (exportFolder as NSString).appendingPathComponent(request.name + ".json")
        do {
            try FileManager.default.createDirectory(atPath: exportFolder, withIntermediateDirectories: true)
            try AtomicFile.write(text, to: path)
        } catch {
            throw StudioError.conflict("cannot write \(path): \(error)")
        }
        return ExportAnswer(path: path)
    }

    /// `POST /api/code` `{params, format}`: the set (the preset's values where not given) in a
    /// platform's form, with the designer's objective: every parameter, as `export --format` writes.
    func code(_ request: CodeRequest) throws -> CodeAnswer {
        let params = try StudioRequest.checked(request.params, kind: engine.loaded.kind)
        return CodeAnswer(format: request.format.rawValue, text: try StudioExport.code(engine, params: params, objective: current.objective, format: request.format))
    }

    /// The report row of `params` (names not given: the preset's values), by column.
    func metrics(_ params: [String: ParamValue]) throws -> [(name: String, value: MetricValue)] {
        try current.evaluate(params)
    }
}

/// A value behind a lock, read and replaced whole.
final class Guarded<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    func update(_ next: (Value) -> Value) {
        lock.lock()
        defer { lock.unlock() }
        stored = next(stored)
    }
}
