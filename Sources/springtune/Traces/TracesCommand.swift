import ArgumentParser
import Foundation
import SpringCore
import SpringLayout
import SpringTune
import ToolRuntime
import TraceIO

struct TracesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "traces",
        abstract: "Validate, summarise, import and synthesize touch traces.",
        subcommands: [Validate.self, Stats.self, Import.self, Synthesize.self, Filter.self, Label.self]
    )
}

enum OutputFormat: String, ExpressibleByArgument, CaseIterable { case table, csv }

extension VelocityEstimator: ExpressibleByArgument {}
extension TraceImporter.Format: ExpressibleByArgument {}
extension ContactGrouping: ExpressibleByArgument {}
extension TimeUnit: ExpressibleByArgument {}
extension Synthesizer.Kind: ExpressibleByArgument {}
extension TraceIntent: ExpressibleByArgument {}

/// Reads trace files strictly (ids must be unique across them); true when any is synthetic.
func readTraces(_ files: [String]) throws -> (traces: [Trace], synthetic: Bool) {
    var traces: [Trace] = [], synthetic = false, seen = Set<String>()
    for file in files {
        let (read, report) = try TraceReader().read(path: file)
        describe(report, file: file)
        synthetic = synthetic || report.synthetic
        for t in read where !seen.insert(t.id).inserted {
            throw ToolError(.dataError, "\(file): trace id '\(t.id.prefix(80))' occurs in more than one input")
        }
        traces += read
    }
    return (traces, synthetic)
}

/// Writes `traces` to `output` with the inputs' import sidecars carried on to its own, `step`
/// appended (``ImportMeta/carried(by:)``); a sidecar left from an earlier `output` is removed
/// when no input has one.
func write(_ traces: [Trace], synthetic: Bool, to output: String, step: TraceStep) throws {
    try TraceWriter.write(traces, synthetic: synthetic, to: output)
    let sidecar = ImportMeta.path(for: output)
    if let meta = ImportMeta.carried(by: step) {
        try AtomicFile.write(try JSONCoding.encode(meta), to: sidecar)
    } else if FileManager.default.fileExists(atPath: sidecar) {
        try FileManager.default.removeItem(atPath: sidecar)
    }
}

/// Prints the units warning of `check` (``UnitsCheck``), fed the traces of `file`, if it has one.
func noteUnits(_ check: UnitsCheck, file: String) {
    if let warning = check.warning(file: file) { note("springtune: \(warning)") }
}

/// Prints to stderr what a reader noticed besides the traces.
func describe(_ report: TraceFileReport, file: String) {
    if !report.unknownColumns.isEmpty {
        note("\(file): ignoring \(report.unknownColumns.count) unknown column\(report.unknownColumns.count == 1 ? "" : "s"): \(Echo.list(report.unknownColumns).joined(separator: ", "))")
    }
    if !report.skipped.isEmpty {
        note("\(file): skipped \(report.skipped.count) invalid traces:")
        for line in Echo.list(report.skipped.map { "\($0.trace.prefix(Echo.limit)): \($0.reason)" }) { note("  " + line) }
    }
}

extension TraceFilter.Direction: ExpressibleByArgument {}
