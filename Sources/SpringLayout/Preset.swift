import Foundation
import SpringCore

/// A preset file (Reference §9.1, schema `springtune.preset/1`): one interaction model with its
/// spring, parameters, scene, default sweep axes, objective and bundled trace set. Decoding is
/// strict: unknown keys, wrong types and out-of-range values fail with the key's path.
public struct Preset: Sendable, Codable {
    public static let schemaName = "springtune.preset/1"

    public var schema: String = Preset.schemaName
    public var name: String
    public var model: String
    public var description: String
    public var spring: SpringSpec
    public var params: [String: ParamValue]
    public var scene: Scene
    public var sweep: [SweepAxis]
    public var objective: Objective
    public var traces: [String]
    public var provenance: Provenance?

    public init(name: String, model: String, description: String, spring: SpringSpec, params: [String: ParamValue],
                scene: Scene = Scene(), sweep: [SweepAxis] = [], objective: Objective = Objective(), traces: [String] = []) {
        self.name = name; self.model = model; self.description = description; self.spring = spring
        self.params = params; self.scene = scene; self.sweep = sweep; self.objective = objective; self.traces = traces
    }

    static let keys: Set<String> = ["schema", "name", "model", "description", "spring", "params", "scene", "sweep", "objective", "traces", "provenance"]

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

/// The preset's spring: canonical frequency f (Hz) and damping ratio ζ, or any input form of
/// Reference §2 (`response` + `dampingRatio`, `duration` + `bounce`, `stiffness` +
/// `dampingCoefficient` [+ `mass`], `tension` + `friction`). When several are given they must agree.
public struct SpringSpec: Sendable, Codable, Equatable {
    public var frequency: Double
    public var damping: Double
    /// Other forms a preset file gave besides frequency and damping, kept so the file reads
    /// back as written. `export` writes the canonical pair only: one number per quantity, so
    /// editing `damping` by hand is the whole change.
    public var response: Double?
    public var dampingRatio: Double?
    public var duration: Double?
    public var bounce: Double?

    /// The canonical pair of `s`, no other form.
    public init(_ s: SpringParameters) {
        frequency = s.frequency
        damping = s.damping
    }

    /// The canonical pair of `s` as a file should show it, each to 12 significant digits
    /// (``NumberFormat/typed(_:)``): a spring converted from another form (f = 1/response) or
    /// fitted is written 3.33333333333, not 3.3333333333333335. For `export` and `fit`.
    public static func typed(_ s: SpringParameters) -> SpringSpec {
        var spec = SpringSpec(s)
        (spec.frequency, spec.damping) = (NumberFormat.typed(s.frequency), NumberFormat.typed(s.damping))
        return spec
    }

    static let keys: Set<String> = ["frequency", "damping", "response", "dampingRatio", "duration", "bounce",
                                    "stiffness", "dampingCoefficient", "mass", "tension", "friction"]

    public init(from decoder: any Decoder) throws {
        let c = try StrictContainer(decoder, keys: Self.keys)
        func pair(_ a: String, _ b: String) throws -> (Double, Double)? {
            let x = try c.decodeIfPresent(Double.self, a), y = try c.decodeIfPresent(Double.self, b)
            if x == nil && y == nil { return nil }
            guard let x else { throw c.fail(a, "required with '\(b)'") }
            guard let y else { throw c.fail(b, "required with '\(a)'") }
            return (x, y)
        }
        var forms: [(String, SpringParameters)] = []
        do {
            if let (f, z) = try pair("frequency", "damping") { forms.append(("frequency", try SpringParameters(frequency: f, damping: z))) }
            if let (r, z) = try pair("response", "dampingRatio") { forms.append(("response", try SpringParameters(response: r, dampingRatio: z))) }
            if let (d, b) = try pair("duration", "bounce") { forms.append(("duration", try SpringParameters(duration: d, bounce: b))) }
            if let (k, cc) = try pair("stiffness", "dampingCoefficient") {
                forms.append(("stiffness", try SpringParameters(stiffness: k, dampingCoefficient: cc, mass: try c.positive("mass") ?? 1)))
            }
            if let (t, fr) = try pair("tension", "friction") { forms.append(("tension", try SpringParameters(tension: t, friction: fr))) }
        } catch let error as SpringError {
            guard case let .outOfRange(name, _, _) = error else { throw error }
            throw c.fail(name == "damping" && c.contains("dampingRatio") ? "dampingRatio" : name, error.description)
        }
        guard let (key, first) = forms.first else { throw c.fail("frequency", "give frequency + damping or another spring form") }
        if let (bad, problem) = Self.problem(first, form: key) { throw c.fail(bad, problem) }
        for (key, other) in forms.dropFirst() {
            let agree = abs(other.frequency - first.frequency) <= 1e-6 * first.frequency && abs(other.damping - first.damping) <= 1e-6 * max(1, first.damping)
            if !agree {
                let say = { (s: SpringParameters) in "f \(NumberFormat.significant(s.frequency, 9)) Hz, ζ \(NumberFormat.significant(s.damping, 9))" }
                throw c.fail(key, "gives \(say(other)) where '\(forms[0].0)' gives \(say(first)); the spring has several forms that disagree: keep one (e.g. frequency + damping) and remove the others")
            }
        }
        self.init(first)
        // Keep the other forms the file gave, as numbers of the first one (they agree with it).
        if c.contains("response") { (response, dampingRatio) = (first.response, first.damping) }
        if c.contains("duration") { (duration, bounce) = (first.response, first.bounce) }
    }
}

/// One sweep axis: explicit values (numbers, or words for a word parameter such as
/// `completionCurve`), or `from`/`to`/`steps` with linear or log spacing.
public struct SweepAxis: Sendable, Codable, Equatable {
    public var name: String
    public var values: [ParamValue]
    /// The range form, kept to write the axis back as it was given.
    public var range: Range?

    public struct Range: Sendable, Codable, Equatable {
        public var from: Double
        public var to: Double
        public var steps: Int
        public var log: Bool
    }

    public init(name: String, values: [ParamValue]) {
        self.name = name
        self.values = values
    }

    public init(name: String, values: [Double]) { self.init(name: name, values: values.map(ParamValue.number)) }

    /// The values as numbers, when every one is a number.
    public var numbers: [Double]? {
        let n = values.compactMap(\.number)
        return n.count == values.count ? n : nil
    }

    /// Most values one axis may have.
    public static let maxSteps = 10_000

    public init(name: String, from: Double, to: Double, steps: Int, log: Bool) throws(PresetError) {
        guard steps >= 1, steps <= Self.maxSteps else { throw PresetError(path: "\(name).steps", message: "\(steps) is out of range 1…\(Self.maxSteps)") }
        guard from.isFinite, to.isFinite else { throw PresetError(path: name, message: "from and to must be finite") }
        if log && !(from > 0 && to > 0) { throw PresetError(path: name, message: "log spacing needs from > 0 and to > 0") }
        self.name = name
        range = Range(from: from, to: to, steps: steps, log: log)
        values = (0..<steps).map { i in
            guard steps > 1 else { return .number(from) }
            let u = Double(i) / Double(steps - 1)
            if i == steps - 1 { return .number(to) }
            return .number(NumberFormat.typed(log ? from * Foundation.pow(to / from, u) : from + (to - from) * u))
        }
    }

    enum Key: String, CodingKey { case name, values, from, to, steps, spacing }

    public init(from decoder: any Decoder) throws {
        let c = try StrictContainer(decoder, keys: ["name", "values", "from", "to", "steps", "spacing"])
        let name = try c.decode(String.self, "name")
        if let values = try c.decodeIfPresent([ParamValue].self, "values") {
            guard !values.isEmpty else { throw c.fail("values", "must not be empty") }
            guard values.count <= Self.maxSteps else { throw c.fail("values", "\(values.count) values; at most \(Self.maxSteps)") }
            self.init(name: name, values: values)
            return
        }
        let spacing = try c.decodeIfPresent(String.self, "spacing") ?? "linear"
        guard spacing == "linear" || spacing == "log" else { throw c.fail("spacing", "'\(spacing)' is not linear or log") }
        do {
            try self.init(name: name, from: c.decode(Double.self, "from"), to: c.decode(Double.self, "to"),
                          steps: c.decode(Int.self, "steps"), log: spacing == "log")
        } catch let error as PresetError {
            throw c.fail("steps", error.message)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(name, forKey: .name)
        if let range {
            try c.encode(range.from, forKey: .from)
            try c.encode(range.to, forKey: .to)
            try c.encode(range.steps, forKey: .steps)
            try c.encode(range.log ? "log" : "linear", forKey: .spacing)
        } else {
            try c.encode(values, forKey: .values)
        }
    }
}

/// Where an exported preset's values came from: a report's row (`report`, its `sha256`,
/// `configId`), or a studio session (`session`, the number of `choices` made in it).
public struct Provenance: Sendable, Codable, Equatable {
    public var report: String?
    public var sha256: String?
    public var configId: Int?
    public var session: String?
    public var choices: Int?
    public var metrics: [String: Double?]

    public init(report: String, sha256: String, configId: Int, metrics: [String: Double?]) {
        self.report = report; self.sha256 = sha256; self.configId = configId; self.metrics = metrics
    }

    public init(session: String, choices: Int, metrics: [String: Double?]) {
        self.session = session; self.choices = choices; self.metrics = metrics
    }

    /// `config 17 of report.csv (sha256 …)` or `studio session s.sqlite after 12 choices`.
    public var summary: String {
        if let session { return "studio session \(session) after \(choices ?? 0) choices" }
        return "config \(configId ?? 0) of \(report ?? "") (sha256 \(sha256 ?? ""))"
    }

    public init(from decoder: any Decoder) throws {
        let c = try StrictContainer(decoder, keys: ["report", "sha256", "configId", "session", "choices", "metrics"])
        session = try c.decodeIfPresent(String.self, "session")
        if session != nil {
            choices = try c.decode(Int.self, "choices")
        } else {
            report = try c.decode(String.self, "report")
            sha256 = try c.decode(String.self, "sha256")
            configId = try c.decode(Int.self, "configId")
        }
        metrics = (try c.decodeIfPresent([String: ReportNumber].self, "metrics") ?? [:]).mapValues(\.value)
    }

    enum Key: String, CodingKey { case report, sha256, configId, session, choices, metrics }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encodeIfPresent(report, forKey: .report)
        try c.encodeIfPresent(sha256, forKey: .sha256)
        try c.encodeIfPresent(configId, forKey: .configId)
        try c.encodeIfPresent(session, forKey: .session)
        try c.encodeIfPresent(choices, forKey: .choices)
        try c.encode(metrics.mapValues(ReportNumber.init), forKey: .metrics)
    }
}

/// A report value in JSON: a number, `null` when undefined, or the strings `"inf"` / `"-inf"`
/// (a settle time that never settled), which JSON numbers cannot hold.
struct ReportNumber: Codable {
    var value: Double?

    init(_ value: Double?) { self.value = value }

    init(from decoder: any Decoder) throws {
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

    func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch value {
        case nil: try c.encodeNil()
        case let d? where d.isNaN: try c.encodeNil()
        case let d? where d.isFinite: try c.encode(d)
        case let d?: try c.encode(d > 0 ? "inf" : "-inf")
        }
    }
}
