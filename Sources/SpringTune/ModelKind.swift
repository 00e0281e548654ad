import SpringLayout
import TraceIO

/// The models springtune knows, by their preset name.
public enum ModelKind: String, CaseIterable, Sendable {
    case flowLayout = "flow-layout"
    case flickDismiss = "flick-dismiss"
    case cardDismiss = "card-dismiss"
    case pullToCreate = "pull-to-create"

    public init(name: String) throws {
        guard let kind = ModelKind(rawValue: name) else {
            throw ToolError(.dataError, "unknown model '\(name)' (known: \(ModelKind.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        self = kind
    }

    var type: any InteractionModel.Type {
        switch self {
        case .flowLayout: FlowLayout.self
        case .flickDismiss: FlickDismiss.self
        case .cardDismiss: CardDismiss.self
        case .pullToCreate: PullToCreate.self
        }
    }

    public var parameters: [ParameterSpec] { type.parameters }
    /// A preset's parameter values, its spring block under the model's names.
    public func values(of preset: Preset) -> [String: ParamValue] { type.values(from: preset) }
    /// Names of the model's two spring parameters (they live in a preset's `spring` block).
    public var springParameterNames: [String] { type.springParameterNames }
    /// The canonical spring of resolved values.
    public func spring(_ values: ParameterValues) throws(PresetError) -> SpringParameters { try type.spring(values) }
    public var metricNames: [String] { type.metricNames }
    /// For models that decide, the positive decision's name (`dismiss`, `create`), which names
    /// their rate columns; nil for models that do not decide.
    public var decisionWord: String? {
        switch self {
        case .flowLayout: nil
        case .flickDismiss, .cardDismiss: "dismiss"
        case .pullToCreate: "create"
        }
    }
}
