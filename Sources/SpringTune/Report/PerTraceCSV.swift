import SpringLayout
import TraceIO

/// `per-trace.csv` (Reference §9.3): one row per parameter set and trace, written from the
/// runner's per-trace results as they come (the file can be far larger than the report, so
/// it is never held or read back as a whole).
public enum PerTraceCSV {
    /// `config_id`, the swept parameters, `trace`, `intent`, [`decision`], the per-trace metrics
    /// by their names and `unsettled` (0 or 1).
    public static func header(traces: [TraceSource.Tag], kind: ModelKind, axes: [SweepAxis]) -> String {
        var w = CSVWriter()
        w.header(["config_id"] + axes.map(\.name) + ["trace", "intent"] + (kind.decisionLabels.isEmpty ? [] : ["decision"])
                 + kind.metrics.map(\.name) + ["unsettled"])
        return w.text
    }

    /// The rows of `results` that kept their traces' runs, without a header: metric values as
    /// ``MetricValue/perTraceField`` (undefined and never settled both empty).
    public static func rows(_ results: [SweepRunner.ConfigResult], traces: [TraceSource.Tag], kind: ModelKind) -> String {
        var w = CSVWriter()
        let decides = !kind.decisionLabels.isEmpty
        for r in results {
            guard let runs = r.traces else { continue }
            for (i, trace) in traces.enumerated() {
                var fields: [CSVField] = [.integer(r.id)] + r.swept.map(CSVField.init)
                fields += [.text(trace.id), .text(trace.intent?.rawValue ?? "")]
                if decides { fields.append(.text(runs.decisions[i]?.rawValue ?? "")) }
                fields += kind.metrics.indices.map { MetricValue(measured: runs.value(trace: i, metric: $0)).perTraceField }
                fields.append(.integer(runs.unsettled[i] ? 1 : 0))
                w.row(fields)
            }
        }
        return w.text
    }
}
