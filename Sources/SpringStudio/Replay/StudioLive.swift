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
