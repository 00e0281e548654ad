import ArgumentParser
import SpringTune
import ToolRuntime
import TraceIO

struct MetricsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "metrics",
        abstract: "Every metric a model reports: unit, which side is better, definition.",
        discussion: "Per-trace metrics appear in report.csv as _mean, _p95 and _max; unsettled and the decision rates are per parameter set.")
    @Option(help: "Only this model (\(ModelKind.names.joined(separator: ", "))).") var model: String?
    @Option(help: "table, or csv with columns model,metric,unit,better,definition.") var format: OutputFormat = .table

    func run() throws {
        try reportingErrors {
            let kinds = ModelKind.all.filter { model == nil || $0.name == model }
            guard !kinds.isEmpty else {
                throw ToolError(.usage, "unknown model '\(model ?? "")' (known: \(ModelKind.names.joined(separator: ", ")))")
            }
            let rows = kinds.flatMap { kind in
                (kind.metrics + kind.setMetrics).map { [kind.name, $0.name, $0.unit, $0.better.rawValue, $0.definition] }
            }
            let header = ["model", "metric", "unit", "better", "definition"]
            switch format {
            case .csv:
                var w = CSVWriter()
                w.header(header)
                rows.forEach { w.row($0.map(CSVField.text)) }
                print(w.text, terminator: "")
            case .table:
                print(TextTable(header: header, rows: rows).rendered, terminator: "")
            }
        }
    }
}
