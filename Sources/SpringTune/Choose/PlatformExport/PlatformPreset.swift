import Foundation
import SpringCore
import SpringLayout
import ToolRuntime
import TraceIO

/// An exported parameter set in the terms every platform form shares (Reference §10.4): the
/// preset's name, each spring the model has (named, canonical), every other parameter as a
/// named constant with its unit, the settle band the CSS easing is timed to, and a line of
/// provenance. The forms (``SwiftSource``, ``KotlinSource``, ``CSSSource``, ``FigmaSpec``)
/// only write it.
public struct PlatformPreset: Sendable {
    /// One spring of the model: `spring`, `snap`, `bounce`.
    public struct NamedSpring: Sendable {
        public var name: String
        public var spring: SpringParameters
    }

    /// One non-spring parameter: its name, value and unit (from the model's ``ParameterSpec``).
    public struct Constant: Sendable, Encodable {
        public var name: String
        public var value: ParamValue
        public var unit: String
        public var summary: String

        /// The unit as a comment writes it: `pt/s`, or `unitless` for a pure number.
        public var unitNote: String { unit == "1" ? "unitless" : unit }
    }

    /// The preset's name (`tweetbot`) and model (`flick-dismiss`).
    public var name: String, model: String
    public var springs: [NamedSpring]
    public var constants: [Constant]
    /// Scene tolerance ε (pt) and the travel L (pt) the CSS easing is timed for.
    public var tolerance: Double, travel: Double
    /// `config 17 of report.csv (sha256 …)`, or the preset's description without provenance.
    public var source: String

    /// The identifier forms of ``name``.
    public var identifier: Identifier { Identifier(name) }

    /// The longest travel an easing is timed for, pt (a thousand screens).
    public static let maxTravel = 1e6

    /// The settle band ε/L as a fraction of the travel.
    public var band: Double { tolerance / travel }

    /// The set `preset` describes (a resolved export of ``Export/preset(report:configId:destination:)``),
    /// its CSS easing timed for a travel of `travel` pt (default: the scene's height).
    public init(preset: Preset, travel: Double? = nil) throws {
        let kind = try ModelKind(name: preset.model)
        let values: ParameterValues
        do {
            values = try ParameterValues.resolve(kind.values(of: preset), specs: kind.parameters)
            springs = try kind.springGroups.map { NamedSpring(name: $0.name, spring: try $0.spring(values)) }
        } catch {
            throw ToolError(.dataError, "preset \(preset.name): \(error)")
        }
        let springNames = Set(kind.springGroups.flatMap(\.parameterNames))
        constants = kind.parameters.filter { !springNames.contains($0.name) }.map {
            Constant(name: $0.name, value: values[$0.name] ?? $0.defaultValue, unit: $0.unit, summary: $0.summary)
        }
        (name, model, tolerance) = (preset.name, preset.model, preset.scene.tolerance)
        self.travel = travel ?? preset.scene.height
        guard self.travel.isFinite, self.travel > tolerance, self.travel <= Self.maxTravel else {
            throw ToolError(.usage, "--travel \(NumberFormat.cell(self.travel)) must be more than the scene's tolerance \(NumberFormat.cell(tolerance)) pt and at most \(NumberFormat.cell(Self.maxTravel)) pt")
        }
        source = preset.provenance?.summary ?? preset.description
    }

    /// The first comment lines of every form: what, from where, by which tool.
    public var header: [String] {
        ["\(name) (\(model)): \(source)", "Written by springtune \(SpringTuneVersion.current) export; springs at unit mass, f = natural frequency, ζ = damping ratio."]
    }

    /// A Swift or Kotlin file: the header as `//` lines, `imports`, then `doc` and a type
    /// `keyword Name { … }` holding each spring's and each constant's lines, indented.
    func typeSource(imports: [String], doc: String, keyword: String,
                    spring: (NamedSpring) -> [String], constant: (Constant) -> [String]) -> String {
        var lines = header.map { "// " + Self.comment($0) } + [""] + imports + [""]
        lines += [doc, "\(keyword) \(identifier.upperCamel) {"]
        for s in springs { lines += spring(s).map { "    " + $0 } + [""] }
        for c in constants { lines += constant(c).map { "    " + $0 } }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Text a generated file puts in a comment (`//`, `///`, `/* */`, `/** */`) or a line the
    /// command prints: control characters (a newline, NUL) and line separators become spaces, so
    /// a preset's name or description cannot end the comment line and become code; `*/` is
    /// broken up so it cannot close a block comment.
    public static func comment(_ text: String) -> String {
        String(text.unicodeScalars.map { $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" ? " " : Character($0) })
            .replacingOccurrences(of: "*/", with: "* /")
    }

    /// A number in source text: 6 significant digits (`88.8264`, `0.666667`, `800`).
    public static func number(_ x: Double) -> String { NumberFormat.significant(x, 6) }

    /// `f 1.5 Hz, ζ 0.7, stiffness 88.8264 /s², damping 13.1947 /s`: a spring in a comment.
    public static func summary(_ s: SpringParameters) -> String {
        "f \(number(s.frequency)) Hz, ζ \(number(s.damping)), stiffness \(number(s.stiffness())) /s², damping \(number(s.dampingCoefficient())) /s"
    }
}

/// The forms `springtune export --format` writes (Reference §10.4), with the extension each
/// file usually takes (not checked: `-o` names the file).
public enum ExportFormat: String, CaseIterable, Sendable {
    case swiftui, uikit, compose, css, figma, json

    /// `swift`, `kt`, `css`, `json`.
    public var usualExtension: String {
        switch self {
        case .swiftui, .uikit: "swift"
        case .compose: "kt"
        case .css: "css"
        case .figma, .json: "json"
        }
    }

    /// The file text of a platform form; nil for `json` (the preset itself).
    public func text(_ set: PlatformPreset) throws -> String? {
        switch self {
        case .swiftui: SwiftSource(set, framework: .swiftUI).text
        case .uikit: SwiftSource(set, framework: .uiKit).text
        case .compose: KotlinSource(set).text
        case .css: try CSSSource(set).text
        case .figma: try FigmaSpec(set).text
        case .json: nil
        }
    }
}
