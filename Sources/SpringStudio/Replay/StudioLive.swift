import Foundation
import SpringCore
import SpringLayout
import SpringTune
import ToolRuntime
import TraceIO

/// Why a live socket closes (Reference §10.16, live touch), in words: the reason its close frame carries.
struct LiveClose: Error, Equatable {
    let reason: String
}

/// One `/api/live` socket without the WebSocket around it (Reference §10.16, live touch): each text message
/// in, the JSON texts to send back out. A gesture may open with `{params, screen, dpr}`; then
/// each sample `{t, phase, pointers: [{id, x, y}]}` is answered with `{"frames": [...]}`, every
/// frame it completes (``LiveReplay``), and the last lift with the rest of the frames and
/// `{"done": true, "trace": "live-N", ...}`, the gesture kept in the session. A message that is
/// not one of these, or a sample out of order, throws ``LiveClose``: that socket closes.
struct LiveChannel {
    let api: StudioAPI
    /// The opening of the gesture in progress (or of the next one).
    private var opening: LiveOpening
    private var gesture: LiveReplay?
    private var fingers = StudioFrames.Fingers()

    init(api: StudioAPI) {
        self.api = api
        opening = try! LiveOpening(api: api)  // no params given: nothing to refuse
    }

    /// The answers to one text message.
    mutating func receive(_ bytes: [UInt8]) throws(LiveClose) -> [String] {
        do {
            let message = try StudioRequest.decode(LiveMessage.self, from: bytes)
            if let sample = message.sample {
                return try add(sample)
            }
            guard gesture == nil else { throw LiveClose(reason: "a gesture is in progress: its opening message comes before its first sample") }
            opening = try LiveOpening(message, api: api)
            return []
        } catch let close as LiveClose {
            throw close
        } catch let error as StudioError {
            throw LiveClose(reason: error.message)
        } catch let error as ToolError {
            throw LiveClose(reason: error.message)
        } catch {
            throw LiveClose(reason: "\(error)")
        }
    }

    private mutating func add(_ sample: LiveMessage.Sample) throws -> [String] {
        if gesture == nil {
            guard sample.phase == .began else { throw LiveClose(reason: "a gesture's first sample must be began") }
            gesture = try LiveReplay(api.engine.loaded, set: opening.params)
            fingers = StudioFrames.Fingers()
        }
        let samples = sample.pointers.map { TouchSample(t: sample.t, x: $0.x, y: $0.y, phase: sample.phase, pointer: $0.id) }
        for s in samples {
            if let problem = gesture!.refusal(of: s) { throw LiveClose(reason: problem) }
        }
        let pictures = try gesture!.add(samples)
        guard let live = gesture, live.isComplete, let outcome = live.outcome else {
            return [try JSONTextEncoder.encode(LiveFrames(frames: pictures.map { frame($0) }))]
        }
        // The whole gesture: kept, then replayed under its own id for the rest of its frames.
        let trace = try api.store.addRecording(samples: live.samples, screen: opening.screen, dpr: opening.dpr, params: live.set)
        let rest = StudioFrames.frames(outcome, items: false).filter { f in live.lastDrawn.map { f.t > $0 + FrameClock.slack } ?? true }
        let metrics = api.engine.loaded.kind.metrics.map { (name: $0.name, value: MetricValue(measured: outcome.run.metrics[$0])) }
        gesture = nil
        opening = try LiveOpening(api: api)
        return [try JSONTextEncoder.encode(LiveFrames(frames: pictures.map { frame($0) } + rest)),
                try JSONTextEncoder.encode(LiveDone(trace: trace, params: ParamSet(live.set), decision: outcome.run.decision?.rawValue,
                                                    rest: outcome.restTime, metrics: MetricRow(columns: metrics)))]
    }

    /// A frame drawn while the finger is down, as ``StudioFrames/frames(_:items:)`` draws it.
    private mutating func frame(_ picture: LiveReplay.Picture) -> Frame {
        guard let gesture else { return Frame(t: picture.t, items: [], shapes: [], fingers: []) }
        return Frame(t: picture.t, items: [], shapes: picture.shapes.map(StudioFrames.shape),
                     fingers: fingers.down(at: picture.t, samples: gesture.input))
    }
}

/// What opens a gesture: the parameter set (the preset's values with these applied), the
/// page's phone (pt) and the display's device pixel ratio.
struct LiveOpening {
    var params: [String: ParamValue]
    var screen: [Double]
    var dpr: Double

    /// What `message` says, the preset's values, its scene's screen and 1 where it is silent.
    init(_ message: LiveMessage? = nil, api: StudioAPI) throws {
        params = try StudioRequest.checked(message?.params, kind: api.engine.loaded.kind)
        let scene = api.engine.loaded.preset.scene
        screen = message?.screen ?? [scene.width, scene.height]
        dpr = message?.dpr ?? 1
    }
}

/// A live message: an opening (`params`, `screen`, `dpr`) or a sample (`t`, `phase`, `pointers`).
struct LiveMessage: Decodable {
    struct Pointer: Decodable {
        var id: Int, x: Double, y: Double
        enum CodingKeys: String, CodingKey, CaseIterable { case id, x, y }
        init(from decoder: any Decoder) throws {
            let c = try StudioRequest.fields(decoder, CodingKeys.self)
            guard let id = try c.integer(.id), (0...15).contains(id) else { throw StudioError.badRequest("a pointer's id must be an integer from 0 to 15") }
            self.id = id
            x = try LiveMessage.coordinate(c, .x)
            y = try LiveMessage.coordinate(c, .y)
        }
    }

    struct Sample {
        var t: Double
        var phase: TouchPhase
        var pointers: [Pointer]
    }

    var params: ParamSet?
    var screen: [Double]?
    var dpr: Double?
    var sample: Sample?

    enum CodingKeys: String, CodingKey, CaseIterable { case params, screen, dpr, t, phase, pointers }

    /// Largest time a sample may carry (s): a page's clock runs for days, not centuries.
    static let maxTime = 1e9

    init(from decoder: any Decoder) throws {
        let c = try StudioRequest.fields(decoder, CodingKeys.self)
        params = try c.field(ParamSet.self, .params, "params must be a JSON object")
        screen = try c.field([Double].self, .screen, "screen must be [width, height] in pt")
        if let screen, screen.count != 2 || !screen.allSatisfy({ $0 >= 1 && $0 <= ParameterSpec.maxLength }) {
            throw StudioError.badRequest("screen must be [width, height], each from 1 to \(Int(ParameterSpec.maxLength)) pt")
        }
        dpr = try c.field(Double.self, .dpr, "dpr must be a number")
        if let dpr, !(dpr >= 0.1 && dpr <= 16) { throw StudioError.badRequest("dpr must be from 0.1 to 16") }
        let t = try c.field(Double.self, .t, "t must be a number of seconds")
        let phase = try c.field(String.self, .phase, "phase must be began, moved, ended or cancelled")
        let pointers = try c.field([Pointer].self, .pointers, "pointers must be a list of {id, x, y}")
        guard t != nil || phase != nil || pointers != nil else { return }
        guard params == nil, screen == nil, dpr == nil else { throw StudioError.badRequest("a message is an opening {params, screen, dpr} or a sample {t, phase, pointers}, not both") }
        guard let t, t.isFinite, abs(t) <= Self.maxTime else { throw StudioError.badRequest("a sample needs t, in seconds, within ±\(Int(Self.maxTime))") }
        guard let phase, let p = TouchPhase(rawValue: phase) else { throw StudioError.badRequest("a sample needs phase: began, moved, ended or cancelled") }
        guard let pointers, !pointers.isEmpty, pointers.count <= 10, Set(pointers.map(\.id)).count == pointers.count else {
            throw StudioError.badRequest("a sample needs 1 to 10 pointers, each id once")
        }
        sample = Sample(t: t, phase: p, pointers: pointers)
    }

    /// A coordinate within a trace's bounds (±``TouchInput/coordinateLimit`` pt).
    static func coordinate(_ c: KeyedDecodingContainer<Pointer.CodingKeys>, _ key: Pointer.CodingKeys) throws -> Double {
        guard let v = try c.field(Double.self, key, "\(key.stringValue) must be a number of points"), v.isFinite, abs(v) <= TouchInput.coordinateLimit else {
            throw StudioError.badRequest("a pointer needs \(key.stringValue), in pt, within ±\(Int(TouchInput.coordinateLimit))")
        }
        return v
    }
}

/// `{"frames": [...]}`: the frames one sample completed.
struct LiveFrames: Encodable {
    var frames: [Frame]
}

/// `{"done": true, ...}`: the gesture is over and kept as `trace`; `params` is the set it was
/// felt with (what a replay of `trace` takes to draw the same frames), `rest` when everything
/// rests (s from touch-down), its metrics and the model's decision.
struct LiveDone: Encodable {
    var done = true
    var trace: String
    var params: ParamSet
    var decision: String?
    var rest: Double
    var metrics: MetricRow

    enum CodingKeys: CodingKey { case done, trace, params, decision, rest, metrics }
}
