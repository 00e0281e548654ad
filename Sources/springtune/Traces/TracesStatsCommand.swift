import ArgumentParser
import Foundation
import SpringCore
import SpringTune
import ToolRuntime
import TraceIO

extension TracesCommand {
    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Per-trace duration, displacement and release velocity.")
        @Argument(help: "Trace CSV files.") var files: [String]
        @Option(help: "Velocity estimator: \(VelocityEstimator.allCases.map(\.rawValue).joined(separator: ", ")).")
        var estimator: VelocityEstimator = .lsq2
        @Option(help: "Output format: table or csv.") var format: OutputFormat = .table
        @Flag(name: .customLong("skip-invalid"), help: "Drop bad traces instead of failing, and say why.") var skipInvalid = false

        func run() throws {
            try reportingErrors {
                var rows: [TraceStats] = []
                for file in files {
                    let report = try TraceReader(skipInvalid: skipInvalid).forEachTrace(path: file) { trace in
                        rows.append(TraceStats(file: file, trace: trace, estimator: estimator))
                    }
                    describe(report, file: file)
                }
                switch format {
                case .csv:
                    var w = CSVWriter()
                    w.header(TraceStats.columns)
                    rows.forEach { w.row($0.csvFields) }
                    print(w.text, terminator: "")
                case .table:
                    print(TextTable(header: TraceStats.columns.filter { $0 != "file" }, rows: rows.map { r in
                        [r.trace, r.intent?.rawValue ?? "", Echo.cut(r.group), String(r.samples), String(r.pointers), NumberFormat.fixed(r.duration, 3), NumberFormat.fixed(r.dx, 1), NumberFormat.fixed(r.dy, 1),
                         NumberFormat.fixed(r.peakSpeed, 0), NumberFormat.fixed(r.release.x, 1), NumberFormat.fixed(r.release.y, 1)]
                    }).rendered, terminator: "")
                    let speeds = rows.map(\.release.magnitude).sorted()
                    if let median = speeds.isEmpty ? nil : speeds[speeds.count / 2] {
                        print("\(rows.count) traces, estimator \(estimator.rawValue), median release speed \(NumberFormat.fixed(median, 0)) pt/s")
                    }
                    if !rows.isEmpty { print(TraceGroups(rows.map(\.group)).line()) }
                }
            }
        }
    }
}
