import SpringCore
import SpringTune
import TraceIO

/// A replay as the page draws it (Reference §10.16), written straight to JSON text: the
/// simulated frames from touch-down until shortly after everything rests (``Replay/Outcome``'s
/// rest time), each with the timeline rows when asked (`[item, y, anchor, velocity]`, pt and
/// pt/s, the numbers `replay`'s timeline.csv holds; empty otherwise), the shapes on screen (`[x, y, width, height,
/// 0xRRGGBB]`, pt, the rectangles `replay --animate` draws) and the fingers down (`[x, y]`, pt).
enum StudioFrames {
    static func write(_ r: StudioEngine.TraceReplay, kind: ModelKind, items: Bool, to out: inout String) {
        let o = r.outcome
        out += "{\"trace\":" + JSONValue.string(r.info.id).compact()
        out += ",\"kind\":" + JSONValue.string(r.info.kind).compact()
        out += ",\"intent\":" + (r.info.intent.map { JSONValue.string($0).compact() } ?? "null")
        out += ",\"decision\":" + (o.run.decision.map { JSONValue.string($0.rawValue).compact() } ?? "null")
        out += ",\"unsettled\":" + (o.run.unsettled ? "true" : "false")
        out += ",\"screen\":[" + num(o.sceneSize.x) + "," + num(o.sceneSize.y) + "]"
        out += ",\"rest\":" + num(o.restTime)
        out += ",\"metrics\":{"
        for (i, m) in kind.metrics.enumerated() {
            if i > 0 { out += "," }
            out += JSONValue.string(m.name).compact() + ":" + StudioAPI.json(MetricValue(measured: o.run.metrics[m])).compact()
        }
        out += "},\"frames\":["
        let samples = o.trace.samples, t0 = samples.first?.t ?? 0
        var rows = 0, next = 0
        var fingers: [Int: TouchSample] = [:]
        for (k, picture) in o.pictures.enumerated() {
            // Frames past the rest time show nothing new; the last one is kept to end on.
            if picture.t > o.restTime && k > 0 && o.pictures[k - 1].t >= o.restTime { break }
            if k > 0 { out += "," }
            out += "{\"t\":" + num(picture.t) + ",\"items\":["
            var first = true
            while rows < o.run.timeline.count, o.run.timeline[rows].t == picture.t {
                let row = o.run.timeline[rows]
                if items {
                    out += (first ? "[" : ",[") + String(row.item) + "," + num(row.y) + "," + num(row.anchor) + "," + num(row.velocity) + "]"
                    first = false
                }
                rows += 1
            }
            out += "],\"shapes\":["
            for (j, s) in picture.shapes.enumerated() {
                out += (j > 0 ? ",[" : "[") + pt(s.x) + "," + pt(s.y) + "," + pt(s.width) + "," + pt(s.height) + "," + String(s.color) + "]"
            }
            while next < samples.count, samples[next].t - t0 <= picture.t + 1e-9 {
                fingers[samples[next].pointer] = samples[next]
                next += 1
            }
            out += "],\"fingers\":["
            var firstFinger = true
            for p in fingers.keys.sorted() where !fingers[p]!.phase.isLift {
                out += (firstFinger ? "[" : ",[") + num(fingers[p]!.x) + "," + num(fingers[p]!.y) + "]"
                firstFinger = false
            }
            out += "]}"
        }
        out += "]}"
    }

    /// A drawn length to 0.01 pt (a hundredth of a point is far below a pixel).
    static func pt(_ x: Double) -> String { x.isFinite ? NumberFormat.cell((x * 100).rounded() / 100) : "null" }

    /// A number as JSON: the shortest text that reads back as the same double; null when not finite.
    static func num(_ x: Double) -> String { x.isFinite ? NumberFormat.cell(x) : "null" }
}
