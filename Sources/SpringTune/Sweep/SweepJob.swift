import Foundation
import SpringCore
import SpringLayout
import ToolRuntime
import TraceIO

/// `springtune sweep` end to end: grid, traces, runs, report + per-trace CSV + meta sidecar,
/// default charts. Every file is written atomically.
public struct SweepJob: Sendable {
    public var loaded: PresetStore.Loaded
    public var vary: [SweepAxis] = []
    public var set: [String: ParamValue] = [:]
    /// Trace files replacing the preset's set.
    public var traceFiles: [String]?
    public var skipInvalid = false
    /// Replaces the preset scene's release-velocity estimator.
    public var estimator: VelocityEstimator?
    public var threads = ProcessInfo.processInfo.activeProcessorCount
    /// `--shard i/n` (1-based i).
    public var shard: (index: Int, count: Int)?
    public var outputDirectory: String
    public var perTrace = false
    public var charts = true
    /// Grids larger than this are refused before anything runs.
    public var maxSets = SweepGrid.defaultMaxSets
    /// Finish an interrupted run from its checkpoint (``Checkpoint``).
    public var resume = false
    /// Trace samples held in memory at once (``TraceSource``).
    public var blockSamples = TraceSource.defaultBlockSamples
    /// The best sets given intervals in `intervals.csv` (Reference §14).
    public var top = 5
    /// The resampling of the intervals (`--seed`, `--resamples`).
    public var bootstrap = ClusterBootstrap()
    /// Only these groups' traces (the tuning side of a held-out split), or nil for all.
    public var groups: Set<String>?
    /// Also write `per-group.csv` for the chosen set.
    public var perGroup = false

    public init(loaded: PresetStore.Loaded, outputDirectory: String) {
        self.loaded = loaded
        self.outputDirectory = outputDirectory
    }

    public struct Outcome: Sendable {
        public var report: String
        public var meta: String
        public var perTrace: String?
        public var images: [String]
        /// Why charts were not drawn, when they were not.
        public var chartsSkipped: String?
        public var configs: Int
        public var traces: Int
        public var wallTime: Double
        /// The report, with its sidecar.
        public var table: SweepReport
        /// Remarks for the user (stderr), e.g. pointers a one-finger model ignored.
        public var notes: [String]
        public var grid: SweepGrid
        /// The best sets' intervals and the chosen set's sureness (whole grids only; a shard's
        /// best is not the grid's: `merge` writes them).
        public var intervals: BestIntervals?
        public var intervalsFile: String?
        public var perGroup: PerGroup?
        public var perGroupFile: String?
        /// The scene the sets ran in and the traces they ran over (for a held-out measurement).
        public var scene: Scene
    }

    /// Resolved grid (for progress totals before running).
    public func grid() throws -> SweepGrid {
        let grid = try SweepGrid.make(preset: loaded.preset, kind: loaded.kind, vary: vary, set: set)
        guard let size = SweepGrid.size(grid.axes), size <= maxSets else {
            let count = SweepGrid.size(grid.axes).map { "\($0)" } ?? "more than \(Int.max)"
            throw ToolError(.usage, "the grid has \(count) parameter sets (\(grid.axes.map { "\($0.name) \($0.values.count)" }.joined(separator: " × "))); the limit is \(maxSets): narrow an axis or raise --max-sets")
        }
        return grid
    }

    /// The config ids of this job's shard.
    public static func shardRange(_ shard: (index: Int, count: Int)?, total: Int) -> Range<Int> {
        guard let shard else { return 0..<total }
        let lo = total * (shard.index - 1) / shard.count, hi = total * shard.index / shard.count
        return lo..<hi
    }

    public func run(progress: (@Sendable (Int, Int) -> Void)? = nil) throws -> Outcome {
        let start = Date()
        let grid = try grid()
        // Everything is written to a staging folder and swapped in at the end (one consistent
        // set); the folder is locked from the start, so a second run into it fails at once.
        let folder = try OutputFolder(outputDirectory)
        defer { folder.abandon() }
        var scene = loaded.preset.scene
        if let estimator { scene.estimator = estimator }
        // Blocks are weighed with the most frames any set of the grid runs (frame rate, tail).
        var heaviest = scene
        for axis in grid.axes where axis.name == "frameRate" || axis.name == "tail" {
            let most = axis.values.compactMap(\.number).max() ?? 0
            if axis.name == "frameRate" { heaviest.frameRate = max(heaviest.frameRate, most) } else { heaviest.tail = max(heaviest.tail, most) }
        }
        let traces = try TraceSource(files: traceFiles ?? PresetStore.traceFiles(for: loaded), kind: loaded.kind,
                                     skipInvalid: skipInvalid, scene: heaviest, blockSamples: blockSamples, groups: groups)
        var notes = grid.notes + traces.notes
        let ids = Self.shardRange(shard, total: grid.count)
        let runner = SweepRunner(kind: loaded.kind, scene: scene, sets: grid, threads: threads, ids: ids, keepPerTrace: perTrace)
        let total = ids.count
        // Finished blocks are checkpointed in the target; --resume runs only the others.
        let key = Checkpoint.key([SpringTuneVersion.current, SpringTuneVersion.build, try JSONCoding.encode(loaded.preset),
                                  try JSONCoding.encode(grid.axes.map(\.listed)),
                                  try JSONCoding.encode(grid.base), try JSONCoding.encode(traces.fileInfo), try JSONCoding.encode(scene),
                                  shard.map { "\($0.index)/\($0.count)" } ?? "", perTrace ? "per-trace" : "",
                                  groups.map { $0.sorted().joined(separator: "\n") } ?? ""])
        let dir = folder.staging
        let reportPath = "\(dir)/report.csv"
        var table = SweepReport(path: reportPath, kind: loaded.kind, axes: grid.axes)
        var checkpoint = try Checkpoint(target: folder.target, key: key, configs: total, schema: table, resume: resume)
        var committed = false
        defer { if !committed { checkpoint.discardIfEmpty() } }
        if let discarded = checkpoint.discarded { notes.append(discarded) }
        let blocks = checkpoint.blocks(of: ids)
        let resumed = blocks.filter { checkpoint.finished($0) != nil }.reduce(0) { $0 + $1.count }
        if resumed > 0 { notes.append("resumed \(folder.target): \(resumed) of \(total) sets from its checkpoint, \(total - resumed) run now") }
        Cleanup.shared.setInterruptedNote("springtune: interrupted; \(folder.target) keeps its previous outputs, and the sets finished so far are checkpointed: run the same command with --resume to finish")
        var perSet: (@Sendable (Int) -> Void)?
        if let progress { perSet = { done in progress(resumed + done, total) } }
        try runner.run(traces, blocks: blocks.filter { checkpoint.finished($0) == nil }, progress: perSet) { block, results in
            try checkpoint.save(results.map { SweepReport.Row($0, kind: loaded.kind) },
                                perTrace: perTrace ? PerTraceCSV.rows(results, traces: traces.tags, kind: loaded.kind) : nil)
        }
        table.rows = blocks.flatMap { checkpoint.finished($0)! }
        try traces.checkUnchanged()

        try AtomicFile.write(table.csv(), to: reportPath)
        var intervals: BestIntervals?, intervalsPath: String?, groupTable: PerGroup?, perGroupPath: String?
        if shard == nil, let ranking = try? Ranking(objective: loaded.preset.objective) {
            let best = try BestIntervals(ranked: try ranking.rank(table), top: top, ranking: ranking, bootstrap: bootstrap) { row in
                try MeasuredSet.measure(kind: loaded.kind, scene: scene, values: grid.values(row.configId), traces: traces, threads: threads, configId: row.configId)
            }
            intervalsPath = "\(dir)/intervals.csv"
            try AtomicFile.write(best.csv, to: intervalsPath!)
            if perGroup, let chosen = best.chosen {
                groupTable = PerGroup(chosen.set, ranking: ranking)
                perGroupPath = "\(dir)/per-group.csv"
                try AtomicFile.write(groupTable!.csv, to: perGroupPath!)
            }
            intervals = best
        }
        var perTracePath: String?
        if perTrace {
            perTracePath = "\(dir)/per-trace.csv"
            let header = PerTraceCSV.header(traces: traces.tags, kind: loaded.kind, axes: grid.axes)
            try AtomicFile.write(to: perTracePath!) { emit in
                try emit(Data(header.utf8))
                for block in blocks { try emit(try checkpoint.perTrace(of: block.lowerBound)) }
            }
        }
        var images: [String] = [], skipped: String?
        if charts {
            let ranking = try? Ranking(objective: loaded.preset.objective)
            do {
                var figures: [any GnuplotFigure] = try ReportCharts.sweepDefaults(table, kind: loaded.kind, ranking: ranking)
                // The page shows the best set in motion (whole grids only: a shard's best is not the grid's).
                var clips: [SweepPage.Clip] = []
                if shard == nil, let best = try ranking?.rank(table).first {
                    clips = try SweepPage.clips(loaded, values: grid.values(best.configId), swept: grid.axes.map(\.name), picks: traces.representative)
                    figures += clips.map(\.animation)
                }
                images = try Gnuplot.draw(figures, in: dir)
                let page = SweepPage.html(loaded: loaded, grid: grid, table: table, ranking: ranking,
                                          images: images.map { URL(fileURLWithPath: $0).lastPathComponent }, clips: clips, traces: traces.tags.count,
                                          sure: intervals)
                try AtomicFile.write(page, to: "\(dir)/index.html")
            } catch let error as ToolError where error.code == .unavailable {
                skipped = error.message
            }
        }
        let wall = (Date().timeIntervalSince(start) * 1000).rounded() / 1000   // s, to the millisecond
        let metaPath = ReportMeta.path(forReport: reportPath)
        let meta = ReportMeta(
            presetFile: loaded.path, preset: loaded.preset, values: grid.base, axes: grid.axes.map(\.listed),
            configs: grid.count, shard: shard.map { "\($0.index)/\($0.count)" }, configIds: [ids.lowerBound, ids.upperBound - 1],
            traces: traces.fileInfo, frameRate: scene.frameRate, estimator: scene.estimator, scene: scene, threads: threads, wallTime: wall,
            charts: images.map { URL(fileURLWithPath: $0).lastPathComponent }, chartsSkipped: skipped)
        try AtomicFile.write(try meta.encoded(), to: metaPath)
        try folder.commit()
        committed = true
        let final = { (p: String) in folder.target + p.dropFirst(dir.count) }
        table.path = final(reportPath)
        table.meta = meta
        return Outcome(report: final(reportPath), meta: final(metaPath), perTrace: perTracePath.map(final), images: images.map(final),
                       chartsSkipped: skipped, configs: ids.count, traces: traces.tags.count, wallTime: wall,
                       table: table, notes: notes, grid: grid, intervals: intervals, intervalsFile: intervalsPath.map(final),
                       perGroup: groupTable, perGroupFile: perGroupPath.map(final), scene: scene)
    }
}
