import ArgumentParser
import Foundation
import SpringTune
import ToolRuntime
import TraceIO

struct FitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fit",
        abstract: "Recover a spring or a scroll deceleration from recorded motion.",
        subcommands: [Spring.self, Deceleration.self])

    /// The columns holding time (s) and position.
    struct Columns: ParsableArguments {
        @Option(name: .customLong("time-column"), help: "Column of times in seconds (default t).") var time: String?
        @Option(name: .customLong("value-column"), help: "Column of positions (default x).") var value: String?
    }

    /// Prints the result: the text block, or with --json the JSON document alone on stdout.
    static func show(text: String, json: () throws -> String, asJSON: Bool) throws {
        print(asJSON ? try json() : text, terminator: "")
    }

    /// A line naming a written file: on stdout after the text, on stderr with --json.
    static func written(_ line: String, asJSON: Bool) {
        asJSON ? note(line) : print(line)
    }

    /// Draws the chart when asked. A missing gnuplot skips it with one line on stderr (the
    /// .gp and .dat files are kept); the fit stands.
    static func chart(plot: String?, asJSON: Bool, draw: (String) throws -> [String]) throws {
        guard let plot else { return }
        do {
            try draw(plot).forEach { written($0, asJSON: asJSON) }
        } catch let error as ToolError where error.code == .unavailable {
            note("springtune: \(error.message)")
        }
    }
}
