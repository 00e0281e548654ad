import ArgumentParser
import Foundation
import SpringTune
import ToolRuntime
import TraceIO

struct ImportanceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "importance",
        abstract: "Which swept axis matters: each axis's share of the variance of the objective and the metric columns (main effects).",
        discussion: """
        The axes and the objective come from the report's report.meta.json (exit 66 without it). Each share is the \
        variance of the column's means over one axis's values divided by the column's variance; interactions = 1 − their sum. \
        Example: springtune importance out/evernote/report.csv --metric peak_stretch_pt_p95
        """)
    @Argument(help: "Report CSV, with its report.meta.json beside it.") var report: String
    @Option(name: .customLong("metric"), help: ArgumentHelp("A metric column to decompose after the objective (repeat, or comma-separate; default: every metric column some set defines).", valueName: "column"))
    var metrics: [String] = []
    @Option(help: "table, or csv: column, a share per axis, interactions, sets, note.") var format: OutputFormat = .table

    func run() throws {
        try reportingErrors {
            let sidecar = ReportMeta.path(forReport: report)
            guard FileManager.default.fileExists(atPath: sidecar) else {
                throw ToolError(.noInput, FileManager.default.fileExists(atPath: report)
                    ? "\(sidecar): missing; importance takes the swept axes and the objective from the report's sidecar (sweep and merge write it)"
                    : "\(report): no such file")
            }
            let table = try SweepReport.read(report, sidecar: .required)
            let objective = try Ranking(objective: table.meta!.preset.objective).column
            let asked = metrics.flatMap { $0.split(separator: ",").map(String.init) }
            var seen = Set<String>()
            var names = ([objective] + (asked.isEmpty ? table.metricColumns : asked)).filter { seen.insert($0).inserted }
            if asked.isEmpty {
                // Columns no set defines (e.g. another label pair's rates) say nothing: left out, and said so.
                let undefined = names.filter { name in
                    guard case let .metric(i)? = table.column(name) else { return false }
                    return name != objective && table.rows.allSatisfy { $0.values[i] == .undefined }
                }
                if !undefined.isEmpty { note("springtune: left out \(undefined.count) columns no set defines: \(undefined.joined(separator: ", "))") }
                names.removeAll { undefined.contains($0) }
            }
            let shares = try Importance(table, columns: names, objective: objective)
            switch format {
            case .csv:
                print(shares.csv, terminator: "")
            case .table:
                print(shares.summary)
                print(TextTable(header: shares.header, rows: shares.columns.map(shares.cells)).rendered, terminator: "")
                for axis in shares.fixedAxes { print("\(axis) takes one value in the report: no share") }
            }
        }
    }
}
