import Foundation
import SpringCore
import SpringLayout

/// A preset, then one synthetic gesture through its model's per-frame engine, as an app drives
/// it: touch samples at 120 Hz, one display frame per sample, then frames after the lift; at a
/// frame the gesture's bytes choose, a second gesture grabs the animation (`interrupted(at:)`,
/// Reference §7.8) and runs to the scene's tail. Traps when any position, size or velocity the
/// engine reports is not finite, or when the grab moves what is shown by more than 0.5 pt. Input: the preset's JSON, optionally followed by a NUL byte and the
/// gestures' bytes (without them a fixed downward throw); a preset that does not decode is skipped.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEngine(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let split = bytes.firstIndex(of: 0) ?? size
    guard let preset = try? Preset.decode(Data(bytes[..<split])) else { return 0 }
    var gesture = GestureBytes(split < size ? Array(bytes[(split + 1)...]) : [0x05, 0x03, 0x20, 0x40, 0x10, 0x7f, 0x00, 0x7f])
    switch preset.model {
    case FlickDismiss.modelName:
        guard let model = try? FlickDismiss(preset: preset) else { return 0 }
        driveGrabbed(FlickDismissEngine(model: model), shown: 2, scene: model.scene, "flick-dismiss", &gesture, pointers: 1,
                     add: { $0.add($1) }, interrupt: { $0.interrupted(at: $1) }) { e, t in
            let f = e.frame(at: t)
            return [f.center.x, f.center.y, f.velocity.x, f.velocity.y]
        }
    case CardDismiss.modelName:
        guard let model = try? CardDismiss(preset: preset) else { return 0 }
        driveGrabbed(CardDismissEngine(model: model), shown: 4, scene: model.scene, "card-dismiss", &gesture, pointers: 1,
                     add: { $0.add($1) }, interrupt: { $0.interrupted(at: $1) }) { e, t in
            let f = e.frame(at: t)
            return f.frame.edges + f.target.edges + [f.velocity.x, f.velocity.y, f.velocity.width, f.velocity.height]
        }
    case PullToCreate.modelName:
        guard let model = try? PullToCreate(preset: preset) else { return 0 }
        driveGrabbed(PullToCreateEngine(model: model), shown: 1, scene: model.scene, "pull-to-create", &gesture, pointers: 1,
                     add: { $0.add($1) }, interrupt: { $0.interrupted(at: $1) }) { rowValues($0.frame(at: $1)) }
    case PinchFold.modelName:
        guard let model = try? PinchFold(preset: preset) else { return 0 }
        driveGrabbed(PinchFoldEngine(model: model), shown: 1, scene: model.scene, "pinch-fold", &gesture, pointers: 2,
                     add: { $0.add($1) }, interrupt: { $0.interrupted(at: $1) }) { rowValues($0.frame(at: $1)) }
    case PercentTransition.modelName:
        guard let model = try? PercentTransition(preset: preset) else { return 0 }
        driveGrabbed(PercentTransitionEngine(model: model), shown: 1, scene: model.scene, "percent-transition", &gesture, pointers: 1,
                     add: { $0.add($1) }, interrupt: { $0.interrupted(at: $1) }) { e, t in
            let f = e.frame(at: t)
            return [f.offset, f.target, f.velocity]
        }
    case FlowLayout.modelName:
        guard let layout = try? FlowLayout(preset: preset), layout.itemCount <= 500 else { return 0 }
        driveFlow(layout, samples: gesture.samples(pointers: 1))
    default:
        return 0
    }
    return 0
}

/// A gesture through `engine` (all of it, or its first samples), then a second one (with as
/// many fingers, or one) that grabs it `k` frames after the first's last sample (k from the
/// bytes, 0…119): each sample added and the frame at its time, every value finite; in the
/// grab's frame the first `shown` values (what is on screen) within 0.5 pt of what the first
/// engine showed then.
func driveGrabbed<E>(_ engine: E, shown: Int, scene: Scene, _ model: String, _ gesture: inout GestureBytes, pointers: Int,
                     add: (inout E, TouchSample) -> Void, interrupt: (E, Double) -> E, values: (inout E, Double) -> [Double]) {
    var first = engine
    let whole = gesture.samples(pointers: pointers)
    // Usually the whole first gesture; sometimes only its first samples (a grab while its
    // finger is down, or of an engine never touched).
    let kept = whole.count - Int(gesture.next()) % (whole.count + 1)
    let samples = Array(whole.prefix(kept))
    let k = Int(gesture.next() % 120)
    let grabTime = (samples.last?.t ?? 1) + Double(k) / scene.frameRate
    drive(samples, scene: scene, tailFrames: k, toTheEnd: false) { sample, t in
        if let sample { add(&first, sample) }
        expectFinite(values(&first, t), model, t)
    }
    let before = Array(values(&first, grabTime).prefix(shown))
    var second = interrupt(first, grabTime)
    // The second gesture may have fewer fingers (a pinched row grabbed by one finger).
    let fingers = pointers > 1 && gesture.next() & 1 == 1 ? 1 : pointers
    let next = gesture.samples(pointers: fingers).map { s in
        TouchSample(t: s.t - 1 + grabTime, x: s.x, y: s.y, phase: s.phase, pointer: s.pointer)
    }
    for s in next.prefix(fingers) { add(&second, s) }
    let grabbed = Array(values(&second, grabTime).prefix(shown))
    for (a, b) in zip(before, grabbed) where !(abs(a - b) <= 0.5 + 1e-9 * max(1, abs(a))) {
        fatalError("\(model): the grab at t = \(grabTime) moved what is shown from \(before) to \(grabbed)")
    }
    drive(Array(next.dropFirst(fingers)), scene: scene) { sample, t in
        if let sample { add(&second, sample) }
        expectFinite(values(&second, t), model, t)
    }
}

/// A flow layout as its app drives it: a scroll driver turns the finger into the displayed
/// offset (rubber-banded while down, the release motion after), the engine moves the rows.
func driveFlow(_ layout: FlowLayout, samples: [TouchSample]) {
    guard let first = samples.first else { return }
    let start = layout.initialOffset(for: Trace(id: "fuzz", samples: samples))
    var driver = ScrollDriver(view: layout.scrollView, offset: start, touchDownY: first.y)
    var engine = FlowLayoutEngine(layout: layout, offset: start)
    var input = TouchInput(), liftTime = 0.0, lastY = first.y
    drive(samples, scene: layout.scene, tailFrames: 120) { sample, t in
        if let sample {
            input.add(sample)
            lastY = sample.y
            if sample.phase.isLift {
                driver.lift(touchY: sample.y, velocityY: input.releaseVelocity(layout.scene.estimator).y)
                liftTime = t
            }
        }
        let o = input.isLifted ? driver.offset(afterRelease: t - liftTime) : driver.offset(touchY: lastY)
        engine.advance(to: o, touchY: lastY)
        expectFinite([o] + engine.positions + engine.velocities + engine.anchors, "flow-layout", t)
    }
}

/// A row's height, target, velocity and fold (pull and pinch).
func rowValues(_ f: (height: Double, target: Double, velocity: Double, fold: Fold)) -> [Double] {
    [f.height, f.target, f.velocity, f.fold.angle, f.fold.depth]
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
