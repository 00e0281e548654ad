import Foundation
import Testing
@testable import SpringLayout
@testable import SpringTune
import TraceIO

/// Objectives a designer can state (Reference §9.1): targets, robust, the centre of a tie, and
/// every metric checked against the model as the preset is read.
@Suite struct ObjectiveTests {
    /// A 1-D report over `p` (config_id = index) with the given stretch and settle columns.
    func line(_ stretch: [Double], _ settle: [Double]) throws -> SweepReport {
        try Fixture.report(["config_id", "p", "traces", "peak_stretch_pt_p95", "settle_time_p95"],
                           stretch.indices.map { ["\($0)", "\($0 + 1)", "9", "\(stretch[$0])", "\(settle[$0])"] })
    }

    @Test func targetParsesBothSigns() throws {
        #expect(try Target(parsing: "peak_stretch_pt_p95 = 22.7 ± 5") == Target(column: "peak_stretch_pt_p95", value: 22.7, tolerance: 5))
        #expect(try Target(parsing: "m=-1+-0.25") == Target(column: "m", value: -1, tolerance: 0.25))
        for bad in ["m=5", "m=5+-0", "m=5+--1", "=5+-1", "m<=5+-1", "m=x+-1"] {
            #expect(throws: PresetError.self) { try Target(parsing: bad) }
        }
        #expect(Target(column: "m", value: 10, tolerance: 4).deviation(13) == 0.75)
    }

    @Test func onTargetSetsRankByTheObjective() throws {
        // Deviations from 20 ± 5: 2, 0.2, 0.8, 0.4; the on-target sets rank by settle time.
        let t = try line([30, 21, 24, 18], [0.1, 0.5, 0.3, 0.9])
        let r = try Ranking(objective: Objective(targets: ["peak_stretch_pt_p95=20+-5"], minimize: "settle_time_p95"))
        let ranked = try r.ranked(t)
        #expect(ranked.map(\.row.configId) == [2, 1, 3, 0])
        #expect(abs(ranked[0].deviation! - 0.8) < 1e-12)
        #expect(r.note(ranked) == nil)
    }

    @Test func noneOnTargetRanksByLargestDeviation() throws {
        // Two targets; largest deviations: max(2, 3) = 3, max(1.5, 0) = 1.5, max(4, 1) = 4.
        let t = try line([30, 27.5, 40], [1.4, 1.1, 1.2])
        let r = try Ranking(objective: Objective(targets: ["peak_stretch_pt_p95 = 20 ± 5", "settle_time_p95 = 1.1 +- 0.1"]))
        let ranked = try r.ranked(t)
        #expect(ranked.map(\.row.configId) == [1, 0, 2])
        #expect(zip(ranked.map { $0.deviation! }, [1.5, 3, 4]).allSatisfy { abs($0 - $1) < 1e-9 })
        let note = try #require(r.note(ranked))
        #expect(note.hasPrefix("no parameter set is on target") && !note.contains("\n"))
    }

    @Test func robustPicksThePlateauNotTheSpike() throws {
        // Settle times over p = 1…7: a knife edge at p = 2 (0.5 between 3 and 2.9), a plateau around p = 5.
        let t = try line([0, 0, 0, 0, 0, 0, 0], [3, 0.5, 2.9, 1.2, 1.1, 1.2, 3])
        let plain = try Ranking(objective: Objective(minimize: "settle_time_p95"))
        #expect(try plain.rank(t).first?.configId == 1)
        let robust = try Ranking(objective: Objective(minimize: "settle_time_p95", robust: true))
        let ranked = try robust.ranked(t)
        // Worst over {p−1, p, p+1}: 3, 3, 2.9, 2.9, 1.2, 3, 3 → p = 5 (config 4).
        #expect(ranked.first?.row.configId == 4)
        #expect(ranked.first?.objective == 1.2)
    }

    @Test func robustIn2DTakesNeighboursOnEachNumericAxis() throws {
        // 3 × 3 grid, config = 3 i + j. The lowest value (0.1 at the corner 0) has 5 on both
        // axes beside it; worst over each set's neighbourhood: 5 5 5 / 5 5 1.2 / 5 1 1.2, so 7.
        let v: [Double] = [0.1, 5, 1, 5, 1, 1.2, 1, 1, 0.9]
        var rows: [[String]] = []
        for i in 0..<3 { for j in 0..<3 { rows.append(["\(3 * i + j)", "\(i)", "\(j)", "9", "\(v[3 * i + j])"]) } }
        let t = try Fixture.report(["config_id", "p", "q", "traces", "settle_time_p95"], rows)
        let ranked = try Ranking(objective: Objective(minimize: "settle_time_p95", robust: true)).ranked(t)
        #expect(ranked.first?.row.configId == 7 && ranked.first?.objective == 1)
        #expect(ranked.count == 9 && !ranked[1].tiesPrevious)
    }

    @Test func aTieOf48IsResolvedAtItsCentre() throws {
        // 6 × 8 sets, all equal: the centre of the region is (2.5, 3.5); the four sets half a
        // step from it on each axis are equally close, and the lowest config_id of them wins.
        var rows: [[String]] = []
        for i in 0..<6 { for j in 0..<8 { rows.append(["\(8 * i + j)", "\(i)", "\(j)", "9", "1.5", "0.2"]) } }
        let t = try Fixture.report(["config_id", "p", "q", "traces", "settle_time_p95", "overshoot_pt_p95"], rows)
        let ranked = try Ranking(objective: Objective(constraints: ["overshoot_pt_p95 <= 1"])).ranked(t)
        #expect(ranked.count == 48)
        #expect(Array(ranked.prefix(4).map(\.row.configId)) == [19, 20, 27, 28])
        #expect(ranked.dropFirst().allSatisfy { $0.tiesPrevious })
    }

    @Test func objectiveRoundTripsAndWritesOnlyWhatItUses() throws {
        let o = Objective(constraints: ["overshoot_pt_p95 <= 0.5"], targets: ["peak_stretch_pt_p95 = 22.7 ± 5"], minimize: "settle_time_p95", robust: true)
        let data = try JSONEncoder().encode(o)
        #expect(try JSONDecoder().decode(Objective.self, from: data) == o)
        let plain = String(decoding: try JSONEncoder().encode(Objective(minimize: "settle_time_p95")), as: UTF8.self)
        #expect(!plain.contains("targets") && !plain.contains("robust"))
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Objective.self, from: Data(#"{"targets":["m = 5"]}"#.utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Objective.self, from: Data(#"{"robust":"yes"}"#.utf8)) }
    }

    @Test(arguments: [("minimize", #""minimize":"settle_tme_p95""#, "objective.minimize"),
                      ("targets", #""targets":["peak_strech_pt_p95 = 20 +- 5"]"#, "objective.targets[0]"),
                      ("constraints", #""constraints":["overshoot_pt_p95 <= 1","nope >= 2"]"#, "objective.constraints[1]"),
                      ("tiebreak", #""tiebreak":["jiggle"]"#, "objective.tiebreak[0]")])
    func unknownMetricInAPresetNamesItsPath(key: String, json: String, path: String) throws {
        var text = try String(contentsOfFile: try #require(PresetStore().presetsDirectory).appendingPathComponent("evernote.json").path, encoding: .utf8)
        let start = try #require(text.range(of: "\"objective\""))
        let end = try #require(text[start.upperBound...].range(of: "}"))
        text.replaceSubrange(start.lowerBound..<end.upperBound, with: "\"objective\": {\(json)}")
        #expect(throws: Never.self) { try Preset.decode(Data(text.utf8)) }   // an app's decode: no model to check against
        do {
            _ = try Preset.decode(Data(text.utf8), models: ModelKind.registry, reportColumns: ModelKind.reportColumnsByModel)
            Issue.record("\(key): decoded")
        } catch {
            #expect(error.path == path)
            #expect(error.message.contains("is not a report column"))
        }
    }
}

@Suite struct TargetGateTests {
    @Test func leavingATargetIsARegression() throws {
        let header = ["config_id", "p", "traces", "peak_stretch_pt_p95", "settle_time_p95"]
        let a = try Fixture.report(header, [["0", "1", "9", "22", "1.0"]])
        let b = try Fixture.report(header, [["0", "1", "9", "29", "0.9"]])   // quicker, but 29 is off 22.7 ± 5
        let ranking = try Ranking(objective: Objective(targets: ["peak_stretch_pt_p95 = 22.7 ± 5"]))
        let verdict = try ObjectiveVerdict(a, b, comparison: Comparison(a, b, metrics: nil), ranking: ranking)
        #expect(ObjectiveVerdict.judgedColumns(ranking, in: a, b) == ["settle_time_p95", "peak_stretch_pt_p95"])
        #expect(verdict.reasons == ["peak_stretch_pt_p95 of the chosen set (config 0): 29 in B is off target peak_stretch_pt_p95 = 22.7 ± 5 (22 in A)"])
    }
}
