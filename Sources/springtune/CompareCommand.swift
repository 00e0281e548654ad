import ArgumentParser
import Foundation
import SpringCore
import SpringLayout
import SpringTune
import TraceIO

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
            let ta = try SweepReport.read(a), tb = try SweepReport.read(b)
            let c = try Comparison(ta, tb, metrics: metrics.map { $0.split(separator: ",").map(String.init) }, tolerance: tolerance)
            let verdict = try ObjectiveVerdict(ta, tb, comparison: c, ranking: try ranking(), tolerance: tolerance)
            let dir = out ?? URL(fileURLWithPath: b).deletingLastPathComponent().appendingPathComponent("compare").path
            try AtomicFile.write(c.csv, to: "\(dir)/compare.csv")
            print("\(c.matched) parameter sets matched on \(c.parameters.joined(separator: ", "))")
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
                for i in animation.panels.indices { animation.panels[i].label.heading = i == 0 ? "A:" : "B:" }
                do { try Gnuplot.draw([animation], in: dir).forEach { print($0) } } catch let error as ToolError where error.code == .unavailable {
                    note("springtune: \(error.message)")
                }
            }
            if failOnRegression && verdict.isRegression { throw ExitCode(1) }
        }
    }
}
