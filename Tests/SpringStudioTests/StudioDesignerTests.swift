import Foundation
import SpringCore
import SpringLayout
import SpringTune
import Testing
import ToolRuntime
@testable import SpringStudio

/// The studio on the designer's terms (Reference §10.16): levers, the designer's objective, the
/// best's edges and margins, the round's trace, sharing. Each test through the API functions the
/// server routes.
@Suite struct StudioDesignerTests {
    private static func api(_ preset: String, session: String? = nil) throws -> StudioAPI {
        let loaded = try PresetStore().load(preset)
        let path = session ?? NSTemporaryDirectory() + "designer-\(UUID().uuidString)/s.sqlite"
        return try StudioAPI(engine: try StudioEngine(loaded: loaded, files: []), store: try SessionStore(path: path, preset: loaded.preset.name, model: loaded.kind.name))
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ body: String) throws -> T { try StudioRequest.decode(type, from: Array(body.utf8)) }

    /// Answers the open round (a new one when none is open): the candidate at `slot` is the worst.
    private static func answerRound(_ api: StudioAPI, worst slot: Int = 0) throws -> RoundAnswer {
        let round = try api.candidates(k: 4)
        _ = try api.choose(ChoiceRequest(round: round.round, worst: round.candidates[slot].id))
        return round
    }

    /// Freeing tweetbot's snapFrequency (which its sweep never moves): GET /api/preset lists it
    /// free over its domain, the sliders include it, the candidates move it, replays take it, the
    /// best has it and the exported preset sets it.
    @Test func aFreedLeverReachesSlidersCandidatesBestAndExport() throws {
        let api = try Self.api("tweetbot")
        let before = api.preset()
        let spec = try #require(api.engine.loaded.kind.parameters.first { $0.name == "snapFrequency" })
        let domain = try #require(spec.domain?.range)
        #expect(before.parameters.map(\.name) == api.engine.loaded.kind.parameters.filter { $0.domain != nil }.map(\.name))
        let listed = try #require(before.parameters.first { $0.name == "snapFrequency" })
        #expect(!listed.free && listed.min == domain.min && listed.max == domain.max && listed.value == .number(1.5))
        #expect(!before.axes.contains { $0.name == "snapFrequency" })

        let free = try JSONTextEncoder.encode(api.current.levers.free + [FreeParameter(name: "snapFrequency")])
        let after = try api.space(Self.decode(SpaceRequest.self, #"{"free": \#(free)}"#))
        let axis = try #require(after.axes.first { $0.name == "snapFrequency" })
        #expect(axis.min == domain.min && axis.max == domain.max && axis.log == domain.log)
        #expect(after.parameters.first { $0.name == "snapFrequency" }?.free == true)

        let replay = try api.replay(Self.decode(ReplayRequest.self, #"{"params": {"snapFrequency": 4}, "traces": ["\#(api.engine.infos[0].id)"]}"#))
        #expect(replay.params.values["snapFrequency"] == .number(4))
        #expect(throws: StudioError.self) { try api.replay(Self.decode(ReplayRequest.self, #"{"params": {"frameRate": 60}}"#)) }

        let round = try Self.answerRound(api, worst: 0)
        let frequencies = round.candidates.compactMap { $0.params.values["snapFrequency"]?.number }
        #expect(frequencies.count == 4 && Set(frequencies).count > 1)
        let best = try api.best()
        let chosen = try #require(best.params.values["snapFrequency"]?.number)
        #expect(domain.min <= chosen && chosen <= domain.max)

        let path = try api.export(ExportRequest(name: "freed")).path
        let exported = try PresetStore().load(path)
        #expect(exported.kind.values(of: exported.preset)["snapFrequency"] == .number(chosen))
        let code = try api.code(CodeRequest(params: ParamSet(["snapFrequency": .number(4)]), format: .swiftui))
        #expect(code.text.contains("frequency") && code.text.contains("velocityScale"))
    }

    /// A target the preset does not have (a designer's 15-20 pt stretch on evernote) changes the
    /// verdicts, the candidates (each measured on it here) and the exported objective, and a
    /// restarted studio keeps it; rules the preset reader refuses are 400s.
    @Test func theDesignersObjectiveRulesEverything() throws {
        let folder = NSTemporaryDirectory() + "designer-\(UUID().uuidString)"
        let rule = "peak_stretch_pt_p95 = 17.5 ± 2.5"
        do {
        let api = try Self.api("evernote", session: folder + "/s.sqlite")
        #expect(!api.engine.loaded.preset.objective.targets.contains(rule))
        let set = try api.setObjective(Self.decode(ObjectiveBody.self, #"{"constraints": ["overshoot_pt_p95 <= 0.5"], "targets": ["\#(rule)"], "minimize": "settle_time_p95", "maximize": null}"#))
        #expect(set.targets == [rule])
        let verdicts = try api.evaluate(ParamsRequest()).verdicts
        #expect(verdicts.map(\.rule) == ["overshoot_pt_p95 <= 0.5", rule])

        let round = try api.candidates(k: 4)
        for c in round.candidates {
            let stretch = try #require(api.engine.evaluate(c.params.values).first { $0.name == "peak_stretch_pt_p95" }?.value.number)
            #expect(abs(stretch - 17.5) <= 2.5, "\(c.params): \(stretch) pt")
        }
        let path = try api.export(ExportRequest(name: "mine")).path
        let exported = try PresetStore().load(path)
        #expect(exported.preset.objective.targets == [rule])

        for bad in [#"{"targets": ["no_such_metric = 1 ± 1"]}"#, #"{"constraints": ["overshoot_pt_p95 <<= 1"]}"#, #"{"minimize": "settle_time_p95", "maximize": "overshoot_pt_p95"}"#, #"{"robust": true}"#] {
            #expect(throws: StudioError.self, "\(bad)") { try api.setObjective(Self.decode(ObjectiveBody.self, bad)) }
        }
        }
        let again = try Self.api("evernote", session: folder + "/s.sqlite")
        #expect(again.objective().targets == [rule])
    }

    /// Before any choice the best is the preset's own set: on tweetbot it sits at the lower end
    /// of snapDamping's range and the upper end of maxFlickAngle's (the preset's values are the
    /// ends of its axes), which /api/best names; every free number has a margin.
    @Test func aBestAtARangeEndIsNamedAndHasMargins() throws {
        let api = try Self.api("tweetbot")
        let best = try api.best()
        let own = api.engine.loaded.kind.values(of: api.engine.loaded.preset)
        let ends = api.preset().axes.filter { a in own[a.name]?.number == a.min || own[a.name]?.number == a.max }.map(\.name)
        #expect(best.edges == ends)
        #expect(ends.contains("snapDamping") && ends.contains("maxFlickAngle"))
        #expect(best.margins.margins.map(\.name) == api.preset().axes.map(\.name))
    }

    /// After a choice the best meets the objective (evernote's constraint and two targets); each
    /// margin that breaks names the value where a rule breaks, and that value, measured here,
    /// misses a rule.
    @Test func marginsEndWhereARuleBreaks() throws {
        let api = try Self.api("evernote")
        _ = try Self.answerRound(api, worst: 1)
        let best = try api.best()
        #expect(best.verdicts.allSatisfy { $0.met })
        var checked = 0
        for m in best.margins.margins {
            guard let distance = m.margin else { continue }
            let above = (m.up ?? .infinity) <= (m.down ?? .infinity)
            var moved = best.params.values
            moved[m.name] = .number(NumberFormat.typed(m.value + (above ? distance : -distance)))
            let verdicts = try api.evaluate(ParamsRequest(params: ParamSet(moved))).verdicts
            #expect(verdicts.contains { !$0.met }, "\(m.name) at \(moved[m.name]!)")
            checked += 1
        }
        #expect(checked >= 1)
    }

    /// A round's trace is the one where its candidates' drawn positions differ most (measured
    /// here from the replays' frames, edge by edge), started 0.3 s before that trace's release.
    @Test func aRoundWatchesWhereItsCandidatesDifferMost() throws {
        let api = try Self.api("evernote")
        let round = try api.candidates(k: 3)
        var spread: [String: Double] = [:]
        for info in api.engine.infos {
            let frames = try round.candidates.map { c in try api.replay(ReplayRequest(params: c.params, traces: [info.id])).replays[0].frames }
            var most = 0.0
            for a in frames.indices { for b in frames.indices where b > a {
                for k in 0..<max(frames[a].count, frames[b].count) {
                    let p = frames[a][min(k, frames[a].count - 1)].shapes, q = frames[b][min(k, frames[b].count - 1)].shapes
                    for (s, r) in zip(p, q) {
                        most = max(most, abs(s[0] - r[0]), abs(s[1] - r[1]), abs(s[0] + s[2] - r[0] - r[2]), abs(s[1] + s[3] - r[1] - r[3]))
                    }
                }
            } }
            spread[info.id] = most
        }
        let top = try #require(spread.values.max())
        #expect(try #require(spread[round.trace]) >= top - 0.05, "\(round.trace): \(spread[round.trace]!) pt against \(top) pt")
        let trace = try #require(api.engine.traces.first { $0.id == round.trace })
        #expect(abs(round.start - max(0, trace.liftOffTime - trace.samples[0].t - 0.3)) < 1e-9)
    }

    /// GET /api/session.sqlite's bytes resume in a second studio: the same levers, objective,
    /// choices and best.
    @Test func aSessionCopyResumes() throws {
        let api = try Self.api("evernote")
        _ = try api.setObjective(Self.decode(ObjectiveBody.self, #"{"constraints": ["overshoot_pt_p95 <= 1"], "targets": []}"#))
        _ = try api.space(SpaceRequest(free: [FreeParameter(name: "damping", from: 0.5, to: 1), FreeParameter(name: "frequency"), FreeParameter(name: "bounceStiffness")]))
        _ = try Self.answerRound(api, worst: 0)
        _ = try Self.answerRound(api, worst: 2)
        let copy = NSTemporaryDirectory() + "designer-\(UUID().uuidString)/copy.sqlite"
        try FileManager.default.createDirectory(atPath: (copy as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(try api.store.snapshot()).write(to: URL(fileURLWithPath: copy))
        let resumed = try Self.api("evernote", session: copy)
        #expect(try resumed.store.choices() == (try api.store.choices()))
        #expect(resumed.current.levers.free == api.current.levers.free)
        #expect(resumed.objective().constraints == ["overshoot_pt_p95 <= 1"])
        #expect(try resumed.best().params == (try api.best().params))
    }

    /// Another application's SQLite file is refused (65) and left byte for byte; a session whose
    /// stored levers were edited out of the domain is refused at start (65).
    @Test func foreignOrEditedSessionsAreRefused() throws {
        let folder = NSTemporaryDirectory() + "designer-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let foreign = folder + "/app.sqlite"
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('create table notes(id integer primary key, body text)'); c.execute(\"insert into notes(body) values ('hello')\"); c.commit()", foreign]
        try python.run()
        python.waitUntilExit()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: foreign))
        #expect(throws: ToolError.self) { try SessionStore(path: foreign, preset: "tweetbot", model: "flick-dismiss") }
        do { _ = try SessionStore(path: foreign, preset: "tweetbot", model: "flick-dismiss") } catch let e as ToolError { #expect(e.code == .dataError) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: foreign)) == bytes)

        let session = folder + "/s.sqlite"
        do {
            let store = try SessionStore(path: session, preset: "tweetbot", model: "flick-dismiss")
            try store.set(.free, #"[{"name": "snapFrequency", "from": 0, "to": 1000}]"#)
            store.closeForStop()
        }
        do {
            _ = try Self.api("tweetbot", session: session)
            Issue.record("a session with an out-of-domain lever started")
        } catch let e as ToolError {
            #expect(e.code == .dataError && e.message.contains("snapFrequency"))
        }
    }

    /// `--report`: one page holding its data and scripts, with no address outside the file.
    @Test func theReportIsSelfContained() throws {
        let folder = NSTemporaryDirectory() + "designer-\(UUID().uuidString)"
        do {
            let api = try Self.api("evernote", session: folder + "/s.sqlite")
            _ = try Self.answerRound(api, worst: 0)
        }
        let out = folder + "/report.html"
        _ = try StudioReport.write(session: folder + "/s.sqlite", preset: "", traces: [], to: out)
        let html = try String(contentsOfFile: out, encoding: .utf8)
        #expect(!html.contains("http://") && !html.contains("https://") && !html.contains("src=") && !html.contains("href="))
        #expect(html.contains("function drawStage") && html.contains(#""rounds":[{"round":1"#))
    }
}
