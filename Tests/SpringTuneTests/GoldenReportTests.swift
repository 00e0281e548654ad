import Foundation
import Testing
@testable import SpringLayout
@testable import SpringTune
import TraceIO

/// Report-level safety nets: per model, a small fixed grid over the preset's bundled traces
/// whose `report.csv` is checked in under `Tests/Golden/`. A change that moves any number
/// fails here. To regenerate on purpose (and say why in the commit):
/// `SPRINGTUNE_REGENERATE_GOLDEN=1 swift test --filter GoldenReportTests`.
@Suite struct GoldenReportTests {
    /// The grids chosen by hand for the first eight presets (their golden files are the record).
    static let chosen: [(preset: String, vary: [String])] = [
        ("evernote", ["boundaryResistance=6,14", "damping=0.5,1", "frequency=1,2.5"]),
        ("messages", ["scrollResistance=800,1600", "damping=0.6,1", "frequency=1,2"]),
        ("tweetbot", ["distanceThreshold=40,80", "flickVelocity=500,1000", "snapDamping=0.5,0.9"]),
        ("appstore", ["commitProgress=0.2,0.4", "flickVelocity=500,1000", "dampingRatio=0.6,0.9"]),
        ("clear", ["commitFraction=0.5,0.9", "frequency=2,4", "damping=0.5,0.9"]),
        ("clear-pinch", ["commitFraction=0.6,0.9", "frequency=2,4", "damping=0.5,0.9"]),
        ("clear-fold", ["commitFraction=0.6,0.9", "frequency=2,4", "damping=0.5,0.9"]),
        ("evernote-transition", ["completionCurve=linear,spring", "finishVelocity=0,300", "finishProgress=0.5,1.01"]),
    ]

    /// Every bundled preset: its chosen grid, or the two ends of its first three sweep axes (a
    /// new preset is covered without a line here; its golden file is written on the first run
    /// with SPRINGTUNE_REGENERATE_GOLDEN=1, and the test fails until it exists).
    static let cases: [(preset: String, vary: [String])] = ((try? Fixture.store.names()) ?? []).map { name in
        if let given = chosen.first(where: { $0.preset == name }) { return given }
        let axes = (try? Fixture.store.load(name).preset.sweep) ?? []
        return (name, axes.prefix(3).map { axis in
            let values = axis.values.map(\.description)
            return "\(axis.name)=\(values.first ?? ""),\(values.last ?? "")"
        })
    }

    @Test(arguments: cases.map(\.preset))
    func reportMatchesTheCheckedInOne(preset: String) throws {
        let vary = Self.cases.first { $0.preset == preset }!.vary
        let loaded = try Fixture.store.load(preset)
        // Every preset axis not varied here is fixed at the preset's value, so the grid is small.
        let varied = Set(vary.map { String($0.prefix { $0 != "=" }) })
        var set: [String: ParamValue] = [:]
        let base = loaded.kind.values(of: loaded.preset)
        for axis in loaded.preset.sweep where !varied.contains(axis.name) {
            set[axis.name] = base[axis.name] ?? loaded.kind.parameters.first { $0.name == axis.name }!.defaultValue
        }
        let outcome = try Fixture.sweep(preset, vary: vary, set: set, threads: 2, out: Fixture.tempDir())
        let produced = try String(contentsOfFile: outcome.report, encoding: .utf8)
        let golden = Fixture.repo.appendingPathComponent("Tests/Golden/\(preset).csv").path
        if ProcessInfo.processInfo.environment["SPRINGTUNE_REGENERATE_GOLDEN"] == "1" {
            try produced.write(toFile: golden, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOfFile: golden, encoding: .utf8)
        #expect(produced == expected, "report of \(preset) differs from Tests/Golden/\(preset).csv")
        #expect(outcome.configs == 8)
    }
}

/// The gnuplot scripts a sweep writes: units on the axes, one data block per series, only
/// finite numbers in the data, and both images named after the chart.
@Suite struct SweepChartScriptTests {
    @Test func defaultChartsCarryUnitsAndDrawBothImages() throws {
        let outcome = try Fixture.sweep("evernote", vary: ["boundaryResistance=10", "damping=0.5,1", "frequency=0.5:4:3:log"], threads: 2, out: Fixture.tempDir())
        let kind = try Fixture.store.load("evernote").kind
        let charts = try ReportCharts.sweepDefaults(outcome.table, kind: kind)
        // One chart per per-trace metric and per set-level metric, plus a heatmap of each but `unsettled`.
        #expect(charts.count == 2 * (kind.metrics.count + kind.setMetrics.count) - 1)
        let settle = try #require(charts.first { $0.name == "settle_time" })
        let script = settle.script
        #expect(script.contains("set xlabel \"damping (ratio)\""))
        #expect(script.contains("set xlabel \"frequency (Hz)\""))
        #expect(script.contains("set ylabel \"settle_time (s)\""))
        #expect(script.contains("set output 'settle_time.png'") && script.contains("set output 'settle_time.svg'"))
        // 2 panels (one per parameter swept over two or more values: boundaryResistance has one)
        // × 2 series (_mean, _p95), each its own data block.
        #expect(script.components(separatedBy: "index ").count - 1 == 2 * 2 * 2)
        #expect(!script.contains("boundaryResistance"))
        #expect(!script.split(separator: "\n").contains { $0.hasPrefix("!") || $0.contains("system(") })
        for line in settle.data.split(separator: "\n") {
            for field in line.split(separator: " ") { #expect(Double(field)?.isFinite == true, "data field \(field)") }
        }
        let heatmap = try #require(charts.first { $0.name == "heatmap-settle_time_p95" })
        #expect(heatmap.script.contains("set cblabel \"settle_time_p95 (s)\""))
    }
}
