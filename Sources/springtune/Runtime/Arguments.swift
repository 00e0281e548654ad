import ArgumentParser
import Foundation
import SpringCore
import SpringLayout
import SpringTune
import ToolRuntime
import TraceIO

// The structured option values of the commands, parsed by ArgumentParser as it reads the
// command line (so `validate()` and `run()` see typed values, and `slurm submit` checks them
// the way `sweep` does). Their value parsing lives in SpringTune, where it is unit-tested:
// `--vary` by SweepGrid.parseVary, `--set` by SweepGrid.parseSet, `--shard` by ShardChoice.
//
// The options name these parsers with `transform:` rather than through ExpressibleByArgument's
// `init?(argument:)`: a failable initialiser can only say "invalid", while a bad value must
// say why (`steps 100000000 is out of range 1…10000`) in its one line with exit 64.

/// `--set NAME=VALUE`: one parameter (or scene value) fixed to a number or a word.
struct Setting: Sendable {
    var name: String
    var value: ParamValue

    init(parsing text: String) throws { (name, value) = try SweepGrid.parseSet(text) }

    /// The option's value again, for a command line of its own (`slurm submit`'s tasks).
    var argument: String { "\(name)=\(value)" }
}

/// Options shared by the commands that take a preset and parameter changes.
struct PresetOptions: ParsableArguments {
    @Option(help: "Preset name (see `springtune presets list`) or path to a preset JSON file.")
    var preset: String
    @Option(name: .customLong("set"), help: ArgumentHelp("Fix a parameter: NAME=VALUE (removes its sweep axis).", valueName: "name=value"),
            transform: parser("--set", Setting.init(parsing:)))
    var sets: [Setting] = []
    @Option(name: .customLong("traces"), parsing: .upToNextOption, help: "Trace CSV files replacing the preset's bundled set.")
    var traces: [String] = []

    func load() throws -> PresetStore.Loaded { try PresetStore().load(preset) }

    /// The `--set` values by name; a name given twice keeps its last value.
    func parsedSets() -> [String: ParamValue] { Dictionary(sets.map { ($0.name, $0.value) }) { _, last in last } }
}

/// A `transform:` for an option: runs `parse` on the option's value, and drops the
/// "OPTION VALUE: " that SpringTune's parsers put before their reason, since ArgumentParser's
/// message names both already ("The value 'X' is invalid for '--vary <axis>': REASON").
func parser<T>(_ option: String, _ parse: @escaping @Sendable (String) throws -> T) -> @Sendable (String) throws -> T {
    { text in
        do {
            return try parse(text)
        } catch let error as ToolError {
            let prefix = "\(option) \(text): "
            throw ValidationError(error.message.hasPrefix(prefix) ? String(error.message.dropFirst(prefix.count)) : error.message)
        }
    }
}

/// The `transform:` of every number option: ``NumberFormat/decimal(_:)``, so `--frequency 0x10`
/// is refused (64) rather than read as 16, as in files.
let decimal: @Sendable (String) throws -> Double = { text in
    guard let value = NumberFormat.decimal(text) else { throw ValidationError("'\(text.prefix(60))' is not a decimal number") }
    return value
}

/// The objective flags of `sweep`, `pick` and `export` (Reference §10.2): they change an
/// objective the one way for all three (``applied(to:)``), so a command line states the same
/// choice whichever command reads it.
struct ObjectiveOptions: ParsableArguments {
    @Option(name: .customLong("where"), help: ArgumentHelp("Constraint METRIC<=VALUE (also >=, <, >, ==); repeat for more.", valueName: "constraint"),
            transform: parser("--where") { text in _ = try Constraint(parsing: text); return text })
    var constraints: [String] = []
    @Option(name: .customLong("target"), help: ArgumentHelp("Target METRIC=VALUE+-TOL (or ±): the sets with |METRIC − VALUE| ≤ TOL rank first; repeat for more.", valueName: "target"),
            transform: parser("--target") { text in _ = try Ranking.target(parsing: text); return text })
    var targets: [String] = []
    @Option(help: "Metric to minimise.") var minimize: String?
    @Option(help: "Metric to maximise.") var maximize: String?
    @Option(help: "Comma-separated metrics that rank sets tied on the objective (to a relative 1e-9), in order; default: the constraint metrics.")
    var tiebreak: String?
    @Flag(help: "Rank each set by its worst objective value over itself and its grid neighbours (one step on each numeric axis).")
    var robust = false
    @Option(help: "Sure constraints (0.5-0.99): a constraint is met when its one-sided bound at this confidence (cluster bootstrap over groups) meets the limit.",
            transform: decimal)
    var confidence: Double?

    func validate() throws {
        guard minimize == nil || maximize == nil else { throw ValidationError("give at most one of --minimize and --maximize") }
        try SureOptions.check(confidence: confidence)
    }

    /// The objective the flags alone state (for naming their metrics).
    private var stated: Objective {
        Objective(constraints: constraints, targets: targets, minimize: minimize, maximize: maximize,
                  tiebreak: tiebreak.map { $0.split(separator: ",").map(String.init) })
    }

    /// True when a flag states what to rank by (`--where`, `--target`, `--minimize`, `--maximize`).
    var statesObjective: Bool { !constraints.isEmpty || !targets.isEmpty || minimize != nil || maximize != nil }

    /// `base` changed by the flags: `--where` adds constraints, `--target` replaces the target on
    /// its metric (or adds one), `--minimize`/`--maximize` replace the objective column,
    /// `--tiebreak` the tiebreak list, `--robust` turns robust on. Checks every metric the flags
    /// name against `columns` (one line, exit 64).
    func applied(to base: Objective, columns: [String]) throws -> Objective {
        if let (path, message) = stated.unknownMetric(in: columns) {
            let flag = ["constraints": "--where", "targets": "--target"][path[0].stringValue] ?? "--\(path[0].stringValue)"
            throw ToolError(.usage, "\(flag): \(message)")
        }
        var o = base
        o.constraints += constraints
        for text in targets {
            let column = try Ranking.target(parsing: text).column
            o.targets.removeAll { (try? Target(parsing: $0))?.column == column }
            o.targets.append(text)
        }
        if let minimize { (o.minimize, o.maximize) = (minimize, nil) }
        if let maximize { (o.minimize, o.maximize) = (nil, maximize) }
        if let tiebreak = stated.tiebreak { o.tiebreak = tiebreak }
        if robust { o.robust = true }
        if let confidence { o.confidence = confidence }
        return o
    }

    /// The objective `pick` and `export` rank a report by: the one its sidecar recorded, or one
    /// built from the flags alone when they state one; `--tiebreak` and `--robust` change either.
    func objective(for table: SweepReport) throws -> Objective {
        guard let base = statesObjective ? Objective() : table.meta?.preset.objective else {
            throw ToolError(.usage, "\(table.path): no report.meta.json beside it records an objective; give --minimize or --maximize (with --where, --target)")
        }
        return try applied(to: base, columns: table.specs.map(\.name))
    }
}

/// How sure a choice is (Reference §14), for `sweep` and `search`: held-out groups or folds,
/// per-group verdicts, and the bootstrap's size.
struct SureOptions: ParsableArguments {
    @Option(help: "Hold out this fraction of the groups (0-1, seeded by --seed): choose on the others, then measure the choice on them.", transform: decimal)
    var holdout: Double?
    @Option(name: .customLong("holdout-groups"), help: ArgumentHelp("Hold out these groups (comma-separated, or repeat the option; a value that is a group's whole name is that group) instead of a fraction.", valueName: "group,..."))
    var holdoutGroups: [String] = []
    @Option(help: "Choose K times, each time with one fold of the groups held out (2 to the number of groups); report how often the choice held on the unseen groups.")
    var folds: Int?
    @Flag(name: .customLong("per-group"), help: "Write per-group.csv: the chosen set's metrics and verdicts for each group; name the groups it fails.")
    var perGroup = false
    @Option(help: "Bootstrap resamples for the intervals (100-100000).") var resamples = ClusterBootstrap.defaultResamples

    /// A confidence must be a number in 0.5-0.99 (exit 64).
    static func check(confidence: Double?) throws {
        if let confidence, !Objective.confidenceRange.contains(confidence) {
            throw ValidationError("--confidence must be from 0.5 to 0.99 (got \(NumberFormat.cell(confidence)))")
        }
    }

    func validate() throws {
        if let holdout { guard holdout > 0, holdout < 1 else { throw ValidationError("--holdout must be a fraction strictly between 0 and 1 (got \(NumberFormat.cell(holdout)))") } }
        guard [holdout != nil, !holdoutGroups.isEmpty, folds != nil].filter({ $0 }).count <= 1 else {
            throw ValidationError("give at most one of --holdout, --holdout-groups and --folds")
        }
        if let folds { guard folds >= 2, folds <= 1000 else { throw ValidationError("--folds must be from 2 to the number of groups, at most 1000 (got \(folds))") } }
        if !holdoutGroups.isEmpty { guard holdoutGroups.contains(where: { !$0.split(separator: ",").isEmpty }) else { throw ValidationError("--holdout-groups names no group") } }
        guard (100...100_000).contains(resamples) else { throw ValidationError("--resamples must be from 100 to 100000") }
    }

    /// The split asked for, or nil for none.
    var split: GroupSplit.Request? {
        if let holdout { return .fraction(holdout) }
        if !holdoutGroups.isEmpty { return .groups(holdoutGroups) }
        if let folds { return .folds(folds) }
        return nil
    }
}
