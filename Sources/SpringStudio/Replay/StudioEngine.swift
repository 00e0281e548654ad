import Foundation
import SpringCore
import SpringLayout
import SpringTune
import ToolRuntime
import TraceIO

/// What the studio runs: one preset, its traces held in memory, and one parameter set at a time
/// through the very engines a sweep runs (Reference §10.16). Immutable after it is made, so the
/// server's request handlers share it freely.
public struct StudioEngine: Sendable {
    /// A trace as the page lists it: its id, what kind of gesture it is, and its label.
    public struct TraceInfo: Sendable, Equatable {
        public var id: String
        /// `fling`, `drag`, `pinch` or `edge pull` (see ``kind(of:estimator:)``).
        public var kind: String
        /// The recorded intent (`dismiss`, `keep`, …) when the trace is labelled.
        public var intent: String?
        /// Touch-down to lift-off (s).
        public var duration: Double
    }

    /// One trace replayed: the frames the page draws and the trace's metrics.
    public struct TraceReplay: Sendable {
        public var info: TraceInfo
        public var outcome: Replay.Outcome
    }

    public let loaded: PresetStore.Loaded
    public let traces: [Trace]
    /// The same traces as a sweep runs them, with each trace's group (Reference §14): held in
    /// memory, made once, so that no request reads a file.
    public let source: TraceSource
    public let infos: [TraceInfo]
    /// The trace files, as the page and the session name them.
    public let files: [String]

    /// Most samples the studio holds in memory (all traces of the session, about 40 bytes each).
    public static let maxSamples = 2_000_000

    /// Loads the traces of `files` (the preset's own when empty), validated as a sweep reads
    /// them; throws a one-line error for a bad file or a set over ``maxSamples``.
    public init(loaded: PresetStore.Loaded, files: [String]) throws {
        self.loaded = loaded
        let files = files.isEmpty ? PresetStore.traceFiles(for: loaded) : files
        self.files = files
        let source = try TraceSource(files: files, kind: loaded.kind, skipInvalid: false, scene: loaded.preset.scene,
                                     blockSamples: Self.maxSamples)
        guard source.isResident else {
            throw ToolError(.dataError, "\(files.joined(separator: ", ")): more than \(Self.maxSamples) samples and frames; the studio holds its traces in memory: give fewer traces with --traces")
        }
        var all: [Trace] = []
        try source.forEachBlock { all += $0 }
        var seen = Set<String>()
        for t in all where !seen.insert(t.id).inserted {
            throw ToolError(.dataError, "trace id '\(t.id.prefix(80))' appears twice in \(files.joined(separator: ", ")); the studio names traces by id")
        }
        traces = all
        self.source = source
        infos = all.map { Self.info($0, estimator: loaded.preset.scene.estimator) }
    }

    private init(loaded: PresetStore.Loaded, traces: [Trace], infos: [TraceInfo], files: [String]) {
        self.loaded = loaded; self.traces = traces; self.infos = infos; self.files = files
        source = TraceSource(traces: traces, kind: loaded.kind)
    }

    /// These traces and `recorded` after them (the session's live recordings the designer added,
    /// Reference §10.16, live touch): what replay, rounds and evaluate then use. 409 for an id a trace file has.
    public func adding(_ recorded: [Trace]) throws -> StudioEngine {
        for t in recorded where infos.contains(where: { $0.id == t.id }) {
            throw StudioError.conflict("a trace of this studio is already named '\(t.id)'")
        }
        return StudioEngine(loaded: loaded, traces: traces + recorded,
                            infos: infos + recorded.map { Self.info($0, estimator: loaded.preset.scene.estimator) }, files: files)
    }

    /// How the page lists `trace`.
    static func info(_ trace: Trace, estimator: VelocityEstimator) -> TraceInfo {
        TraceInfo(id: trace.id, kind: kind(of: trace, estimator: estimator), intent: trace.intent?.rawValue,
                  duration: trace.liftOffTime - (trace.samples.first?.t ?? 0))
    }

    /// Release speed (pt/s) from which a one-finger gesture is a fling rather than a drag that
    /// stops before lift-off.
    public static let flingSpeed = 250.0
    /// Width (pt) of the screen edge where a pan begins as an edge pull (UIKit's screen-edge pan).
    public static let edgeWidth = 20.0

    /// The gesture's kind: `pinch` with several fingers, `edge pull` when it begins within
    /// ``edgeWidth`` of the left edge, `fling` when released at ``flingSpeed`` or faster, else `drag`.
    public static func kind(of trace: Trace, estimator: VelocityEstimator) -> String {
        if trace.pointers.count > 1 { return "pinch" }
        if (trace.firstPointer.samples.first?.x ?? .infinity) <= edgeWidth { return "edge pull" }
        let v = estimator.releaseVelocity(of: trace.firstPointer)
        return (v.x * v.x + v.y * v.y).squareRoot() >= flingSpeed ? "fling" : "drag"
    }

    /// Replays the traces `ids` (all when empty) under `params` (parameter names; the others keep
    /// the preset's values).
    public func replay(_ params: [String: ParamValue], traces ids: [String]) throws -> [TraceReplay] {
        let picked = try pick(ids)
        return try picked.map { i in
            TraceReplay(info: infos[i], outcome: try Replay.run(loaded, set: params, trace: traces[i]))
        }
    }

    /// Replays a trace that is not one of the studio's (a live recording) under `params`.
    public func replay(_ params: [String: ParamValue], trace: Trace) throws -> TraceReplay {
        TraceReplay(info: Self.info(trace, estimator: loaded.preset.scene.estimator), outcome: try Replay.run(loaded, set: params, trace: trace))
    }

    /// The report row of `params` over every trace: the aggregates a sweep writes for that set,
    /// by report column name.
    public func evaluate(_ params: [String: ParamValue]) throws -> [(name: String, value: MetricValue)] {
        var base = loaded.kind.values(of: loaded.preset)
        for (k, v) in params { base[k] = v }
        let grid = SweepGrid(axes: [], base: base)
        let runner = SweepRunner(kind: loaded.kind, scene: loaded.preset.scene, sets: grid, threads: 1)
        guard let result = try runner.run(source).first else {
            throw ToolError(.software, "a one-set grid ran no set")
        }
        let row = SweepReport.Row(result, kind: loaded.kind)
        return zip(loaded.kind.reportColumns, row.values).map { ($0.name, $1) }
    }

    /// `sets` (parameter names; the others keep the preset's values) run together over every
    /// trace, on every core, each kept trace by trace with who made it (Reference §14): what
    /// intervals, a round's noise, how sure and per-group verdicts are computed from. Each
    /// set's report row is ``evaluate(_:)``'s.
    public func measure(_ sets: [[String: ParamValue]]) throws -> [MeasuredSet] {
        guard !sets.isEmpty else { return [] }
        let base = loaded.kind.values(of: loaded.preset)
        let names = Set(sets.flatMap(\.keys)).sorted()
        let rows = try sets.map { set in
            try names.map { name in
                guard let v = set[name] ?? base[name] else { throw ToolError(.software, "no value of \(name) for one of the sets") }
                return v
            }
        }
        let runner = SweepRunner(kind: loaded.kind, scene: loaded.preset.scene, sets: ParameterSetList(names: names, base: base, rows: rows),
                                 threads: ProcessInfo.processInfo.activeProcessorCount, keepPerTrace: true)
        let results = try runner.run(source)
        guard results.count == sets.count else { throw ToolError(.software, "\(sets.count) sets ran as \(results.count)") }
        return results.map { MeasuredSet(kind: loaded.kind, result: $0, tags: source.tags) }
    }

    /// How long before its release a round starts its trace (s): the approach, then the release.
    public static let leadIn = 0.3

    /// The trace on which `sets` look most different, and where a round starts it: the largest
    /// distance between any two sets' drawn positions (the shapes `replay --animate` draws, each
    /// compared edge by edge, frame by frame; a replay that ended holds its last frame), and
    /// ``leadIn`` before that trace's release (0 when it is released sooner). Ties: the earlier
    /// trace. Replays every set on every trace, on every core.
    public func mostDifferent(_ sets: [[String: ParamValue]]) throws -> (trace: String, start: Double, distance: Double) {
        let spread = Guarded([Double](repeating: -1, count: traces.count))
        DispatchQueue.concurrentPerform(iterations: traces.count) { i in
            // A set that cannot replay a trace leaves that trace out.
            guard let pictures = try? sets.map({ try Replay.run(loaded, set: $0, trace: traces[i]).pictures.map(\.shapes) }) else { return }
            var most = 0.0
            for a in pictures.indices { for b in pictures.indices where b > a { most = Swift.max(most, Self.distance(pictures[a], pictures[b])) } }
            spread.update { var v = $0; v[i] = most; return v }
        }
        let values = spread.value
        guard let best = values.indices.filter({ values[$0] >= 0 }).max(by: { values[$0] < values[$1] || (values[$0] == values[$1] && $0 > $1) }) else {
            throw StudioError.conflict("no trace replays under these sets")
        }
        let t = traces[best], t0 = t.samples.first?.t ?? 0
        return (t.id, Swift.max(0, NumberFormat.typed(t.liftOffTime - t0 - Self.leadIn)), values[best])
    }

    /// The largest distance (pt) between two replays' drawn shapes: per frame (a replay that
    /// ended holds its last), per shape both have, the largest move of an edge.
    static func distance(_ a: [[Animation.Shape]], _ b: [[Animation.Shape]]) -> Double {
        guard !a.isEmpty, !b.isEmpty else { return 0 }
        var most = 0.0
        for k in 0..<Swift.max(a.count, b.count) {
            let p = a[Swift.min(k, a.count - 1)], q = b[Swift.min(k, b.count - 1)]
            for (s, r) in zip(p, q) {
                let d = Swift.max(abs(s.x - r.x), abs(s.y - r.y), abs(s.x + s.width - r.x - r.width), abs(s.y + s.height - r.y - r.height))
                if d.isFinite { most = Swift.max(most, d) }
            }
        }
        return most
    }

    /// Indices of the traces `ids` in the given order (all when empty); an unknown id throws.
    func pick(_ ids: [String]) throws -> [Int] {
        if ids.isEmpty { return Array(traces.indices) }
        return try ids.map { id in
            guard let i = infos.firstIndex(where: { $0.id == id }) else {
                throw StudioError.notFound("no trace '\(id.prefix(80))' in this studio")
            }
            return i
        }
    }
}
