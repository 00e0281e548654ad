import ArgumentParser
import Foundation
import SpringCore
import SpringLayout
import SpringTune
import ToolRuntime
import TraceIO

struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare", abstract: "Compare two reports parameter set by parameter set; the gate concerns the objective.",
        discussion: """
        The objective is A's (from its report.meta.json) unless --minimize/--maximize give one. \
        --fail-on-regression judges the set A's objective chooses, found in B by its parameter values: \
        it exits 1 when a constraint it met fails in B, or when the objective column, a constraint or tiebreak column, \
        overshoot_pt_p95 or settle_time_p95 got worse beyond the tolerance; it exits 65 when that set is not in B, \
        A has none, or no such column has a value in both. Other worse sets are reported only.
        --tolerance: 2% or 0.02 (relative), 0.01s or 0.5pt (for metrics in that unit), 1frame (1/frameRate s, \
        for metrics in s); repeat it to give one per unit; a metric with none of its unit takes the relative one (default 1%).
        """)
    @Argument(help: "Baseline report (A).") var a: String
    @Argument(help: "Candidate report (B).") var b: String
    @Option(help: "Comma-separated metric columns to tabulate (default: every metric in both).") var metrics: String?
    @Option(help: ArgumentHelp("How far a metric may move before it counts: 2% or 0.02, 0.01s, 0.5pt, 1frame (repeatable; default 1%).", valueName: "tolerance"),
            transform: parser("--tolerance", Tolerance.init(parsing:)))
    var tolerance: [Tolerance] = []
    @Option(help: "Objective column to minimise (instead of A's objective).") var minimize: String?
    @Option(help: "Objective column to maximise (instead of A's objective).") var maximize: String?
    @Option(name: .customLong("where"), help: "Objective constraint COLUMN<=VALUE with --minimize/--maximize; repeat for more.") var constraints: [String] = []
    @Flag(name: .customLong("fail-on-regression"), help: "Exit 1 when A's chosen set regresses in B, 65 when it cannot be judged (see above).") var failOnRegression = false
    @Option(help: "Folder for compare.csv and overlay charts (default: beside B).") var out: String?
    @Option(help: "Trace id: also animate the best set of A beside the best set of B on it (compare.gif, compare-filmstrip.png).")
    var animate: String?
    @Option(help: "Seed of the gate's paired bootstrap over groups.") var seed: UInt64 = 0
    @Option(help: "Resamples of the gate's paired bootstrap (100-100000).") var resamples = ClusterBootstrap.defaultResamples
    @Option(help: "Worker threads for running the chosen set again (default: all cores).") var threads: Int = ProcessInfo.processInfo.activeProcessorCount

    func validate() throws {
        guard minimize == nil || maximize == nil else { throw ValidationError("give at most one of --minimize and --maximize") }
        guard constraints.isEmpty || minimize != nil || maximize != nil else { throw ValidationError("--where needs --minimize or --maximize") }
        guard (100...100_000).contains(resamples) else { throw ValidationError("--resamples must be from 100 to 100000") }
        guard (1...256).contains(threads) else { throw ValidationError("--threads must be from 1 to 256") }
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
            let ta = try SweepReport.read(a), tb = try SweepReport.read(b)
            if ta.meta == nil, let frames = tolerance.first(where: \.isFrames) {
                throw ToolError(.usage, "--tolerance \(frames): \(a) has no report.meta.json beside it to take the frame rate from")
            }
            let c = try Comparison(ta, tb, metrics: metrics.map { $0.split(separator: ",").map(String.init) }, tolerances: tolerance)
            // The gate's noise: the chosen set run again on both sides, paired by trace (Reference §14).
            var pointOnly: String?
            let bootstrap = ClusterBootstrap(resamples: resamples, seed: seed)
            let verdict = try ObjectiveVerdict(ta, tb, comparison: c, ranking: try ranking(), tolerances: tolerance) { ra, rb, columns in
                do {
                    return try PairedGate(ta, ra, tb, rb, columns: columns, bootstrap: bootstrap, threads: threads)
                } catch {
                    pointOnly = (error as? ToolError)?.message ?? "\(error)"
                    return nil
                }
            }
            // The folder is rebuilt whole and swapped in (as a sweep's): no chart of an earlier
            // comparison stays beside this one's.
            let folder = try OutputFolder(out ?? URL(fileURLWithPath: b).deletingLastPathComponent().appendingPathComponent("compare").path,
                                          markers: OutputFolder.compareMarkers)
            defer { folder.abandon() }
            let dir = folder.target
            try AtomicFile.write(c.csv, to: "\(folder.staging)/compare.csv")
            print("\(c.matched) parameter set\(c.matched == 1 ? "" : "s") matched on "
                + (c.parameters.isEmpty ? "no swept parameters (each report is one set)" : c.parameters.joined(separator: ", ")))
            print(TextTable(header: ["metric", "pairs", "better", "worse", "same", "changed", "median delta"], rows: c.summaries.map {
                [$0.metric, String($0.pairs), String($0.better), String($0.worse), String($0.same), String($0.changed),
                 $0.medianDelta.map { NumberFormat.significant($0, 4) } ?? ""]
            }).rendered, terminator: "")
            let r = verdict.ranking, ci = try ta.index(of: r.column), cbi = try tb.index(of: r.column)
            print("objective: \(r.summary)")
            if let chosen = verdict.chosenA {
                let inB = verdict.chosenInB.map { tb.shortText($0, cbi) } ?? "not in B"
                print("chosen in A: config \(chosen.configId), \(r.column) \(ta.shortText(chosen, ci)) → \(inB) in B")
            } else {
                print("chosen in A: none (no set of A meets the constraints)")
            }
            if let best = verdict.bestB { print("best in B: config \(best.configId), \(r.column) \(tb.shortText(best, cbi))") }
            for (ra, rb, delta) in verdict.worstSets {
                print("worse on \(r.column): config \(ra.configId) \(ta.shortText(ra, ci)) → \(tb.shortText(rb, cbi)) (\(delta >= 0 ? "+" : "")\(NumberFormat.significant(delta, 4)))")
            }
            verdict.reasons.forEach { print("regression: \($0)") }
            verdict.insideNoise.forEach { print("inside the noise: \($0)") }
            if let noise = verdict.noise {
                print("the chosen set, 95 % intervals over the paired traces:")
                print(noise.table.rendered, terminator: "")
                print("noise: the chosen set run again on both sides, paired on \(noise.traces) traces in \(noise.groups) groups\(noise.unpaired > 0 ? " (\(noise.unpaired) traces unpaired)" : ""), \(bootstrap.resamples) resamples, seed \(bootstrap.seed): a worsening counts when its 95 % interval excludes 0 plus the tolerance")
            } else if let pointOnly, verdict.chosenInB != nil {
                print("noise: not measured (\(pointOnly)); the gate judges the reports' values")
            }
            let judged = "\(verdict.judged.joined(separator: ", ")); tolerance \(Tolerance.summary(tolerance))"
            if let why = verdict.undecidable {
                print("verdict: cannot judge: \(why)")
            } else {
                print(verdict.isRegression ? "verdict: REGRESSION of the chosen set (\(judged))" : "verdict: no regression of the chosen set (\(judged))")
            }
            print("compare: \(dir)/compare.csv")
            let numeric = try c.parameters.filter { p in let i = try ta.index(of: p); return ta.rows.allSatisfy { ta.number($0, i) != nil } }
            if let x = numeric.first {
                let charts = try c.metrics.filter { !$0.hasSuffix("_max") }.compactMap { m -> Chart? in
                    let series = try ReportCharts.series(ta, x: x, y: m, label: "A: \(a)") + ReportCharts.series(tb, x: x, y: m, label: "B: \(b)")
                    guard !series.isEmpty else { return nil }   // nothing defined to draw
                    return Chart(name: "compare-\(m)", title: "\(m): A vs B", panels: [.lines(title: m, x: ReportCharts.label(x), y: ReportCharts.label(m), series: series, logX: false)])
                }
                let images = try drawCharts(charts, in: folder)
                if !images.isEmpty { print("charts: \(images.count) images in \(dir)") }
            }
            if let animate {
                let runs = [try Replay.best(report: a, trace: animate), try Replay.best(report: b, trace: animate)]
                let kind = try ModelKind(name: try ReportMeta.read(forReport: a).preset.model)
                var animation = Replay.animation(runs, kind: kind, labelled: c.parameters, fps: 30, speed: 1, name: "compare")
                for i in animation.panels.indices { animation.panels[i].label.heading = i == 0 ? "A:" : "B:" }
                try drawCharts([animation], in: folder).forEach { print($0) }
            }
            try folder.commit()
            guard failOnRegression else { return }
            if let why = verdict.undecidable { throw ToolError(.dataError, "compare --fail-on-regression: \(why)") }
            if verdict.isRegression { throw ExitCode(1) }
        }
    }
}
