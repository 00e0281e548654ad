import Foundation
import Testing
import SpringLayout
@testable import SpringTune
import ToolRuntime
import TraceIO

/// `compare --fail-on-regression` (Reference §10.3): `--tolerance` values, and the verdict on
/// A's chosen set in B.
@Suite struct ToleranceTests {
    func usageError(_ text: String) -> Bool {
        do { _ = try Tolerance(parsing: text); return false } catch let e as ToolError { return e.code == .usage } catch { return false }
    }

    @Test func parsesEachKind() throws {
        #expect(try Tolerance(parsing: "2%").kind == .relative(0.02))
        #expect(try Tolerance(parsing: "0.02").kind == .relative(0.02))           // a bare number: a fraction, as before
        #expect(try Tolerance(parsing: "0.01s").kind == .absolute(0.01, unit: "s"))
        #expect(try Tolerance(parsing: "0.5 pt").kind == .absolute(0.5, unit: "pt"))
        #expect(try Tolerance(parsing: "1e-3s").kind == .absolute(0.001, unit: "s"))
        #expect(try Tolerance(parsing: "1frame").kind == .frames(1))
        #expect(try Tolerance(parsing: "2frames").kind == .frames(2))
        #expect(try Tolerance(parsing: "2frames").description == "2 frames")
        #expect(try Tolerance(parsing: "0.5%").description == "0.5%")
    }

    @Test func refusesWhatItCannotMean() {
        for bad in ["", "abc", "2px", "-1%", "inf", "nan", "1 fram", "s", "20000%"] { #expect(usageError(bad), "\(bad)") }
    }

    @Test func eachMetricTakesTheToleranceOfItsUnit() throws {
        let given = try ["1frame", "0.5pt", "3%"].map(Tolerance.init(parsing:))
        #expect(Tolerance.applicable(given, unit: "s").kind == .frames(1))
        #expect(Tolerance.applicable(given, unit: "pt").kind == .absolute(0.5, unit: "pt"))
        #expect(Tolerance.applicable(given, unit: "1").kind == .relative(0.03))   // no tolerance of its unit: the relative one
        #expect(Tolerance.applicable([given[0]], unit: "pt") == Tolerance.defaultRelative)
        #expect(Tolerance.summary(given) == "1 frame, 0.5 pt, 3% otherwise")
    }

    @Test func marginsOfEachKind() throws {
        // One frame at 40 Hz is 1/40 s = 0.025 s; 2 % of 0.925 s is 0.0185 s.
        #expect(try Tolerance(parsing: "1frame").margin(a: 0.925, frameRate: 40) == 0.025)
        #expect(abs(try Tolerance(parsing: "2%").margin(a: 0.925, frameRate: 40) - 0.0185) < 1e-15)
        #expect(try Tolerance(parsing: "0.01s").margin(a: 0.925, frameRate: 40) == 0.01)
        // A move of exactly one frame is within one frame despite rounding (0.95 − 0.925 > 0.025 in binary).
        #expect(Comparison.verdict(a: 0.925, b: 0.95, better: .lower, margin: 0.025) == .same)
        #expect(Comparison.verdict(a: 0.925, b: 0.975, better: .lower, margin: 0.025) == .worse)
        #expect(Comparison.verdict(a: 0.925, b: 0.95, better: .lower, margin: 0.0185) == .worse)
    }
}

@Suite struct ObjectiveVerdictTests {
    let header = ["config_id", "frameRate", "p", "traces", "dismiss_accuracy", "false_dismiss_rate", "overshoot_pt_p95", "settle_time_p95"]
    /// Tweetbot's objective.
    let ranking = Ranking(constraints: [try! Constraint(parsing: "false_dismiss_rate <= 0.05")], column: "dismiss_accuracy",
                          maximize: true, tiebreak: ["overshoot_pt_p95", "settle_time_p95"])

    /// A two-set report at 40 Hz: set p=1 (the chosen one: most accurate) with the given cells, and p=2.
    func report(_ chosen: [String], other p: String = "2") throws -> SweepReport {
        try Fixture.report(header, [["0", "40", "1", "10"] + chosen, ["1", "40", p, "10", "0.5", "0", "1", "0.5"]])
    }

    func verdict(_ a: [String], _ b: [String], other p: String = "2", _ tolerance: [String] = [], ranking: Ranking? = nil) throws -> ObjectiveVerdict {
        let ta = try report(a), tb = try report(b, other: p), tolerances = try tolerance.map(Tolerance.init(parsing:))
        let c = try Comparison(ta, tb, metrics: nil, tolerances: tolerances)
        return try ObjectiveVerdict(ta, tb, comparison: c, ranking: ranking ?? self.ranking, tolerances: tolerances)
    }

    @Test func judgesTheObjectiveItsConstraintsAndTheSpringColumns() throws {
        let base = ["0.9", "0.01", "3", "0.925"]
        #expect(ObjectiveVerdict.judgedColumns(ranking, in: try report(base), try report(base))
                == ["dismiss_accuracy", "false_dismiss_rate", "overshoot_pt_p95", "settle_time_p95"])
        let same = try verdict(base, base)
        #expect(!same.isRegression && same.undecidable == nil && same.compared == 4)
        // Same accuracy, 224 pt more overshoot: a regression naming the metric, both values and the tolerance.
        let overshoot = try verdict(base, ["0.9", "0.01", "227", "0.925"])
        #expect(overshoot.reasons == ["overshoot_pt_p95 of the chosen set (config 0): 3 → 227 pt (+224 pt), beyond the tolerance 1% = 0.03 pt"])
        // The constraint it met fails in B (and the column got worse too).
        let constraint = try verdict(base, ["0.9", "0.1", "3", "0.925"])
        #expect(constraint.reasons.count == 1 && constraint.reasons[0].contains("0.1 in B no longer meets false_dismiss_rate <= 0.05 (0.01 in A)"))
        // A value in A and none in B is a regression.
        #expect(try verdict(base, ["0.9", "0.01", "3", ""]).reasons == ["settle_time_p95 of the chosen set (config 0): 0.925 s in A, empty in B"])
        // Better everywhere is no regression.
        #expect(!(try verdict(base, ["0.95", "0", "1", "0.5"]).isRegression))
    }

    @Test func directionsForTheGate() throws {
        // Evernote's objective: a band on a column with no better side judges it by its constraints only.
        let evernote = Ranking(constraints: try ["peak_stretch_pt_p95 >= 18", "peak_stretch_pt_p95 <= 27.5", "my_score <= 3"].map(Constraint.init(parsing:)),
                               column: "settle_time_p95", maximize: false, tiebreak: ["jiggle_time_p95", "my_tiebreak"])
        #expect(ObjectiveVerdict.direction("peak_stretch_pt_p95", evernote) == .none)
        #expect(ObjectiveVerdict.direction("my_score", evernote) == .lower)
        #expect(ObjectiveVerdict.direction("my_tiebreak", evernote) == .lower)
        #expect(ObjectiveVerdict.direction("settle_time_p95", evernote) == .lower)
        #expect(ObjectiveVerdict.direction("dismiss_accuracy", ranking) == .higher)
        #expect(ObjectiveVerdict.direction("decision_time_p95", ranking) == .none)
    }

    @Test func framesTolerateWholeFrames() throws {
        let base = ["0.9", "0.01", "3", "0.925"], oneFrame = ["0.9", "0.01", "3", "0.95"], twoFrames = ["0.9", "0.01", "3", "0.975"]
        #expect(try verdict(base, oneFrame).isRegression)                  // 2.7 % > the default 1 %
        #expect(try verdict(base, oneFrame, ["2%"]).isRegression)          // and > 2 %
        #expect(!(try verdict(base, oneFrame, ["1frame"]).isRegression))   // 1/40 s
        #expect(try verdict(base, twoFrames, ["1frame"]).reasons.first?.hasSuffix("beyond the tolerance 1 frame = 0.025 s") == true)
        #expect(!(try verdict(base, twoFrames, ["0.05s"]).isRegression))
        #expect(try verdict(base, twoFrames, ["0.04s"]).isRegression)
    }

    @Test func failsClosedWhenTheChosenSetIsMissingOrNothingCompares() throws {
        // B lacks p=1 (its rows are p=2 and p=3): matched sets exist, but not the chosen one.
        let ta = try report(["0.9", "0.01", "3", "0.925"])
        let tb = try Fixture.report(header, [["0", "40", "3", "10", "0.9", "0.01", "3", "0.925"], ["1", "40", "2", "10", "0.5", "0", "1", "0.5"]])
        let missing = try ObjectiveVerdict(ta, tb, comparison: try Comparison(ta, tb, metrics: nil), ranking: ranking)
        #expect(missing.undecidable?.contains("A's chosen set (config 0: frameRate=40, p=1) is not in") == true)
        #expect(missing.chosenInB == nil && !missing.isRegression)
        // Every judged cell empty in both: nothing to compare.
        let blank = try Fixture.report(header, [["0", "40", "1", "10", "", "", "", ""]])
        let open = Ranking(constraints: [], column: "settle_time_p95", maximize: false)
        let empty = try ObjectiveVerdict(blank, blank, comparison: try Comparison(blank, blank, metrics: nil), ranking: open)
        #expect(empty.chosenA?.configId == 0 && empty.compared == 0 && empty.undecidable?.contains("nothing to compare") == true)
        // No set of A meets the constraints: no chosen set to judge.
        let none = try verdict(["0.9", "0.5", "3", "0.925"], ["0.9", "0.5", "3", "0.925"], other: "2",
                               ranking: Ranking(constraints: [try Constraint(parsing: "false_dismiss_rate < 0")], column: "dismiss_accuracy", maximize: true))
        #expect(none.undecidable?.contains("meets the objective") == true)
    }
}

/// A preset axis over a value the preset states itself says so (SweepGrid.notes).
@Suite struct OverriddenValueTests {
    @Test func bundledPresetsSayNothing() throws {
        let names = try Fixture.store.names()
        #expect(names.count >= ModelKind.all.count)   // every model has a preset, so the loop runs
        for name in names {
            let loaded = try Fixture.store.load(name)
            #expect(try SweepGrid.make(preset: loaded.preset, kind: loaded.kind, vary: [], set: [:]).notes == [], "\(name)")
        }
    }

    @Test func anExportsAxesOverItsOwnValuesSaySo() throws {
        var loaded = try Fixture.store.load("tweetbot")
        loaded.preset.spring.damping = 0.3
        #expect(try SweepGrid.make(preset: loaded.preset, kind: loaded.kind, vary: [], set: [:]).notes == [])   // not an export
        loaded.preset.provenance = Provenance(report: "report.csv", sha256: "", configId: 0, metrics: [:])
        let notes = try SweepGrid.make(preset: loaded.preset, kind: loaded.kind, vary: [], set: [:]).notes
        #expect(notes.count == 4)   // distanceThreshold, flickVelocity, maxFlickAngle, snapDamping: all stated
        #expect(notes.last == "the preset sets snapDamping = 0.3 but its sweep axis over snapDamping (5 values) overrides it and never runs 0.3; "
                + "--set snapDamping=0.3 keeps the preset's value")
        #expect(notes.filter { $0.contains("never runs") }.count == 1)   // 60, 800 and 90 are on their axes
        // --set keeps the value (the axis goes, with its own note); --vary replaces the axis knowingly.
        let set = try SweepGrid.make(preset: loaded.preset, kind: loaded.kind, vary: [], set: ["snapDamping": .number(0.3)])
        #expect(set.notes.count == 4 && set.notes[0].hasPrefix("--set snapDamping=0.3 replaces") && !set.notes.contains { $0.contains("sets snapDamping") })
        let varied = try SweepGrid.make(preset: loaded.preset, kind: loaded.kind, vary: [SweepGrid.parseVary("snapDamping=0.3,0.5")], set: [:])
        #expect(varied.notes.count == 3 && !varied.notes.contains { $0.contains("snapDamping") })
    }
}
