import ArgumentParser
import Foundation
import SpringLayout
import SpringTune
import TraceIO

struct PresetsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "presets", abstract: "List and show the bundled presets.",
                                                    subcommands: [List.self, Show.self])

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Bundled presets with their model.")
        func run() throws {
            try reportingErrors {
                let store = PresetStore()
                let rows = try store.names().map { name -> [String] in
                    let l = try store.load(name)
                    return [name, l.preset.model, "\(SweepGrid.size(l.preset.sweep).map(String.init) ?? "too many") sets", String(l.preset.description.prefix(70))]
                }
                print(TextTable(header: ["preset", "model", "grid", "description"], rows: rows).rendered, terminator: "")
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "A preset's parameters with units, axes and objective.")
        @Argument(help: "Preset name or file.") var name: String
        func run() throws {
            try reportingErrors {
                let l = try PresetStore().load(name)
                print("\(l.preset.name) (\(l.preset.model)) — \(l.path)\n\(l.preset.description)\n")
                let values = l.kind.values(of: l.preset)
                print(TextTable(header: ["parameter", "value", "unit", "meaning"], rows: l.kind.parameters.map { spec in
                    [spec.name, (values[spec.name] ?? spec.defaultValue).description, spec.unit, spec.summary]
                }).rendered)
                for axis in l.preset.sweep {
                    print("sweep \(axis.name): \(axis.values.map { $0.number.map { String(format: "%.4g", $0) } ?? $0.description }.joined(separator: ", "))")
                }
                let ranking = try Ranking(objective: l.preset.objective)
                print("objective: \(ranking.summary)")
                print("traces: \(PresetStore.traceFiles(for: l).joined(separator: ", "))")
            }
        }
    }
}

struct PlotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "plot", abstract: "Chart one report column against a parameter (PNG + SVG + .gp).")
    @Argument(help: "Report CSV.") var report: String
    @Option(help: "Parameter column for the x axis.") var x: String
    @Option(help: "Report column for the y axis.") var y: String
    @Option(help: "Parameter column drawn as one line per value.") var by: String?
    @Option(help: "Output image (.png or .svg; both are written, with the .gp script beside them).") var out: String?

    func run() throws {
        try reportingErrors {
            let table = try ReportTable(path: report)
            let series = try ReportCharts.series(table, x: x, y: y, by: by)
            guard !series.isEmpty else { throw ToolError(.dataError, "\(report): no row has finite numbers in both \(x) and \(y)") }
            // The file name comes from column names (untrusted): made safe, so it stays in the folder.
            let target = URL(fileURLWithPath: out ?? URL(fileURLWithPath: report).deletingLastPathComponent()
                .appendingPathComponent(safeFileName("plot-\(y)-vs-\(x)\(by.map { "-by-\($0)" } ?? "")") + ".png").path)
            let chart = Chart(name: target.deletingPathExtension().lastPathComponent, title: "\(y) vs \(x)",
                              panels: [.lines(title: y, x: x, y: y, series: series, logX: false)])
            let images = try Gnuplot.draw([chart], in: target.deletingLastPathComponent().path)
            images.forEach { print($0) }
        }
    }
}

struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "replay", abstract: "One trace, one parameter set: timeline CSV, summary JSON and a chart.")
    @OptionGroup var presetOptions: PresetOptions
    @Option(help: "Trace id.") var trace: String
    @Option(help: "Output folder.") var out: String
    @Flag(help: "Also write replay.gif (the run as the phone shows it) and replay-filmstrip.png.") var animate = false
    @Option(help: "Animation frames per second (1-60).") var fps: Double = 30
    @Option(help: "Animation speed: 1 real time, 0.5 half speed (0.05-10).") var speed: Double = 1
    @Option(name: .customLong("vs"), help: "NAME=VALUE: a second parameter set drawn beside the first in the animation (repeat for more changes).")
    var vs: [String] = []

    func validate() throws {
        guard fps.isFinite, (1...60).contains(fps) else { throw ValidationError("--fps must be from 1 to 60") }
        guard speed.isFinite, (0.05...10).contains(speed) else { throw ValidationError("--speed must be from 0.05 to 10") }
        guard vs.isEmpty || animate else { throw ValidationError("--vs draws a second panel: give --animate too") }
    }

    func run() throws {
        try reportingErrors {
            let loaded = try presetOptions.load()
            let files = presetOptions.traces.isEmpty ? PresetStore.traceFiles(for: loaded) : presetOptions.traces
            var found: Trace?
            for file in files where found == nil {
                try TraceReader().forEachTrace(path: file) { t in if t.id == trace && found == nil { found = t } }
            }
            guard let found else { throw ToolError(.usage, "no trace '\(trace)' in \(files.joined(separator: ", "))") }
            let sets = try presetOptions.parsedSets()
            let outcome = try Replay.run(loaded, set: sets, trace: found)
            var summary = outcome.summary
            var figures: [any GnuplotFigure] = [outcome.chart]
            if animate {
                var runs = [outcome]
                var changed: [String] = []
                if !vs.isEmpty {
                    var other = sets
                    for text in vs {
                        let (k, v) = try SweepGrid.parseSet(text)
                        other[k] = v
                        changed.append(k)
                    }
                    runs.append(try Replay.run(loaded, set: other, trace: found))
                }
                let animation = Replay.animation(runs, kind: loaded.kind, labelled: changed, fps: fps, speed: speed)
                if case var .object(fields) = summary {
                    fields.append(("duration", .number(Double(animation.frameCount - 1) * speed / fps)))
                    fields.append(("frames", .number(Double(animation.frameCount))))
                    summary = .object(fields)
                }
                figures.append(animation)
            }
            try AtomicFile.write(outcome.timeline, to: "\(out)/timeline.csv")
            try AtomicFile.write(summary.rendered(), to: "\(out)/summary.json")
            print("\(out)/timeline.csv (\(outcome.run.timeline.count) rows)\n\(out)/summary.json")
            do {
                try Gnuplot.draw(figures, in: out).forEach { print($0) }
            } catch let error as ToolError where error.code == .unavailable {
                note("springtune: \(error.message)")
            }
            print(summary.rendered(), terminator: "")
        }
    }
}

struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare", abstract: "Compare two reports parameter set by parameter set; the gate concerns the objective.",
        discussion: """
        The objective is A's (from its report.meta.json) unless --minimize/--maximize give one. \
        --fail-on-regression exits 1 when the set A's objective chooses got worse in B, a constraint it met fails in B, \
        or B's best is worse than A's best; other worse sets are reported only.
        """)
    @Argument(help: "Baseline report (A).") var a: String
    @Argument(help: "Candidate report (B).") var b: String
    @Option(help: "Comma-separated metric columns to tabulate (default: every metric in both).") var metrics: String?
    @Option(help: "Relative tolerance before a change counts.") var tolerance: Double = 0.01
    @Option(help: "Objective column to minimise (instead of A's objective).") var minimize: String?
    @Option(help: "Objective column to maximise (instead of A's objective).") var maximize: String?
    @Option(name: .customLong("where"), help: "Objective constraint COLUMN<=VALUE with --minimize/--maximize; repeat for more.") var constraints: [String] = []
    @Flag(name: .customLong("fail-on-regression"), help: "Exit 1 when B regresses on the objective (see above).") var failOnRegression = false
    @Option(help: "Folder for compare.csv and overlay charts (default: beside B).") var out: String?
    @Option(help: "Trace id: also animate the best set of A beside the best set of B on it (compare.gif, compare-filmstrip.png).")
    var animate: String?

    func validate() throws {
        guard minimize == nil || maximize == nil else { throw ValidationError("give at most one of --minimize and --maximize") }
        guard tolerance.isFinite, tolerance >= 0, tolerance <= 100 else { throw ValidationError("--tolerance must be a finite number from 0 to 100") }
        guard constraints.isEmpty || minimize != nil || maximize != nil else { throw ValidationError("--where needs --minimize or --maximize") }
    }

    /// The objective: the command line's, else A's from its sidecar.
    func ranking() throws -> Ranking {
        if let column = maximize ?? minimize {
            return Ranking(constraints: try constraints.map(Constraint.init(parsing:)), column: column, maximize: maximize != nil)
        }
        guard FileManager.default.fileExists(atPath: ReportMeta.path(forReport: a)) else {
            throw ToolError(.usage, "\(a): no report.meta.json beside it to take the objective from; give --minimize or --maximize")
        }
        return try Ranking(objective: ReportMeta.read(forReport: a).preset.objective)
    }

    func run() throws {
        try reportingErrors {
            let ta = try ReportTable(path: a), tb = try ReportTable(path: b)
            let c = try Comparison(ta, tb, metrics: metrics.map { $0.split(separator: ",").map(String.init) }, tolerance: tolerance)
            let verdict = try ObjectiveVerdict(ta, tb, comparison: c, ranking: try ranking(), tolerance: tolerance)
            let dir = out ?? URL(fileURLWithPath: b).deletingLastPathComponent().appendingPathComponent("compare").path
            try AtomicFile.write(c.csv, to: "\(dir)/compare.csv")
            print("\(c.matched) parameter sets matched on \(c.parameters.joined(separator: ", "))")
            print(TextTable(header: ["metric", "pairs", "better", "worse", "same", "changed", "median delta"], rows: c.summaries.map {
                [$0.metric, String($0.pairs), String($0.better), String($0.worse), String($0.same), String($0.changed),
                 $0.medianDelta.map { String(format: "%.4g", $0) } ?? ""]
            }).rendered, terminator: "")
            let r = verdict.ranking, ci = try ta.index(of: r.column), cbi = try tb.index(of: r.column)
            print("objective: \(r.summary)")
            if let chosen = verdict.chosenA {
                let inB = verdict.chosenInB.map { shortNumber($0[cbi]) } ?? "not in B"
                print("chosen in A: config \(chosen[0]), \(r.column) \(shortNumber(chosen[ci])) → \(inB) in B")
            } else {
                print("chosen in A: none (no set of A meets the constraints)")
            }
            if let best = verdict.bestB { print("best in B: config \(best[0]), \(r.column) \(shortNumber(best[cbi]))") }
            for (ra, rb, delta) in verdict.worstSets {
                print("worse on \(r.column): config \(ra[0]) \(shortNumber(ra[ci])) → \(shortNumber(rb[cbi])) (\(String(format: "%+.4g", delta)))")
            }
            print(verdict.isRegression ? "verdict: REGRESSION: \(verdict.reasons.joined(separator: "; "))" : "verdict: no regression on the objective (tolerance \(tolerance))")
            print("compare: \(dir)/compare.csv")
            let numeric = try c.parameters.filter { p in let i = try ta.index(of: p); return ta.rows.allSatisfy { ta.number($0, i) != nil } }
            if let x = numeric.first {
                let charts = try c.metrics.filter { !$0.hasSuffix("_max") }.compactMap { m -> Chart? in
                    let series = try ReportCharts.series(ta, x: x, y: m, label: "A: \(a)") + ReportCharts.series(tb, x: x, y: m, label: "B: \(b)")
                    guard !series.isEmpty else { return nil }   // nothing defined to draw
                    return Chart(name: "compare-\(m)", title: "\(m): A vs B", panels: [.lines(title: m, x: ReportCharts.label(x), y: ReportCharts.label(m), series: series, logX: false)])
                }
                do { print("charts: \(try Gnuplot.draw(charts, in: dir).count) images in \(dir)") } catch let error as ToolError where error.code == .unavailable {
                    note("springtune: \(error.message)")
                }
            }
            if let animate {
                let runs = [try Replay.best(report: a, trace: animate), try Replay.best(report: b, trace: animate)]
                let kind = try ModelKind(name: try ReportMeta.read(forReport: a).preset.model)
                var animation = Replay.animation(runs, kind: kind, labelled: c.parameters, fps: 30, speed: 1, name: "compare")
                for i in animation.panels.indices { animation.panels[i].label = (i == 0 ? "A: " : "B: ") + animation.panels[i].label }
                do { try Gnuplot.draw([animation], in: dir).forEach { print($0) } } catch let error as ToolError where error.code == .unavailable {
                    note("springtune: \(error.message)")
                }
            }
            if failOnRegression && verdict.isRegression { throw ExitCode(1) }
        }
    }
}

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "export", abstract: "Write a report row as a preset JSON with provenance.")
    @Argument(help: "Report CSV (its report.meta.json must sit beside it).") var report: String
    @Option(help: "config_id to export.") var config: Int?
    @Flag(help: "Export the best set under the preset's objective.") var best = false
    @Option(name: [.short, .customLong("output")], help: "Preset file to write.") var output: String
    @Flag(name: .customLong("copy-traces"), help: "Copy the sweep's own trace files beside the export (OUT-traces/) and refer to the copies.")
    var copyTraces = false

    func validate() throws {
        guard (config != nil) != best else { throw ValidationError("give exactly one of --config ID and --best") }
    }

    func run() throws {
        try reportingErrors {
            var preset = try Export.preset(report: report, configId: config, destination: output)
            if copyTraces { try Export.copyTraces(&preset, destination: output) }
            try AtomicFile.write(try JSONCoding.encode(preset), to: output)
            print("\(output): config \(preset.provenance!.configId), frequency \(formatNumber(preset.spring.frequency)) Hz, damping \(formatNumber(preset.spring.damping))")
        }
    }
}

struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "merge", abstract: "Join shard reports (sweep --shard i/n) into one report.")
    @Argument(help: "Shard report CSVs.") var reports: [String]
    @Option(name: [.short, .customLong("output")], help: "Merged report CSV (its report.meta.json is written beside it).") var output: String
    @Flag(name: .customLong("allow-partial"), help: "Merge even when shards are missing (the merged meta lists the missing config ids).")
    var allowPartial = false
    @Flag(help: "Also draw the default sweep charts (without the page and animations) beside the merged report.")
    var charts = false

    func run() throws {
        try reportingErrors {
            var (csv, meta) = try Export.merge(reports, allowPartial: allowPartial)
            try AtomicFile.write(csv, to: output)
            try AtomicFile.write(try meta.encoded(), to: ReportMeta.path(forReport: output))
            var images: [String] = []
            if charts {
                let table = try ReportTable(path: output)
                let kind = try ModelKind(name: meta.preset.model)
                let figures = try ReportCharts.sweepDefaults(table, kind: kind, ranking: try? Ranking(objective: meta.preset.objective))
                do {
                    images = try Gnuplot.draw(figures, in: URL(fileURLWithPath: output).deletingLastPathComponent().path)
                    meta.charts = images.map { URL(fileURLWithPath: $0).lastPathComponent }
                    meta.chartsSkipped = nil
                } catch let error as ToolError where error.code == .unavailable {
                    meta.chartsSkipped = error.message
                    note("springtune: \(error.message)")
                }
                // The sidecar again, now listing the charts (or why there are none).
                try AtomicFile.write(try meta.encoded(), to: ReportMeta.path(forReport: output))
            }
            print(output + (meta.missing.map { " (partial: \($0.count) sets missing)" } ?? ""))
            if !images.isEmpty { print("charts: \(images.count) images in \(URL(fileURLWithPath: output).deletingLastPathComponent().path)") }
        }
    }
}

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Time three fixed workloads (the default evernote sweep with charts, a 10,000-set sweep, the default sweep on one thread); count instructions per item-step with callgrind; compare one core against the NumPy rewrite in bench/.",
        discussion: "Takes under a minute. Counting needs valgrind on PATH (else skipped); the NumPy comparison needs python3 with NumPy and bench/flow_layout_numpy.py (run from the repository, or pass --numpy).")
    @Option(help: "Worker threads (default: all cores).") var threads: Int = ProcessInfo.processInfo.activeProcessorCount
    @Option(help: "Repetitions per workload (the fastest counts).") var repetitions: Int = 3
    @Option(help: "The NumPy rewrite to compare against (default: bench/flow_layout_numpy.py, skipped when absent).") var numpy: String?
    @Flag(inversion: .prefixedNo, help: "Count instructions per item-step with callgrind when valgrind is present.") var callgrind = true

    func validate() throws {
        guard (1...256).contains(threads) else { throw ValidationError("--threads must be from 1 to 256") }
        guard (1...100).contains(repetitions) else { throw ValidationError("--repetitions must be from 1 to 100") }
    }

    func run() throws {
        try reportingErrors {
            if let numpy, !FileManager.default.fileExists(atPath: numpy) { throw ToolError(.noInput, "\(numpy): no such file") }
            let numpy = self.numpy ?? "bench/flow_layout_numpy.py"
            let store = PresetStore()
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("springtune-bench-\(getpid())").path
            defer { try? FileManager.default.removeItem(atPath: dir) }
            let evernote = try store.load("evernote")
            var standard = SweepJob(loaded: evernote, outputDirectory: "\(dir)/default")
            standard.threads = threads
            var large = SweepJob(loaded: evernote, outputDirectory: "\(dir)/large")
            large.threads = threads
            large.charts = false
            large.vary = try ["boundaryResistance=4:20:10", "damping=0.4:1.3:25", "frequency=0.5:4:40:log"].map(SweepGrid.parseVary)
            var single = SweepJob(loaded: evernote, outputDirectory: "\(dir)/single")
            single.threads = 1
            single.charts = false
            let results = [
                try Benchmark.measure("evernote default sweep + charts", job: standard, repetitions: repetitions),
                try Benchmark.measure("evernote 10,000 sets, no charts", job: large, repetitions: max(1, repetitions / 2)),
                try Benchmark.measure("evernote default sweep, 1 thread, no charts", job: single, repetitions: repetitions),
            ]
            print("build: \(Benchmark.buildTarget); threads \(threads), best of \(repetitions) (10k workload: best of \(max(1, repetitions / 2)))")
            print(TextTable(header: ["workload", "sets", "seconds", "sets/s", "item-steps/s"], rows: results.map {
                [$0.name, String($0.configs), String(format: "%.3f", $0.seconds), String(format: "%.0f", $0.setsPerSecond),
                 String(format: "%.3g", $0.itemStepsPerSecond)]
            }).rendered, terminator: "")
            do {
                if let seconds = try Benchmark.numpySeconds(script: numpy, preset: evernote.path, traces: PresetStore.traceFiles(for: evernote)) {
                    print("NumPy rewrite (\(numpy)), default evernote grid, one core: \(String(format: "%.3f", seconds)) s; springtune one thread \(String(format: "%.3f", results[2].seconds)) s: \(String(format: "%.1f", seconds / results[2].seconds))× faster")
                } else {
                    print("NumPy comparison skipped (needs python3 with NumPy and \(numpy))")
                }
            } catch let error as ToolError {
                print("NumPy comparison skipped: \(error.message)")
            }
            guard callgrind else { return }
            // A sixth of the default grid (boundaryResistance fixed): the same mix of springs, counted in about 15 s.
            let self_ = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
            var counted = SweepJob(loaded: evernote, outputDirectory: dir)
            counted.set = ["boundaryResistance": .number(10)]
            let sets = try counted.grid().count
            if let c = try Benchmark.count(self_, job: counted, gridArguments: ["--preset", "evernote", "--set", "boundaryResistance=10"],
                                           sets: sets, outputDirectory: dir) {
                print("callgrind, evernote \(sets) sets (boundaryResistance 10), one thread: \(c.instructions) instructions in the flow-layout kernel; \(String(format: "%.2f", c.perItemStep)) instructions per item-step (\(String(format: "%.4g", c.itemSteps)) item-steps, full tails)")
            } else {
                print("instruction count skipped (valgrind not on PATH)")
            }
        }
    }
}

struct PickCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pick",
        abstract: "Keep the parameter sets meeting every constraint, rank them, optionally reduce to a Pareto front.",
        discussion: "Example: springtune pick out/tweetbot/report.csv --where 'false_dismiss_rate<=0.05' --maximize dismiss_accuracy --pareto false_dismiss_rate,missed_dismiss_rate")
    @Argument(help: "Report CSV.") var report: String
    @Option(name: .customLong("where"), help: "Constraint COLUMN<=VALUE (also >=, <, >, ==); repeat for more.") var constraints: [String] = []
    @Option(help: "Column to minimise.") var minimize: String?
    @Option(help: "Column to maximise.") var maximize: String?
    @Option(help: "Comma-separated columns that rank sets tied on the objective (to a relative 1e-9), in order; default: the --where columns.")
    var tiebreak: String?
    @Option(help: "Comma-separated columns: keep only the non-dominated sets (higher is better where the metric says so, e.g. accuracies; lower otherwise).") var pareto: String?
    @Option(help: "Rows to print (table format).") var top: Int = 10
    @Option(help: "table, or csv: the kept rows with the report's columns, best first.") var format: OutputFormat = .table

    func validate() throws {
        guard (minimize != nil) != (maximize != nil) else { throw ValidationError("give exactly one of --minimize and --maximize") }
        guard top >= 1 else { throw ValidationError("--top must be >= 1") }
    }

    func run() throws {
        try reportingErrors {
            let table = try ReportTable(path: report)
            let ranking = Ranking(constraints: try constraints.map(Constraint.init(parsing:)), column: maximize ?? minimize!, maximize: maximize != nil,
                                  tiebreak: tiebreak.map { $0.split(separator: ",").map(String.init) })
            var entries = try ranking.ranked(table)
            if let pareto {
                let columns = pareto.split(separator: ",").map(String.init)
                let front = try Ranking.paretoFront(table, rows: entries.map(\.row), columns: columns,
                                                    maximize: Set(columns.filter { Comparison.better($0) == .higher }))
                let keep = Set(front.map { $0[0] })
                entries = entries.filter { keep.contains($0.row[0]) }
            }
            let rows = entries.map(\.row)
            switch format {
            case .csv:
                print(table.csv(rows: rows), terminator: "")
            case .table:
                print("\(rows.count) of \(table.rows.count) parameter sets kept (\(ranking.summary)\(pareto.map { "; Pareto front on \($0)" } ?? ""))")
                print(BestTable(ranking: ranking, table: table, entries: Array(entries.prefix(top)),
                                extra: pareto?.split(separator: ",").map(String.init) ?? []).rendered, terminator: "")
            }
        }
    }
}
