import ArgumentParser
import Foundation
import SpringCore
import SpringLayout
import SpringTune
import ToolRuntime
import TraceIO

struct SweepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sweep",
        abstract: "Replay traces through a model for every parameter set of a grid; write report, meta and charts.",
        discussion: "Example: springtune sweep --preset evernote --vary damping=0.6:1.2:7 --set frequency=1.5 --out out/ev"
    )

    @OptionGroup var presetOptions: PresetOptions
    @OptionGroup var objectiveOptions: ObjectiveOptions
    @OptionGroup var sureOptions: SureOptions
    @Option(help: "Seed of the intervals' bootstrap resampling and of --holdout's split.") var seed: UInt64 = 0
    @Option(name: .customLong("vary"), help: ArgumentHelp("Sweep axis: NAME=v1,v2,... or NAME=FROM:TO:STEPS[:log] (replaces the preset's axis of that name).", valueName: "name=values"),
            transform: parser("--vary", SweepGrid.parseVary))
    var vary: [SweepAxis] = []
    @Option(help: "Worker threads (default: all cores).") var threads: Int = ProcessInfo.processInfo.activeProcessorCount
    @Option(help: ArgumentHelp("Run only shard I of N (I/N, 1-based), or `auto`: the task's shard in a Slurm array job (SLURM_ARRAY_TASK_ID) or a Kubernetes Indexed Job (JOB_COMPLETION_INDEX, with --shard-count); `springtune merge` joins the shards.", valueName: "i/n|auto"),
            transform: parser("--shard", ShardChoice.init(parsing:)))
    var shard: ShardChoice?
    @Option(name: .customLong("shard-count"), help: "With --shard auto in a Kubernetes Indexed Job: the number of shards (the Job's completions).")
    var shardCount: Int?
    @Option(help: "Output folder (default: out/<preset>).") var out: String?
    @Option(help: "Release-velocity estimator (default: the preset's).") var estimator: VelocityEstimator?
    @Flag(name: .customLong("per-trace"), help: "Also write per-trace.csv.") var perTrace = false
    @Flag(name: .customLong("no-charts"), help: "Skip the gnuplot charts.") var noCharts = false
    @Flag(name: .customLong("skip-invalid"), help: "Drop bad traces instead of failing.") var skipInvalid = false
    @Option(help: "Rows in the best-sets table.") var top: Int = 5
    @Option(help: "Rounds of refinement around the best set (0-10): each a grid of the same size per numeric axis spanning half the previous spacing on each side, written to OUT/round-K/.")
    var refine: Int = 0
    @Option(name: .customLong("max-sets"), help: "Refuse grids larger than this (checked before anything runs).")
    var maxSets: Int = SweepGrid.defaultMaxSets
    @Flag(help: "Finish an interrupted sweep into --out: run only the parameter-set blocks its checkpoint lacks (same bytes as one uninterrupted run).")
    var resume = false

    func validate() throws {
        guard (1...256).contains(threads) else { throw ValidationError("--threads must be from 1 to 256") }
        guard (1...1000).contains(top) else { throw ValidationError("--top must be from 1 to 1000") }
        guard (1...1_000_000_000).contains(maxSets) else { throw ValidationError("--max-sets must be from 1 to 1e9") }
        if let out { guard !out.isEmpty else { throw ValidationError("--out must not be empty") } }
        guard (0...10).contains(refine) else { throw ValidationError("--refine must be from 0 to 10") }
        guard refine == 0 || shard == nil else { throw ValidationError("--refine runs whole grids; it cannot be combined with --shard") }
        guard shardCount == nil || shard == .auto else { throw ValidationError("--shard-count goes with --shard auto") }
        _ = try resolvedShard()
    }

    /// The shard to run, `auto` taken from the environment (Reference §10.1); nil: the whole grid.
    func resolvedShard() throws -> (index: Int, count: Int)? {
        do { return try shard?.resolved(shardCount: shardCount, environment: ProcessInfo.processInfo.environment) } catch let error as ToolError {
            throw ValidationError(error.message)
        }
    }

    func run() throws {
        try reportingErrors {
            var loaded = try presetOptions.load()
            loaded.preset.objective = try objectiveOptions.applied(to: loaded.preset.objective, columns: loaded.kind.reportColumns.map(\.name))
            var job = SweepJob(loaded: loaded, outputDirectory: out ?? "out/\(safeFileName(loaded.preset.name))")
            job.maxSets = maxSets
            job.vary = vary
            job.set = presetOptions.parsedSets()
            job.traceFiles = presetOptions.traces.isEmpty ? nil : presetOptions.traces
            job.threads = threads
            job.shard = try resolvedShard()
            job.perTrace = perTrace
            job.charts = !noCharts
            job.skipInvalid = skipInvalid
            job.estimator = estimator
            job.resume = resume
            job.top = top
            job.bootstrap = ClusterBootstrap(resamples: sureOptions.resamples, seed: seed)
            job.perGroup = sureOptions.perGroup
            let bar = ProgressBar(label: "sweep \(loaded.preset.name)")
            if let request = sureOptions.split {
                guard refine == 0, job.shard == nil else { throw ToolError(.usage, "--holdout, --holdout-groups and --folds run whole grids without --refine or --shard") }
                try HeldOutRun(loaded: loaded, request: request, seed: seed, bootstrap: job.bootstrap, threads: threads,
                               traceFiles: job.traceFiles ?? PresetStore.traceFiles(for: loaded), skipInvalid: skipInvalid) { groups, out in
                    var j = job
                    j.groups = groups
                    j.outputDirectory = out
                    if case .folds = request { j.charts = false }   // one page for a split; none per fold
                    let o = try j.run()
                    return HeldOutRun.Choice(table: o.table, intervals: o.intervals, scene: o.scene, values: o.intervals?.chosen.map { o.grid.values($0.set.row.configId) },
                                             lines: ["\(o.configs) parameter sets × \(o.traces) traces in \(NumberFormat.fixed(o.wallTime, 2)) s → \(o.report)"])
                }.run(into: job.outputDirectory).forEach { print($0) }
                return
            }
            guard refine > 0 else {
                var progress: (@Sendable (Int, Int) -> Void)?
                if let bar { progress = { done, total in bar.update(done, of: total) } }
                let outcome = try job.run(progress: progress)
                bar?.finish()
                printSummary(outcome, loaded: loaded)
                return
            }
            var progress: (@Sendable (Int, Int, Int) -> Void)?
            if let bar { progress = { _, done, total in bar.update(done, of: total) } }
            let (rounds, best) = try Refinement(job: job, rounds: refine).run(progress: progress)
            bar?.finish()
            let ranking = try Ranking(objective: loaded.preset.objective)
            for r in rounds {
                let value = r.best.flatMap { $0.objective }.map(NumberFormat.short(_:)) ?? "none meets the constraints"
                print("round \(r.index): \(r.outcome.configs) sets in \(NumberFormat.fixed(r.outcome.wallTime, 2)) s, best \(ranking.column) \(value)\(r.best.map { " (config \($0.row.configId))" } ?? "") → \(r.outcome.report)")
            }
            guard let best, let entry = best.best else {
                print("no parameter set of any round meets every constraint")
                return
            }
            print("best over all rounds: round \(best.index), config \(entry.row.configId) (\(ranking.summary)):")
            print(BestTable(ranking: ranking, table: best.outcome.table, entries: [entry]).rendered, terminator: "")
            best.outcome.grid.edges(of: entry.row.configId, except: ranking.worstOver).forEach { note("springtune: \($0.advice)") }
        }
    }

    func printSummary(_ o: SweepJob.Outcome, loaded: PresetStore.Loaded) {
        o.notes.forEach { note("springtune: \($0)") }
        print("\(o.configs) parameter sets × \(o.traces) traces in \(NumberFormat.fixed(o.wallTime, 2)) s")
        if let ranking = try? Ranking(objective: loaded.preset.objective), let best = try? ranking.ranked(o.table) {
            print("best under the objective (\(ranking.summary)):")
            if best.isEmpty {
                print("  no parameter set meets every constraint")
            } else {
                print(BestTable(ranking: ranking, table: o.table, entries: Array(best.prefix(top))).rendered, terminator: "")
                ranking.note(best).map { print($0) }
                o.intervals?.lines(ranking: ranking).forEach { print($0) }
                o.perGroup?.lines().forEach { print($0) }
                o.grid.edges(of: best[0].row.configId, except: ranking.worstOver).forEach { note("springtune: \($0.advice)") }
            }
            if let line = try? Importance(o.table, columns: [ranking.column]).headline() { print(line) }
        }
        print("report:   \(o.report)")
        print("meta:     \(o.meta)")
        if let p = o.perTrace { print("per-trace: \(p)") }
        if let p = o.intervalsFile { print("intervals: \(p)") }
        if let p = o.perGroupFile { print("per-group: \(p)") }
        printCharts(report: o.report, images: o.images, skipped: o.chartsSkipped)
    }
}

/// The closing lines of `sweep` and `search`: where the charts and the page are, or why they were not drawn.
func printCharts(report: String, images: [String], skipped: String?) {
    if let skipped {
        note("springtune: \(skipped)")
    } else if !images.isEmpty {
        let folder = URL(fileURLWithPath: report).deletingLastPathComponent().path
        print("charts:   \(images.count) images in \(folder) (.gp scripts beside them)")
        print("page:     \(folder)/index.html")
    }
}

/// A progress bar with rate and ETA on stderr, only when stderr is a terminal.
final class ProgressBar: @unchecked Sendable {
    private let label: String
    private let start = Date()
    private let lock = NSLock()
    private var lastDraw = Date.distantPast

    init?(label: String) {
        guard isatty(STDERR_FILENO) == 1 else { return nil }
        self.label = label
    }

    func update(_ done: Int, of total: Int) {
        lock.lock(); defer { lock.unlock() }
        let now = Date()
        guard done == total || now.timeIntervalSince(lastDraw) > 0.1 else { return }
        lastDraw = now
        let elapsed = now.timeIntervalSince(start)
        let rate = Double(done) / max(elapsed, 1e-9)
        let eta = rate > 0 ? Double(total - done) / rate : 0
        let width = 30, filled = total > 0 ? width * done / total : width
        let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
        note("\r\(label) [\(bar)] \(done)/\(total)  \(NumberFormat.fixed(rate, 0)) sets/s  ETA \(NumberFormat.fixed(eta, 1)) s", newline: false)
    }

    func finish() { note("", newline: true) }
}

/// The best-sets table of `sweep` and `pick` on a terminal (``BestSets`` holds its cells).
struct BestTable {
    var ranking: Ranking
    var table: SweepReport
    var entries: [Ranking.Entry]
    var extra: [String] = []

    var rendered: String {
        let cells = BestSets(ranking: ranking, table: table, entries: entries, extra: extra)
        return TextTable(header: cells.header, rows: cells.rows).rendered
    }
}
