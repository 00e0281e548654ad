import SpringCore
import SpringLayout

/// A model's engine drawn while the finger is down, one frame at a time as the samples arrive
/// (Reference §10.16 live touch, the studio's live touch): before the frame at t, the caller adds every
/// sample with time ≤ t (1e-9 s slack), as ``TraceFeed`` feeds a sweep, and the frame is what
/// `run(_:timeline: true)` and ``Animation`` draw for that frame of the finished trace.
public protocol LiveStepper: Sendable {
    /// Gives the engine the next sample of the model's input (samples in time order).
    mutating func add(_ sample: TouchSample)
    /// The shapes on screen at the frame at t (s, the samples' clock), t0 being the first sample's
    /// time; empty when the frame draws nothing (as `Replay` then has no picture).
    mutating func picture(at t: Double, t0: Double) -> [Animation.Shape]
    /// Values the stepper settled for itself from the first samples (a value a whole trace decides),
    /// which a replay of the recorded gesture takes to draw the same frames.
    var settled: [String: ParamValue] { get }
}

extension LiveStepper {
    public var settled: [String: ParamValue] { [:] }
}

/// A deciding model's engine (``DecisionMeasured``): the reading `run` takes at each frame.
struct DecisionStepper<M: DecisionMeasured>: LiveStepper {
    let model: M
    var engine: M.Engine

    mutating func add(_ sample: TouchSample) { engine.add(sample) }

    mutating func picture(at t: Double, t0: Double) -> [Animation.Shape] {
        let reading = model.read(&engine, at: t, drawn: true)
        guard !reading.items.isEmpty else { return [] }
        return model.picture(reading.items.enumerated().map { i, item in
            TimelineRow(t: t - t0, item: i, y: item.y, anchor: item.anchor, velocity: item.velocity)
        })
    }
}

extension DecisionMeasured {
    /// The engine `run` drives, with the finger's velocity presented (as a timeline run does).
    public func liveStepper(received: [TouchSample]) -> any LiveStepper {
        DecisionStepper(model: self, engine: Engine(model: self, presentsDragVelocity: true))
    }
}
