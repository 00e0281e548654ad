import Foundation
import SpringCore
import SpringLayout

/// What a photo viewer does at 120 Hz with `model`: a short drag is released, the photo springs
/// back, and 80 ms later a second finger lands elsewhere and grabs it mid-flight. The running
/// engine hands over with `interrupted(at:)`, so the photo stays where it was shown. Returns one
/// line with the centre just before the grab and in the grab's frame (pt).
func grabDemo(_ model: FlickDismiss) -> String {
    var engine = FlickDismissEngine(model: model)
    let centre = engine.restCenter
    for k in 0...6 {
        let t = Double(k) / 120
        engine.add(TouchSample(t: t, x: centre.x + Double(k), y: centre.y + 3 * Double(k), phase: k == 0 ? .began : k == 6 ? .ended : .moved))
        _ = engine.frame(at: t)
    }
    let grabTime = 6.0 / 120 + 0.08
    var shown = engine
    let before = shown.frame(at: grabTime).center
    var grabbed = engine.interrupted(at: grabTime)
    grabbed.add(TouchSample(t: grabTime, x: 30, y: 700, phase: .began))
    let at = grabbed.frame(at: grabTime).center
    let point = { (p: SIMD2<Double>) in String(format: "(%.2f, %.2f)", p.x, p.y) }
    return "grab mid-\(engine.decision == .keep ? "snap-back" : "throw") at \(String(format: "%.3f", grabTime)) s: centre \(point(before)) before, \(point(at)) in the grab's frame"
}
