import ArgumentParser
import Foundation
import SpringCore
import SpringLayout
import SpringTune
import TraceIO

struct PickCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pick",
        abstract: "Rank a report's parameter sets by the objective its sweep recorded (or one the flags state), optionally reduce to a Pareto front.",
        discussion: "Example: springtune pick out/tweetbot/report.csv --where 'false_dismiss_rate<=0.05' --maximize dismiss_accuracy --pareto false_dismiss_rate,missed_dismiss_rate")
    @Argument(help: "Report CSV.") var report: String
    @OptionGroup var objectiveOptions: ObjectiveOptions
    @Option(help: "Comma-separated columns: keep only the non-dominated sets (higher is better where the metric says so, e.g. accuracies; lower otherwise).") var pareto: String?
    @Option(help: "Rows to print (table format).") var top: Int = 10
    @Option(help: "table, or csv: the kept rows with the report's columns, best first.") var format: OutputFormat = .table

    func validate() throws {
        guard top >= 1 else { throw ValidationError("--top must be >= 1") }
    }

    func run() throws {
        try reportingErrors {
            let table = try SweepReport.read(report)
            let ranking = try Ranking(objective: try objectiveOptions.objective(for: table))
            var entries = try ranking.ranked(table)
            if let pareto {
                let columns = pareto.split(separator: ",").map(String.init)
                let front = try Ranking.paretoFront(table, rows: entries.map(\.row), columns: columns,
                                                    maximize: Set(columns.filter { Comparison.better($0) == .higher }))
                let keep = Set(front)
                entries = entries.filter { keep.contains($0.row) }
            }
            let rows = entries.map(\.row)
            switch format {
            case .csv:
                print(table.csv(rows: rows), terminator: "")
            case .table:
                print("\(rows.count) of \(table.rows.count) parameter sets kept (\(ranking.summary)\(pareto.map { "; Pareto front on \($0)" } ?? ""))")
                ranking.note(entries).map { print($0) }
                print(BestTable(ranking: ranking, table: table, entries: Array(entries.prefix(top)),
                                extra: pareto?.split(separator: ",").map(String.init) ?? []).rendered, terminator: "")
                // The intervals the sweep wrote beside the report, for the sets shown (Reference §14).
                let path = SetIntervals.path(besideReport: report)
                var lines: [String] = []
                for entry in entries.prefix(top) {
                    guard let found = try SetIntervals.read(path, configId: entry.row.configId) else { continue }
                    let shown = ranking.keyColumns.compactMap { c in found[c].map { i in
                        let value = try? table.index(of: c)
                        return "\(c) \(value.map { table.shortText(entry.row, $0) } ?? "") [\(i.lo.value.map(NumberFormat.short) ?? "empty"), \(i.hi.value.map(NumberFormat.short) ?? "empty")] (n \(i.traces), \(i.groups) groups)"
                    } }
                    lines.append("  config \(entry.row.configId): " + shown.joined(separator: "; "))
                }
                if !lines.isEmpty { print("95 % intervals (\(path)):"); lines.forEach { print($0) } }
            }
        }
    }
}
