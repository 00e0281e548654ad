import Foundation
import Preference
import SpringCore
import SpringLayout
import ToolRuntime
import TraceIO

/// The continuous box a search explores (Reference §8.3, §13): one dimension per free
/// parameter, a range of numbers (linear or log) or a list of words, with every other value
/// fixed. Without `--free`, the box is the preset's `search` block, or else its sweep axes'
/// ranges (from the least to the largest value, log where the axis is log-spaced; word axes
/// as their words); `--free NAME` widens or adds NAME over its whole domain,
/// `--free NAME=FROM:TO` over that range (inside the domain), and `--free all` frees every
/// tuning parameter (``ParameterDomain/tuning``) over its domain. `--set` fixes a value.
public struct SearchBox: Sendable {
    /// One free parameter.
    public struct Dimension: Sendable, Equatable, Encodable {
        public enum Extent: Sendable, Equatable {
            case numbers(min: Double, max: Double, log: Bool)
            case words([ParamValue])
        }

        public var name: String
        public var unit: String
        public var extent: Extent

        public init(name: String, unit: String, extent: Extent) { self.name = name; self.unit = unit; self.extent = extent }

        /// `[0.7, 1.1]`, `[100, 5000] log` or `linear | easeInOut | spring`.
        public var description: String {
            switch extent {
            case let .numbers(lo, hi, isLog): "[\(NumberFormat.short(lo)), \(NumberFormat.short(hi))]\(isLog ? " log" : "")"
            case let .words(words): words.map(\.description).joined(separator: " | ")
            }
        }

        /// Which end of the range `v` sits at: within 1 % of the width (in log space on a log
        /// range) of the upper end (true) or the lower end (false); nil inside, or for words.
        /// A best there may have an optimum beyond it (`search`'s and the studio's edge line).
        public func end(of v: Double) -> Bool? {
            guard case let .numbers(lo, hi, isLog) = extent, hi > lo else { return nil }
            let u = isLog ? Foundation.log(v / lo) / Foundation.log(hi / lo) : (v - lo) / (hi - lo)
            return u >= 0.99 ? true : u <= 0.01 ? false : nil
        }

        /// The range's width in the search's own scale: max − min, or ln(max/min) on a log range; nil for words.
        public var width: Double? {
            guard case let .numbers(lo, hi, isLog) = extent else { return nil }
            return isLog ? Foundation.log(hi / lo) : hi - lo
        }

        enum Key: String, CodingKey { case name, unit, from, to, log, words }

        /// `{name, unit, from, to, log}` or `{name, unit, words}` (the meta's `search.box`).
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(name, forKey: .name)
            try c.encode(unit, forKey: .unit)
            switch extent {
            case let .numbers(lo, hi, isLog):
                try c.encode(lo, forKey: .from)
                try c.encode(hi, forKey: .to)
                try c.encode(isLog, forKey: .log)
            case let .words(words):
                try c.encode(words, forKey: .words)
            }
        }
    }

    /// A `--free` option: a parameter over its domain or a range, or every tuning parameter.
    public enum Free: Sendable, Equatable {
        case all
        case parameter(String, range: ClosedRange<Double>?)

        /// Parses `all`, `NAME` or `NAME=FROM:TO`.
        public init(parsing text: String) throws {
            if text == "all" { self = .all; return }
            guard let eq = text.firstIndex(of: "=") else {
                guard !text.isEmpty else { throw ToolError(.usage, "--free: expected NAME, NAME=FROM:TO or all") }
                self = .parameter(text, range: nil)
                return
            }
            let name = String(text[..<eq]), parts = text[text.index(after: eq)...].split(separator: ":", omittingEmptySubsequences: false)
            guard !name.isEmpty, parts.count == 2, let lo = NumberFormat.decimal(parts[0]), let hi = NumberFormat.decimal(parts[1]),
                  lo.isFinite, hi.isFinite, lo <= hi else {
                throw ToolError(.usage, "--free \(text.prefix(80)): expected NAME=FROM:TO with finite FROM ≤ TO")
            }
            self = .parameter(name, range: lo...hi)
        }
    }

    public let dimensions: [Dimension]
    /// The values every set shares: the preset's, with `--set` applied (free names excluded).
    public let base: [String: ParamValue]
    /// The unit box the model works in (numbers scaled to [0, 1], log ranges in log space, words one-hot).
    public let space: PreferenceSpace

    /// The box of `loaded` with `free` and `set` applied; a usage error (64) for an unknown or
    /// scene name, a range outside the domain, a word parameter given a range, a name both
    /// freed and set, or a box with nothing free.
    public init(_ loaded: PresetStore.Loaded, free: [Free] = [], set: [String: ParamValue] = [:]) throws {
        let kind = loaded.kind
        var dims = Self.presetDimensions(loaded)
        func spec(_ name: String) throws -> ParameterSpec {
            if let s = kind.parameters.first(where: { $0.name == name }) { return s }
            if Scene.sweepable.contains(where: { $0.name == name }) {
                throw ToolError(.usage, "--free \(name): a scene value describes the display, not the feel, and is not searched (--set \(name)=… fixes it)")
            }
            throw SweepGrid.unknown(name, verb: "free", kind: kind)
        }
        func put(_ d: Dimension) {
            if let i = dims.firstIndex(where: { $0.name == d.name }) { dims[i] = d } else { dims.append(d) }
        }
        for f in free {
            switch f {
            case .all:
                for s in kind.parameters where s.domain?.tuning == true { put(Self.dimension(s, domain: s.domain!)) }
            case let .parameter(name, range):
                put(try Self.dimension(try spec(name), range: range, option: "--free \(name)"))
            }
        }
        for name in set.keys.sorted() {
            if kind.parameters.contains(where: { $0.name == name }) || Scene.sweepable.contains(where: { $0.name == name }) {
                if free.contains(where: { if case .parameter(name, _) = $0 { true } else { false } }) {
                    throw ToolError(.usage, "'\(name)' is given to both --free and --set; keep one")
                }
                dims.removeAll { $0.name == name }
            } else {
                throw SweepGrid.unknown(name, verb: "set", kind: kind)
            }
        }
        for spec in Scene.sweepable {
            if let v = set[spec.name], let problem = spec.check(v) { throw ToolError(.usage, "--set \(spec.name): \(problem)") }
        }
        try self.init(loaded, dimensions: dims, set: set)
    }

    /// The box of exactly `dims` (each a tuning parameter inside its domain), every other value
    /// the preset's with `set` applied: the studio's free parameters (Reference §10.16). A usage
    /// error (64) for a box with nothing free or a set of it the model refuses.
    public init(_ loaded: PresetStore.Loaded, dimensions: [Dimension], set: [String: ParamValue] = [:]) throws {
        let kind = loaded.kind
        var dims = dimensions
        // A range of one value is no dimension: it is fixed at that value.
        var fixed: [String: ParamValue] = [:]
        dims.removeAll { d in
            switch d.extent {
            case let .numbers(lo, hi, _) where lo == hi: fixed[d.name] = .number(lo); return true
            case let .words(w) where w.count == 1: fixed[d.name] = w[0]; return true
            default: return false
            }
        }
        guard !dims.isEmpty else { throw ToolError(.usage, "nothing to search: no parameter is free (--free NAME or --free all)") }
        var base = kind.values(of: loaded.preset).merging(fixed) { _, f in f }
        for (k, v) in set { base[k] = v }
        self.dimensions = dims
        self.base = base.filter { k, _ in !dims.contains { $0.name == k } }
        do {
            space = try PreferenceSpace(axes: dims.map { d in
                switch d.extent {
                case let .numbers(lo, hi, isLog): .numeric(d.name, min: lo, max: hi, log: isLog)
                case let .words(words): .words(d.name, words.map(\.description))
                }
            })
        } catch {
            throw ToolError(.usage, error.description)
        }
        // Every set of the box must be valid: each dimension's ends and words, and its centre.
        for d in dims {
            let ends: [ParamValue] = switch d.extent {
            case let .numbers(lo, hi, _): [.number(lo), .number(hi)]
            case let .words(words): words
            }
            guard let spec = kind.parameters.first(where: { $0.name == d.name }) else { throw SweepGrid.unknown(d.name, verb: "free", kind: kind) }
            if let problem = ends.lazy.compactMap(spec.check).first {
                throw ToolError(.usage, "search box \(d.name): \(problem)")
            }
        }
        do {
            _ = try ParameterValues.resolve(Scene().applying(parameters(Array(repeating: 0.5, count: space.dimension))).rest, specs: kind.parameters)
        } catch {
            throw ToolError(.usage, error.description)
        }
    }

    /// The dimension of `spec` over its domain, or over `range` inside it (numbers only); a usage
    /// error (64) naming `option` for a parameter without a domain or a range outside it.
    public static func dimension(_ spec: ParameterSpec, range: ClosedRange<Double>?, option: String) throws -> Dimension {
        guard let domain = spec.domain else { throw ToolError(.usage, "\(option): it has no domain to search") }
        guard let range else { return dimension(spec, domain: domain) }
        guard let r = domain.range else { throw ToolError(.usage, "\(option)=…: \(spec.name) takes words (\(domain.description)); free it without a range") }
        guard r.min <= range.lowerBound, range.upperBound <= r.max else {
            throw ToolError(.usage, "\(option)=\(NumberFormat.cell(range.lowerBound)):\(NumberFormat.cell(range.upperBound)): outside \(spec.name)'s domain \(domain.description) \(spec.unit)")
        }
        return Dimension(name: spec.name, unit: spec.unit, extent: .numbers(min: range.lowerBound, max: range.upperBound, log: r.log))
    }

    /// The dimension of `spec` over its whole domain.
    public static func dimension(_ spec: ParameterSpec, domain: ParameterDomain) -> Dimension {
        switch domain.values {
        case let .range(lo, hi, isLog): Dimension(name: spec.name, unit: spec.unit, extent: .numbers(min: lo, max: hi, log: isLog))
        case let .words(words): Dimension(name: spec.name, unit: spec.unit, extent: .words(words.map(ParamValue.text)))
        }
    }

    /// The preset's own box: its `search` block, else its sweep axes' ranges (scene axes left out).
    public static func presetDimensions(_ loaded: PresetStore.Loaded) -> [Dimension] {
        let specs = loaded.kind.parameters
        if let ranges = loaded.preset.search {
            return ranges.compactMap { r in
                guard let spec = specs.first(where: { $0.name == r.name }), let domain = spec.domain?.range else { return nil }
                return Dimension(name: r.name, unit: spec.unit, extent: .numbers(min: r.from, max: r.to, log: r.log ?? domain.log))
            }
        }
        return loaded.preset.sweep.compactMap { axis in
            guard let spec = specs.first(where: { $0.name == axis.name }) else { return nil }
            if let numbers = axis.numbers {
                return Dimension(name: axis.name, unit: spec.unit, extent: .numbers(min: numbers.min()!, max: numbers.max()!, log: axis.range?.log ?? false))
            }
            var words: [ParamValue] = []
            for v in axis.values where !words.contains(v) { words.append(v) }
            return Dimension(name: axis.name, unit: spec.unit, extent: .words(words))
        }
    }

    /// The free parameters' values at a unit-box point, in dimension order: numbers to 12
    /// significant digits (``NumberFormat/typed(_:)``, the value a report writes and reads back),
    /// words as the box gives them.
    public func row(_ x: [Double]) -> [ParamValue] {
        let decoded = space.decode(x)
        return dimensions.map { d in
            switch (d.extent, decoded[d.name]!) {
            case let (.numbers(lo, hi, _), .number(v)): .number(min(hi, max(lo, NumberFormat.typed(v))))
            case let (.words(words), .word(w)): words.first { $0.description == w }!
            default: preconditionFailure("a decoded value of the wrong kind")
            }
        }
    }

    /// The unit-box point nearest to `values` (free names; a name not given takes the preset's
    /// value or, without one, the range's middle): numbers clamped into their range, a word not
    /// in the list taken as the first. Sets shown under another box (the studio's free set
    /// changed) are learned from where they project into this one.
    public func nearestPoint(_ values: [String: ParamValue], preset: [String: ParamValue]) -> [Double] {
        var axis: [String: AxisValue] = [:]
        for d in dimensions {
            let v = values[d.name] ?? preset[d.name]
            switch d.extent {
            case let .numbers(lo, hi, isLog):
                let middle = isLog ? (lo * hi).squareRoot() : (lo + hi) / 2
                axis[d.name] = .number(min(hi, max(lo, v?.number.flatMap { $0.isFinite ? $0 : nil } ?? middle)))
            case let .words(words):
                axis[d.name] = .word((v.flatMap { words.contains($0) ? $0 : nil } ?? words[0]).description)
            }
        }
        return (try? space.encode(axis)) ?? Array(repeating: 0.5, count: space.dimension)
    }

    /// Every value of the set at a unit-box point, by name.
    public func parameters(_ x: [Double]) -> [String: ParamValue] {
        var out = base
        for (d, v) in zip(dimensions, row(x)) { out[d.name] = v }
        return out
    }

    /// The unit-box point of a row of free values (dimension order); nil when one lies outside the box.
    public func point(_ row: [ParamValue]) -> [Double]? {
        var values: [String: AxisValue] = [:]
        for (d, v) in zip(dimensions, row) {
            switch (d.extent, v) {
            case let (.numbers(lo, hi, _), .number(x)) where lo <= x && x <= hi: values[d.name] = .number(x)
            case let (.words(words), w) where words.contains(w): values[d.name] = .word(w.description)
            default: return nil
            }
        }
        return try? space.encode(values)
    }
}
