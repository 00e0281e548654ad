import Foundation
import SpringLayout
import SpringTune
import Testing
@testable import SpringStudio

/// A studio on a bundled preset with a fresh session in a temporary folder.
private func makeAPI(_ preset: String = "tweetbot", session: String? = nil) throws -> StudioAPI {
    let loaded = try PresetStore().load(preset)
    let path = session ?? NSTemporaryDirectory() + "studio-\(UUID().uuidString)/s.sqlite"
    return try StudioAPI(engine: try StudioEngine(loaded: loaded, files: []), store: try SessionStore(path: path, preset: loaded.preset.name, model: loaded.kind.name))
}

/// `value` as the studio writes it (one line of JSON).
func text(_ value: some Encodable) throws -> String { try JSONTextEncoder.encode(value) }

/// A request body decoded as the server decodes it.
func request<T: Decodable>(_ type: T.Type, _ body: String) throws -> T { try StudioRequest.decode(type, from: Array(body.utf8)) }

@Suite struct StudioTests {
    @Test func replayFramesAreTheReplayTimeline() throws {
        let api = try makeAPI("evernote")
        let trace = api.engine.infos[0].id
        let answer = try api.replay(try request(ReplayRequest.self, #"{"params": {"damping": 0.6, "frequency": 2}, "traces": ["\#(trace)"], "items": true}"#))
        let frames = try #require(answer.replays.first).frames
        let outcome = try Replay.run(api.engine.loaded, set: ["damping": .number(0.6), "frequency": .number(2)], trace: api.engine.traces[0])
        #expect(frames.count > 10)
        var compared = 0
        for frame in frames {
            let rows = outcome.run.timeline.filter { abs($0.t - frame.t) <= 1e-9 }
            #expect(frame.items.count == rows.count)
            for (item, row) in zip(frame.items, rows) {
                #expect(Int(item[0]) == row.item)
                #expect(abs(item[1] - row.y) <= 1e-9 && abs(item[2] - row.anchor) <= 1e-9 && abs(item[3] - row.velocity) <= 1e-9)
                compared += 1
            }
        }
        #expect(compared > 100)
    }

    @Test func paramsOffTheAxesOrUnknownAreRefused() throws {
        let api = try makeAPI()
        for bad in [#"{"params": {"damping": 99}}"#, #"{"params": {"nope": 1}}"#, #"{"params": {"damping": "x"}}"#, #"{"extra": 1}"#,
                    #"{"params": {"damping": 0.5}"#, String(repeating: "[", count: 100_000), "", "[1]", #"{"params": null}"#,
                    #"{"params": {"damping": 0.5, "damping": 0.6}}"#, #"{"params": {}, "params": {}}"#, #"{"params": {"d\u0061mping": 0.5, "damping": 0.6}}"#] {
            #expect(throws: StudioError.self, "\(bad.prefix(60))") { _ = try api.evaluate(try request(ParamsRequest.self, bad)) }
        }
        // Keys equal only as raw text are not duplicates; the same key in two objects is fine.
        _ = try request(ReplayRequest.self, #"{"params": {"damping": 0.6}, "traces": ["damping", "params"]}"#)
    }

    /// The verdicts are the objective's rules judged by its own parsers, `==` included: met with
    /// `by` 0, missed by the distance to the bound (or the target's band) in the metric's unit.
    @Test func verdictsJudgeEveryRule() throws {
        let row: [(name: String, value: MetricValue)] = [("a", .value(2)), ("b", .value(5)), ("c", .neverSettled), ("d", .undefined)]
        let verdicts = StudioVerdicts(Objective(constraints: ["a <= 3", "a == 3", "b>=6", "c <= 1", "d < 1", "e <= 1"], targets: ["b = 4 ± 0.5", "a = 2 +- 1"]))
        #expect(verdicts.of(row) == [
            Verdict(rule: "a <= 3", kind: "constraint", metric: "a", met: true, by: 0),
            Verdict(rule: "a == 3", kind: "constraint", metric: "a", met: false, by: 1),
            Verdict(rule: "b>=6", kind: "constraint", metric: "b", met: false, by: 1),
            Verdict(rule: "c <= 1", kind: "constraint", metric: "c", met: false, by: nil),
            Verdict(rule: "d < 1", kind: "constraint", metric: "d", met: false, by: nil),
            Verdict(rule: "b = 4 ± 0.5", kind: "target", metric: "b", met: false, by: 0.5),
            Verdict(rule: "a = 2 +- 1", kind: "target", metric: "a", met: true, by: 0),
        ])
        #expect(verdicts.of(trace: [("a", .value(4))]).map(\.rule) == [])
        #expect(StudioVerdicts(Objective(constraints: ["a_p95 <= 3"])).of(trace: [("a", .value(4))])
                == [Verdict(rule: "a_p95 <= 3", kind: "constraint", metric: "a_p95", met: false, by: 1)])
        let api = try makeAPI()
        let evaluation = try api.evaluate(ParamsRequest())
        #expect(evaluation.verdicts.map(\.rule) == api.engine.loaded.preset.objective.constraints + api.engine.loaded.preset.objective.targets)
    }

    @Test func choicesUndoAndResume() throws {
        let path = NSTemporaryDirectory() + "studio-\(UUID().uuidString)/s.sqlite"
        var best: String
        do {
            let api = try makeAPI(session: path)
            let round = try api.candidates(k: 4)
            let ids = round.candidates.map(\.id)
            #expect(ids.count == 4)
            // The same round until it is answered.
            #expect(try text(api.candidates(k: 4)) == text(round))
            #expect(throws: StudioError.self) { _ = try api.choose(try request(ChoiceRequest.self, #"{"round": \#(round.round), "worst": 123456}"#)) }
            for bad in [#"{"round": 1}"#, #"{"round": 1, "worst": 1, "best": 2}"#, #"{"round": 1, "same": false}"#, #"{"round": 1.5, "same": true}"#] {
                #expect(throws: StudioError.self, "\(bad)") { _ = try request(ChoiceRequest.self, bad) }
            }
            _ = try api.choose(try request(ChoiceRequest.self, #"{"round": \#(round.round), "worst": \#(ids[3])}"#))
            _ = try api.candidates(k: 4)
            best = try text(api.best())
            // A second studio on the same session is refused.
            #expect(throws: (any Error).self) { _ = try SessionStore(path: path, preset: "tweetbot", model: "flick-dismiss") }
        }
        let again = try makeAPI(session: path)
        #expect(try text(again.best()) == best)
        #expect(try again.undo().choices == 0)
        #expect(throws: StudioError.self) { _ = try again.undo() }
    }

    /// A self-contained page's data cannot end or change its script element, whatever it holds.
    @Test func aPagesDataCannotLeaveItsScriptElement() throws {
        let page = try StudioReport.document(title: "t", style: [], body: "", data: ["name": "</script><!--<script>alert(1)</script>"],
                                             modules: [("x.js", Array("export const x = 1;".utf8))])
        let open = try #require(page.range(of: #"<script type="application/json" id="data">"#))
        let close = try #require(page[open.upperBound...].range(of: "</script>"))
        let data = page[open.upperBound..<close.lowerBound]
        #expect(!data.contains("<"), "every < in the JSON is \\u003c")
        let decoded = try JSONDecoder().decode([String: String].self, from: Data(data.utf8))
        #expect(decoded["name"] == "</script><!--<script>alert(1)</script>")
    }
}
