import SpringCore

/// One spring among a model's parameters (Reference §10.4): its name in exports (`spring`,
/// `snap`, `bounce`), the parameters that set it, and the canonical spring they make. Every
/// model has its main spring (the preset's `spring` block); some have more (flow-layout's
/// scroll view bounce), which an export writes as springs too rather than as loose numbers.
public struct SpringGroup: Sendable {
    /// The spring's name in exported code (`spring`, `snap`, `bounce`).
    public var name: String
    /// The model parameters that set it, in the model's order.
    public var parameterNames: [String]
    /// The canonical spring (unit mass) of resolved values.
    public var spring: @Sendable (ParameterValues) throws(PresetError) -> SpringParameters

    /// A spring named `name`, set by `parameterNames`, made from resolved values by `spring`.
    public init(name: String, parameterNames: [String], spring: @escaping @Sendable (ParameterValues) throws(PresetError) -> SpringParameters) {
        self.name = name; self.parameterNames = parameterNames; self.spring = spring
    }

    /// A model's main spring, under `name`.
    public static func main(of type: any InteractionModel.Type, name: String = "spring") -> SpringGroup {
        SpringGroup(name: name, parameterNames: type.springParameterNames) { values throws(PresetError) in try type.spring(values) }
    }
}
