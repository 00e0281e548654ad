import ArgumentParser
import SpringLayout
import SpringTune
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
