import SpringCore
import SpringLayout
import ToolRuntime
import TraceIO

/// A gesture replayed as its samples arrive (Reference §10.16 live touch, the studio's live touch). Frame k is
/// at t₀ + k/F (§6, t₀ the first sample's time); while the finger is down, frame k is drawn by the
/// model's ``LiveStepper`` as soon as a sample later than tₖ has arrived (so every sample with
/// time ≤ tₖ is in, as a sweep feeds it). Once every pointer has lifted, the gesture is a whole
/// trace and its remaining frames, to rest, are ``Replay/run(_:set:trace:)``'s: the frames before
/// the release are computed as that replay computes them, so the whole equals the replay of the
/// recorded trace with the values of ``values``.
public struct LiveReplay: Sendable {
    /// One drawn frame: its time from the first sample (s), and the shapes on screen.
    public typealias Picture = (t: Double, shapes: [Animation.Shape])

    public let loaded: PresetStore.Loaded
    /// The parameter set asked for, then what the stepper settled (``LiveStepper/settled``).
    public private(set) var set: [String: ParamValue]
    /// Every sample received, all pointers, in order.
    public private(set) var samples: [TouchSample] = []
    /// The frame rate F (Hz) of the scene with `set` applied.
    public let frameRate: Double
    private let model: any MeasuredModel
    private var stepper: (any LiveStepper)?
    /// The samples the model reads: every pointer's for a multi-finger model, else the first
    /// pointer's (`ModelKind.input`).
    public private(set) var input: [TouchSample] = []
    /// Samples of `input` given to the stepper.
    private var fed = 0
    /// The next frame to draw.
    private var next = 0
    /// The time (from t₀) of the last frame drawn, nil before any.
    public private(set) var lastDrawn: Double?
    /// Pointers down now.
    private var down: Set<Int> = []

    /// Most samples a live gesture may hold (a minute at 120 Hz with ten fingers, ~3 MB).
    public static let maxSamples = 72_000
    /// Longest a live gesture may last, first sample to last (s): a trace file's longest, since
    /// the kept gesture is one.
    public static let maxSpan = TraceReader.maxSpan
    /// Longest wait between two samples (s): the frames in between are drawn when the later one
    /// comes (at most 1200 of them in one answer at 120 Hz); a finger still for longer is lifted.
    public static let maxGap = 10.0

    /// A gesture of `loaded`'s model under the preset's values with `set` applied (a bad value: usage error).
    public init(_ loaded: PresetStore.Loaded, set: [String: ParamValue]) throws {
        var values = loaded.kind.values(of: loaded.preset)
        for (k, v) in set { values[k] = v }
        func typed<M: MeasuredModel>(_: M.Type) throws -> any MeasuredModel { try SweepRunner.model(M.self, values: values, scene: loaded.preset.scene) }
        model = try typed(loaded.kind.type)
        frameRate = model.scene.frameRate
        self.loaded = loaded
        self.set = set
    }

    /// True once every pointer that touched has lifted.
    public var isComplete: Bool { !samples.isEmpty && down.isEmpty }

    /// Why `sample` cannot come next, or nil: a gesture's samples come in time order, the first
    /// `began`, each pointer beginning once and moving or lifting only while down.
    public func refusal(of sample: TouchSample) -> String? {
        if samples.count >= Self.maxSamples { return "a gesture holds at most \(Self.maxSamples) samples" }
        if isComplete { return "the gesture has ended; a new one begins with its own socket message after done" }
        if let last = samples.last, sample.t < last.t { return "sample at t = \(sample.t) s is earlier than the previous one (\(last.t) s): samples must come in time order" }
        if let last = samples.last, sample.t - last.t > Self.maxGap { return "sample at t = \(sample.t) s comes more than \(Int(Self.maxGap)) s after the previous one (\(last.t) s)" }
        if let first = samples.first, sample.t - first.t > Self.maxSpan { return "a gesture lasts at most \(Int(Self.maxSpan)) s (it began at t = \(first.t) s)" }
        let isDown = down.contains(sample.pointer)
        switch sample.phase {
        case .began: if isDown || samples.contains(where: { $0.pointer == sample.pointer }) { return "pointer \(sample.pointer) began twice" }
        default: if !isDown { return "pointer \(sample.pointer) is not down (its first sample must be began)" }
        }
        return nil
    }

    /// The replay of the whole trace, once every pointer has lifted.
    public private(set) var outcome: Replay.Outcome?

    /// Adds the samples of one message (call ``refusal(of:)`` on each first) and draws every frame
    /// they complete while the finger is down: the frames before the latest sample's time. After
    /// the last lift it replays the whole trace (``outcome``): its frames after ``lastDrawn`` are
    /// the rest of the gesture.
    public mutating func add(_ new: [TouchSample]) throws -> [Picture] {
        for s in new {
            samples.append(s)
            if s.phase == .began { down.insert(s.pointer) } else if s.phase.isLift { down.remove(s.pointer) }
            if loaded.kind.type.usesAllPointers || s.pointer == samples[0].pointer { input.append(s) }
        }
        if isComplete {
            if let settled = stepper?.settled { for (k, v) in settled { set[k] = v } }
            outcome = try Replay.run(loaded, set: set, trace: trace(id: "live"))
            return []
        }
        guard let t0 = input.first?.t, let latest = input.last, !latest.phase.isLift else { return [] }
        var out: [Picture] = []
        while true {
            let tk = t0 + Double(next) / frameRate
            guard tk + FrameClock.slack < latest.t else { break }
            if stepper == nil { stepper = model.liveStepper(received: input) }
            while fed < input.count, input[fed].t <= tk + FrameClock.slack {
                stepper!.add(input[fed])
                fed += 1
            }
            let shapes = stepper!.picture(at: tk, t0: t0)
            if !shapes.isEmpty {
                out.append((tk - t0, shapes))
                lastDrawn = tk - t0
            }
            next += 1
        }
        return out
    }

    /// The whole gesture as a trace.
    public func trace(id: String) -> Trace { Trace(id: id, samples: samples) }

}
