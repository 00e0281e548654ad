import SpringCore
import SpringTune
import TraceIO

/// A replay as the page draws it (Reference §10.16): the simulated frames from touch-down until
/// shortly after everything rests (``Replay/Outcome``'s rest time), each with the timeline rows
/// when asked (`[item, y, anchor, velocity]`, pt and pt/s, the numbers `replay`'s timeline.csv
/// holds; empty otherwise), the shapes on screen (`[x, y, width, height, 0xRRGGBB]`, pt to 0.01,
/// the rectangles `replay --animate` draws) and the fingers down (`[x, y]`, pt).
enum StudioFrames {
    static func answer(_ r: StudioEngine.TraceReplay, kind: ModelKind, verdicts: StudioVerdicts, items: Bool, engine: EngineRecord? = nil) -> TraceReplayAnswer {
        let o = r.outcome
        let metrics = kind.metrics.map { (name: $0.name, value: MetricValue(measured: o.run.metrics[$0])) }
        return TraceReplayAnswer(trace: r.info.id, kind: r.info.kind, intent: r.info.intent, decision: o.run.decision?.rawValue,
                                 unsettled: o.run.unsettled, screen: [o.sceneSize.x, o.sceneSize.y], rest: o.restTime,
                                 metrics: MetricRow(columns: metrics), verdicts: verdicts.of(trace: metrics), frames: frames(o, items: items),
                                 engine: engine.map(EngineRun.init))
    }

    static func frames(_ o: Replay.Outcome, items: Bool) -> [Frame] {
        var rows = 0
        var fingers = Fingers()
        var out: [Frame] = []
        for (k, picture) in o.pictures.enumerated() {
            // Frames past the rest time show nothing new; the last one is kept to end on.
            if picture.t > o.restTime && k > 0 && o.pictures[k - 1].t >= o.restTime { break }
            var frame = Frame(t: picture.t, items: [], shapes: [], fingers: [])
            while rows < o.run.timeline.count, o.run.timeline[rows].t == picture.t {
                let row = o.run.timeline[rows]
                if items { frame.items.append([Double(row.item), row.y, row.anchor, row.velocity]) }
                rows += 1
            }
            frame.shapes = picture.shapes.map(shape)
            frame.fingers = fingers.down(at: picture.t, samples: o.trace.samples)
            out.append(frame)
        }
        return out
    }

    /// A shape as the page draws it: `[x, y, width, height, 0xRRGGBB]`, lengths to 0.01 pt.
    static func shape(_ s: Animation.Shape) -> [Double] { [pt(s.x), pt(s.y), pt(s.width), pt(s.height), Double(s.color)] }

    /// The fingers down at each frame, walking a trace's samples frame by frame.
    struct Fingers {
        private var next = 0
        private var latest: [Int: TouchSample] = [:]

        /// `[x, y]` (pt) of each pointer down at t (s from the first sample; samples up to 1e-9 s
        /// later count), in pointer order; call with increasing t.
        mutating func down(at t: Double, samples: [TouchSample]) -> [[Double]] {
            let t0 = samples.first?.t ?? 0
            while next < samples.count, samples[next].t - t0 <= t + 1e-9 {
                latest[samples[next].pointer] = samples[next]
                next += 1
            }
            return latest.keys.sorted().compactMap { p in latest[p]!.phase.isLift ? nil : [latest[p]!.x, latest[p]!.y] }
        }
    }

    /// A drawn length to 0.01 pt (a hundredth of a point is far below a pixel).
    static func pt(_ x: Double) -> Double { x.isFinite ? (x * 100).rounded() / 100 : .nan }
}
