import Foundation
import SpringLayout
import SpringTune
import Testing
@testable import SpringStudio

/// The studio's learning (Reference §12) through its API functions.
@Suite struct StudioLearnerTests {
    private func api(_ preset: String) throws -> StudioAPI {
        try api(loaded: try PresetStore().load(preset))
    }

    private func api(loaded: PresetStore.Loaded) throws -> StudioAPI {
        let path = NSTemporaryDirectory() + "learner-\(UUID().uuidString)/s.sqlite"
        return try StudioAPI(engine: try StudioEngine(loaded: loaded, files: []), store: try SessionStore(path: path, preset: loaded.preset.name, model: loaded.kind.name))
    }

    private func answer(_ api: StudioAPI, _ body: String) throws {
        _ = try api.choose(try StudioRequest.decode(ChoiceRequest.self, from: Array(body.utf8)))
    }

    @Test func beforeAnyChoiceTheBestIsThePresetAtZero() throws {
        let api = try api("evernote")
        let (best, choices, _) = try api.bestEstimate()
        #expect(choices.isEmpty)
        let own = api.engine.loaded.kind.values(of: api.engine.loaded.preset)
        #expect(best == StudioLearner.Best(params: own.filter { ["boundaryResistance", "damping", "frequency"].contains($0.key) }, mean: 0, sd: 0, map: nil, point: nil))
    }

    /// A preset with nothing to learn over (every axis one value) answers the round with 409,
    /// but shows and exports its own set: the best before any choice needs no model.
    @Test func aPresetThatCannotLearnStillHasItsBest() throws {
        var preset = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "Presets/evernote.json"))) as! [String: Any]
        preset["sweep"] = [["name": "damping", "values": [0.8]], ["name": "frequency", "values": [2]]]
        let folder = NSTemporaryDirectory() + "learner-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let file = folder + "/fixed.json"
        try JSONSerialization.data(withJSONObject: preset).write(to: URL(fileURLWithPath: file))
        let api = try api(loaded: try PresetStore().load(file))
        #expect(throws: StudioError.self) { try api.candidates(k: 4) }
        let best = try api.best()
        #expect(best.choices == 0)
        let exported = try api.export(ExportRequest(name: "fixed"))
        #expect(exported.path.hasSuffix("/fixed.json"))
    }

    /// Every candidate of three rounds meets tweetbot's three hard constraints, measured again
    /// here through the engine (not the learner's memo).
    @Test func candidatesMeetTheHardConstraints() throws {
        let api = try api("tweetbot")
        let constraints = try api.engine.loaded.preset.objective.constraints.map(Constraint.init(parsing:))
        #expect(constraints.count == 3)
        for _ in 0..<3 {
            _ = try api.candidates(k: 4)
            let round = try #require(try api.store.openRound())
            #expect(round.candidates.count == 4)
            #expect(Set(round.candidates.map(\.params)).count == 4)
            for c in round.candidates {
                let row = try api.engine.evaluate(c.params)
                for constraint in constraints {
                    #expect(constraint.holds(row.first { $0.name == constraint.column }?.value.number), "\(c.params) breaks \(constraint)")
                }
            }
            try answer(api, #"{"round": \#(round.number), "worst": \#(round.candidates[3].id)}"#)
        }
    }

    /// The first round opens with the preset's own set; calling it the worst makes the best
    /// estimate another set, predicted better than the preset.
    @Test func theWorstPresetIsLeftBehind() throws {
        let api = try api("evernote")
        _ = try api.candidates(k: 4)
        let round = try #require(try api.store.openRound())
        #expect(round.candidates[0].params == api.current.levers.start)
        try answer(api, #"{"round": \#(round.number), "worst": \#(round.candidates[0].id)}"#)
        let (best, choices, _) = try api.bestEstimate()
        #expect(choices.count == 1)
        #expect(best.params != api.current.levers.start)
        #expect(best.mean > 0 && best.sd > 0)
        let map = try #require(best.map)
        #expect(map.x.name != map.y.name)
        #expect(map.mean.count == StudioLearner.mapSize && map.mean.allSatisfy { $0.count == StudioLearner.mapSize })
        for axis in [map.x, map.y] { #expect(zip(axis.values, axis.values.dropFirst()).allSatisfy { $0 < $1 }) }
    }

    @Test func simulatedDesignersAreDeterministic() throws {
        let engine = try api("evernote").engine
        let a = try StudioSimulation.run(engine: engine, seeds: 1, rounds: 6)
        let b = try StudioSimulation.run(engine: engine, seeds: 1, rounds: 6)
        #expect(a.runs.map(\.model) == b.runs.map(\.model) && a.runs.map(\.random) == b.runs.map(\.random))
        #expect(a.runs[0].model.count == 6 && a.runs[0].model.allSatisfy { (0...1).contains($0) })
    }
}
