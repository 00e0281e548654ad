import Preference
import SpringCore
import SpringLayout
import ToolRuntime

/// The space a designer's taste is learned over for one preset (Reference §12): the preset's
/// sweep axes with two or more distinct values. An axis of numbers is numeric from its least to
/// its largest value, in log space when the preset gives it log spacing; an axis with a word
/// among its values is a word axis over its values; an axis with one distinct value is left out
/// and kept fixed at that value. Values given in `including` (a preset's own set) join their
/// axis's values, so the box holds them.
public struct PresetPreferenceSpace: Sendable {
    public let space: PreferenceSpace
    /// The axes left out, at their one value.
    public let fixed: [String: ParamValue]
    /// Per word axis, each word's parameter value.
    private let words: [String: [String: ParamValue]]

    public init(axes: [SweepAxis], including own: [String: ParamValue] = [:]) throws(ToolError) {
        var learned: [PreferenceAxis] = [], fixed: [String: ParamValue] = [:], words: [String: [String: ParamValue]] = [:]
        for axis in axes {
            var distinct: [ParamValue] = []
            for v in axis.values + [own[axis.name]].compactMap({ $0 }) where !distinct.contains(v) { distinct.append(v) }
            let numbers = distinct.allSatisfy { $0.number != nil } ? distinct.compactMap(\.number) : nil
            if distinct.count < 2 {
                fixed[axis.name] = distinct[0]
            } else if let numbers {
                learned.append(.numeric(axis.name, min: numbers.min()!, max: numbers.max()!, log: axis.range?.log ?? false))
            } else {
                let names = distinct.map(\.description)
                guard Set(names).count == names.count else { throw ToolError(.dataError, "axis '\(axis.name)': two values read the same (\(names.joined(separator: ", ")))") }
                learned.append(.words(axis.name, names))
                words[axis.name] = Dictionary(uniqueKeysWithValues: zip(names, distinct))
            }
        }
        guard !learned.isEmpty else { throw ToolError(.dataError, "no sweep axis with two or more values to learn a preference over") }
        do {
            space = try PreferenceSpace(axes: learned)
        } catch {
            throw ToolError(.dataError, error.description)
        }
        self.fixed = fixed
        self.words = words
    }

    /// The space of a loaded preset's sweep axes.
    public init(_ loaded: PresetStore.Loaded) throws(ToolError) {
        do {
            try self.init(axes: loaded.preset.sweep)
        } catch {
            throw ToolError(error.code, "\(loaded.path): \(error.message)")
        }
    }

    /// The parameter values of a unit-box point, for the engines: the learned axes decoded
    /// (numbers as typed, `NumberFormat.typed`; words as the preset gave them) and the fixed ones.
    public func parameters(_ x: [Double]) -> [String: ParamValue] {
        var out = fixed
        for (name, value) in space.decode(x) {
            switch value {
            case let .number(v): out[name] = .number(NumberFormat.typed(v))
            case let .word(w): out[name] = words[name]?[w] ?? .text(w)
            }
        }
        return out
    }

    /// The unit-box point of a parameter set that gives every learned axis a value.
    public func point(_ values: [String: ParamValue]) throws(ToolError) -> [Double] {
        var axisValues: [String: AxisValue] = [:]
        for axis in space.axes {
            guard let v = values[axis.name] else { continue }
            switch axis.kind {
            case .numeric: axisValues[axis.name] = v.number.map(AxisValue.number) ?? .word(v.description)
            case .words: axisValues[axis.name] = .word(v.description)
            }
        }
        do {
            return try space.encode(axisValues)
        } catch {
            throw ToolError(.dataError, error.description)
        }
    }
}
