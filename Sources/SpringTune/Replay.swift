import Foundation
import SpringLayout
import TraceIO

/// `springtune replay`: one trace through one parameter set, with its timeline.
public enum Replay {
    public struct Outcome: Sendable {
        public var run: TraceRun
        public var timeline: String
        public var summary: JSONValue
        public var chart: Chart
    }

    /// Runs `trace` under the preset's values with `set` applied (swept axes are ignored: a
    /// replay is one parameter set).
    public static func run(_ loaded: PresetStore.Loaded, set: [String: ParamValue], trace: Trace) throws -> Outcome {
        var values = loaded.kind.values(of: loaded.preset)
        for (k, v) in set { values[k] = v }
        func typed<M: MeasuredModel>(_: M.Type) throws -> TraceRun {
            let model = try SweepRunner.model(M.self, values: values, scene: loaded.preset.scene)
            return model.run(model.prepare(loaded.kind.input(trace)), timeline: true)
        }
        let run = try typed(loaded.kind.type)
        var w = CSVWriter()
        w.header(["t", "item", "y", "anchor", "velocity"])
        for r in run.timeline { w.row([.number(r.t), .integer(r.item), .number(r.y), .number(r.anchor), .number(r.velocity)]) }
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
        var byItem: [Int: [(Double, Double)]] = [:]
        for r in run.timeline { byItem[r.item, default: []].append((r.t, r.y)) }
        let series = byItem.keys.sorted().map { Chart.Series(label: "item \($0)", points: byItem[$0]!) }
        let chart = Chart(name: "timeline", title: "\(trace.id): screen y per item (\(loaded.preset.name))",
                          panels: [.lines(title: "timeline", x: "t (s)", y: "screen y (pt)", series: series, logX: false)])
        return Outcome(run: run, timeline: w.text, summary: .object(fields), chart: chart)
    }
}
