import Foundation
import SpringCore
import SpringLayout
import SpringTune

/// A preset, then one synthetic gesture through its model's per-frame engine (``TouchEngine``),
/// as an app drives it: touch samples at 120 Hz, one display frame per sample, then frames after
/// the lift; at a frame the gesture's bytes choose, a second gesture grabs the motion
/// (`interrupted(at:)`, Reference §7.8) and runs to the scene's tail. Every model of the registry
/// is driven the same way, so a new model is fuzzed as soon as it is registered. Traps when any
/// number a frame carries is not finite, or when the grab moves what is shown by more than 0.5 pt.
/// Input: the preset's JSON, optionally followed by a NUL byte and the gestures' bytes (without
/// them a fixed downward throw); a preset that does not decode is skipped.
func fuzzEngine(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard case let (preset, kind, tail)? = presetAndRest(bytes) else { return }
    var gesture = GestureBytes(tail.map(Array.init) ?? [0x05, 0x03, 0x20, 0x40, 0x10, 0x7f, 0x00, 0x7f])
    fuzz(kind.type, preset: preset, &gesture)
}

/// Most numbers one frame may carry: a list of thousands of rows is skipped (time per input).
let maxFrameValues = 2_000

/// The preset's model `M` (skipped when the preset does not make one) through ``driveGrabbed``,
/// with two fingers for a model that reads every pointer.
func fuzz<M: MeasuredModel>(_ type: M.Type, preset: Preset, _ gesture: inout GestureBytes) {
    guard let model = try? M(preset: preset) else { return }
    var probe = M.Engine(model: model)
    guard probe.frame(at: 0).values.count <= maxFrameValues else { return }
    driveGrabbed(M.Engine(model: model), scene: model.scene, M.modelName, &gesture, pointers: M.usesAllPointers ? 2 : 1)
}

/// A gesture through `engine` (all of it, or its first samples), then a second one (with as
/// many fingers, or one) that grabs it `k` frames after the first's last sample (k from the
/// bytes, 0…119): each sample added and the frame at its time, every value finite; in the
/// grab's frame what is shown within 0.5 pt of what the first engine showed then.
func driveGrabbed<E: TouchEngine>(_ engine: E, scene: Scene, _ model: String, _ gesture: inout GestureBytes, pointers: Int) {
    var first = engine
    let whole = gesture.samples(pointers: pointers)
    // Usually the whole first gesture; sometimes only its first samples (a grab while its
    // finger is down, or of an engine never touched).
    let kept = whole.count - Int(gesture.next()) % (whole.count + 1)
    let samples = Array(whole.prefix(kept))
    let k = Int(gesture.next() % 120)
    let grabTime = (samples.last?.t ?? 1) + Double(k) / scene.frameRate
    drive(samples, scene: scene, tailFrames: k, toTheEnd: false) { sample, t in
        if let sample { first.add(sample) }
        expectFinite(first.frame(at: t).values, model, t)
    }
    let before = first.frame(at: grabTime).shown
    var second = first.interrupted(at: grabTime)
    // The second gesture may have fewer fingers (a pinched row grabbed by one finger).
    let fingers = pointers > 1 && gesture.next() & 1 == 1 ? 1 : pointers
    let next = gesture.samples(pointers: fingers).map { s in
        TouchSample(t: s.t - 1 + grabTime, x: s.x, y: s.y, phase: s.phase, pointer: s.pointer)
    }
    for s in next.prefix(fingers) { second.add(s) }
    let grabbed = second.frame(at: grabTime).shown
    for (a, b) in zip(before, grabbed) where !(abs(a - b) <= 0.5 + 1e-9 * max(1, abs(a))) {
        fatalError("\(model): the grab at t = \(grabTime) moved what is shown from \(before) to \(grabbed)")
    }
    drive(Array(next.dropFirst(fingers)), scene: scene) { sample, t in
        if let sample { second.add(sample) }
        expectFinite(second.frame(at: t).values, model, t)
    }
}

/// One display frame per sample (at the sample's time), then `tailFrames` frames at the scene's
/// rate after the last sample, then (unless `toTheEnd` is false) one frame after the end of the
/// scene's tail.
func drive(_ samples: [TouchSample], scene: Scene, tailFrames: Int = 240, toTheEnd: Bool = true, frame: (TouchSample?, Double) -> Void) {
    for s in samples { frame(s, s.t) }
    let end = samples.last?.t ?? 0
    for k in stride(from: 1, through: tailFrames, by: 1) { frame(nil, end + Double(k) / scene.frameRate) }
    if toTheEnd { frame(nil, end + max(scene.tail, Double(tailFrames) / scene.frameRate) + 1) }
}

func expectFinite(_ values: [Double], _ model: String, _ t: Double) {
    if let bad = values.firstIndex(where: { !$0.isFinite }) {
        fatalError("\(model): value \(bad) of the frame at t = \(t) is \(values[bad]) (all: \(values))")
    }
}

/// The gesture's bytes read in order (0 once they run out).
struct GestureBytes {
    var bytes: [UInt8], index = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func next() -> UInt8 {
        defer { index += 1 }
        return index < bytes.count ? bytes[index] : 0
    }

    /// Step sizes from ordinary to absurd (pt per byte unit): coordinates stay finite.
    static let scales: [Double] = [0.25, 4, 100, 1e4, 1e9, 1e300]

    /// A gesture of `pointers` fingers at 120 Hz: each begins near (4·b, 4·b), moves by signed
    /// bytes × a scale chosen per gesture, and lifts (ended or cancelled) at the last frame.
    mutating func samples(pointers: Int) -> [TouchSample] {
        let moves = 1 + Int(next() % 48)
        let scale = Self.scales[Int(next()) % Self.scales.count]
        let lift: TouchPhase = next() & 1 == 0 ? .ended : .cancelled
        var positions = (0..<pointers).map { _ in (x: Double(next()) * 4, y: Double(next()) * 4) }
        var out: [TouchSample] = []
        for step in 0...(moves + 1) {
            let t = 1 + Double(step) / 120
            for p in 0..<pointers {
                let phase: TouchPhase = step == 0 ? .began : (step == moves + 1 ? lift : .moved)
                if step > 0 && step <= moves {
                    positions[p].x += Double(Int8(bitPattern: next())) * scale
                    positions[p].y += Double(Int8(bitPattern: next())) * scale
                }
                out.append(TouchSample(t: t, x: positions[p].x, y: positions[p].y, phase: phase, pointer: p))
            }
        }
        return out
    }
}
