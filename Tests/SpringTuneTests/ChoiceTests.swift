import Foundation
import Testing
@testable import SpringLayout
@testable import SpringTune
import ToolRuntime
import TraceIO

/// A best preset chosen for a reason: ties, grid edges, refinement, scene axes, robust choice.
@Suite struct ChoiceTests {
    func table(_ rows: [[String]]) throws -> SweepReport {
        try Fixture.report(["config_id", "p", "frameRate", "traces", "dismiss_accuracy", "false_dismiss_rate", "overshoot_pt_p95", "settle_time_p95"], rows)
    }

    @Test func tiesWithinOneBillionthGoToTheTiebreak() throws {
        let t = try table([
            ["0", "1", "60", "9", "0.9", "0.01", "98.5", "1.3"],
            ["1", "2", "60", "9", "0.9000000000001", "0.01", "27.7", "1.1"],
            ["2", "3", "60", "9", "0.9", "0.01", "0.92", "0.9"],
            ["3", "4", "60", "9", "0.95", "0.2", "0.1", "0.5"],      // best accuracy, fails the constraint
            ["4", "5", "60", "9", "0.8", "0.0", "0.1", "0.5"],
        ])
        let r = Ranking(constraints: [try Constraint(parsing: "false_dismiss_rate <= 0.05")], column: "dismiss_accuracy", maximize: true,
                        tiebreak: ["overshoot_pt_p95", "settle_time_p95"])
        let ranked = try r.ranked(t)
        #expect(ranked.map(\.row.configId) == [2, 1, 0, 4])
        #expect(ranked.map(\.tiesPrevious) == [false, true, true, false])
        // Without a tiebreak list the constraint columns break ties (here: all equal), then the
        // centre of the tied sets' region (p = 1…3: p = 2 first), then config_id.
        let plain = Ranking(constraints: [try Constraint(parsing: "false_dismiss_rate <= 0.05")], column: "dismiss_accuracy", maximize: true)
        #expect(plain.tiebreak == ["false_dismiss_rate"])
        #expect(Array(try plain.rank(t).prefix(3)) == [t.rows[1], t.rows[0], t.rows[2]])
    }

    @Test func worstCaseOverAnAxis() throws {
        let t = try table([
            ["0", "1", "60", "9", "0.9", "0", "1", "1.0"], ["1", "1", "120", "9", "0.9", "0", "1", "3.0"],
            ["2", "2", "60", "9", "0.9", "0", "1", "2.0"], ["3", "2", "120", "9", "0.9", "0", "1", "2.0"],
        ])
        let r = Ranking(constraints: [], column: "settle_time_p95", maximize: false, worstOver: ["frameRate"])
        let ranked = try r.ranked(t)
        // p = 2 is worst 2.0 on both displays; p = 1 is 3.0 at 120 Hz, so p = 2 wins.
        #expect(ranked.map(\.row.configId) == [2, 0])
        #expect(ranked[0].objective == 2 && ranked[0].rows.count == 2)
    }

    @Test func tweetbotExportBreaksTheAccuracyTieByOvershoot() throws {
        let dir = Fixture.tempDir()
        let outcome = try Fixture.sweep("tweetbot", vary: ["distanceThreshold=40", "flickVelocity=800", "maxFlickAngle=30", "snapDamping=0.5,0.7,0.9"],
                                        threads: 2, out: dir)
        let t = outcome.table
        let acc = try t.index(of: "dismiss_accuracy"), over = try t.index(of: "overshoot_pt_p95")
        #expect(Set(t.rows.map { t.value($0, acc) }).count == 1)        // the three sets tie on accuracy
        let preset = try Export.preset(report: outcome.report, configId: nil)
        let least = t.rows.min { t.number($0, over)! < t.number($1, over)! }!
        #expect(preset.provenance?.configId == least.configId)
        #expect(preset.spring.damping == 0.9)
    }

    @Test func gridEdgesNameTheAxisAndDirection() throws {
        let grid = SweepGrid(axes: [SweepAxis(name: "damping", values: [0.5, 0.8, 1.1]), SweepAxis(name: "frequency", values: [1, 2]),
                                    SweepAxis(name: "rowHeight", values: [60])], base: [:])
        #expect(grid.edges(of: 1) == [SweepGrid.Edge(axis: "damping", value: 0.5, upper: false), SweepGrid.Edge(axis: "frequency", value: 2, upper: true)])
        #expect(grid.edges(of: 2) == [SweepGrid.Edge(axis: "frequency", value: 1, upper: false)])   // damping 0.8 is inside
        #expect(grid.edges(of: 2, except: ["frequency"]).isEmpty)
        #expect(grid.edges(of: 1)[0].advice.contains("extend damping downwards"))
    }

    @Test func refinementRoundsAreNoWorseAndDeterministic() throws {
        func refine(_ out: String) throws -> (rounds: [Refinement.Round], best: Refinement.Round?) {
            var job = SweepJob(loaded: try Fixture.store.load("evernote"), outputDirectory: out)
            job.vary = try ["boundaryResistance=10,20", "damping=0.5,0.8,1.1", "frequency=0.7:2.8:3:log"].map(SweepGrid.parseVary)
            job.charts = false
            job.threads = 2
            return try Refinement(job: job, rounds: 2).run()
        }
        let a = Fixture.tempDir(), b = Fixture.tempDir()
        let (rounds, best) = try refine(a)
        #expect(rounds.count == 3)
        for k in 0...2 { #expect(FileManager.default.fileExists(atPath: "\(a)/round-\(k)/report.csv")) }
        let objective = rounds.map { $0.best?.objective ?? .infinity }
        #expect(objective[2] <= objective[0] && objective[1] <= objective[0])
        #expect(best?.best?.objective == objective.min())
        // Round 1 spans half a log step on each side of the best frequency, in log space.
        let freq = rounds[1].outcome.grid.axes.first { $0.name == "frequency" }!.numbers!
        #expect(freq.count == 3 && abs(log(freq[2] / freq[1]) - log(freq[1] / freq[0])) < 1e-12)
        #expect(abs(log(freq[2] / freq[0]) - log(2.8 / 0.7) / 2) < 1e-12)
        _ = try refine(b)
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(a)/round-2/report.csv")) == Data(contentsOf: URL(fileURLWithPath: "\(b)/round-2/report.csv")))
    }

    @Test func frameRateIsASweepableAxis() throws {
        let outcome = try Fixture.sweep("evernote", vary: ["frameRate=60,120", "boundaryResistance=10", "damping=0.7", "frequency=2"],
                                        threads: 2, out: Fixture.tempDir())
        let t = outcome.table
        #expect(t.parameterColumns == ["boundaryResistance", "damping", "frequency", "frameRate"])
        let settle = try t.index(of: "settle_time_mean")
        #expect(t.value(t.rows[0], settle) != t.value(t.rows[1], settle))
        // The exported preset carries the chosen frame rate in its scene.
        let preset = try Export.preset(report: outcome.report, configId: 0)
        #expect(preset.scene.frameRate == 60 && preset.params["frameRate"] == nil)
        #expect(throws: ToolError.self) { try SweepGrid.parseVary("frameRate=0").values.forEach { _ in
            _ = try SweepGrid.make(preset: try Fixture.store.load("evernote").preset, kind: ModelKind(type: FlowLayout.self),
                                   vary: [try SweepGrid.parseVary("frameRate=0")], set: [:]) } }
    }
}
