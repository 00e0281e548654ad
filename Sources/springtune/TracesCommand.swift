import ArgumentParser
import Foundation
import SpringCore
import SpringTune
import TraceIO

struct TracesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "traces",
        abstract: "Validate, summarise, import and synthesize touch traces.",
        subcommands: [Validate.self, Stats.self, Import.self, Synthesize.self, Filter.self, Label.self]
    )

    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Check trace files against the format (Reference §3).")
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
        @Option(help: "Source units per point (e.g. 3 for a 3× phone's pixels).") var scale: Double?
        @Option(name: .customLong("units-per-mm"), help: "Device resolution in units per mm (evemu device lists); 1 pt = 25.4/163 mm.")
        var unitsPerMM: Double?
        @Option(help: "WxH: map the device's declared axis ranges onto a screen of W×H points (evemu header or --device-info).")
        var screen: String?
        @Option(name: .customLong("device-info"), help: "A `getevent -lp` dump (or evemu header) declaring the device's axis ranges, for --screen.")
        var deviceInfo: String?
        @Option(help: "Clockwise rotation in degrees (0, 90, 180, 270), for landscape devices.") var rotate: Int = 0
        @Option(name: [.short, .customLong("output")], help: "Output trace CSV (its sidecar OUT.csv.meta.json is written beside it).") var output: String
        @Option(help: "contacts: one trace per finger contact; gestures: contacts that overlap in time become one multi-pointer trace.")
        var group: ContactGrouping = .contacts

        func validate() throws {
            guard [scale != nil, unitsPerMM != nil, screen != nil].filter({ $0 }).count == 1 else {
                throw ValidationError("give exactly one of --scale, --units-per-mm and --screen")
            }
        }

        func mapping() throws -> ImportMapping {
            let units: ImportUnits
            if let scale { units = .scale(scale) } else if let unitsPerMM { units = .unitsPerMM(unitsPerMM) } else {
                let parts = screen!.lowercased().split(separator: "x").map { Double($0) }
                guard parts.count == 2, let w = parts[0], let h = parts[1] else { throw ToolError(.usage, "--screen expects WxH in points, e.g. 390x844") }
                units = .screen(width: w, height: h)
            }
            var ranges: AxisRanges?
            if let deviceInfo {
                var reader = AxisRanges.Reader()
                try LineReader.forEachLine(path: deviceInfo) { line, _ in reader.consume(line) }
                guard let r = reader.ranges else {
                    throw ToolError(.dataError, "\(deviceInfo): no x and y axis ranges (expected getevent -lp lines 'ABS_MT_POSITION_X : value 0, min 0, max 1279' or evemu 'A: 35 0 1279 0 0 0')")
                }
                ranges = r
            }
            return ImportMapping(units: units, rotation: rotate, ranges: ranges)
        }

        func run() throws {
            try reportingErrors {
                let mapping = try mapping()
                var traces: [Trace] = [], sources: [TraceImporter.Summary] = []
                for file in files {
                    let (imported, summary, report) = try TraceImporter.importFile(file, format: format, mapping: mapping, grouping: group)
                    describe(report, file: file)
                    if summary.closedCancelled > 0 { note("\(file): \(summary.closedCancelled) contacts never lifted; they end cancelled at their last sample") }
                    traces += imported
                    sources.append(summary)
                }
                var seen = Set<String>()
                for t in traces where !seen.insert(t.id).inserted {
                    throw ToolError(.dataError, "trace id '\(t.id)' occurs in more than one input; import them separately")
                }
                let meta = ImportMeta(mapping: mapping, deviceInfo: deviceInfo, grouping: group, sources: sources)
                try TraceWriter.write(traces, to: output)
                try AtomicFile.write(try JSONCoding.encode(meta), to: ImportMeta.path(for: output))
                let multi = traces.filter(\.isMultiPointer).count
                print("\(output): \(traces.count) traces\(multi > 0 ? " (\(multi) with several pointers)" : "") (\(mapping.units.description)\(rotate != 0 ? ", rotated \(rotate)°" : ""))")
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
                try TraceWriter.write(traces, synthetic: true, to: url.path)
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

extension TracesCommand {
    struct Filter: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Keep the traces whose shape matches (first pointer: net displacement, duration, release speed).")
        @Argument(help: "Trace CSV files.") var files: [String]
        @Option(help: "vertical, horizontal, up, down, left or right (by the net displacement).") var direction: TraceFilter.Direction?
        @Option(name: .customLong("min-travel"), help: "Least net displacement (pt).") var minTravel: Double?
        @Option(name: .customLong("min-duration"), help: "Least duration, touch-down to lift-off (s).") var minDuration: Double?
        @Option(name: .customLong("max-duration"), help: "Largest duration (s).") var maxDuration: Double?
        @Option(name: .customLong("min-release-speed"), help: "Least release speed (pt/s).") var minReleaseSpeed: Double?
        @Option(help: "Velocity estimator for the release speed.") var estimator: VelocityEstimator = .lsq2
        @Option(name: [.short, .customLong("output")], help: "Output trace CSV.") var output: String

        func validate() throws {
            for (name, v) in [("--min-travel", minTravel), ("--min-duration", minDuration), ("--max-duration", maxDuration), ("--min-release-speed", minReleaseSpeed)] {
                if let v, !(v.isFinite && v >= 0) { throw ValidationError("\(name) must be a finite number >= 0") }
            }
        }

        func run() throws {
            try reportingErrors {
                let (traces, synthetic) = try readTraces(files)
                var filter = TraceFilter()
                filter.direction = direction; filter.minTravel = minTravel; filter.minDuration = minDuration
                filter.maxDuration = maxDuration; filter.minReleaseSpeed = minReleaseSpeed; filter.estimator = estimator
                let kept = traces.filter(filter.keeps)
                try TraceWriter.write(kept, synthetic: synthetic, to: output)
                print("\(output): kept \(kept.count) of \(traces.count) traces")
            }
        }
    }

    struct Label: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set intents: every trace (--intent), those a trace,intent file names (--labels), or those meeting a condition (--where … --intent …).",
            discussion: "Rules apply in order, a later one overriding: --labels first, then each --where with the --intent at the same position. Columns for --where: \(TraceLabeler.columns.joined(separator: ", ")).")
        @Argument(help: "Trace CSV files.") var files: [String]
        @Option(help: "Intent (dismiss, keep, create, cancel); alone: for every trace; with --where: for the traces meeting it.")
        var intent: [TraceIntent] = []
        @Option(help: "A CSV with trace and intent columns.") var labels: String?
        @Option(name: .customLong("where"), help: "Condition such as 'release_speed>=1000', paired with the --intent at the same position.")
        var conditions: [String] = []
        @Option(help: "Velocity estimator for release_* columns.") var estimator: VelocityEstimator = .lsq2
        @Option(name: [.short, .customLong("output")], help: "Output trace CSV.") var output: String

        func validate() throws {
            guard labels != nil || !intent.isEmpty else { throw ValidationError("give --intent, --labels, or --where with --intent") }
            guard conditions.isEmpty ? intent.count <= 1 : conditions.count == intent.count else {
                throw ValidationError("give one --intent per --where (or one --intent alone for every trace)")
            }
        }

        func run() throws {
            try reportingErrors {
                let (traces, synthetic) = try readTraces(files)
                var rules: [TraceLabeler.Rule] = []
                if let labels { rules.append(.named(try TraceLabeler.labels(path: labels))) }
                if conditions.isEmpty, let intent = intent.first { rules.append(.all(intent)) }
                for (text, intent) in zip(conditions, intent) { rules.append(.condition(try Constraint(parsing: text), intent)) }
                var labeler = TraceLabeler(rules: rules)
                labeler.estimator = estimator
                try labeler.validate(traceIDs: Set(traces.map(\.id)))
                let (out, labelled) = labeler.apply(traces)
                try TraceWriter.write(out, synthetic: synthetic, to: output)
                print("\(output): labelled \(labelled) of \(traces.count) traces")
            }
        }
    }
}

extension TraceFilter.Direction: ExpressibleByArgument {}
