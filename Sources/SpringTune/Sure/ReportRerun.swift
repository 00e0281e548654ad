import Foundation
import SpringCore
import SpringLayout
import ToolRuntime
import TraceIO

/// A report's sets run again trace by trace from its sidecar (Reference §14): the preset's
/// model, the recorded scene, each row's values, and the trace files it ran, refused when one
/// is missing or no longer the file the report recorded (its SHA-256). `merge` (a grid's best
/// sets) and the gate (`compare`) measure through it.
public struct ReportRerun: Sendable {
    public let report: SweepReport
    public let kind: ModelKind
    public let traces: TraceSource
    public let threads: Int

    public init(_ report: SweepReport, threads: Int) throws {
        guard let meta = report.meta else { throw ToolError(.noInput, "\(report.path): no report.meta.json beside it to run its traces again") }
        kind = try ModelKind(name: meta.preset.model)
        for f in meta.traces {
            guard try SHA256.file(f.file) == f.sha256 else { throw ToolError(.dataError, "\(f.file) is no longer the file \(report.path) ran (its SHA-256 differs)") }
        }
        traces = try TraceSource(files: meta.traces.map(\.file), kind: kind, skipInvalid: meta.traces.contains { $0.skipped != nil }, scene: meta.scene)
        self.report = report
        self.threads = threads
    }

    /// `row`'s set measured trace by trace.
    public func measure(_ row: SweepReport.Row) throws -> MeasuredSet {
        try MeasuredSet.measure(kind: kind, scene: report.meta!.scene, values: report.values(of: row), traces: traces, threads: threads, configId: row.configId)
    }
}
