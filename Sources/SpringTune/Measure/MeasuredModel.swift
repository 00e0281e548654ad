import SpringCore
import SpringLayout
import ToolRuntime
import TraceIO

/// A model of ``ModelKind/registry`` as the sweep measures it: the metrics it reports, the
/// trace work shared across parameter sets, and one run of a trace under one parameter set.
public protocol MeasuredModel: InteractionModel {
    /// Work that depends on the trace and on the parameters `preparationKey` captures, shared
    /// across parameter sets that agree on them (e.g. the scroll view's motion).
    associatedtype Prepared: Sendable
    /// The parameters `prepare` depends on; parameter sets with equal keys share preparations.
    associatedtype PreparationKey: Hashable & Sendable

    /// Per-trace metrics in report order.
    static var metrics: [MetricSpec] { get }
    /// True for gesture models that read every pointer of a trace (a pinch); a one-finger
    /// model sees the pointer that began first (Reference §3).
    static var usesAllPointers: Bool { get }

    var preparationKey: PreparationKey { get }
    func prepare(_ trace: Trace) -> Prepared
    func run(_ prepared: Prepared, timeline: Bool) -> TraceRun
    /// Sets run together on one preparation (at most ``lanes`` of them, with equal keys): each
    /// result must equal `models[j].run(prepared, timeline: false)` bit for bit.
    static var lanes: Int { get }
    static func run(_ models: [Self], _ prepared: Prepared) -> [TraceRun]
    /// Sets with close values go into the same lane group (a group runs until its slowest lane
    /// is done); it orders work only, never a number.
    var laneAffinity: Double { get }
    /// What the screen shows at one frame, from that frame's timeline rows (for animations).
    func picture(_ rows: [TimelineRow]) -> [Animation.Shape]
    /// The engine drawn frame by frame while the finger is down (``LiveStepper``), made when the
    /// first frame is due, `received` the samples that have arrived by then (at least one).
    func liveStepper(received: [TouchSample]) -> any LiveStepper
}

extension MeasuredModel {
    public static var usesAllPointers: Bool { false }
    /// One set at a time unless a model steps several together.
    public static var lanes: Int { 1 }
    public static func run(_ models: [Self], _ prepared: Prepared) -> [TraceRun] { models.map { $0.run(prepared, timeline: false) } }
    public var laneAffinity: Double { 0 }
}

/// The key of models whose runs share nothing but the trace itself.
public struct NoPreparation: Hashable, Sendable {}

extension MeasuredModel where Prepared == Trace, PreparationKey == NoPreparation {
    public var preparationKey: NoPreparation { NoPreparation() }
    public func prepare(_ trace: Trace) -> Trace { trace }
}

/// What one trace did under one parameter set.
public struct TraceRun: Sendable {
    public var metrics: TraceMetrics
    /// True when the last frame is still out of band (Reference §8).
    public var unsettled: Bool
    /// The decision for deciding models, else nil.
    public var decision: TraceIntent?
    /// Frame-by-frame positions, when asked for.
    public var timeline: [TimelineRow]
    /// The frame the run stopped at when it exited early (Reference §6), else nil.
    public var stoppedAt: Int?

    public init(metrics: TraceMetrics, unsettled: Bool, decision: TraceIntent? = nil, timeline: [TimelineRow] = [], stoppedAt: Int? = nil) {
        self.metrics = metrics
        self.unsettled = unsettled
        self.decision = decision
        self.timeline = timeline
        self.stoppedAt = stoppedAt
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

/// A measured model by its preset name, from the one list of models (``registry``).
public struct ModelKind: Sendable {
    /// Every interaction model (Reference §7), in the order help texts and messages list them.
    /// This is the one list: a preset names one of these, the tool measures exactly these, and a
    /// type without its measurement (a ``MeasuredModel`` conformance) does not compile here.
    public static let registry: [any MeasuredModel.Type] = [FlowLayout.self, FlickDismiss.self, CardDismiss.self, PullToCreate.self, PinchFold.self, PercentTransition.self, BottomSheet.self]

    public let type: any MeasuredModel.Type

    /// Every model, in registry order.
    public static let all = registry.map(ModelKind.init(type:))

    /// Every model name, in registry order, for help texts and messages.
    public static var names: [String] { registry.map { $0.modelName } }

    public init(type: any MeasuredModel.Type) { self.type = type }

    public init(name: String) throws {
        guard let kind = Self.all.first(where: { $0.name == name }) else {
            throw ToolError(.dataError, "unknown model '\(name)' (known: \(Self.names.joined(separator: ", ")))")
        }
        self = kind
    }

    public var name: String { type.modelName }
    public var parameters: [ParameterSpec] { type.parameters }
    public var metrics: [MetricSpec] { type.metrics }
    public var decisionLabels: [DecisionLabels] { type.decisionLabels }
    /// A preset's parameter values, its spring block under the model's names.
    public func values(of preset: Preset) -> [String: ParamValue] { type.values(from: preset) }
    /// Names of the model's two spring parameters (they live in a preset's `spring` block).
    public var springParameterNames: [String] { type.springParameterNames }
    /// Every spring the model's parameters set, the main one first (Reference §10.4).
    public var springGroups: [SpringGroup] { type.springGroups }
    /// The canonical spring of resolved values.
    public func spring(_ values: ParameterValues) throws(PresetError) -> SpringParameters { try type.spring(values) }
    /// Every report column after the parameters, with its spec.
    public var reportColumns: [MetricSpec] { ReportColumns.all(metrics: metrics, labels: decisionLabels) }
    /// The trace as the model reads it: all pointers, or the one that began first.
    public func input(_ trace: Trace) -> Trace { type.usesAllPointers ? trace : trace.firstPointer }

    /// Every model's report columns by name, keyed by model name: what a preset's objective
    /// may name (``Preset/decode(_:models:reportColumns:)``).
    public static var reportColumnsByModel: [String: [String]] {
        Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0.reportColumns.map(\.name)) })
    }

    /// The set-level metrics (`unsettled`, decision rates).
    public var setMetrics: [MetricSpec] { ReportColumns.setMetrics(labels: decisionLabels) }
}
