import Foundation
import SpringLayout
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
        public var table: ReportTable
    }

    /// Resolved grid (for progress totals before running).
    public func grid() throws -> SweepGrid {
        try SweepGrid.make(preset: loaded.preset, kind: loaded.kind, vary: vary, set: set)
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
        let files = traceFiles ?? PresetStore.traceFiles(for: loaded)
        var traces: [Trace] = []
        var fileInfo: [JSONValue] = []
        for file in files {
            let (read, report) = try TraceReader(skipInvalid: skipInvalid).read(path: file)
            traces += read
            var info: [(String, JSONValue)] = [("file", .string(file)), ("sha256", .string(try SHA256.file(file))), ("traces", .number(Double(read.count)))]
            if !report.skipped.isEmpty { info.append(("skipped", .array(report.skipped.map { .string("\($0.trace): \($0.reason)") }))) }
            fileInfo.append(.object(info))
        }
        guard !traces.isEmpty else { throw ToolError(.dataError, "no valid traces in \(files.joined(separator: ", "))") }
        let ids = Self.shardRange(shard, total: grid.count)
        var scene = loaded.preset.scene
        if let estimator { scene.estimator = estimator }
        let runner = SweepRunner(kind: loaded.kind, scene: scene, grid: grid, traces: traces, threads: threads, ids: ids, keepPerTrace: perTrace)
        let total = ids.count
        var perSet: (@Sendable (Int) -> Void)?
        if let progress { perSet = { done in progress(done, total) } }
        let results = try runner.run(progress: perSet)

        let dir = outputDirectory
        let reportPath = "\(dir)/report.csv"
        let table = Report.table(results, kind: loaded.kind, axes: grid.axes, path: reportPath)
        try AtomicFile.write(table.csv(rows: table.rows), to: reportPath)
        var perTracePath: String?
        if perTrace {
            perTracePath = "\(dir)/per-trace.csv"
            try AtomicFile.write(Report.perTraceCSV(results, traces: traces, kind: loaded.kind, axes: grid.axes), to: perTracePath!)
        }
        var images: [String] = [], skipped: String?
        if charts {
            do {
                images = try Gnuplot.draw(ReportCharts.sweepDefaults(table, kind: loaded.kind),
                                          in: dir)
            } catch let error as ToolError where error.code == .unavailable {
                skipped = error.message
            }
        }
        let wall = Date().timeIntervalSince(start)
        let metaPath = "\(dir)/report.meta.json"
        let objective = loaded.preset.objective
        let presetInfo: JSONValue = .object([
            ("name", .string(loaded.preset.name)), ("model", .string(loaded.preset.model)), ("file", .string(loaded.path)),
            ("values", .object(grid.base.keys.sorted().map { ($0, Self.json(grid.base[$0]!)) })),
            ("objective", .object([
                ("constraints", .array(objective.constraints.map(JSONValue.string))),
                ("minimize", objective.minimize.map(JSONValue.string) ?? .null),
                ("maximize", objective.maximize.map(JSONValue.string) ?? .null),
            ])),
        ])
        let axes: JSONValue = .array(grid.axes.map { .object([("name", .string($0.name)), ("values", .array($0.values.map(JSONValue.number)))]) })
        let sceneInfo: JSONValue = .object([("width", .number(scene.width)), ("height", .number(scene.height)),
                                            ("tolerance", .number(scene.tolerance)), ("tail", .number(scene.tail))])
        let chartInfo: JSONValue = skipped.map(JSONValue.string) ?? .array(images.map { .string(URL(fileURLWithPath: $0).lastPathComponent) })
        var fields: [(String, JSONValue)] = [("tool", .string("springtune")), ("version", .string(SpringTuneVersion.current))]
        fields.append(("preset", presetInfo))
        fields.append(("axes", axes))
        fields.append(("configs", .number(Double(grid.count))))
        fields.append(("shard", shard.map { .string("\($0.index)/\($0.count)") } ?? .null))
        fields.append(("config_ids", .array([.number(Double(ids.lowerBound)), .number(Double(ids.upperBound - 1))])))
        fields.append(("traces", .array(fileInfo)))
        fields.append(("frame_rate", .number(scene.frameRate)))
        fields.append(("estimator", .string(scene.estimator.rawValue)))
        fields.append(("scene", sceneInfo))
        fields.append(("threads", .number(Double(threads))))
        fields.append(("wall_time", .number(wall)))
        fields.append(("charts", chartInfo))
        let meta = JSONValue.object(fields)
        try AtomicFile.write(meta.rendered(), to: metaPath)
        return Outcome(report: reportPath, meta: metaPath, perTrace: perTracePath, images: images, chartsSkipped: skipped,
                       configs: ids.count, traces: traces.count, wallTime: wall, table: table)
    }

    static func json(_ v: ParamValue) -> JSONValue {
        switch v {
        case let .number(d): .number(d)
        case let .text(s): .string(s)
        }
    }
}
