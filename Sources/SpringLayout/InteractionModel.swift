import SpringCore

/// One of the interactions of SPEC §6, as an engine: a parameter set and a scene in, then a
/// trace in, per-trace metrics (and on request a timeline) out. The sweep runs exactly these.
public protocol InteractionModel: Sendable {
    /// Work that depends on the trace and on parameters that `preparationKey` captures, shared
    /// across parameter sets that agree on them (e.g. the scroll view's motion).
    associatedtype Prepared: Sendable

    /// The model's name in presets (`flow-layout`, …).
    static var modelName: String { get }
    /// Every parameter, with the spring's first.
    static var parameters: [ParameterSpec] { get }
    /// Per-trace metrics in report order (SPEC §7 names).
    static var metricNames: [String] { get }

    init(values: ParameterValues, scene: Scene) throws(PresetError)

    /// The model's spring parameters for a canonical spring (a preset's `spring` block), by
    /// the model's own names (`frequency`/`damping`, `snapFrequency`/`snapDamping`, `response`/`dampingRatio`).
    static func springValues(_ spring: SpringParameters) -> [String: ParamValue]
    /// The names `springValues` uses.
    static var springParameterNames: [String] { get }
    /// The canonical spring of resolved values.
    static func spring(_ values: ParameterValues) throws(PresetError) -> SpringParameters

    /// The values `prepare` depends on; parameter sets with equal keys share preparations.
    var preparationKey: [Double] { get }
    func prepare(_ trace: Trace) -> Prepared
    func run(_ prepared: Prepared, timeline: Bool) -> TraceRun
}

extension InteractionModel {
    public static var springParameterNames: [String] { ["frequency", "damping"] }

    public static func springValues(_ spring: SpringParameters) -> [String: ParamValue] {
        ["frequency": .number(spring.frequency), "damping": .number(spring.damping)]
    }

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

    /// The engine a preset describes (its parameters resolved and checked, its scene).
    public init(preset: Preset) throws(PresetError) {
        guard preset.model == Self.modelName else {
            throw PresetError(path: "model", message: "'\(preset.model)' is not \(Self.modelName)")
        }
        try self.init(values: ParameterValues.resolve(Self.values(from: preset), specs: Self.parameters), scene: preset.scene)
    }
}

/// What one trace did under one parameter set.
public struct TraceRun: Sendable {
    /// Values aligned with the model's `metricNames`; nil is undefined (an empty CSV field).
    public var metrics: [Double?]
    /// True when the last frame is still out of band (SPEC §7).
    public var unsettled: Bool
    /// The decision for decision models (`dismiss`, `keep`, `create`, `cancel`), else nil.
    public var decision: TraceIntent?
    /// Frame-by-frame positions, when asked for.
    public var timeline: [TimelineRow]

    public init(metrics: [Double?], unsettled: Bool, decision: TraceIntent? = nil, timeline: [TimelineRow] = []) {
        self.metrics = metrics
        self.unsettled = unsettled
        self.decision = decision
        self.timeline = timeline
    }
}

/// One item at one frame, in screen points: `t,item,y,anchor,velocity`.
public struct TimelineRow: Sendable, Equatable {
    public var t: Double
    public var item: Int
    public var y: Double
    public var anchor: Double
    public var velocity: Double

    public init(t: Double, item: Int, y: Double, anchor: Double, velocity: Double) {
        self.t = t; self.item = item; self.y = y; self.anchor = anchor; self.velocity = velocity
    }
}

/// Settling bookkeeping of SPEC §7: the last frame (from the release frame on) with any value out
/// of the band ε, turned into a settle time counted from the release frame.
public struct SettleTracker: Sendable {
    public var lastOut: Int?

    public init() {}

    public mutating func record(frame k: Int, outOfBand: Bool) {
        if outOfBand { lastOut = k }
    }

    /// (settle time or nil when unsettled, unsettled).
    public func result(releaseFrame r: Int, lastFrame: Int, frameRate: Double) -> (Double?, Bool) {
        guard let lastOut else { return (0, false) }
        if lastOut >= lastFrame { return (nil, true) }
        return (Double(lastOut + 1 - r) / frameRate, false)
    }
}
