import Foundation
import SpringCore
import SpringLayout
import SpringTune
import Testing
import TraceIO
@testable import SpringStudio

/// Live touch (Reference §10.16, live touch) through ``LiveChannel``, the socket's logic without the socket:
/// a bundled trace's samples sent as the page sends them give frames and a `done`, and
/// `POST /api/replay` of the kept gesture with the `done`'s parameters gives the same frames to
/// 1e-9, for every model (clear-pinch with two pointers); bad messages close the socket with a
/// reason; recordings are labelled and come back as a trace CSV.
@Suite struct StudioLiveTests {
    static func api(_ preset: String) throws -> StudioAPI {
        let loaded = try PresetStore().load(preset)
        let path = NSTemporaryDirectory() + "live-\(UUID().uuidString)/s.sqlite"
        return try StudioAPI(engine: try StudioEngine(loaded: loaded, files: []), store: try SessionStore(path: path, preset: loaded.preset.name, model: loaded.kind.name))
    }

    /// The page's messages for a trace: one per time and phase, with every pointer of that row.
    static func messages(_ trace: Trace) -> [String] {
        var out: [String] = [], i = 0
        let s = trace.samples
        while i < s.count {
            var j = i
            while j < s.count, s[j].t == s[i].t, s[j].phase == s[i].phase { j += 1 }
            let pointers = s[i..<j].map { #"{"id":\#($0.pointer),"x":\#($0.x),"y":\#($0.y)}"# }.joined(separator: ",")
            out.append(#"{"t":\#(s[i].t),"phase":"\#(s[i].phase.rawValue)","pointers":[\#(pointers)]}"#)
            i = j
        }
        return out
    }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Plays `trace` through a channel: the frames received and the `done` message.
    /// At least `drawnDown` frames must come before the last message (drawn while the finger is down).
    static func play(_ api: StudioAPI, _ trace: Trace, opening: String? = nil, drawnDown: Int = 0) throws -> (frames: [[String: Any]], done: [String: Any]) {
        var channel = LiveChannel(api: api)
        if let opening { #expect(try channel.receive(Array(opening.utf8)).isEmpty) }
        var frames: [[String: Any]] = [], done: [String: Any]?
        let all = messages(trace)
        for (k, message) in all.enumerated() {
            if k == all.count - 1 { #expect(frames.count >= drawnDown, "\(trace.id): \(frames.count) frames drawn while down") }
            for answer in try channel.receive(Array(message.utf8)) {
                let o = try object(answer)
                if let f = o["frames"] as? [[String: Any]] { frames += f } else { done = o }
            }
        }
        return (frames, try #require(done))
    }

    static func numbers(_ frame: [String: Any], _ key: String) -> [Double] {
        ((frame[key] as? [[Any]]) ?? []).flatMap { $0.map { ($0 as? NSNumber)?.doubleValue ?? .nan } }
    }

    /// Every model's first bundled preset, a trace of each (evernote a fling, clear-pinch a
    /// two-pointer one): live frames equal the replay's frames of the kept trace to 1e-9.
    @Test(arguments: ["appstore", "clear", "clear-fold", "clear-pinch", "evernote", "evernote-transition", "messages", "sheet", "tweetbot"])
    func liveEqualsReplay(preset: String) throws {
        let api = try Self.api(preset)
        let estimator = api.engine.loaded.preset.scene.estimator
        let trace = try #require(api.engine.traces.first { t in
            switch preset {
            case "evernote": StudioEngine.kind(of: t, estimator: estimator) == "fling"
            case "clear-pinch": t.isMultiPointer
            default: true
            }
        })
        let (frames, done) = try Self.play(api, trace, opening: #"{"screen":[390,844],"dpr":3}"#, drawnDown: 5)
        let id = try #require(done["trace"] as? String)
        #expect(id == "live-1" && done["done"] as? Bool == true)
        let params = try StudioRequest.decode(ParamSet.self, from: [UInt8](try JSONSerialization.data(withJSONObject: done["params"] as Any)))
        let replay = try Self.object(try JSONTextEncoder.encode(try api.replay(ReplayRequest(params: params, traces: [id]))))
        let replayed = try #require(((replay["replays"] as? [[String: Any]])?.first?["frames"]) as? [[String: Any]])
        let (live, back) = (frames.count, replayed.count)
        #expect(live == back && live > 10, "\(preset): \(live) live frames, \(back) replayed")
        var worst = 0.0
        for (a, b) in zip(frames, replayed) {
            let (ta, tb) = ((a["t"] as? NSNumber)?.doubleValue ?? .nan, (b["t"] as? NSNumber)?.doubleValue ?? .nan)
            #expect(abs(ta - tb) <= 1e-9)
            for key in ["shapes", "fingers"] {
                let x = Self.numbers(a, key), y = Self.numbers(b, key)
                let (nx, ny) = (x.count, y.count)
                #expect(nx == ny, "\(preset): \(key) at t = \(ta)")
                for (p, q) in zip(x, y) { worst = max(worst, abs(p - q)) }
            }
        }
        #expect(worst <= 1e-9, "\(preset): live and replay differ by \(worst) pt")
        // The trace kept is the gesture sent, every pointer.
        let kept = try #require(try api.store.recordings().first)
        #expect(kept.trace.samples == trace.samples && kept.screen == [390, 844] && kept.dpr == 3)
        if preset == "clear-pinch" { #expect(kept.trace.isMultiPointer) }
    }

    /// A bad message closes the socket with its reason; the channel of another socket goes on.
    @Test func badMessagesCloseWithAReason() throws {
        let api = try Self.api("tweetbot")
        let began = #"{"t":0,"phase":"began","pointers":[{"id":0,"x":100,"y":200}]}"#
        let cases: [(messages: [String], reason: String)] = [
            (["{not json"], "malformed JSON"),
            ([#"{"t":0,"phase":"moved","pointers":[{"id":0,"x":1,"y":2}]}"#], "began"),
            ([began, #"{"t":-1,"phase":"moved","pointers":[{"id":0,"x":1,"y":2}]}"#], "time order"),
            ([began, #"{"t":0.1,"phase":"moved","pointers":[{"id":0,"x":1e300,"y":2}]}"#], "within"),
            ([#"{"t":0,"phase":"began","pointers":[{"id":0,"x":1,"y":2}],"extra":1}"#], "unknown key"),
            ([#"{"t":0,"t":1,"phase":"began","pointers":[{"id":0,"x":1,"y":2}]}"#], "duplicate key"),
            ([#"{"params":{"snapDamping":-3}}"#], "snapDamping"),
            ([began, #"{"screen":[390,844]}"#], "in progress"),
            // A sample far after the previous one would draw every frame in between at once.
            ([began, #"{"t":10.5,"phase":"moved","pointers":[{"id":0,"x":1,"y":2}]}"#], "more than 10 s after"),
            ([began] + (1...61).map { #"{"t":\#(Double($0) * 9.9),"phase":"moved","pointers":[{"id":0,"x":1,"y":2}]}"# }, "at most 600 s"),
        ]
        for c in cases {
            var channel = LiveChannel(api: api)
            var closed: LiveClose?
            for m in c.messages where closed == nil {
                do { _ = try channel.receive(Array(m.utf8)) } catch { closed = error }
            }
            #expect(closed?.reason.contains(c.reason) == true, "\(c.messages.last!): \(closed?.reason ?? "not closed")")
        }
    }

    /// Two gestures kept, one labelled: `GET /api/recordings.csv` reads back as two traces with
    /// the label, and a wrong intent or id is refused.
    @Test func recordingsAreLabelledAndComeBackAsACSV() throws {
        let api = try Self.api("tweetbot")
        for trace in api.engine.traces.prefix(2) { _ = try Self.play(api, trace) }
        #expect(try api.recordings().recordings.map(\.id) == ["live-1", "live-2"])
        _ = try api.update("live-2", LabelRequest(intent: .dismiss))
        #expect(throws: StudioError.self) { try api.update("live-3", LabelRequest(intent: .dismiss)) }
        #expect(throws: StudioError.self) { try api.update("live-1", LabelRequest(intent: .create)) }
        let file = NSTemporaryDirectory() + "recordings-\(UUID().uuidString).csv"
        try api.recordingsCSV().write(toFile: file, atomically: true, encoding: .utf8)
        let read = try TraceReader().read(path: file).traces
        #expect(read.map(\.id) == ["live-1", "live-2"] && read.map(\.intent) == [nil, .dismiss])
        #expect(read[0].samples == api.engine.traces[0].samples)
        let meta = try api.recordingsMeta()
        #expect(meta.source == "studio" && meta.recordings.count == 2 && meta.session == api.store.path)
    }

    /// A recording added to the traces (`used`) is one of the studio's traces: listed, replayed
    /// by id, measured by evaluate as a sweep measures the trace files with the recordings' CSV
    /// beside them, and kept when the session resumes; the open round is dropped; taken out,
    /// the studio measures its trace files again.
    @Test func aRecordingAddedIsATraceOfTheStudio() throws {
        let api = try Self.api("tweetbot")
        let files = api.engine.traces
        for trace in files.prefix(2) { _ = try Self.play(api, trace) }
        let before = try api.metrics([:])
        _ = try api.candidates(k: 2)
        _ = try api.update("live-2", LabelRequest(intent: .dismiss, used: true))
        #expect(try api.store.openRound() == nil)
        #expect(api.engine.traces.count == files.count + 1 && api.preset().traces.last?.id == "live-2" && api.preset().traces.last?.intent == "dismiss")
        #expect(try api.replay(ReplayRequest(params: nil, traces: ["live-2"], items: nil)).replays.count == 1)
        // The trace files and the recordings' CSV, read back as `sweep --traces` reads them.
        let folder = NSTemporaryDirectory() + "used-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try TraceWriter.csv(files).write(toFile: folder + "/files.csv", atomically: true, encoding: .utf8)
        try TraceWriter.csv(try api.store.recordings().filter(\.used).map(\.trace)).write(toFile: folder + "/live.csv", atomically: true, encoding: .utf8)
        let both = try StudioEngine(loaded: api.engine.loaded, files: [folder + "/files.csv", folder + "/live.csv"])
        let after = try api.metrics([:])
        let read = try both.evaluate([:])
        #expect(after.map(\.value) == read.map(\.value))
        #expect(after.map(\.value) != before.map(\.value))
        let resumed = try StudioAPI(engine: try StudioEngine(loaded: api.engine.loaded, files: []), store: api.store)
        #expect(resumed.engine.traces.map(\.id) == api.engine.traces.map(\.id))
        _ = try api.update("live-2", LabelRequest(used: false))
        let again = try api.metrics([:])
        #expect(api.engine.traces.count == files.count && again.map(\.value) == before.map(\.value))
        #expect(try api.recordings().recordings.map(\.used) == [false, false])
    }
}
