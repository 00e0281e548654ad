import Foundation
import SpringCore
import SpringLayout
import SpringTune
import Testing
import TraceIO
@testable import SpringStudio

/// How sure the studio's answers are (Reference §14, §10.16), each against the command line's
/// own computation (`MeasuredSet` over the preset's trace files read afresh, one thread, the
/// bootstrap of 1000 resamples with seed 0): the panels' intervals, a round's candidates inside
/// the noise, the best's sure verdicts and its groups, `confidence` in the designer's objective,
/// and the group a recording carries.
@Suite struct StudioSureTests {
    private static func api(_ preset: String) throws -> StudioAPI {
        let loaded = try PresetStore().load(preset)
        let path = NSTemporaryDirectory() + "sure-\(UUID().uuidString)/s.sqlite"
        return try StudioAPI(engine: try StudioEngine(loaded: loaded, files: []), store: try SessionStore(path: path, preset: loaded.preset.name, model: loaded.kind.name))
    }

    /// `params` measured as the command line measures a set: the preset's trace files read
    /// again, on one thread.
    private static func measured(_ api: StudioAPI, _ params: [String: ParamValue]) throws -> MeasuredSet {
        let loaded = api.engine.loaded
        var values = loaded.kind.values(of: loaded.preset)
        for (k, v) in params { values[k] = v }
        let traces = try TraceSource(files: PresetStore.traceFiles(for: loaded), kind: loaded.kind, skipInvalid: false, scene: loaded.preset.scene)
        return try MeasuredSet.measure(kind: loaded.kind, scene: loaded.preset.scene, values: values, traces: traces, threads: 1)
    }

    private static func number(_ n: MetricNumber) -> Double? { n.value.number }

    /// Every column with an interval is answered with it, the same as `SetIntervals` computes it,
    /// and each interval brackets the value (these are the preset's own sets on its traces).
    @Test(arguments: ["tweetbot", "evernote"]) func aPanelsMetricsHaveTheirIntervals(_ preset: String) throws {
        let api = try Self.api(preset)
        let answer = try api.evaluate(ParamsRequest())
        let expected = SetIntervals(try Self.measured(api, [:]), bootstrap: ClusterBootstrap(resamples: 1000, seed: 0))
        let given = answer.intervals.intervals.intervals
        #expect(given.map(\.column) == expected.intervals.map(\.column) && !given.isEmpty)
        for (i, e) in zip(given, expected.intervals) {
            #expect(i.lo == e.lo && i.hi == e.hi && i.traces == e.traces && i.groups == e.groups, "\(i.column)")
            let value = answer.metrics.columns.first { $0.name == i.column }?.value.number
            #expect(value == e.value, "\(i.column)")
            if let value, let lo = i.lo, let hi = i.hi { #expect(lo <= value && value <= hi, "\(i.column) \(value) [\(lo), \(hi)]") }
        }
        // The same bytes on the next call (memo) and from a second studio (seeded).
        #expect(try JSONTextEncoder.encode(api.evaluate(ParamsRequest())) == (try JSONTextEncoder.encode(answer)))
        #expect(try JSONTextEncoder.encode(Self.api(preset).evaluate(ParamsRequest())) == (try JSONTextEncoder.encode(answer)))
    }

    /// A round's candidates: the best-looking one on the objective column is named, and a
    /// candidate is inside the noise exactly when the 95 % interval of its paired difference
    /// from that one, bootstrapped over the groups, holds 0.
    @Test func aRoundMarksTheCandidatesInsideTheNoise() throws {
        let api = try Self.api("tweetbot")
        let round = try api.candidates(k: 4)
        let noise = try #require(round.noise)
        #expect(noise.metric == "settle_time_p95")
        let sets = try round.candidates.map { try Self.measured(api, $0.params.values) }
        let values = sets.map { $0.value("settle_time_p95")! }
        let reference = try #require(values.indices.min { values[$0] < values[$1] })
        #expect(noise.candidate == round.candidates[reference].id)
        let base = try #require(sets[reference].statistic("settle_time_p95"))
        var inside: [Bool] = []
        for (i, set) in sets.enumerated() {
            guard i != reference else { inside.append(false); continue }
            let d = ClusterBootstrap().distributions([.difference(base, set.statistic("settle_time_p95")!)], groups: sets[reference].groups.count)[0]
            let interval = try #require(d.interval())
            inside.append(interval.lo <= 0 && 0 <= interval.hi)
        }
        #expect(round.candidates.map(\.insideNoise) == inside)
        // The open round answered again is the same.
        #expect(try JSONTextEncoder.encode(api.candidates(k: 4)) == (try JSONTextEncoder.encode(round)))
    }

    /// `GET /api/best`: its per-group rows add up to the traces, each group's verdict is its
    /// broken constraints', and `sure` is `HowSure` on the set measured independently, at 0.9
    /// without a confidence and at the objective's once it sets one.
    @Test func theBestSaysHowSureAndWhichGroupsItFails() throws {
        let api = try Self.api("tweetbot")
        for confidence in [nil, 0.95] {
            if let confidence {
                var body = api.objective()
                body.confidence = confidence
                #expect(try api.setObjective(body).confidence == confidence)
            }
            let best = try api.best()
            let set = try Self.measured(api, best.params.values)
            let ranking = try Ranking(objective: api.current.objective)
            let sure = HowSure(set, ranking: ranking, bootstrap: ClusterBootstrap(resamples: 1000, seed: 0))
            #expect(best.sure.asked == (confidence != nil) && best.sure.confidence == (confidence ?? 0.9))
            #expect(best.sure.verdicts.map(\.text) == sure.verdicts.map(\.text) && best.sure.verdicts.count == 3)
            #expect(best.sure.verdicts.map(\.met) == sure.verdicts.map(\.met))
            #expect(best.sure.verdicts.map { Self.number($0.bound) } == sure.verdicts.map(\.bound))
            #expect(best.sure.verdicts.map(\.moreGroups) == sure.verdicts.map(\.moreGroups))

            #expect(best.groups.reduce(0) { $0 + $1.traces } == api.engine.traces.count)
            #expect(best.groups.map(\.group) == set.groups && best.groups.count == 15)
            let perGroup = PerGroup(set, ranking: ranking)
            #expect(best.groups.map(\.broken) == perGroup.rows.map { $0.broken.map(\.description) })
            #expect(best.groups.allSatisfy { ($0.verdict == "met") == $0.broken.isEmpty })
            #expect(best.groups.contains { $0.verdict == "broken" }, "the preset's set fails some of tweetbot's devices (How-sure.md)")
            for g in best.groups {
                #expect(g.metrics.columns.map(\.name) == ["false_dismiss_rate", "dismiss_accuracy", "overshoot_pt_p95"])
                let row = try #require(perGroup.rows.first { $0.group == g.group })
                for (name, value) in g.metrics.columns {
                    #expect(value.number == row.values[perGroup.columns.firstIndex(of: name)!], "\(g.group) \(name)")
                }
            }
        }
    }

    /// `confidence` in `PUT /api/objective`: 0.5 to 0.99, else a one-line 400; kept by the
    /// session; absent or null is none.
    @Test func theObjectiveTakesAConfidence() throws {
        let api = try Self.api("evernote")
        let rules = #""constraints": ["overshoot_pt_p95 <= 0.5"], "targets": []"#
        for bad in ["1", "0.3", "0.995", "\"high\"", "true"] {
            let error = #expect(throws: StudioError.self) {
                try api.setObjective(StudioRequest.decode(ObjectiveBody.self, from: Array(#"{\#(rules), "confidence": \#(bad)}"#.utf8)))
            }
            #expect(error == .badRequest("confidence must be a number from 0.5 to 0.99 (such as 0.9)"), "\(bad)")
        }
        let set = try api.setObjective(StudioRequest.decode(ObjectiveBody.self, from: Array(#"{\#(rules), "confidence": 0.8}"#.utf8)))
        #expect(set.confidence == 0.8 && api.objective().confidence == 0.8 && api.preset().objective.confidence == 0.8)
        #expect(api.current.objective.confidence == 0.8)
        let resumed = try StudioAPI(engine: api.engine, store: api.store)
        #expect(resumed.objective().confidence == 0.8)
        let none = try api.setObjective(StudioRequest.decode(ObjectiveBody.self, from: Array(#"{\#(rules), "confidence": null}"#.utf8)))
        #expect(none.confidence == nil && api.current.objective.confidence == nil)
    }

    /// A recording added to the traces is a group of its own device: `studio dpr D`, the one
    /// thing the page says about its device; recordings.csv carries it.
    @Test func aRecordingCarriesItsDevicesGroup() throws {
        let api = try Self.api("tweetbot")
        _ = try StudioLiveTests.play(api, api.engine.traces[0], opening: #"{"dpr": 2}"#)
        _ = try api.update("live-1", LabelRequest(intent: .keep, used: true))
        let tag = try #require(api.engine.source.tags.last)
        #expect(tag.id == "live-1" && tag.intent == .keep && tag.group == "studio dpr 2")
        let file = NSTemporaryDirectory() + "sure-recordings-\(UUID().uuidString).csv"
        try api.recordingsCSV().write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try TraceReader().read(path: file).traces.map(\.group) == ["studio dpr 2"])
        let best = try api.best()
        #expect(best.groups.last?.group == "studio dpr 2" && best.groups.last?.traces == 1)
        #expect(best.groups.reduce(0) { $0 + $1.traces } == api.engine.traces.count)
    }
}
