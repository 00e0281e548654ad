import SpringCore
import SpringLayout
import ToolRuntime
import TraceIO

/// The parameter sets of a sweep, in grid order: the first axis varies slowest. `config_id`
/// is the 0-based index in that order, so a shard or a merge never renumbers.
public struct SweepGrid: Sendable {
    public var axes: [SweepAxis]
    /// Values every set shares (preset values with `--set` overrides), swept names excluded.
    public var base: [String: ParamValue]
    /// What the user may not expect of the grid, one line each, for stderr: a `--set` that
    /// removed one of the preset's axes, or a preset axis that overrides a value the preset
    /// itself states (``overriddenValues(_:kind:)``).
    public var notes: [String] = []

    public init(axes: [SweepAxis], base: [String: ParamValue]) {
        self.axes = axes
        self.base = base
    }

    public var count: Int { axes.reduce(1) { $0 * $1.values.count } }

    /// The largest grid `sweep` runs unless `--max-sets` says more.
    public static let defaultMaxSets = 1_000_000

    /// The grid size without overflow: nil when it exceeds Int.
    public static func size(_ axes: [SweepAxis]) -> Int? {
        var n = 1
        for a in axes {
            let (p, overflow) = n.multipliedReportingOverflow(by: a.values.count)
            if overflow { return nil }
            n = p
        }
        return n
    }

    /// The values of parameter set `id`.
    public func values(_ id: Int) -> [String: ParamValue] {
        var out = base
        for (axis, value) in zip(axes, sweptValues(id)) { out[axis.name] = value }
        return out
    }

    /// The swept values of set `id`, in axis order: `id` in mixed radix, the last axis the
    /// least significant digit.
    public func sweptValues(_ id: Int) -> [ParamValue] {
        var out = [ParamValue](repeating: .number(0), count: axes.count)
        var rest = id
        for (i, axis) in axes.enumerated().reversed() {
            out[i] = axis.values[rest % axis.values.count]
            rest /= axis.values.count
        }
        return out
    }

    /// Builds the grid from a preset and command-line changes: `--vary` replaces an axis of the
    /// same name or appends one; `--set` fixes a value and removes the preset's axis of that
    /// name (said in ``notes``, with the preset's axes that override its own values). A name given to both `--vary` and `--set`, or one that is not a
    /// parameter of the model or a scene value, is a usage error listing the valid names.
    public static func make(preset: Preset, kind: ModelKind, vary: [SweepAxis], set: [String: ParamValue]) throws -> SweepGrid {
        let specs = kind.parameters + Scene.sweepable
        // The preset's own axes too: a preset read without its model (an app's decoder) is not checked yet.
        for name in preset.sweep.map(\.name) + vary.map(\.name) + set.keys.sorted() where !specs.contains(where: { $0.name == name }) {
            throw unknown(name, verb: set[name] != nil && !vary.contains { $0.name == name } ? "set" : "sweep", kind: kind)
        }
        if let both = vary.first(where: { set[$0.name] != nil }) {
            throw ToolError(.usage, "'\(both.name)' is given to both --vary and --set; keep one")
        }
        var axes = preset.sweep
        for axis in vary {
            if let i = axes.firstIndex(where: { $0.name == axis.name }) { axes[i] = axis } else { axes.append(axis) }
        }
        let before = size(axes)
        let replaced = axes.filter { set[$0.name] != nil }
        axes.removeAll { set[$0.name] != nil }
        var base = kind.values(of: preset)
        for (k, v) in set { base[k] = v }
        var seen = Set<String>()
        for axis in axes where !seen.insert(axis.name).inserted { throw ToolError(.usage, "axis '\(axis.name)' given twice") }
        var grid = SweepGrid(axes: axes, base: base.filter { k, _ in !axes.contains { $0.name == k } })
        grid.notes = replaced.map { axis in
            "--set \(axis.name)=\(set[axis.name]!) replaces the preset's \(axis.name) axis (\(axis.values.count) values): "
                + "\(size(axes).map(String.init) ?? "?") parameter sets instead of \(before.map(String.init) ?? "?")"
        } + overriddenValues(preset, kind: kind).filter { note in axes.contains { $0.name == note.axis.name } && !vary.contains { $0.name == note.axis.name } }
            .map(\.line)
        // Every set must be valid: check each axis value once against its spec.
        for axis in axes {
            let spec = specs.first { $0.name == axis.name }!
            for v in axis.values {
                if let problem = spec.check(v) {
                    let forms = vary.contains { $0.name == axis.name } ? " (--vary \(axis.name)=a,b,c or \(axis.name)=FROM:TO:STEPS[:log])" : ""
                    throw ToolError(.usage, "axis \(axis.name): \(problem)\(forms)")
                }
            }
        }
        do {
            _ = try ParameterValues.resolve(Scene().applying(grid.values(0)).rest, specs: kind.parameters)
        } catch {
            throw ToolError(.usage, error.description)
        }
        return grid
    }

    /// A preset axis over a parameter the preset sets itself (in `spring` or `params`): the
    /// axis wins, so the stated value runs only if the axis holds it.
    public struct Override: Sendable, Equatable {
        public var axis: SweepAxis
        public var stated: ParamValue
        /// True when no value of the axis equals the stated one (to a relative 1e-9).
        public var neverRuns: Bool

        public var line: String {
            "the preset sets \(axis.name) = \(stated) but its sweep axis over \(axis.name) (\(axis.values.count) values) overrides it"
                + (neverRuns ? " and never runs \(stated)" : "") + "; --set \(axis.name)=\(stated) keeps the preset's value"
        }
    }

    /// The axes of an export (a preset with `provenance`, as `export --keep-sweep` writes it)
    /// that override one of its own values: an export's values are the set it ships, so an axis
    /// over one silently replaces the decision (and an edit of that value would never run).
    /// Other presets (the bundled ones, hand-written ones) state values beside a design-time
    /// grid that need not hold them (appstore's `flickVelocity` and clear's `frequency` are off their
    /// grids), by design: they say nothing.
    public static func overriddenValues(_ preset: Preset, kind: ModelKind) -> [Override] {
        guard preset.provenance != nil else { return [] }
        let stated = kind.values(of: preset), names = Set(preset.params.keys).union(kind.springParameterNames)
        return preset.sweep.compactMap { axis in
            guard names.contains(axis.name), let value = stated[axis.name] else { return nil }
            let neverRuns = !axis.values.contains { v in
                guard let x = v.number, let y = value.number else { return v == value }
                return abs(x - y) <= 1e-9 * max(abs(x), abs(y))
            }
            return Override(axis: axis, stated: value, neverRuns: neverRuns)
        }
    }

    /// The error for a name that is neither a parameter of `kind` nor a scene value: the
    /// closest valid name when one is near (edit distance at most a third of its length), and
    /// every valid name.
    static func unknown(_ name: String, verb: String, kind: ModelKind) -> ToolError {
        let params = kind.parameters.map(\.name), scene = Scene.sweepable.map(\.name)
        return ToolError(.usage, "cannot \(verb) '\(name)': not a parameter of \(kind.name) or a scene value\(NameSuggestion.hint(name, among: params + scene)); "
            + "parameters: \(params.joined(separator: ", ")); scene: \(scene.joined(separator: ", "))")
    }


    /// Parses `NAME=v1,v2,...` (numbers, or words for a word parameter) or `NAME=FROM:TO:STEPS[:log]`.
    public static func parseVary(_ text: String) throws -> SweepAxis {
        guard let eq = text.firstIndex(of: "="), eq != text.startIndex else { throw ToolError(.usage, "--vary \(text): expected NAME=VALUES") }
        let name = String(text[..<eq]), spec = String(text[text.index(after: eq)...])
        if spec.contains(":") {
            let parts = spec.split(separator: ":").map(String.init)
            guard parts.count == 3 || (parts.count == 4 && (parts[3] == "log" || parts[3] == "linear")),
                  let from = NumberFormat.decimal(parts[0]), let to = NumberFormat.decimal(parts[1]), let steps = Int(parts[2]) else {
                throw ToolError(.usage, "--vary \(text): expected NAME=FROM:TO:STEPS[:log]")
            }
            do {
                return try SweepAxis(name: name, from: from, to: to, steps: steps, log: parts.count == 4 && parts[3] == "log")
            } catch {
                throw ToolError(.usage, "--vary \(text): \(error.description)")
            }
        }
        let values = spec.split(separator: ",", omittingEmptySubsequences: false).map { ParamValue(parsing: String($0)) }
        guard !values.isEmpty, values.allSatisfy({ $0.number?.isFinite ?? !$0.description.isEmpty }) else {
            throw ToolError(.usage, "--vary \(text): expected comma-separated finite numbers or words")
        }
        return SweepAxis(name: name, values: values)
    }

    /// Parses `NAME=VALUE`.
    public static func parseSet(_ text: String) throws -> (String, ParamValue) {
        guard let eq = text.firstIndex(of: "="), eq != text.startIndex, text.index(after: eq) != text.endIndex else {
            throw ToolError(.usage, "--set \(text): expected NAME=VALUE")
        }
        return (String(text[..<eq]), ParamValue(parsing: String(text[text.index(after: eq)...])))
    }
}

extension SweepGrid {
    /// Where a parameter set sits on an edge of a numeric axis with two or more values.
    public struct Edge: Sendable, Equatable {
        public var axis: String
        public var value: Double
        /// True at the largest value swept, false at the smallest.
        public var upper: Bool

        /// One line for the user: the axis and the direction to extend it.
        public var advice: String {
            "the best set lies on the \(upper ? "largest" : "smallest") \(axis) swept (\(NumberFormat.significant(value, 4))): the optimum may lie \(upper ? "above" : "below") it; extend \(axis) \(upper ? "upwards" : "downwards") (--vary \(axis)=…)"
        }
    }

    /// The axes on whose first or last value set `id` lies, skipping `except` (e.g. the axes an
    /// objective takes the worst case over) and axes of words or of one value.
    public func edges(of id: Int, except: [String] = []) -> [Edge] {
        let values = self.values(id)
        return axes.compactMap { axis in
            guard !except.contains(axis.name), let numbers = axis.numbers, numbers.count >= 2,
                  let v = values[axis.name]?.number, let lo = numbers.min(), let hi = numbers.max() else { return nil }
            if v == hi { return Edge(axis: axis.name, value: v, upper: true) }
            if v == lo { return Edge(axis: axis.name, value: v, upper: false) }
            return nil
        }
    }
}
