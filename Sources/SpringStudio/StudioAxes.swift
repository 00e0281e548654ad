import SpringCore
import SpringLayout
import SpringTune
import ToolRuntime

/// The preset's axes as the studio shows them: a slider per numeric axis over the range of its
/// values (log where the axis was given with log spacing), a choice per word axis (Reference
/// §10.16). Axes with one value are not shown: there is nothing to move.
public struct StudioAxis: Sendable, Equatable {
    public var name: String
    /// The parameter's unit (`pt`, `Hz`, `×`, `word`).
    public var unit: String
    /// The smallest and largest value of the axis or the preset's own value (numeric axes).
    public var min: Double?, max: Double?
    /// True when the slider moves in log space (the axis was given with `"spacing": "log"`).
    public var log: Bool
    /// The axis's own values (the grid a sweep runs): numbers, or words for a word axis.
    public var values: [ParamValue]
    /// The value the preset itself runs (its `spring` or `params`), shown first.
    public var preset: ParamValue

    public var isWords: Bool { values.contains { $0.number == nil } }
    public var words: [String] { values.compactMap { if case let .text(s) = $0 { s } else { nil } } }

    /// `value` as a valid setting of this axis, or a one-line reason it is not: a number for a
    /// numeric axis within [min, max] (the box the studio explores; widen the preset's axis to go
    /// further), one of the words for a word axis.
    public func check(_ value: ParamValue) -> String? {
        if isWords {
            guard case let .text(s) = value, words.contains(s) else {
                return "\(name) must be one of \(words.joined(separator: ", "))"
            }
            return nil
        }
        guard let d = value.number, let lo = min, let hi = max else { return "\(name) must be a number" }
        guard d.isFinite, d >= lo, d <= hi else {
            return "\(name) = \(NumberFormat.short(d)) is outside its axis [\(NumberFormat.short(lo)), \(NumberFormat.short(hi))]"
        }
        return nil
    }

    /// The axes of `loaded`'s sweep with more than one value, with units from the model's
    /// parameters and the scene's.
    public static func of(_ loaded: PresetStore.Loaded) -> [StudioAxis] {
        let specs = loaded.kind.parameters + Scene.sweepable
        let own = loaded.kind.values(of: loaded.preset)
        return loaded.preset.sweep.filter { $0.values.count > 1 }.map { axis in
            let numbers = axis.numbers
            let unit = specs.first { $0.name == axis.name }?.unit ?? ""
            let sceneValue = sceneValueOf(axis.name, loaded.preset.scene)
            let preset = own[axis.name] ?? sceneValue ?? axis.values[axis.values.count / 2]
            let box = numbers.map { $0 + [preset.number].compactMap { $0 } }
            return StudioAxis(name: axis.name, unit: unit, min: box?.min(), max: box?.max(),
                              log: axis.range?.log ?? false, values: axis.values, preset: preset)
        }
    }

    private static func sceneValueOf(_ name: String, _ scene: Scene) -> ParamValue? {
        switch name {
        case "frameRate": .number(scene.frameRate)
        case "width": .number(scene.width)
        case "height": .number(scene.height)
        case "tail": .number(scene.tail)
        default: nil
        }
    }
}
