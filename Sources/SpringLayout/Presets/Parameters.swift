import Foundation
import SpringCore

/// A model parameter's value in a preset: a number, or a word for the few parameters that
/// take one (e.g. `initialOffset: "auto"`).
public enum ParamValue: Hashable, Sendable, Codable, CustomStringConvertible {
    /// A finite number, in the parameter's unit.
    case number(Double)
    /// A word (`auto`, `linear`, `create`, …).
    case text(String)

    /// Decodes a JSON number (finite) or string.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let d = try? c.decode(Double.self) {
            guard d.isFinite else { throw DecodingError.dataCorruptedError(in: c, debugDescription: "not a finite number") }
            self = .number(d)
        } else if let s = try? c.decode(String.self) {
            self = .text(s)
        } else {
            throw DecodingError.typeMismatch(Double.self, .init(codingPath: decoder.codingPath, debugDescription: "expected a number or a string"))
        }
    }

    /// Encodes a JSON number or string.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case let .number(d): try c.encode(d)
        case let .text(s): try c.encode(s)
        }
    }

    /// Parses command-line text: a number if it reads as one, else a word.
    public init(parsing text: String) {
        self = NumberFormat.decimal(text).map(ParamValue.number) ?? .text(text)
    }

    /// The number, or nil for a word.
    public var number: Double? { if case let .number(d) = self { d } else { nil } }

    /// The value as a command line writes it: an integer without a decimal point, a word as is.
    public var description: String {
        switch self {
        case let .number(d): d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : "\(d)"
        case let .text(s): s
        }
    }
}

/// A model parameter: its name (as in Reference §7), unit, default and valid range.
public struct ParameterSpec: Sendable {
    /// The parameter's name, as presets and Reference §7 write it.
    public var name: String
    /// Its unit (`pt`, `pt/s`, `s`, `Hz`, `1` for a ratio, …).
    public var unit: String
    /// The value a preset that does not give it gets.
    public var defaultValue: ParamValue
    /// What it does, in one line (for `springtune models`).
    public var summary: String
    /// Returns an error message when a value is out of range.
    public var check: @Sendable (ParamValue) -> String?
    /// Where a search or the studio may move it (Reference §8.3); nil for scene values only.
    public var domain: ParameterDomain?

    /// A parameter with its name, unit, default, summary, search domain and range check (an
    /// error message, or nil when the value is valid).
    public init(_ name: String, _ unit: String, _ defaultValue: ParamValue, _ summary: String, domain: ParameterDomain?,
                check: @escaping @Sendable (ParamValue) -> String?) {
        self.name = name; self.unit = unit; self.defaultValue = defaultValue; self.summary = summary; self.domain = domain; self.check = check
    }

    /// The largest length a model parameter takes (pt), as a trace's coordinates (Reference §11):
    /// a row 1e300 pt high made every position of a replay's chart infinite (gnuplot failed, 70).
    public static let maxLength = TouchInput.coordinateLimit

    /// A numeric parameter with a lower bound (inclusive or not), an optional upper bound and
    /// its search domain (which must lie within the bounds).
    public static func number(_ name: String, _ unit: String, _ value: Double, _ summary: String,
                              min: Double, inclusive: Bool = true, max: Double = .infinity, maxInclusive: Bool = true,
                              domain: ParameterDomain?) -> ParameterSpec {
        ParameterSpec(name, unit, .number(value), summary, domain: domain) { v in
            guard let d = v.number else { return "expected a number" }
            let lowOK = inclusive ? d >= min : d > min
            let highOK = maxInclusive ? d <= max : d < max
            if lowOK && highOK && d.isFinite { return nil }
            let low = inclusive ? "[\(min)" : "(\(min)"
            let high = max == .infinity ? "∞)" : (maxInclusive ? "\(max)]" : "\(max))")
            return "\(v) is out of range \(low), \(high)"
        }
    }

    /// A word parameter taking one of `choices` (its domain; `tuning` as ``ParameterDomain/tuning``).
    public static func text(_ name: String, _ value: String, _ choices: [String], _ summary: String, tuning: Bool = true) -> ParameterSpec {
        ParameterSpec(name, "word", .text(value), summary, domain: .words(choices, tuning: tuning)) { v in
            guard case let .text(s) = v, choices.contains(s) else { return "'\(v)' is not one of \(choices.joined(separator: ", "))" }
            return nil
        }
    }

    /// The two spring parameters of a model, by the model's names for them.
    public static func springSpecs(frequency: Double, damping: Double, names: (String, String) = ("frequency", "damping")) -> [ParameterSpec] {
        [
            .number(names.0, "Hz", frequency, "spring undamped natural frequency f", min: 0, inclusive: false, max: SpringSpec.maxFrequency,
                    domain: .frequency),
            .number(names.1, "ratio", damping, "spring damping ratio ζ (1 = critical)", min: 0, max: SpringSpec.maxDamping, domain: .damping),
        ]
    }
}

/// Resolved parameter values of one parameter set, by name.
public struct ParameterValues: Hashable, Sendable {
    /// The values by parameter name.
    public var values: [String: ParamValue]

    /// Values by parameter name (not yet checked against the specs).
    public init(_ values: [String: ParamValue] = [:]) { self.values = values }

    /// The value of parameter `name`, nil when it has none.
    public subscript(name: String) -> ParamValue? {
        get { values[name] }
        set { values[name] = newValue }
    }

    /// A numeric value (the caller has validated it against the spec).
    public func number(_ name: String) -> Double { values[name]?.number ?? .nan }

    /// Fills in defaults and checks every value against the model's specs.
    public static func resolve(_ given: [String: ParamValue], specs: [ParameterSpec], path: String = "params") throws(PresetError) -> ParameterValues {
        var out: [String: ParamValue] = [:]
        let known = Set(specs.map(\.name))
        for name in given.keys.sorted() where !known.contains(name) {
            throw PresetError(path: "\(path).\(name)", message: "unknown parameter (known: \(specs.map(\.name).joined(separator: ", ")))")
        }
        for spec in specs {
            let v = given[spec.name] ?? spec.defaultValue
            if let problem = spec.check(v) { throw PresetError(path: "\(path).\(spec.name)", message: problem) }
            out[spec.name] = v
        }
        return ParameterValues(out)
    }

    /// The spring whose frequency (Hz) and damping ratio are the named values.
    public func spring(frequency: String = "frequency", damping: String = "damping") throws(PresetError) -> SpringParameters {
        do {
            return try SpringParameters(frequency: number(frequency), damping: number(damping))
        } catch {
            throw PresetError(path: "spring", message: error.description)
        }
    }
}
