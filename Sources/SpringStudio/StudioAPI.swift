import Foundation
import SpringCore
import SpringLayout
import SpringTune
import ToolRuntime
import TraceIO

/// The studio's JSON API without the HTTP around it (Reference §10.16): each endpoint a function
/// from its checked input to its one-line JSON answer. Errors are ``StudioError``s.
public final class StudioAPI: Sendable {
    public let engine: StudioEngine
    public let store: SessionStore
    /// Where `POST /api/export` writes: the session's folder, `exports/`.
    public let exportFolder: String
    /// The learner, or why this preset cannot learn (no axis to learn over, a bad constraint).
    let learning: Result<StudioLearner, StudioError>
    /// One round at a time: a proposal and an answer never interleave.
    private let rounds = NSLock()

    /// The API of `engine` on `store`; `learner` (made here when not given) must be of `engine`.
    public init(engine: StudioEngine, store: SessionStore, learner: StudioLearner? = nil) {
        self.engine = engine
        self.store = store
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
    public func preset() -> JSONValue {
        let kind = engine.loaded.kind
        let objective = engine.loaded.preset.objective
        return .object([
            ("name", .string(engine.loaded.preset.name)), ("model", .string(kind.name)),
            ("axes", .array(engine.axes.map { a in
                var f: [(String, JSONValue)] = [("name", .string(a.name)), ("unit", .string(a.unit)),
                                                ("min", .number(a.min)), ("max", .number(a.max)), ("log", .bool(a.log))]
                if a.isWords { f.append(("words", .array(a.words.map(JSONValue.string)))) } else {
                    f.append(("values", .array(a.values.compactMap(\.number).map(JSONValue.number))))
                }
                f.append(("preset", Self.json(a.preset)))
                return .object(f)
            })),
            ("metrics", .array(kind.reportColumns.map { m in
                .object([("name", .string(m.name)), ("unit", .string(m.unit)), ("better", .string(m.better.rawValue))])
            })),
            ("objective", .object([("constraints", .array(objective.constraints.map(JSONValue.string))),
                                   ("targets", .array(objective.targets.map(JSONValue.string))),
                                   ("minimize", objective.minimize.map(JSONValue.string) ?? .null),
                                   ("maximize", objective.maximize.map(JSONValue.string) ?? .null)])),
            ("screen", .array([.number(engine.loaded.preset.scene.width), .number(engine.loaded.preset.scene.height)])),
            ("traces", .array(engine.infos.map { t in
                .object([("id", .string(t.id)), ("kind", .string(t.kind)), ("intent", t.intent.map(JSONValue.string) ?? .null),
                         ("duration", .number(t.duration))])
            })),
        ])
    }

    /// `POST /api/replay` `{params, traces, items}` (`items: true` adds the timeline rows).
    public func replay(_ body: JSONInput) throws -> String {
        let fields = try body.object(allowed: ["params", "traces", "items"], in: "the body")
        var items = false
        if let given = fields["items"] {
            guard case let .bool(b) = given else { throw StudioError.badRequest("items must be true or false") }
            items = b
        }
        let params = try StudioRequest.params(fields["params"], axes: engine.axes)
        let replays = try engine.replay(params, traces: try StudioRequest.traceIDs(fields["traces"]))
        try store.recordShown(params)
        var out = "{\"params\":" + Self.json(params).compact() + ",\"replays\":["
        for (i, r) in replays.enumerated() {
            if i > 0 { out += "," }
            StudioFrames.write(r, kind: engine.loaded.kind, items: items, to: &out)
        }
        return out + "]}"
    }

    /// `POST /api/evaluate` `{params}`: the report row's aggregates over every trace.
    public func evaluate(_ body: JSONInput) throws -> JSONValue {
        let fields = try body.object(allowed: ["params"], in: "the body")
        let params = try StudioRequest.params(fields["params"], axes: engine.axes)
        return .object([("params", Self.json(params)), ("metrics", try metrics(params))])
    }

    /// `GET /api/candidates?k=K`: the open round, or a new one of K sets.
    public func candidates(k: Int) throws -> JSONValue {
        guard (2...6).contains(k) else { throw StudioError.badRequest("k must be an integer from 2 to 6") }
        let round = try inRound {
            if let open = try store.openRound() { return open }
            let choices = try store.choices()
            let number = choices.count + 1
            let sets = try learner().round(number, k: k, choices: choices)
            let trace = engine.infos[(number - 1) % engine.infos.count].id
            return try store.addRound(trace: trace, sets: sets)
        }
        return .object([("round", .number(Double(round.number))), ("trace", .string(round.trace)),
                        ("candidates", .array(try round.candidates.map { c in
                            .object([("id", .number(Double(c.id))), ("params", Self.json(c.params)), ("metrics", try metrics(c.params))])
                        }))])
    }

    /// `POST /api/choices` `{round, worst|best: ID}` or `{round, same: true}`.
    public func choose(_ body: JSONInput) throws -> JSONValue {
        let fields = try body.object(allowed: ["round", "worst", "best", "same"], in: "the body")
        guard let round = try StudioRequest.integer(fields["round"], "round") else { throw StudioError.badRequest("round is required") }
        let worst = try StudioRequest.integer(fields["worst"], "worst"), best = try StudioRequest.integer(fields["best"], "best")
        var same = false
        if let s = fields["same"] {
            guard case .bool(true) = s else { throw StudioError.badRequest("same must be true") }
            same = true
        }
        let given = [worst != nil, best != nil, same].filter { $0 }.count
        guard given == 1 else { throw StudioError.badRequest("give exactly one of worst, best or same") }
        let answer: SessionStore.Answer = worst.map { .worst($0) } ?? best.map { .best($0) } ?? .same
        return .object([("choices", .number(Double(try inRound { try store.answer(round: round, answer) })))])
    }

    /// `DELETE /api/choices/last`.
    public func undo() throws -> JSONValue { .object([("choices", .number(Double(try inRound { try store.undoLast() })))]) }

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
    public func best() throws -> JSONValue {
        let (best, choices) = try bestEstimate()
        return .object([("params", Self.json(best.params)),
                        ("utility", .object([("mean", .number(best.mean)), ("sd", .number(best.sd))])),
                        ("metrics", try metrics(best.params)), ("choices", .number(Double(choices))),
                        ("map", best.map.map(json) ?? .null)])
    }

    /// The map's JSON: each axis with its name, unit, log flag and values; the means by row.
    func json(_ map: StudioLearner.UtilityMap) -> JSONValue {
        let axis = { (a: StudioLearner.UtilityMap.Axis) -> JSONValue in
            .object([("name", .string(a.name)), ("unit", .string(self.engine.axes.first { $0.name == a.name }?.unit ?? "")),
                     ("log", .bool(a.log)), ("values", .array(a.values.map(JSONValue.number)))])
        }
        return .object([("x", axis(map.x)), ("y", axis(map.y)), ("mean", .array(map.mean.map { .array($0.map(JSONValue.number)) }))])
    }

    /// `POST /api/export` `{name}`: the best estimate as a pinned preset in `exports/NAME.json`.
    public func export(_ body: JSONInput) throws -> JSONValue {
        let fields = try body.object(allowed: ["name"], in: "the body")
        guard case let .string(name)? = fields["name"], Self.isSafeName(name) else {
            throw StudioError.badRequest("name must be 1 to 64 letters, digits, '.', '_' or '-', not starting with '.'")
        }
        let (best, choices) = try bestEstimate()
        let text = try StudioExport.preset(engine, params: best.params, name: name, session: store.path, choices: choices, folder: exportFolder)
        let path = (exportFolder as NSString).appendingPathComponent(name + ".json")
        do {
            try FileManager.default.createDirectory(atPath: exportFolder, withIntermediateDirectories: true)
            try AtomicFile.write(text, to: path)
        } catch {
            throw StudioError.conflict("cannot write \(path): \(error)")
        }
        return .object([("path", .string(path))])
    }

    /// Export names: no path, no hidden file, no control characters.
    static func isSafeName(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.count <= 64 && !s.hasPrefix(".")
            && s.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0) }
    }

    /// The report row of `params`, by column: a number, `"inf"` (never settles) or null (undefined).
    func metrics(_ params: [String: ParamValue]) throws -> JSONValue {
        let row = try (try? learner()).map { try $0.metrics(params) } ?? engine.evaluate(params)
        return .object(row.map { ($0.name, Self.json($0.value)) })
    }

    static func json(_ v: MetricValue) -> JSONValue {
        switch v {
        case .undefined: .null
        case let .value(d): .number(d)
        case .neverSettled: .string("inf")
        }
    }

    static func json(_ v: ParamValue) -> JSONValue {
        switch v {
        case let .number(d): .number(d)
        case let .text(s): .string(s)
        }
    }

    static func json(_ params: [String: ParamValue]) -> JSONValue {
        .object(params.keys.sorted().map { ($0, json(params[$0]!)) })
    }
}
