import ArgumentParser
import Foundation
import SpringCore
import SpringTune
import TraceIO

struct TracesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "traces",
        abstract: "Validate, summarise, import and synthesize touch traces.",
        subcommands: [Validate.self, Stats.self, Import.self, Synthesize.self]
    )

    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Check trace files against the format (SPEC §3).")
        @Argument(help: "Trace CSV files.") var files: [String]
        @Flag(name: .customLong("skip-invalid"), help: "Drop bad traces instead of failing, and say why.") var skipInvalid = false

        func run() throws {
            try reportingErrors {
                for file in files {
                    let report = try TraceReader(skipInvalid: skipInvalid).forEachTrace(path: file) { _ in }
                    describe(report, file: file)
                    print("\(file): \(report.traces) traces valid" + (report.skipped.isEmpty ? "" : ", \(report.skipped.count) skipped"))
                }
            }
        }
    }

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
                        [r.trace, r.intent?.rawValue ?? "", String(r.samples), String(r.pointers), fixed(r.duration, 3), fixed(r.dx, 1), fixed(r.dy, 1),
                         fixed(r.peakSpeed, 0), fixed(r.release.x, 1), fixed(r.release.y, 1)]
                    }).rendered, terminator: "")
                    let speeds = rows.map(\.release.magnitude).sorted()
                    if let median = speeds.isEmpty ? nil : speeds[speeds.count / 2] {
                        print("\(rows.count) traces, estimator \(estimator.rawValue), median release speed \(fixed(median, 0)) pt/s")
                    }
                }
            }
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Convert real recordings (getevent -lt, evemu, shared-data CSV) into trace CSV.")
        @Option(help: "Input format: getevent, evemu or csv.") var format: TraceImporter.Format
        @Argument(help: "Recordings to import.") var files: [String]
        @Option(help: "Source units per point (e.g. 3 for a 3× phone's pixels).") var scale: Double
        @Option(name: [.short, .customLong("output")], help: "Output trace CSV.") var output: String
        @Option(help: "contacts: one trace per finger contact; gestures: contacts that overlap in time become one multi-pointer trace.")
        var group: ContactGrouping = .contacts

        func run() throws {
            try reportingErrors {
                var traces: [Trace] = []
                for file in files {
                    let (imported, report) = try TraceImporter.importFile(file, format: format, scale: scale, grouping: group)
                    describe(report, file: file)
                    traces += imported
                }
                var seen = Set<String>()
                for t in traces where !seen.insert(t.id).inserted {
                    throw ToolError(.dataError, "trace id '\(t.id)' occurs in more than one input; import them separately")
                }
                try AtomicFile.write(TraceWriter.csv(traces), to: output)
                let multi = traces.filter(\.isMultiPointer).count
                print("\(output): \(traces.count) traces\(multi > 0 ? " (\(multi) with several pointers)" : "") (scale \(formatNumber(scale)) units per pt)")
            }
        }
    }

    struct Synthesize: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Labelled synthetic traces from a minimum-jerk motion model with sensor noise (see README).")
        @Option(help: "flick (throws, dismiss), drag (slow drags ending at rest, keep), pull (downward pulls, create/cancel), pinch-open (create/cancel) or pinch-close (dismiss/keep), two pointers.")
        var kind: Synthesizer.Kind
        @Option(help: "Number of traces.") var count: Int
        @Option(help: "Random seed (same seed, same bytes).") var seed: UInt64
        @Option(help: "Label every trace with this intent instead of the kind's rule.") var intent: TraceIntent?
        @Option(name: [.short, .customLong("output")], help: "Output CSV; '.synthetic' is inserted before the extension when the name lacks 'synthetic'.") var output: String

        func validate() throws {
            guard count >= 1 else { throw ValidationError("--count must be >= 1") }
        }

        func run() throws {
            try reportingErrors {
                var url = URL(fileURLWithPath: output)
                if !url.lastPathComponent.contains("synthetic") {
                    let ext = url.pathExtension.isEmpty ? "csv" : url.pathExtension
                    url = url.deletingPathExtension().appendingPathExtension("synthetic").appendingPathExtension(ext)
                }
                let traces = Synthesizer(kind: kind, seed: seed, intent: intent).traces(count: count)
                try AtomicFile.write(TraceWriter.csv(traces, synthetic: true), to: url.path)
                print("\(url.path): \(traces.count) synthetic \(kind.rawValue) traces (seed \(seed))")
            }
        }
    }
}

enum OutputFormat: String, ExpressibleByArgument, CaseIterable { case table, csv }

extension VelocityEstimator: ExpressibleByArgument {}
extension TraceImporter.Format: ExpressibleByArgument {}
extension ContactGrouping: ExpressibleByArgument {}
extension Synthesizer.Kind: ExpressibleByArgument {}
extension TraceIntent: ExpressibleByArgument {}

/// Prints to stderr what a reader noticed besides the traces.
func describe(_ report: TraceFileReport, file: String) {
    if !report.unknownColumns.isEmpty {
        note("\(file): ignoring unknown columns: \(report.unknownColumns.joined(separator: ", "))")
    }
    if !report.skipped.isEmpty {
        note("\(file): skipped \(report.skipped.count) invalid traces:")
        for s in report.skipped { note("  \(s.trace): \(s.reason)") }
    }
}

func fixed(_ d: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", d) }
