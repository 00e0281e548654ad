import SpringCore

/// One of the interactions of Reference §7, as an app sees it: a parameter set and a scene make a
/// model, and the model's per-frame engine turns touch samples into positions and a decision.
/// How a model is measured (metrics, the sweep) lives in `SpringTune`, not here.
public protocol InteractionModel: EngineNumbers {
    /// The model's name in presets (`flow-layout`, …).
    static var modelName: String { get }
    /// Every parameter, with the spring's first.
    static var parameters: [ParameterSpec] { get }
    /// For models that decide, the label pairs of their outcomes (one pair per decision the
    /// model can be set to make); empty for models that do not decide.
    static var decisionLabels: [DecisionLabels] { get }
    /// The model's per-frame engine: touch samples in, what is on screen out (``TouchEngine``).
    associatedtype Engine: TouchEngine where Engine.Model == Self

    /// The model of resolved parameter values (every parameter of ``parameters``) in `scene`.
    ///
    /// - Throws: ``PresetError`` naming the parameter when a value is out of range.
    init(values: ParameterValues, scene: Scene) throws(PresetError)
    /// The screen and clock the model runs in.
    var scene: Scene { get }

    /// The model's spring parameters for a canonical spring (a preset's `spring` block), by
    /// the model's own names (`frequency`/`damping`, `snapFrequency`/`snapDamping`, `response`/`dampingRatio`).
    static func springValues(_ spring: SpringParameters) -> [String: ParamValue]
    /// The names `springValues` uses.
    static var springParameterNames: [String] { get }
    /// The canonical spring of resolved values.
    static func spring(_ values: ParameterValues) throws(PresetError) -> SpringParameters
    /// Every spring the parameters set, the main one (``spring(_:)``) first.
    static var springGroups: [SpringGroup] { get }
    /// The model as its engine runs `trace`, with what a whole trace decides settled on it
    /// (`flow-layout`'s `initialOffset: auto` becomes the offset it picks for the trace), so that
    /// ``EngineNumbers/numbers`` describe that run; the model itself by default.
    func running(_ trace: Trace) -> Self
}

/// The two outcomes of a deciding model (Reference §8): the positive one (`dismiss`, `create`),
/// which names the report's rate columns, and the negative one (`keep`, `cancel`).
public struct DecisionLabels: Hashable, Sendable {
    /// The positive outcome (`dismiss`, `create`).
    public var positive: TraceIntent
    /// The negative outcome (`keep`, `cancel`).
    public var negative: TraceIntent

    /// A pair of outcomes, the positive one first.
    public init(positive: TraceIntent, negative: TraceIntent) {
        self.positive = positive; self.negative = negative
    }

    /// The word in the rate columns: `dismiss_accuracy`, `false_dismiss_rate`, …
    public var word: String { positive.rawValue }

    /// True when `intent` is one of this model's labels.
    public func contains(_ intent: TraceIntent) -> Bool { intent == positive || intent == negative }
}

extension InteractionModel {
    /// The model itself: by default a trace settles nothing.
    public func running(_ trace: Trace) -> Self { self }

    /// None: by default a model does not decide.
    public static var decisionLabels: [DecisionLabels] { [] }

    /// `frequency` (Hz) and `damping` (ratio), by default.
    public static var springParameterNames: [String] { ["frequency", "damping"] }

    /// The main spring only, exported as `spring`, by default.
    public static var springGroups: [SpringGroup] { [.main(of: Self.self)] }

    /// A canonical spring as `frequency` = f (Hz) and `damping` = ζ, by default.
    public static func springValues(_ spring: SpringParameters) -> [String: ParamValue] {
        ["frequency": .number(spring.frequency), "damping": .number(spring.damping)]
    }

    /// The spring of `frequency` (Hz) and `damping`, by default.
    ///
    /// - Throws: ``PresetError`` when they are out of range.
    public static func spring(_ values: ParameterValues) throws(PresetError) -> SpringParameters {
        try values.spring()
    }

    /// A preset's parameters with its spring block under this model's names.
    public static func values(from preset: Preset) -> [String: ParamValue] {
        var all = preset.params
        if let canonical = try? SpringParameters(frequency: preset.spring.frequency, damping: preset.spring.damping) {
            all.merge(springValues(canonical)) { _, spring in spring }
        }
        return all
    }

    /// The engine a preset describes: the preset checked against the model (its name, `params`
    /// and `sweep`, with the key path of the first problem), its parameters resolved, its scene.
    public init(preset: Preset) throws(PresetError) {
        try preset.check(as: Self.self)
        try self.init(values: ParameterValues.resolve(Self.values(from: preset), specs: Self.parameters), scene: preset.scene)
    }
}

/// A model whose spring is given as UIKit/SwiftUI give it: `response` (s, ω = 2π/response) and
/// `dampingRatio`, the first two of its parameters.
public protocol ResponseSpringModel: InteractionModel {}

extension ResponseSpringModel {
    /// `response` (s) and `dampingRatio`.
    public static var springParameterNames: [String] { ["response", "dampingRatio"] }

    /// A canonical spring as `response` = 1/f (s) and `dampingRatio` = ζ.
    public static func springValues(_ s: SpringParameters) -> [String: ParamValue] {
        ["response": .number(s.response), "dampingRatio": .number(s.damping)]
    }

    /// The spring of `response` (s, f = 1/response) and `dampingRatio`.
    ///
    /// - Throws: ``PresetError`` at `spring` when they are out of range.
    public static func spring(_ values: ParameterValues) throws(PresetError) -> SpringParameters {
        do {
            return try SpringParameters(response: values.number("response"), dampingRatio: values.number("dampingRatio"))
        } catch {
            throw PresetError(path: "spring", message: error.description)
        }
    }

    /// The two spring parameters with their defaults.
    public static func responseSpecs(response: Double, dampingRatio: Double) -> [ParameterSpec] {
        [.number("response", "s", response, "spring response (ω = 2π/response)", min: 1 / SpringSpec.maxFrequency,
                 domain: .response),
         .number("dampingRatio", "ratio", dampingRatio, "spring damping ratio", min: 0, max: SpringSpec.maxDamping, domain: .damping)]
    }
}
