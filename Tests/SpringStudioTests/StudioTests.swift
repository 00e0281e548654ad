import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import SpringLayout
import SpringTune
import Testing
@testable import SpringStudio

/// A studio on a bundled preset with a fresh session in a temporary folder.
private func makeAPI(_ preset: String = "tweetbot", session: String? = nil) throws -> StudioAPI {
    let loaded = try PresetStore().load(preset)
    let path = session ?? NSTemporaryDirectory() + "studio-\(UUID().uuidString)/s.sqlite"
    return StudioAPI(engine: try StudioEngine(loaded: loaded, files: []), store: try SessionStore(path: path, preset: loaded.preset.name, model: loaded.kind.name))
}

private func object(_ text: String) throws -> [String: Any] {
    try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
}

@Suite struct StudioTests {
    @Test func replayFramesAreTheReplayTimeline() throws {
        let api = try makeAPI("evernote")
        let trace = api.engine.infos[0].id
        let body = try JSONInput.parse(Array(#"{"params": {"damping": 0.6, "frequency": 2}, "traces": ["\#(trace)"], "items": true}"#.utf8))
        let answer = try object(try api.replay(body))
        let replay = try #require((answer["replays"] as? [[String: Any]])?.first)
        let frames = try #require(replay["frames"] as? [[String: Any]])
        let outcome = try Replay.run(api.engine.loaded, set: ["damping": .number(0.6), "frequency": .number(2)], trace: api.engine.traces[0])
        #expect(frames.count > 10)
        var compared = 0
        for frame in frames {
            let t = try #require(frame["t"] as? Double)
            let rows = outcome.run.timeline.filter { abs($0.t - t) <= 1e-9 }
            let items = try #require(frame["items"] as? [[Double]])
            #expect(items.count == rows.count)
            for (item, row) in zip(items, rows) {
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
                    #"{"params": {"damping": 0.5}"#, String(repeating: "[", count: 100_000), ""] {
            #expect(throws: StudioError.self) { _ = try api.evaluate(try JSONInput.parse(Array(bad.utf8))) }
        }
    }

    @Test func choicesUndoAndResume() throws {
        let path = NSTemporaryDirectory() + "studio-\(UUID().uuidString)/s.sqlite"
        var best: String
        do {
            let api = try makeAPI(session: path)
            let round = try api.candidates(k: 4).compact()
            let parsed = try object(round)
            let number = try #require(parsed["round"] as? Int)
            let ids = try #require((parsed["candidates"] as? [[String: Any]])?.compactMap { $0["id"] as? Int })
            #expect(ids.count == 4)
            // The same round until it is answered.
            #expect(try api.candidates(k: 4).compact() == round)
            #expect(throws: StudioError.self) { _ = try api.choose(try JSONInput.parse(Array(#"{"round": \#(number), "worst": 123456}"#.utf8))) }
            _ = try api.choose(try JSONInput.parse(Array(#"{"round": \#(number), "worst": \#(ids[3])}"#.utf8)))
            _ = try api.candidates(k: 4)
            best = try api.best().compact()
            // A second studio on the same session is refused.
            #expect(throws: (any Error).self) { _ = try SessionStore(path: path, preset: "tweetbot", model: "flick-dismiss") }
        }
        let again = try makeAPI(session: path)
        #expect(try again.best().compact() == best)
        #expect(try object(try again.undo().compact())["choices"] as? Int == 0)
        #expect(throws: StudioError.self) { _ = try again.undo() }
    }

    @Test func httpChecks() async throws {
        let api = try makeAPI()
        let gate = StudioServer.Gate(token: "secret-token-0123456789")
        gate.allow(authorities: ["localhost"])
        let app = Application(router: StudioServer.router(api: api, gate: gate))
        try await app.test(.router) { client in
            let auth: HTTPFields = [.authorization: "Bearer secret-token-0123456789"]
            try await client.execute(uri: "/", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/api/preset", method: .get) { r in
                #expect(r.status == .unauthorized)
                #expect(String(buffer: r.body).hasPrefix(#"{"error":"#))
            }
            try await client.execute(uri: "/api/preset?token=secret-token-0123456789", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/api/preset", method: .get, headers: auth) { #expect($0.status == .ok) }
            try await client.execute(uri: "/api/nothing", method: .get, headers: auth) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/api/evaluate", method: .post, headers: auth, body: ByteBuffer(string: "{")) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/api/evaluate", method: .post, headers: auth,
                                     body: ByteBuffer(repeating: UInt8(ascii: " "), count: (1 << 20) + 10)) { #expect($0.status == .contentTooLarge) }
            try await client.execute(uri: "/api/candidates?k=9", method: .get, headers: auth) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/api/export", method: .post, headers: auth, body: ByteBuffer(string: #"{"name": "../x"}"#)) {
                #expect($0.status == .badRequest)
            }
        }
        gate.allow(authorities: ["127.0.0.1:1"])
        try await app.test(.router) { client in
            try await client.execute(uri: "/api/preset?token=secret-token-0123456789", method: .get) { #expect($0.status == .forbidden) }
        }
    }
}
