import Foundation
import SpringCore

/// A preset file (Reference §9.1, schema `springtune.preset/1`): one interaction model with its
/// spring, parameters, scene, default sweep axes, objective and bundled trace set. Decoding is
/// strict: unknown keys, wrong types and out-of-range values fail with the key's path.
public struct Preset: Sendable, Codable {
    /// The schema every preset file names: `springtune.preset/1`.
    public static let schemaName = "springtune.preset/1"

    /// The file's schema, ``schemaName``.
    public var schema: String = Preset.schemaName
    /// The preset's name (also its default output folder, `out/NAME`).
    public var name: String
    /// The interaction model's name (`flow-layout`, `flick-dismiss`, …: ``InteractionModel/modelName``).
    public var model: String
    /// What the preset reproduces, in a sentence.
    public var description: String
    /// The model's main spring.
    public var spring: SpringSpec
    /// The model's other parameters by name; missing ones take their defaults.
    public var params: [String: ParamValue]
    /// The screen and clock.
    public var scene: Scene
    /// The default sweep: one axis per parameter varied.
    public var sweep: [SweepAxis]
    /// The box `springtune search` explores (Reference §8.3); nil: the sweep axes' ranges.
    public var search: [SearchRange]?
    /// What a good parameter set is.
    public var objective: Objective
    /// The bundled trace files the preset is measured on.
    public var traces: [String]
    /// Where an exported preset's values came from; nil for a hand-written preset.
    public var provenance: Provenance?

    /// A preset from its parts; the scene, sweep, objective and traces default to none.
    public init(name: String, model: String, description: String, spring: SpringSpec, params: [String: ParamValue],
                scene: Scene = Scene(), sweep: [SweepAxis] = [], objective: Objective = Objective(), traces: [String] = []) {
        self.name = name; self.model = model; self.description = description; self.spring = spring
        self.params = params; self.scene = scene; self.sweep = sweep; self.objective = objective; self.traces = traces
    }

    static let keys: Set<String> = ["schema", "name", "model", "description", "spring", "params", "scene", "sweep", "search", "objective", "traces", "provenance"]

    /// Decodes strictly: the schema must be ``schemaName``; unknown keys, wrong types and out-of-range values fail with the key's path.
    public init(from decoder: any Decoder) throws {
        let c = try StrictContainer(decoder, keys: Self.keys)
        schema = try c.decode(String.self, "schema")
        guard schema == Self.schemaName else { throw c.fail("schema", "'\(schema)' is not \(Self.schemaName)") }
        name = try c.decode(String.self, "name")
        // The name is the default output folder's (`out/NAME`): an empty one was `out/` itself.
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty, name != ".", name != "..", !name.contains("/") else {
            throw c.fail("name", "'\(name.prefix(60))' is not a name (empty, . or .., or with a /)")
        }
        model = try c.decode(String.self, "model")
        description = try c.decodeIfPresent(String.self, "description") ?? ""
        spring = try c.decode(SpringSpec.self, "spring")
        params = try c.decodeIfPresent([String: ParamValue].self, "params") ?? [:]
        scene = try c.decodeIfPresent(Scene.self, "scene") ?? Scene()
        sweep = try c.decodeIfPresent([SweepAxis].self, "sweep") ?? []
        search = try c.decodeIfPresent([SearchRange].self, "search")
        objective = try c.decodeIfPresent(Objective.self, "objective") ?? Objective()
        traces = try c.decodeIfPresent([String].self, "traces") ?? []
        // A file listed twice would be run twice (2,000 times for a list of 2,000 copies).
        var listed: [String: Int] = [:]
        for (i, entry) in traces.enumerated() {
            if let first = listed.updateValue(i, forKey: entry) {
                throw DecodingError.dataCorrupted(.init(codingPath: c.container.codingPath + [AnyKey("traces"), AnyIndex(i)],
                                                       debugDescription: "'\(entry.prefix(200))' is listed already (traces[\(first)])"))
            }
        }
        provenance = try c.decodeIfPresent(Provenance.self, "provenance")
        if let models = decoder.userInfo[Self.modelsKey] as? [any InteractionModel.Type] {
            guard let type = models.first(where: { $0.modelName == model }) else {
                throw c.fail("model", "unknown model '\(model)' (known: \(models.map { $0.modelName }.joined(separator: ", ")))")
            }
            if let (path, message) = mismatch(with: type) {
                throw DecodingError.dataCorrupted(.init(codingPath: c.container.codingPath + path, debugDescription: message))
            }
        }
        if let columns = (decoder.userInfo[Self.reportColumnsKey] as? [String: [String]])?[model],
           let (path, message) = objective.unknownMetric(in: columns) {
            throw DecodingError.dataCorrupted(.init(codingPath: c.container.codingPath + [AnyKey("objective")] + path, debugDescription: message))
        }
    }

    /// The decoder `userInfo` key for the models a preset may name (`[any InteractionModel.Type]`).
    /// With it, decoding also checks the model's name, `params`, `sweep` and the metrics the objective names; without it (an app
    /// decoding its own preset) those checks run when the engine is built (``InteractionModel/init(preset:)``).
    public static let modelsKey = CodingUserInfoKey(rawValue: "springtune.preset.models")!

    /// The decoder `userInfo` key for each model's report columns by model name
    /// (`[String: [String]]`): with it, decoding checks that every metric the objective names
    /// is one of the preset's model's (the measuring side knows them; an app does not).
    public static let reportColumnsKey = CodingUserInfoKey(rawValue: "springtune.preset.reportColumns")!

    /// Checks that the preset names `type` and that its `params` and `sweep` fit its parameters.
    public func check(as type: any InteractionModel.Type) throws(PresetError) {
        guard model == type.modelName else { throw PresetError(path: "model", message: "'\(model)' is not \(type.modelName)") }
        if let (path, message) = mismatch(with: type) {
            throw PresetError(DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: message)))
        }
    }

    /// The first place `params` or `sweep` disagree with `type`'s parameters (the key path and
    /// the problem), or nil.
    private func mismatch(with type: any InteractionModel.Type) -> (path: [any CodingKey], message: String)? {
        let specs = type.parameters, springNames = Set(type.springParameterNames)
        for name in params.keys.sorted() {
            let path: [any CodingKey] = [AnyKey("params"), AnyKey(name)]
            guard let spec = specs.first(where: { $0.name == name }) else {
                return (path, "unknown parameter of \(model) (known: \(specs.map(\.name).filter { !springNames.contains($0) }.joined(separator: ", ")))")
            }
            if springNames.contains(name) { return (path, "belongs in the spring block") }
            if let problem = spec.check(params[name]!) { return (path, problem) }
        }
        for (i, axis) in sweep.enumerated() {
            let path: [any CodingKey] = [AnyKey("sweep"), AnyIndex(i), AnyKey("name")]
            guard let spec = (specs + Scene.sweepable).first(where: { $0.name == axis.name }) else {
                return (path, "'\(axis.name)' is not a parameter of \(model) or a scene value")
            }
            if let problem = axis.values.lazy.compactMap(spec.check).first { return (path, problem) }
        }
        var seen = Set<String>()
        for (i, range) in (search ?? []).enumerated() {
            let path: [any CodingKey] = [AnyKey("search"), AnyIndex(i), AnyKey("name")]
            guard let spec = specs.first(where: { $0.name == range.name }) else {
                return (path, "'\(range.name)' is not a parameter of \(model)\(Scene.sweepable.contains { $0.name == range.name } ? " (a scene value is not searched)" : "")")
            }
            guard seen.insert(range.name).inserted else { return (path, "'\(range.name)' is in the search box twice") }
            if let problem = range.problem(in: spec) { return ([AnyKey("search"), AnyIndex(i)], problem) }
        }
        // worstOver names axes a sweep can vary: checked here, before any set runs (an unknown
        // one made every group empty and the sweep end without a best set, exit 0).
        for (i, name) in (objective.worstOver ?? []).enumerated() where !(specs + Scene.sweepable).contains(where: { $0.name == name }) {
            return ([AnyKey("objective"), AnyKey("worstOver"), AnyIndex(i)], "'\(name)' is not a parameter of \(model) or a scene value")
        }
        return nil
    }

    /// Decodes a preset from JSON, turning decoding failures into a ``PresetError`` with the path;
    /// given `models`, it also checks the preset against the one it names (see ``modelsKey``), and
    /// given `reportColumns`, the objective's metrics (see ``reportColumnsKey``).
    public static func decode(_ data: Data, models: [any InteractionModel.Type]? = nil,
                              reportColumns: [String: [String]]? = nil) throws(PresetError) -> Preset {
        try JSONKeys.check(data)
        let decoder = JSONDecoder()
        if let models { decoder.userInfo[modelsKey] = models }
        if let reportColumns { decoder.userInfo[reportColumnsKey] = reportColumns }
        do {
            return try decoder.decode(Preset.self, from: data)
        } catch let error as DecodingError {
            throw PresetError(error)
        } catch {
            throw PresetError(path: "", message: "not valid JSON: \(error.localizedDescription)")
        }
    }
}

/// Where an exported preset's values came from: a report's row (`report`, its `sha256`,
/// `configId`), or a studio session (`session`, the number of `choices` made in it).
public struct Provenance: Sendable, Codable, Equatable {
    /// The report file the values came from.
    public var report: String?
    /// The report file's SHA-256, in hex.
    public var sha256: String?
    /// The report row's `config_id`.
    public var configId: Int?
    /// The studio session file the values came from.
    public var session: String?
    /// The number of choices made in that session.
    public var choices: Int?
    /// The report's metrics of the chosen set by column (nil for an empty value).
    public var metrics: [String: Double?]
    /// How sure those metrics are (Reference §14), by column: the 95 % interval from the
    /// cluster bootstrap over the groups of the traces, when the report has `intervals.csv`.
    public var intervals: [String: MetricInterval]?

    /// Values from row `configId` of the report at `report` with SHA-256 `sha256`.
    public init(report: String, sha256: String, configId: Int, metrics: [String: Double?]) {
        self.report = report; self.sha256 = sha256; self.configId = configId; self.metrics = metrics
    }

    /// Values from the studio session `session` after `choices` choices.
    public init(session: String, choices: Int, metrics: [String: Double?]) {
        self.session = session; self.choices = choices; self.metrics = metrics
    }

    /// `config 17 of report.csv (sha256 …)` or `studio session s.sqlite after 12 choices`.
    public var summary: String {
        if let session { return "studio session \(session) after \(choices ?? 0) choices" }
        return "config \(configId ?? 0) of \(report ?? "") (sha256 \(sha256 ?? ""))"
    }

    /// Decodes strictly: a session with its choices, or a report with its sha256 and configId.
    public init(from decoder: any Decoder) throws {
        let c = try StrictContainer(decoder, keys: ["report", "sha256", "configId", "session", "choices", "metrics", "intervals"])
        session = try c.decodeIfPresent(String.self, "session")
        if session != nil {
            choices = try c.decode(Int.self, "choices")
        } else {
            report = try c.decode(String.self, "report")
            sha256 = try c.decode(String.self, "sha256")
            configId = try c.decode(Int.self, "configId")
        }
        metrics = (try c.decodeIfPresent([String: ReportNumber].self, "metrics") ?? [:]).mapValues(\.value)
        intervals = try c.decodeIfPresent([String: MetricInterval].self, "intervals")
    }

    enum Key: String, CodingKey { case report, sha256, configId, session, choices, metrics, intervals }

    /// Encodes the fields that are set, and the metrics with report precision.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encodeIfPresent(report, forKey: .report)
        try c.encodeIfPresent(sha256, forKey: .sha256)
        try c.encodeIfPresent(configId, forKey: .configId)
        try c.encodeIfPresent(session, forKey: .session)
        try c.encodeIfPresent(choices, forKey: .choices)
        try c.encode(metrics.mapValues(ReportNumber.init), forKey: .metrics)
        try c.encodeIfPresent(intervals, forKey: .intervals)
    }
}

/// A metric's 95 % interval (Reference §14) as a provenance block carries it: its bounds (a
/// number, `null` or `"inf"`) and the traces and groups it rests on.
public struct MetricInterval: Codable, Sendable, Equatable {
    /// The 2.5 % bootstrap quantile, in the metric's unit (nil: undefined).
    public var lo: ReportNumber
    /// The 97.5 % bootstrap quantile, in the metric's unit (nil: undefined).
    public var hi: ReportNumber
    /// The traces the value rests on (for a rate, the labelled traces of its intent).
    public var traces: Int
    /// The groups (people or devices) those traces come from.
    public var groups: Int

    /// An interval from `lo` to `hi` over `traces` traces in `groups` groups.
    public init(lo: Double?, hi: Double?, traces: Int, groups: Int) {
        self.lo = ReportNumber(lo); self.hi = ReportNumber(hi); self.traces = traces; self.groups = groups
    }

    /// Decodes strictly: `lo`, `hi`, `traces` and `groups`, nothing else.
    public init(from decoder: any Decoder) throws {
        let c = try StrictContainer(decoder, keys: ["lo", "hi", "traces", "groups"])
        lo = try c.decode(ReportNumber.self, "lo")
        hi = try c.decode(ReportNumber.self, "hi")
        traces = try c.decode(Int.self, "traces")
        groups = try c.decode(Int.self, "groups")
    }
}

/// A report value in JSON: a number, `null` when undefined, or the strings `"inf"` / `"-inf"`
/// (a settle time that never settled), which JSON numbers cannot hold.
public struct ReportNumber: Codable, Sendable, Equatable {
    /// The number: nil when undefined, ±∞ as `"inf"`/`"-inf"`.
    public var value: Double?

    /// A report value (nil: undefined).
    public init(_ value: Double?) { self.value = value }

    /// Decodes `null`, a number, `"inf"` or `"-inf"`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            value = nil
        } else if let d = try? c.decode(Double.self) {
            value = d
        } else {
            switch try c.decode(String.self) {
            case "inf": value = .infinity
            case "-inf": value = -.infinity
            case let s: throw DecodingError.dataCorruptedError(in: c, debugDescription: "'\(s)' is not a number, inf or -inf")
            }
        }
    }

    /// Encodes `null` (also for NaN), a finite number, `"inf"` or `"-inf"`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch value {
        case nil: try c.encodeNil()
        case let d? where d.isNaN: try c.encodeNil()
        case let d? where d.isFinite: try c.encode(d)
        case let d?: try c.encode(d > 0 ? "inf" : "-inf")
        }
    }
}
