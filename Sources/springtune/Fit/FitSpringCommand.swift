import ArgumentParser
import SpringTune
import TraceIO

extension FitCommand {
    struct Spring: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Fit a damped spring (f, ζ, target, initial state) to sampled positions and print every spring form.",
            discussion: """
            FILE is a CSV with a header; times need not be evenly spaced but must increase. \
            Example: springtune fit spring drag.csv --value-column y --preset-out my.json --preset appstore
            """)
        @Argument(help: "CSV of samples.") var file: String
        @OptionGroup var columns: Columns
        @Option(help: "The target position, when known (default: fitted).", transform: decimal) var target: Double?
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
}
