import ArgumentParser
import SpringTune
import TraceIO

extension FitCommand {
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
