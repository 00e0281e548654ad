import ArgumentParser
import Foundation
import SpringTune
import TraceIO

@main
struct Springtune: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "springtune",
        abstract: "Tune spring-driven touch interactions by replaying real touch traces through exact models.",
        version: SpringTuneVersion.current,
        subcommands: [SweepCommand.self, PickCommand.self, CompareCommand.self, ExportCommand.self, PlotCommand.self, ReplayCommand.self,
                      MergeCommand.self, BenchCommand.self, SpringCommand.self, TracesCommand.self, PresetsCommand.self, MetricsCommand.self]
    )
}

/// Runs a command body, turning a ``ToolError`` into one line on stderr and its sysexits code.
func reportingErrors(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as ToolError {
        FileHandle.standardError.write(Data("springtune: \(error.message)\n".utf8))
        throw ExitCode(error.code.rawValue)
    }
}

/// Writes a line to stderr (notes that are not the command's output).
func note(_ text: String, newline: Bool = true) {
    FileHandle.standardError.write(Data((text + (newline ? "\n" : "")).utf8))
}
