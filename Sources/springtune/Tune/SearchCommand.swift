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
        A Gaussian-process model of each objective column proposes batches (Reference §13); the chosen set keeps every \
        constraint and target at its ±2 % neighbours, and its margins are printed. The report reads like a sweep's \
        (pick, export --best, compare, importance).
        Example: springtune search --preset tweetbot --free snapFrequency --budget 100 --seed 1 --out out/tb-search
        """
    )

    @OptionGroup var presetOptions: PresetOptions
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
    }

    func run() throws {
        try reportingErrors {
            let loaded = try presetOptions.load()
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
            let bar = ProgressBar(label: "search \(loaded.preset.name)")
            var progress: (@Sendable (Int, Int) -> Void)?
            if let bar { progress = { done, total in bar.update(done, of: total) } }
            let o = try job.run(progress: progress)
            bar?.finish()
            try printSummary(o)
        }
    }

    func printSummary(_ o: SearchJob.Outcome) throws {
            o.notes.forEach { note("springtune: \($0)") }
            let s = o.search
            print("\(s.evaluations) search evaluations (batch \(s.batch), seed \(s.seed)) + \(s.checks) checks × \(o.traces) traces in \(NumberFormat.fixed(o.wallTime, 2)) s")
            print("box: " + s.box.map { b in "\(b.name) " + (b.words.map { $0.map(\.description).joined(separator: "|") }
                ?? "[\(NumberFormat.short(b.from!)), \(NumberFormat.short(b.to!))]\(b.log == true ? " log" : "")") }.joined(separator: ", "))
            let entries = try o.ranking.ranked(o.table)
            print("best under the objective (\(o.ranking.summary)):")
            if let chosenId = s.chosen, let entry = entries.first(where: { $0.row.configId == chosenId }) {
                print(BestTable(ranking: o.ranking, table: o.table, entries: Array(entries.prefix(5))).rendered, terminator: "")
                print("chosen: evaluation \(entry.row.configId), \(s.robust == true ? "robust (every ±2 % neighbour meets the objective)" : "NOT robust")")
                s.givenUp.map { print("given up: \($0)") }
                for m in s.margins { print("margin \(m.name) = \(NumberFormat.short(m.value)) \(m.unit): \(m.text)") }
                for edge in Self.edges(entry.row, box: s.box.map(\.dimension), names: o.table.parameterColumns) { note("springtune: \(edge)") }
            } else {
                print("  no evaluated set meets every constraint and target")
            }
            print("report:   \(o.report)")
            print("checks:   \(o.checks)")
            print("meta:     \(o.meta)")
            printCharts(report: o.report, images: o.images, skipped: o.chartsSkipped)
    }

    /// One line per free numeric parameter the chosen set sits at an end of (``SearchBox/Dimension/end(of:)``).
    static func edges(_ row: SweepReport.Row, box: [SearchBox.Dimension], names: [String]) -> [String] {
        box.compactMap { d in
            guard let i = names.firstIndex(of: d.name), let v = row.parameters[i].number, let upper = d.end(of: v) else { return nil }
            return "the chosen set lies at the \(upper ? "upper" : "lower") end of \(d.name)'s box (\(NumberFormat.short(v)) \(d.unit)): the optimum may lie \(upper ? "above" : "below"); widen it (--free \(d.name) or --free \(d.name)=FROM:TO)"
        }
    }
}
