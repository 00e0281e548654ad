import Foundation
import Preference
import SpringCore
import SpringLayout
import ToolRuntime
import TraceIO

/// `springtune search` end to end (Reference §13): the box, batches proposed from the results
/// so far (``Acquisition``) and measured in process (``SearchEvaluator``), each batch
/// checkpointed so `--resume` after a kill continues to the same bytes; then the robust choice
/// and its margins (``Robustness``), and `report.csv`, `checks.csv`, `report.meta.json`, the
/// convergence and importance charts and the page, swapped into the output folder at once.
public struct SearchJob: Sendable {
    public var loaded: PresetStore.Loaded
    public var free: [SearchBox.Free] = []
    public var set: [String: ParamValue] = [:]
    public var traceFiles: [String]?
    public var skipInvalid = false
    public var estimator: VelocityEstimator?
    public var threads = ProcessInfo.processInfo.activeProcessorCount
    /// Search evaluations (the checks come on top).
    public var budget = 100
    /// Sets proposed together; it decides the proposals, so it is part of what gives the same bytes (the thread count is not).
    public var batch = SearchJob.defaultBatch
    public var seed: UInt64 = 0
    public var outputDirectory: String
    public var charts = true
    public var resume = false
    /// The resampling of the intervals (its seed is the search's).
    public var resamples = ClusterBootstrap.defaultResamples
    /// Only these groups' traces (the tuning side of a held-out split), or nil for all.
    public var groups: Set<String>?
    /// Also write `per-group.csv` for the chosen set.
    public var perGroup = false

    /// The default batch: 4, whatever the thread count, so the same command gives the same report on any machine.
    public static let defaultBatch = 4
    /// The most evaluations a search may be given.
    public static let maxBudget = 10_000

    public init(loaded: PresetStore.Loaded, outputDirectory: String) {
        self.loaded = loaded
        self.outputDirectory = outputDirectory
    }

    public struct Outcome: Sendable {
        public var report: String
        public var meta: String
        public var checks: String
        public var images: [String]
        public var chartsSkipped: String?
        public var table: SweepReport
        public var search: SearchMeta
        public var ranking: Ranking
        public var notes: [String]
        public var traces: Int
        public var wallTime: Double
        /// The chosen and top sets' intervals, and how sure the choice is (Reference §14).
        public var intervals: BestIntervals
        public var intervalsFile: String
        public var perGroup: PerGroup?
        public var perGroupFile: String?
        public var scene: Scene
        /// Every value of the chosen set, nil when none was chosen.
        public var chosenValues: [String: ParamValue]?
    }

    /// Quasi-random sets before the model proposes: d + 1 (at most 10), rounded up to whole batches.
    func initialCount(dimension d: Int) -> Int { (min(d + 1, 10) + batch - 1) / batch * batch }

    public func run(progress: (@Sendable (Int, Int) -> Void)? = nil) throws -> Outcome {
        let start = Date()
        let box = try SearchBox(loaded, free: free, set: set)
        var ranking = try Ranking(objective: loaded.preset.objective)
        ranking.robust = false   // the search's own robustness (±2 % neighbours) replaces the grid's
        let folder = try OutputFolder(outputDirectory)
        defer { folder.abandon() }
        var scene = loaded.preset.scene
        if let estimator { scene.estimator = estimator }
        let traces = try TraceSource(files: traceFiles ?? PresetStore.traceFiles(for: loaded), kind: loaded.kind,
                                     skipInvalid: skipInvalid, scene: try scene.applying(box.base).scene, groups: groups)
        let evaluator = SearchEvaluator(kind: loaded.kind, scene: scene, box: box, traces: traces, threads: threads)
        let verdict = RowVerdict(ranking: ranking, specs: loaded.kind.reportColumns)
        let dir = folder.staging, reportPath = "\(dir)/report.csv"
        let names = box.dimensions.map(\.name)
        let schema = SweepReport(path: reportPath, kind: loaded.kind, axes: names.map { SweepAxis(name: $0, values: [ParamValue]()) })
        let key = Checkpoint.key([SpringTuneVersion.current, SpringTuneVersion.build, "search", try JSONCoding.encode(loaded.preset),
                                  try JSONCoding.encode(box.dimensions), try JSONCoding.encode(box.base), try JSONCoding.encode(traces.fileInfo),
                                  try JSONCoding.encode(scene), "\(budget) \(batch) \(seed)", groups.map { $0.sorted().joined(separator: "\n") } ?? ""])
        var checkpoint = try Checkpoint(target: folder.target, key: key, configs: budget, schema: schema, resume: resume, batch: batch, listed: true)
        var committed = false
        defer { if !committed { checkpoint.discardIfEmpty() } }
        var notes = traces.notes + [checkpoint.discarded].compactMap { $0 }
        Cleanup.shared.setInterruptedNote("springtune: interrupted; \(folder.target) keeps its previous outputs, and the batches finished so far are checkpointed: run the same command with --resume to finish")
        var rows: [SweepReport.Row] = [], resumed = 0
        for block in checkpoint.blocks(of: 1..<(budget + 1)) {
            if let done = checkpoint.finished(block), resumed == rows.count {
                rows += done
                resumed = rows.count
            } else {
                let made = try evaluator.rows(try proposals(block.count, after: rows, box: box, ranking: ranking, verdict: verdict), first: block.lowerBound)
                try checkpoint.save(made, perTrace: nil)
                rows += made
            }
            progress?(rows.count, budget)
        }
        if resumed > 0 { notes.append("resumed \(folder.target): \(resumed) of \(budget) evaluations from its checkpoint, \(budget - resumed) run now") }

        // The robust choice, best first, and its margins.
        var table = SweepReport(path: reportPath, axes: SweepReport.axes(names: names, rows: rows), specs: loaded.kind.reportColumns, rows: rows)
        let candidates = try ranking.ranked(table).map(\.row).filter(verdict.feasible)
        var robustness = Robustness(evaluator: evaluator, verdict: verdict, firstCheck: budget + 1)
        // firstChecked: the first set checked for robustness (with a confidence, the first sure one).
        var robust: [Int: Bool] = [:], chosen: SweepReport.Row?, firstBreak: String?, firstChecked: SweepReport.Row?
        // With a confidence, only sets whose constraints are sure on these traces (Reference §14).
        let bootstrap = ClusterBootstrap(resamples: resamples, seed: seed)
        var measured = MeasuredSets(measure: evaluator.measured)
        var firstSure: HowSure?, chosenSure: HowSure?, checkedSure = 0
        for row in candidates {
            if ranking.confidence != nil {
                guard checkedSure < BestIntervals.maxChecked else { break }
                let sure = HowSure(try measured.set(row), ranking: ranking, bootstrap: bootstrap)
                checkedSure += 1
                if firstSure == nil { firstSure = sure }
                guard sure.isSure else { continue }
                if chosenSure == nil { chosenSure = sure }
            }
            if firstChecked == nil { firstChecked = row }
            let (ok, breaks) = try robustness.isRobust(row)
            robust[row.configId] = ok
            if ok { chosen = row; break }
            if firstBreak == nil { firstBreak = breaks }
        }
        var givenUp: String?
        if let best = firstChecked ?? candidates.first {
            func said(_ r: SweepReport.Row) -> String {
                "evaluation \(r.configId) (\(ranking.column) \(verdict.objective(r).map(NumberFormat.short) ?? "empty"))"
            }
            if let c = chosen, c.configId != best.configId, firstBreak != nil {
                givenUp = "chose \(said(c)) over \(said(best)), whose neighbour breaks: \(firstBreak ?? "a constraint")"
            } else if chosen == nil, ranking.confidence != nil, chosenSure == nil {
                givenUp = "no feasible set of the best \(checkedSure) is \(NumberFormat.short(ranking.confidence! * 100)) % sure on these traces: none is chosen"
            } else if chosen == nil {
                chosen = best
                givenUp = "no feasible\(ranking.confidence == nil ? "" : ", sure") set keeps every constraint and target at its ±2 % neighbours; \(said(best)) is the best, fragile: \(firstBreak ?? "")"
            }
        }
        let margins = try chosen.map { try robustness.margins($0) } ?? []
        let chosenHow = try chosen.map { HowSure(try measured.set($0), ranking: ranking, bootstrap: bootstrap) }
        let intervals = try BestIntervals(chosen: chosenHow, first: firstSure ?? chosenHow, checked: max(checkedSure, chosen == nil ? 0 : 1),
                                          ranked: candidates, top: 5, bootstrap: bootstrap, cache: &measured)
        let intervalsPath = "\(dir)/intervals.csv"
        try AtomicFile.write(intervals.csv, to: intervalsPath)
        var groupTable: PerGroup?, perGroupPath: String?
        if perGroup, let chosenHow {
            groupTable = PerGroup(chosenHow.set, ranking: ranking)
            perGroupPath = "\(dir)/per-group.csv"
            try AtomicFile.write(groupTable!.csv, to: perGroupPath!)
        }
        table.specs.append(Self.robustSpec)
        for i in table.rows.indices { table.rows[i].values.append(robust[table.rows[i].configId].map { .value($0 ? 1 : 0) } ?? .undefined) }
        var best: Double?
        let convergence = rows.map { row -> ReportNumber in
            if verdict.feasible(row), let v = verdict.objective(row), best.map({ ranking.maximize ? v > $0 : v < $0 }) ?? true { best = v }
            return ReportNumber(best)
        }
        let search = SearchMeta(budget: budget, evaluations: rows.count, batch: batch, seed: seed, free: free.map(\.description),
                                box: box.dimensions.map(SearchMeta.Box.init), column: ranking.column, maximize: ranking.maximize,
                                convergence: convergence, checks: robustness.checks.count, chosen: chosen?.configId,
                                robust: chosen.flatMap { robust[$0.configId] }, givenUp: givenUp, margins: margins)
        try AtomicFile.write(table.csv(), to: reportPath)
        let checksPath = "\(dir)/checks.csv"
        let checks = SweepReport(path: checksPath, axes: SweepReport.axes(names: names, rows: robustness.checks), specs: loaded.kind.reportColumns, rows: robustness.checks)
        try AtomicFile.write(checks.csv(), to: checksPath)

        var images: [String] = [], skipped: String?
        if charts {
            do {
                var figures: [any GnuplotFigure] = [Self.convergenceChart(search, rows: rows, verdict: verdict)]
                if let chart = try? ReportCharts.importance(table, ranking: ranking) { figures.append(chart) }
                var clips: [SweepPage.Clip] = []
                if let chosen {
                    clips = try SweepPage.clips(loaded, values: table.values(of: chosen).merging(box.base) { row, _ in row }, swept: names, picks: traces.representative)
                    figures += clips.map(\.animation)
                }
                images = try Gnuplot.draw(figures, in: dir)
                let page = SweepPage.html(loaded: loaded, grid: SweepGrid(axes: [], base: box.base), table: table, ranking: ranking,
                                          images: images.map { URL(fileURLWithPath: $0).lastPathComponent }, clips: clips,
                                          traces: traces.tags.count, search: search, sure: intervals)
                try AtomicFile.write(page, to: "\(dir)/index.html")
            } catch let error as ToolError where error.code == .unavailable {
                skipped = error.message
            }
        }
        let wall = (Date().timeIntervalSince(start) * 1000).rounded() / 1000
        let metaPath = ReportMeta.path(forReport: reportPath)
        var meta = ReportMeta(presetFile: loaded.path, preset: loaded.preset, values: box.base, axes: table.axes.map(\.listed),
                              configs: rows.count, shard: nil, configIds: [1, rows.count], traces: traces.fileInfo,
                              frameRate: scene.frameRate, estimator: scene.estimator, scene: scene, threads: threads, wallTime: wall,
                              charts: images.map { URL(fileURLWithPath: $0).lastPathComponent }, chartsSkipped: skipped)
        meta.search = search
        try AtomicFile.write(try meta.encoded(), to: metaPath)
        try folder.commit()
        committed = true
        let final = { (p: String) in folder.target + p.dropFirst(dir.count) }
        table.path = final(reportPath)
        table.meta = meta
        return Outcome(report: final(reportPath), meta: final(metaPath), checks: final(checksPath), images: images.map(final),
                       chartsSkipped: skipped, table: table, search: search, ranking: ranking, notes: notes,
                       traces: traces.tags.count, wallTime: wall, intervals: intervals, intervalsFile: final(intervalsPath),
                       perGroup: groupTable, perGroupFile: perGroupPath.map(final), scene: scene,
                       chosenValues: chosen.map { table.values(of: $0).merging(box.base) { row, _ in row } })
    }

    /// The `robust` column of a search's report: 1 when the set kept every constraint and
    /// target at its ±2 % neighbours, 0 when it did not, empty when it was not checked.
    public static let robustSpec = MetricSpec("robust", "1", .higher, "1: every ±2 % neighbour along each free parameter is feasible; 0: one is not; empty: not checked")

    /// The next `count` sets: quasi-random ones first (``initialCount(dimension:)``), then the
    /// acquisition's batch from every row so far.
    func proposals(_ count: Int, after rows: [SweepReport.Row], box: SearchBox, ranking: Ranking, verdict: RowVerdict) throws -> [[ParamValue]] {
        let space = box.space
        if rows.count < initialCount(dimension: space.dimension) {
            let sequence = RSequence(dimension: space.dimension, seed: seed)
            return (rows.count..<(rows.count + count)).map { box.row(space.snap(sequence.point($0))) }
        }
        let points = rows.map { box.point($0.parameters)! }
        var values: [String: [Double?]] = [:]
        for column in [ranking.column] + ranking.constraints.map(\.column) + ranking.targets.map(\.column) {
            values[column] = rows.map { verdict.number($0, column) }
        }
        let feasible = rows.map(verdict.feasible)
        let acquisition = try Acquisition(ranking: ranking, space: space, points: points, values: values, feasible: feasible)
        // Local trials around the three best rows: feasible ones by objective, else all by objective.
        let sign = ranking.maximize ? -1.0 : 1.0
        let order = rows.indices.sorted { a, b in
            if feasible[a] != feasible[b] { return feasible[a] }
            let x = verdict.objective(rows[a]).map { sign * $0 } ?? .infinity, y = verdict.objective(rows[b]).map { sign * $0 } ?? .infinity
            return x != y ? x < y : a < b
        }
        let near = order.prefix(3).map { points[$0] }
        return try acquisition.batch(count, near: near, taken: points, seed: seed &+ UInt64(rows.count)).map(box.row)
    }

    /// `convergence.*`: the best feasible objective so far against evaluations, over each feasible evaluation.
    static func convergenceChart(_ search: SearchMeta, rows: [SweepReport.Row], verdict: RowVerdict) -> Chart {
        let best = search.convergence.enumerated().compactMap { i, v in v.value.flatMap { $0.isFinite ? (Double(i + 1), $0) : nil } }
        let each = rows.compactMap { r -> (Double, Double)? in
            guard verdict.feasible(r), let v = verdict.objective(r), v.isFinite else { return nil }
            return (Double(r.configId), v)
        }
        let title = "Search: best feasible \(search.column) so far (batch \(search.batch), seed \(search.seed))"
        return Chart(name: "convergence", title: title, panels: [.lines(title: title, x: "evaluation", y: ReportCharts.label(search.column),
                                                                          series: [Chart.Series(label: "feasible evaluation", points: each, style: .points),
                                                                                   Chart.Series(label: "best so far", points: best)], logX: false)])
    }
}

extension SearchBox.Free: CustomStringConvertible {
    /// As given: `all`, `NAME` or `NAME=FROM:TO`.
    public var description: String {
        switch self {
        case .all: "all"
        case let .parameter(name, nil): name
        case let .parameter(name, range?): "\(name)=\(NumberFormat.cell(range.lowerBound)):\(NumberFormat.cell(range.upperBound))"
        }
    }
}
