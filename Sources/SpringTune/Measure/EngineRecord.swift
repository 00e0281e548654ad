import SpringCore
import SpringLayout

/// A model's engine driven through one trace as the page drives the WebAssembly module
/// (Reference §15), for the module to be checked against: what the module is handed (the
/// model's index in ``ModelKind/registry``, the scene's and the model's ``EngineNumbers``) and
/// every frame's numbers (``EngineFrame/values``). Frames are those of a run (Reference §6):
/// frame k at t₀ + k/F, every sample with t ≤ tₖ + 1e-9 s added before it, to `tail` after the
/// decision frame (to the trace's last frame for a model that does not decide).
public struct EngineRecord: Sendable {
    /// The model's index in ``ModelKind/registry``: the module's `startEngine` kind.
    public var engine: Int
    /// ``Scene/numbers``.
    public var scene: [Double]
    /// The model's ``EngineNumbers/numbers`` as it runs this trace (``InteractionModel/running(_:)``).
    public var numbers: [Double]
    /// The touch samples the engine is given, in order (the trace as the model reads it).
    public var samples: [TouchSample]
    /// Each frame's time (s, the samples' clock) and numbers.
    public var frames: [(t: Double, values: [Double])]
    /// The model's outcome at the last frame.
    public var decision: TraceIntent?

    /// `model`'s engine through `trace` (the trace as the model reads it).
    public init<M: InteractionModel>(_ model: M, trace: Trace) {
        let m = model.running(trace)
        var feed = TraceFeed(trace: trace, scene: m.scene)
        var engine = M.Engine(model: m)
        var frames: [(t: Double, values: [Double])] = []
        var decided = false
        _ = FrameLoop(clock: feed.clock, scene: m.scene).run { k in
            feed.samples(upTo: k).forEach { engine.add($0) }
            let t = feed.clock.time(k)
            frames.append((t, engine.frame(at: t).values))
            guard !decided, engine.decision != nil else { return .next }
            decided = true
            return .decided
        }
        self.engine = ModelKind.registry.firstIndex { ObjectIdentifier($0) == ObjectIdentifier(M.self) } ?? -1
        (scene, numbers, samples, self.frames, decision) = (m.scene.numbers, m.numbers, trace.samples, frames, engine.decision)
    }

    /// The record as one JSON document: `engine`, `scene`, `numbers`, `decision` (or null),
    /// `samples` (`[t, x, y, phase, pointer]` each, the phase as its index in
    /// ``TouchPhase/allCases``: began, moved, ended, cancelled) and `frames` (`[t, values…]`
    /// each), every number in the shortest form that reads back exactly.
    public var json: String {
        let numbers = { (list: [Double]) in JSONValue.array(list.map { .number($0) }) }
        return JSONValue.object([
            ("engine", .number(Double(engine))), ("scene", numbers(scene)), ("numbers", numbers(self.numbers)),
            ("decision", decision.map { .string($0.rawValue) } ?? .null),
            ("samples", .array(samples.map { s in
                numbers([s.t, s.x, s.y, Double(TouchPhase.allCases.firstIndex(of: s.phase) ?? 0), Double(s.pointer)])
            })),
            ("frames", .array(frames.map { numbers([$0.t] + $0.values) })),
        ]).rendered()
    }
}
