import Foundation
import SpringCore
import SpringLayout
import ToolRuntime
import TraceIO

/// `springtune replay`: one trace through one parameter set, with its timeline.
public enum Replay {
    public struct Outcome: Sendable {
        public var run: TraceRun
        public var summary: JSONValue
        /// The screen at every simulated frame (t from the first sample), for animations.
        public var pictures: [(t: Double, shapes: [Animation.Shape])]
        /// Where an animation of the run should end (s from the first sample): shortly after
        /// everything is at rest, or the end of the run.
        public var restTime: Double
        /// The trace as the model read it (its fingers are drawn).
        public var trace: Trace
        /// The values the run used.
        public var values: [String: ParamValue]
        /// The screen the run used (pt).
        public var sceneSize: SIMD2<Double>
        /// The preset's name, for the chart's title.
        public var presetName: String

        /// The timeline as CSV: `t,item,y,anchor,velocity` (made when asked: the studio never does).
        public var timeline: String {
            var w = CSVWriter()
            w.header(["t", "item", "y", "anchor", "velocity"])
            for r in run.timeline { w.row([.number(r.t), .integer(r.item), .number(r.y), .number(r.anchor), .number(r.velocity)]) }
            return w.text
        }

        /// Screen y per item over time.
        public var chart: Chart {
            var byItem: [Int: [(Double, Double)]] = [:]
            for r in run.timeline { byItem[r.item, default: []].append((r.t, r.y)) }
            let series = byItem.keys.sorted().map { Chart.Series(label: "item \($0)", points: byItem[$0]!) }
            return Chart(name: "timeline", title: "\(trace.id): screen y per item (\(presetName))",
                         panels: [.lines(title: "timeline", x: "t (s)", y: "screen y (pt)", series: series, logX: false)])
        }
    }

    /// The preset's values with `set` applied.
    public static func values(_ loaded: PresetStore.Loaded, set: [String: ParamValue]) -> [String: ParamValue] {
        var values = loaded.kind.values(of: loaded.preset)
        for (k, v) in set { values[k] = v }
        return values
    }

    /// Runs `trace` under the preset's values with `set` applied (swept axes are ignored: a
    /// replay is one parameter set).
    public static func run(_ loaded: PresetStore.Loaded, set: [String: ParamValue], trace: Trace) throws -> Outcome {
        let values = Self.values(loaded, set: set)
        let input = loaded.kind.input(trace)
        func typed<M: MeasuredModel>(_: M.Type) throws -> (TraceRun, [(t: Double, shapes: [Animation.Shape])]) {
            let model = try SweepRunner.model(M.self, values: values, scene: loaded.preset.scene)
            let run = model.run(model.prepare(input), timeline: true)
            var pictures: [(t: Double, shapes: [Animation.Shape])] = []
            var start = 0
            while start < run.timeline.count {
                var end = start
                while end < run.timeline.count, run.timeline[end].t == run.timeline[start].t { end += 1 }
                pictures.append((run.timeline[start].t, model.picture(Array(run.timeline[start..<end]))))
                start = end
            }
            return (run, pictures)
        }
        let (run, pictures) = try typed(loaded.kind.type)
        var fields: [(String, JSONValue)] = [("trace", .string(trace.id)), ("intent", trace.intent.map { .string($0.rawValue) } ?? .null),
                                             ("preset", .string(loaded.preset.name)), ("model", .string(loaded.preset.model))]
        fields.append(("values", .object(values.keys.sorted().map { name in
            switch values[name]! {
            case let .number(d): (name, .number(d))
            case let .text(s): (name, .string(s))
            }
        })))
        fields.append(("decision", run.decision.map { .string($0.rawValue) } ?? .null))
        for m in loaded.kind.metrics { fields.append((m.name, .number(run.metrics[m]))) }
        fields.append(("unsettled", .bool(run.unsettled)))
        let lift = (input.samples.last?.t ?? 0) - (input.samples.first?.t ?? 0)
        let settled = [MetricSpec.settleTime, .exitTime].compactMap { run.metrics[$0] }.first { $0.isFinite } ?? (run.metrics.values.isEmpty ? 0 : .infinity)
        let restTime = min(pictures.last?.t ?? 0, lift + settled + 0.5)
        return Outcome(run: run, summary: .object(fields), pictures: pictures, restTime: restTime,
                       trace: input, values: values, sceneSize: SIMD2(loaded.preset.scene.width, loaded.preset.scene.height),
                       presetName: loaded.preset.name)
    }
}

extension Replay {
    /// The engine's record of `trace` under the preset's values with `set` applied, as `run`
    /// takes them (what the WebAssembly module is checked against, Reference §15).
    public static func engine(_ loaded: PresetStore.Loaded, set: [String: ParamValue], trace: Trace) throws -> EngineRecord {
        let values = Self.values(loaded, set: set)
        func typed<M: MeasuredModel>(_: M.Type) throws -> EngineRecord {
            EngineRecord(try SweepRunner.model(M.self, values: values, scene: loaded.preset.scene), trace: loaded.kind.input(trace))
        }
        return try typed(loaded.kind.type)
    }

    /// What the module starts an engine with for the preset's values with `set` applied
    /// (a bad value: usage error).
    public static func engineStart(_ loaded: PresetStore.Loaded, set: [String: ParamValue]) throws -> EngineStart {
        let values = Self.values(loaded, set: set)
        func typed<M: MeasuredModel>(_: M.Type) throws -> EngineStart { EngineStart(try SweepRunner.model(M.self, values: values, scene: loaded.preset.scene)) }
        return try typed(loaded.kind.type)
    }

    /// One animation of replays of the same trace, side by side: each panel labelled with the
    /// values in `labelled` (default: the model's spring) and every other value that differs
    /// between the runs, then its key metrics; every panel runs until the last one is at rest.
    public static func animation(_ runs: [Outcome], kind: ModelKind, labelled: [String], fps: Double, speed: Double,
                                 name: String = "replay") -> Animation {
        let duration = runs.map(\.restTime).max() ?? 0
        let named = labelled.isEmpty ? kind.springParameterNames : labelled
        let keys = named + differing(runs).filter { !named.contains($0) }
        let panels = runs.map { r in
            Animation.panel(label: label(r, keys: keys), pictures: r.pictures, trace: r.trace, duration: duration, fps: fps, speed: speed)
        }
        let scene = runs.first.map { loadedScene($0) } ?? SIMD2(390, 844)
        return Animation(name: name, screen: scene, panels: panels, fps: fps, speed: speed)
    }

    /// Most panels an animation draws side by side (the GIF is 360 px a panel).
    public static let maxPanels = 4

    /// The parameter sets `replay --vs` compares with `base`, in order: each `--vs` changes the
    /// current set, and one whose name the current set already changed starts the next set
    /// (`--vs damping=0.4 --vs damping=0.6`: two sets). Throws (usage) past ``maxPanels``.
    public static func comparedSets(base: [String: ParamValue], vs: [(String, ParamValue)]) throws -> [[String: ParamValue]] {
        var sets: [[String: ParamValue]] = [], current = base, changed = Set<String>()
        for (name, value) in vs {
            if !changed.insert(name).inserted {
                sets.append(current)
                (current, changed) = (base, [name])
            }
            current[name] = value
        }
        if !changed.isEmpty { sets.append(current) }
        guard sets.count < maxPanels else {
            throw ToolError(.usage, "--vs gives \(sets.count) parameter sets besides the first; at most \(maxPanels - 1) fit side by side")
        }
        return sets
    }

    /// The names whose values are not the same in every run, sorted.
    static func differing(_ runs: [Outcome]) -> [String] {
        Set(runs.flatMap(\.values.keys)).filter { k in Set(runs.map { $0.values[k]?.description ?? "" }).count > 1 }.sorted()
    }

    /// The screen size a run used.
    static func loadedScene(_ r: Outcome) -> SIMD2<Double> {
        SIMD2(r.values["width"]?.number ?? r.sceneSize.x, r.values["height"]?.number ?? r.sceneSize.y)
    }

    /// `damping 0.4` parts for `keys`, then `settle 1.21 s · overshoot 3.1 pt · dismiss`.
    static func label(_ r: Outcome, keys: [String]) -> PanelLabel {
        let parameters = keys.compactMap { k in r.values[k].map { "\(k) \($0.number.map { NumberFormat.significant($0, 4) } ?? $0.description)" } }
        var metrics: [String] = []
        if let s = r.run.metrics[.settleTime] { metrics.append(s.isFinite ? "settle \(NumberFormat.fixed(s, 2)) s" : "never settles") }
        if let o = r.run.metrics[.overshootPt] { metrics.append("overshoot \(NumberFormat.fixed(o, 1)) pt") }
        if let d = r.run.decision { metrics.append(d.rawValue) }
        return PanelLabel(parameters: parameters, metrics: metrics)
    }
}

extension Replay {
    /// A report's best set under its preset's objective, replayed on the trace `id` (the preset
    /// and trace files come from the report's sidecar), for `compare --animate`.
    public static func best(report: String, trace id: String) throws -> Outcome {
        let table = try SweepReport.read(report, sidecar: .required)
        let meta = table.meta!
        let loaded = PresetStore.Loaded(preset: meta.preset, path: meta.presetFile, kind: try ModelKind(name: meta.preset.model))
        guard let row = try Ranking(objective: meta.preset.objective).rank(table).first else {
            throw ToolError(.dataError, "\(report): no parameter set meets the objective, nothing to animate")
        }
        let set = table.values(of: row)
        var found: Trace?
        for file in meta.traces.map(\.file) where found == nil {
            try TraceReader().forEachTrace(path: file) { t in if t.id == id && found == nil { found = t } }
        }
        guard let found else { throw ToolError(.usage, "no trace '\(id.prefix(80))' in the trace files of \(report)") }
        return try run(loaded, set: set, trace: found)
    }
}
