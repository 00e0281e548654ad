import Foundation
import SpringCore
import SpringLayout
import ToolRuntime

/// What the WebAssembly module's `startEngine` is handed for one parameter set (Reference §15):
/// the model's index in ``ModelKind/registry``, ``Scene/numbers`` and the model's
/// ``EngineNumbers/numbers`` (`flow-layout`'s `initialOffset: auto` left for the page to settle
/// on a gesture's first samples, as ``LiveReplay`` does), and whether the model reads every
/// finger or only the first (pinch-fold reads both).
public struct EngineStart: Sendable, Equatable {
    public var engine: Int
    public var scene: [Double]
    public var numbers: [Double]
    public var allPointers: Bool

    /// `model`'s start.
    public init<M: MeasuredModel>(_ model: M) {
        engine = Self.index(of: M.self)
        (scene, numbers, allPointers) = (model.scene.numbers, model.numbers, M.usesAllPointers)
    }

    /// The model's index in ``ModelKind/registry`` (the module's `startEngine` kind), −1 for none.
    static func index<M>(of _: M.Type) -> Int { ModelKind.registry.firstIndex { ObjectIdentifier($0) == ObjectIdentifier(M.self) } ?? -1 }
}

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
    /// The shapes ``Replay`` draws (``MeasuredModel/picture(_:)``, unrounded) at each frame that
    /// draws something, by time from the first sample (s): what the page's pictures of the
    /// frames' numbers are checked against. Empty unless set (`replay --engine` sets them).
    public var pictures: [(t: Double, shapes: [Animation.Shape])] = []

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
        self.engine = EngineStart.index(of: M.self)
        (scene, numbers, samples, self.frames, decision) = (m.scene.numbers, m.numbers, trace.samples, frames, engine.decision)
    }

    /// The record as one JSON document: `engine`, `scene`, `numbers`, `decision` (or null),
    /// `samples` (`[t, x, y, phase, pointer]` each, the phase as its index in
    /// ``TouchPhase/allCases``: began, moved, ended, cancelled), `frames` (`[t, values…]`
    /// each) and `pictures` (`[t, [[x, y, width, height, 0xRRGGBB], …]]` each), every number
    /// in the shortest form that reads back as the same Double (−0 as 0).
    public var json: String {
        let numbers = { (list: [Double]) in JSONValue.array(list.map { .number($0) }) }
        return JSONValue.object([
            ("engine", .number(Double(engine))), ("scene", numbers(scene)), ("numbers", numbers(self.numbers)),
            ("decision", decision.map { .string($0.rawValue) } ?? .null),
            ("samples", .array(samples.map { s in
                numbers([s.t, s.x, s.y, NumberReader.number(of: s.phase), Double(s.pointer)])
            })),
            ("frames", .array(frames.map { numbers([$0.t] + $0.values) })),
            ("pictures", .array(pictures.map { p in
                .array([.number(p.t), .array(p.shapes.map { numbers([$0.x, $0.y, $0.width, $0.height, Double($0.color)]) })])
            })),
        ]).rendered()
    }
}

extension EngineRecord {
    /// The most frames and samples a record read back may hold (a record of a 60 s trace at
    /// 240 Hz has 14,400 frames).
    public static let maxEntries = 1_000_000

    /// A record as ``json`` writes it; `file` names it in the one-line error.
    ///
    /// - Throws: ``/ToolRuntime/ToolError`` (data error) for text that is not such a record.
    public init(json data: Data, file: String) throws {
        /// The document as JSON has it (JSONDecoder reads each number as the nearest Double).
        struct Document: Decodable {
            var engine: Int, scene: [Double], numbers: [Double], decision: String?, samples: [[Double]], frames: [[Double]]
        }
        let bad = { (why: String) in ToolError(.dataError, "\(file): not an engine record (replay --engine): \(why)") }
        let d: Document
        do { d = try JSONDecoder().decode(Document.self, from: data) } catch { throw bad("\(error)".split(separator: "\n").first.map(String.init) ?? "") }
        guard ModelKind.registry.indices.contains(d.engine) else { throw bad("engine \(d.engine) is not a model's index") }
        guard d.samples.count <= Self.maxEntries, d.frames.count <= Self.maxEntries else { throw bad("more than \(Self.maxEntries) samples or frames") }
        (engine, scene, numbers) = (d.engine, d.scene, d.numbers)
        samples = try d.samples.map { n in
            guard n.count == 5, let phase = Int(exactly: n[3]), TouchPhase.allCases.indices.contains(phase), let pointer = Int(exactly: n[4]),
                  (0...15).contains(pointer) else { throw bad("a sample is not [t, x, y, phase, pointer]") }
            return TouchSample(t: n[0], x: n[1], y: n[2], phase: TouchPhase.allCases[phase], pointer: pointer)
        }
        frames = try d.frames.map { n in
            guard let t = n.first else { throw bad("a frame is empty") }
            return (t, Array(n.dropFirst()))
        }
        decision = d.decision.flatMap(TraceIntent.init(rawValue:))
    }

    /// The native engine driven through the record's samples at its frames' times, `repetitions`
    /// times: the best time per frame (s), the largest difference of its frames from the
    /// record's (relative to the number, absolute below 1; +∞ for a NaN or a frame of another
    /// size) and the numbers a frame holds on average.
    ///
    /// - Throws: ``/ToolRuntime/ToolError`` (data error) when the numbers make no model.
    public func timed(repetitions: Int) throws -> (secondsPerFrame: Double, largestDifference: Double, numbersPerFrame: Double) {
        func run<M: InteractionModel>(_: M.Type) throws -> (Double, Double, Double) {
            guard let scene = Scene(numbers: scene), let model = M(numbers: numbers, scene: scene) else {
                throw ToolError(.dataError, "the record's numbers make no \(M.modelName) model")
            }
            /// One pass through the frames; `each` sees frame k's numbers.
            func pass(_ each: (Int, [Double]) -> Void) {
                var engine = M.Engine(model: model)
                var next = 0
                for (k, frame) in frames.enumerated() {
                    while next < samples.count, samples[next].t <= frame.t + FrameClock.slack {
                        engine.add(samples[next])
                        next += 1
                    }
                    each(k, engine.frame(at: frame.t).values)
                }
            }
            // The comparison first, untimed (a NaN or a frame of another size counts as +∞).
            var worst = 0.0
            pass { k, values in
                let want = frames[k].values
                guard values.count == want.count else { worst = .infinity; return }
                for (a, b) in zip(values, want) {
                    let d = abs(a - b) / max(1, abs(b))
                    worst = d.isNaN ? .infinity : max(worst, d)
                }
            }
            var best = Double.infinity, numbers = 0
            for _ in 0..<repetitions {
                let clock = ContinuousClock(), start = clock.now
                numbers = 0
                pass { _, values in numbers += values.count }
                let elapsed = start.duration(to: clock.now)
                best = min(best, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
            }
            return (best / Double(max(1, frames.count)), worst, Double(numbers) / Double(max(1, frames.count)))
        }
        return try run(ModelKind.registry[engine])
    }
}
