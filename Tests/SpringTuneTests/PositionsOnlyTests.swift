import Foundation
import SpringLayout
import Testing
import TraceIO
@testable import SpringTune

/// A run without a timeline makes its engines without the per-frame drag velocity
/// (`presentsDragVelocity: false`, Performance.md): every metric, decision and settling must be
/// those of a run with the timeline (which presents the velocity), on every bundled preset's
/// traces, at the preset's own set and its sweep grid's first and last sets.
@Suite struct PositionsOnlyTests {
    @Test(arguments: try PresetStore().names())
    func runsWithoutTheDragVelocityMeasureTheSame(preset: String) throws {
        let loaded = try PresetStore().load(preset)
        let grid = try SweepGrid.make(preset: loaded.preset, kind: loaded.kind, vary: [], set: [:])
        let traces = try PresetStore.traceFiles(for: loaded).flatMap { try TraceReader().read(path: $0).traces }.map(loaded.kind.input)
        func check<M: MeasuredModel>(_: M.Type) throws {
            for values in [loaded.kind.values(of: loaded.preset), grid.values(0), grid.values(grid.count - 1)] {
                let model = try SweepRunner.model(M.self, values: values, scene: loaded.preset.scene)
                var compared = 0
                for trace in traces {
                    let prepared = model.prepare(trace)
                    let fast = model.run(prepared, timeline: false), drawn = model.run(prepared, timeline: true)
                    #expect(fast.decision == drawn.decision && fast.unsettled == drawn.unsettled, "\(preset) \(trace.id)")
                    for m in M.metrics where fast.metrics[m] != drawn.metrics[m] {
                        Issue.record("\(preset) \(trace.id) \(m.name): \(String(describing: fast.metrics[m])) vs \(String(describing: drawn.metrics[m]))")
                    }
                    compared += 1
                }
                #expect(compared == traces.count && compared > 0)
            }
        }
        try check(loaded.kind.type)
    }
}
