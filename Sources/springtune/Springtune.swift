import ArgumentParser
import Foundation
import SpringTune
import ToolRuntime
import TraceIO

@main
struct Springtune: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "springtune",
        abstract: "Tune spring-driven touch interactions by replaying real touch traces through exact models.",
        version: SpringTuneVersion.current,
        subcommands: [SweepCommand.self, PickCommand.self, CompareCommand.self, ExportCommand.self, PlotCommand.self, ReplayCommand.self,
                      MergeCommand.self, SlurmCommand.self, BenchCommand.self, SpringCommand.self, FitCommand.self, TracesCommand.self, PresetsCommand.self, MetricsCommand.self,
                      ImportanceCommand.self, StudioCommand.self, SearchCommand.self, EvaluateCommand.self]
    )

    /// Runs the command line: help and version on stdout; a usage error as one line on stderr
    /// with a pointer to `--help` (exit 64); other failures as their own one line and code.
    static func main() {
        Cleanup.shared.install()
        StandardStreams.install()
        do {
            if let bad = Arguments.firstNotUTF8() {
                StandardStreams.error("springtune: argument \(bad.index) is not UTF-8 ('\(bad.shown)'); springtune reads and writes file names as UTF-8: rename the file or folder\n")
                finish(ExitCode.validationFailure.rawValue)
            }
            if let line = unknownCommand(Array(CommandLine.arguments.dropFirst())) {
                StandardStreams.error("springtune: \(line)\n")
                finish(ExitCode.validationFailure.rawValue)
            }
            var command = try parseAsRoot()
            try command.run()
            finish(0)
        } catch let code as ExitCode {
            // Our own failures have printed their line already.
            finish(code.rawValue)
        } catch {
            let code = exitCode(for: error)
            guard code != .success else {
                print(fullMessage(for: error))
                finish(0)
            }
            let message = oneLine(message(for: error))
            if !message.isEmpty {
                let help = code == .validationFailure ? helpPointer : ""
                StandardStreams.error("springtune: \(message.hasPrefix("Error: ") ? String(message.dropFirst(7)) : message)\(help)\n")
            }
            finish(code.rawValue)
        }
    }

    /// The line for a misspelt command (`sweeep`, `presets shwo`): the words so far, the nearest
    /// command and the group's `--help`, where the parser would blame what follows the word
    /// ("Unknown option '--preset'"); nil when every word before the first option or argument
    /// names a command.
    static func unknownCommand(_ arguments: [String]) -> String? {
        var command: ParsableCommand.Type = Springtune.self
        var path: [String] = []
        for word in arguments {
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty, command.configuration.defaultSubcommand == nil, !word.hasPrefix("-"), word != "help" else { return nil }
            guard let next = subcommands.first(where: { $0._commandName == word }) else {
                let names = subcommands.map { $0._commandName }
                let group = path.isEmpty ? "" : " " + path.joined(separator: " ")
                return "unknown command '\((path + [word]).joined(separator: " "))'\(NameSuggestion.hint(word, among: names)) (see springtune\(group) --help)"
            }
            command = next
            path.append(word)
        }
        return nil
    }

    static func finish(_ code: Int32) -> Never { finishProcess(code) }
}

/// " (see springtune SUB --help)" for the subcommand the user ran (`sweep`, `traces import`):
/// what a usage error ends with.
var helpPointer: String {
    let words = Array(CommandLine.arguments.dropFirst().prefix { !$0.hasPrefix("-") })
    let names = Set(Springtune.configuration.subcommands.map { $0._commandName })
    let groups: Set<String> = ["traces", "presets", "fit", "slurm"]
    let sub = words.first.map { names.contains($0) ? groups.contains($0) && words.count > 1 ? "\($0) \(words[1])" : $0 : "" } ?? ""
    return " (see springtune\(sub.isEmpty ? "" : " " + sub) --help)"
}

/// A message as one line of at most ``Echo/limit`` characters (``Echo/cut(_:)``).
func oneLine(_ text: String) -> String { Echo.cut(text) }

/// Runs a command body, turning a ``ToolError`` into one line on stderr and its sysexits code
/// (a usage error with the pointer to `--help`).
func reportingErrors(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as ToolError {
        StandardStreams.error("springtune: \(oneLine(error.message))\(error.code == .usage ? helpPointer : "")\n")
        throw ExitCode(error.code.rawValue)
    }
}

/// Writes a line to stderr (notes that are not the command's output), each of its lines cut
/// by ``Echo/cut(_:)``.
func note(_ text: String, newline: Bool = true) {
    StandardStreams.error(text.split(separator: "\n", omittingEmptySubsequences: false).map(Echo.cut).joined(separator: "\n") + (newline ? "\n" : ""))
}
