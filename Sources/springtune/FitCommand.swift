import ArgumentParser
import Foundation
import SpringTune
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

    struct Spring: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Fit a damped spring (f, ζ, target, initial state) to sampled positions and print every spring form.",
            discussion: """
            FILE is a CSV with a header; times need not be evenly spaced but must increase. \
            Example: springtune fit spring drag.csv --value-column y --preset-out my.json --preset appstore
            """)
        @Argument(help: "CSV of samples.") var file: String
        @OptionGroup var columns: Columns
        @Option(help: "The target position, when known (default: fitted).") var target: Double?
        @Flag(help: "Print one JSON object.") var json = false
        @Option(help: "Chart of samples against the fitted curve: an image path (.png; .svg, .gp and .dat beside it) or a folder.") var plot: String?
        @Option(name: .customLong("preset-out"), help: "Write a copy of --preset with the fitted spring to this file.") var presetOut: String?
        @Option(help: "Preset (name or file) to copy for --preset-out.") var preset: String?

        func validate() throws {
            if let target { guard target.isFinite, abs(target) <= Fitting.maxValue else { throw ValidationError("--target must be a finite number of at most 1e6 in size") } }
            guard (presetOut == nil) == (preset == nil) else { throw ValidationError("--preset-out and --preset go together") }
            if presetOut == "" || plot == "" { throw ValidationError("--preset-out and --plot must not be empty") }
        }

        func run() throws {
            try reportingErrors {
                // The preset first: a bad name fails before any work.
                let loaded = try preset.map { try PresetStore().load($0) }
                let fitted = try Fitting.spring(path: file, timeColumn: columns.time ?? "t", valueColumn: columns.value ?? "x", target: target)
                try FitCommand.show(text: fitted.text, json: { try JSONCoding.encode(fitted.report) }, asJSON: json)
                if let loaded, let presetOut {
                    let (copy, dropped) = fitted.preset(from: loaded, destination: presetOut)
                    try AtomicFile.write(try JSONCoding.encode(copy), to: presetOut)
                    FitCommand.written("\(presetOut): \(copy.name) (\(copy.model)) with the fitted spring"
                        + (dropped.isEmpty ? "" : "; sweep axes dropped: \(dropped.joined(separator: ", ")) (the fitted spring replaces them)"), asJSON: json)
                }
                try FitCommand.chart(plot: plot, asJSON: json, draw: fitted.draw)
            }
        }
    }

    struct Deceleration: ParsableCommand {
        enum Format: String, ExpressibleByArgument, CaseIterable { case positions, wheel }

        static let configuration = CommandConfiguration(
            abstract: "Fit an exponential deceleration o∞ − A·e^(−λt) to a coasting phase; print decelerationRate (per ms) and λ.",
            discussion: """
            --format positions (default): FILE holds the coasting positions (columns t and x, or \
            --time-column/--value-column). --format wheel: FILE holds per-event scroll deltas \
            (columns trace_id, t_seconds, dx, dy); each gesture's momentum tail is found and fitted.
            """)
        @Argument(help: "CSV of positions or wheel events.") var file: String
        @Option(help: "positions or wheel.") var format: Format = .positions
        @OptionGroup var columns: Columns
        @Flag(help: "Print one JSON object.") var json = false
        @Option(help: "Chart of samples against the fitted curve (one panel per gesture for wheel): an image path (.png) or a folder.") var plot: String?

        func validate() throws {
            guard format == .positions || (columns.time == nil && columns.value == nil) else {
                throw ValidationError("--time-column and --value-column apply to --format positions (wheel files have trace_id, t_seconds, dx, dy)")
            }
            if plot == "" { throw ValidationError("--plot must not be empty") }
        }

        func run() throws {
            try reportingErrors {
                switch format {
                case .positions:
                    let fitted = try Fitting.deceleration(path: file, timeColumn: columns.time ?? "t", valueColumn: columns.value ?? "x")
                    try FitCommand.show(text: fitted.text, json: { try JSONCoding.encode(fitted.report) }, asJSON: json)
                    try FitCommand.chart(plot: plot, asJSON: json, draw: fitted.draw)
                case .wheel:
                    let fitted = try Fitting.wheel(path: file)
                    try FitCommand.show(text: fitted.text, json: { try JSONCoding.encode(fitted.report) }, asJSON: json)
                    try FitCommand.chart(plot: plot, asJSON: json, draw: fitted.draw)
                }
            }
        }
    }
}
