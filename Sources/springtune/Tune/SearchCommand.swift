import ArgumentParser
import Foundation
import SpringCore
import SpringLayout
import SpringTune
import TraceIO

struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search the continuous box of a preset's parameters for the best set in few evaluations; choose one off knife edges.",
        discussion: """
        A Gaussian-process model of each objective column proposes batches (Reference §10.17); the chosen set keeps every \
        constraint and target at its ±2 % neighbours, and its margins are printed. The report reads like a sweep's \
        (pick, export --best, compare, importance).
        Example: springtune search --preset tweetbot --free snapFrequency --budget 100 --seed 1 --out out/tb-search
        """
    )

    @OptionGroup var presetOptions: PresetOptions
    @OptionGroup var sureOptions: SureOptions
    @Option(help: "Sure constraints (0.5-0.99): choose only among sets whose constraints' one-sided bounds at this confidence meet their limits (overrides the objective's).",
            transform: decimal)
    var confidence: Double?
    @Option(name: .customLong("free"), help: ArgumentHelp("Free a parameter over its whole domain (NAME), over a range inside it (NAME=FROM:TO), or every tuning parameter (all); repeat for more.", valueName: "name[=from:to]|all"),
            transform: parser("--free", SearchBox.Free.init(parsing:)))
    var free: [SearchBox.Free] = []
    @Option(help: "Search evaluations (1-\(SearchJob.maxBudget)); the robustness and margin checks come on top.") var budget = 100
    @Option(help: "Sets proposed and evaluated together (1-64; default \(SearchJob.defaultBatch), whatever --threads says, so the report is the same on any machine).")
    var batch = SearchJob.defaultBatch
    @Option(help: "Seed of the quasi-random start and the proposals.") var seed: UInt64 = 0
    @Option(help: "Worker threads (default: all cores); they never change the report.") var threads: Int = ProcessInfo.processInfo.activeProcessorCount
    @Option(help: "Output folder (default: out/<preset>-search).") var out: String?
    @Option(help: "Release-velocity estimator (default: the preset's).") var estimator: VelocityEstimator?
    @Flag(name: .customLong("no-charts"), help: "Skip the gnuplot charts and the page.") var noCharts = false
    @Flag(name: .customLong("skip-invalid"), help: "Drop bad traces instead of failing.") var skipInvalid = false
    @Flag(help: "Finish an interrupted search into --out from its checkpointed batches (same bytes as one uninterrupted run).")
    var resume = false

    func validate() throws {
        guard (1...SearchJob.maxBudget).contains(budget) else { throw ValidationError("--budget must be from 1 to \(SearchJob.maxBudget)") }
        guard (1...64).contains(batch) else { throw ValidationError("--batch must be from 1 to 64") }
        guard (1...256).contains(threads) else { throw ValidationError("--threads must be from 1 to 256") }
        if let out { guard !out.isEmpty else { throw ValidationError("--out must not be empty") } }
        try SureOptions.check(confidence: confidence)
    }

    func run() throws {
        try reportingErrors {
            var loaded = try presetOptions.load()
            if let confidence { loaded.preset.objective.confidence = confidence }
            var job = SearchJob(loaded: loaded, outputDirectory: out ?? "out/\(safeFileName(loaded.preset.name))-search")
            job.free = free
            job.set = presetOptions.parsedSets()
            job.traceFiles = presetOptions.traces.isEmpty ? nil : presetOptions.traces
            job.budget = budget
            job.batch = batch
            job.seed = seed
            job.threads = threads
            job.estimator = estimator
            job.charts = !noCharts
            job.skipInvalid = skipInvalid
            job.resume = resume
            job.resamples = sureOptions.resamples
            job.perGroup = sureOptions.perGroup
            if let request = sureOptions.split {
                let lines = try HeldOutRun(loaded: loaded, request: request, seed: seed, bootstrap: ClusterBootstrap(resamples: sureOptions.resamples, seed: seed),
                                           threads: threads, traceFiles: job.traceFiles ?? PresetStore.traceFiles(for: loaded), skipInvalid: skipInvalid) { groups, out in
                    var j = job
                    j.groups = groups
                    j.outputDirectory = out
                    if case .folds = request { j.charts = false }   // one page for a split; none per fold
                    let o = try j.run()
                    return HeldOutRun.Choice(table: o.table, intervals: o.intervals, scene: o.scene, values: o.chosenValues,
                                             lines: try Self.summary(o, intervals: false))
                }.run(into: job.outputDirectory)
                lines.forEach { print($0) }
                return
            }
            let bar = ProgressBar(label: "search \(loaded.preset.name)")
            var progress: (@Sendable (Int, Int) -> Void)?
            if let bar { progress = { done, total in bar.update(done, of: total) } }
            let o = try job.run(progress: progress)
            bar?.finish()
            o.notes.forEach { note("springtune: \($0)") }
            for edge in o.search.chosen.flatMap({ id in o.table.rows.first { $0.configId == id } }).map({
                Self.edges($0, box: o.search.box.map(\.dimension), names: o.table.parameterColumns) }) ?? [] { note("springtune: \(edge)") }
            try Self.summary(o, intervals: true).forEach { print($0) }
            printCharts(report: o.report, images: o.images, skipped: o.chartsSkipped)
        }
    }

    /// What `search` prints of a run: counts, the box, the best sets, the choice with its
    /// margins and how sure it is, and where the files are.
    static func summary(_ o: SearchJob.Outcome, intervals: Bool) throws -> [String] {
            var lines: [String] = []
            func print(_ s: String, terminator: String = "") { lines += s.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty } }
            let s = o.search
            print("\(s.evaluations) search evaluations (batch \(s.batch), seed \(s.seed)) + \(s.checks) checks × \(o.traces) traces in \(NumberFormat.fixed(o.wallTime, 2)) s")
            print("box: " + s.box.map { b in "\(b.name) " + (b.words.map { $0.map(\.description).joined(separator: "|") }
                ?? "[\(NumberFormat.short(b.from!)), \(NumberFormat.short(b.to!))]\(b.log == true ? " log" : "")") }.joined(separator: ", "))
            let entries = try o.ranking.ranked(o.table)
            print("best under the objective (\(o.ranking.summary)):")
            if !entries.isEmpty { print(BestTable(ranking: o.ranking, table: o.table, entries: Array(entries.prefix(5))).rendered, terminator: "") }
            if let chosenId = s.chosen, let entry = entries.first(where: { $0.row.configId == chosenId }) {
                print("chosen: evaluation \(entry.row.configId), \(s.robust == true ? "robust (every ±2 % neighbour meets the objective)" : "NOT robust")")
                s.givenUp.map { print("given up: \($0)") }
                for m in s.margins { print("margin \(m.name) = \(NumberFormat.short(m.value)) \(m.unit): \(m.text)") }
            } else if entries.isEmpty {
                print("  no evaluated set meets every constraint and target")
            } else {
                s.givenUp.map { print("not chosen: \($0)") }
            }
            (intervals ? o.intervals.lines(ranking: o.ranking) : o.intervals.sureLines(ranking: o.ranking)).forEach { print($0) }
            o.perGroup?.lines().forEach { print($0) }
            print("report:   \(o.report)")
            print("checks:   \(o.checks)")
            print("intervals: \(o.intervalsFile)")
            if let p = o.perGroupFile { print("per-group: \(p)") }
            print("meta:     \(o.meta)")
            return lines
    }

    /// One line per free numeric parameter the chosen set sits at an end of (``SearchBox/Dimension/end(of:)``).
    static func edges(_ row: SweepReport.Row, box: [SearchBox.Dimension], names: [String]) -> [String] {
        box.compactMap { d in
            guard let i = names.firstIndex(of: d.name), let v = row.parameters[i].number, let upper = d.end(of: v) else { return nil }
            return "the chosen set lies at the \(upper ? "upper" : "lower") end of \(d.name)'s box (\(NumberFormat.short(v)) \(d.unit)): the optimum may lie \(upper ? "above" : "below"); widen it (--free \(d.name) or --free \(d.name)=FROM:TO)"
        }
    }
}
