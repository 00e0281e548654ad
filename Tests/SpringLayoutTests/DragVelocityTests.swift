import Foundation
import SpringCore
import Testing
@testable import SpringLayout

/// Engines report the presented velocity while the finger is down (issue 28): for a finger moving
/// at a constant rate, the velocity each frame equals the frame-to-frame change of what the
/// engine presents × 120 Hz (an independent finite difference; exact for linear motion).
/// At the lift, the release spring starts with the finger's velocity where Reference §7 says so.
@Suite struct DragVelocityTests {
    static func preset(_ model: String, params: String = "", spring: String? = nil) throws -> Preset {
        let spring = spring ?? (model == "card-dismiss" || model == "percent-transition" ? #""response": 0.5, "dampingRatio": 0.8"# : #""frequency": 2, "damping": 0.8"#)
        return try Preset.decode(Data(#"{"schema": "springtune.preset/1", "name": "t", "model": "\#(model)", "spring": {\#(spring)}, "params": {\#(params)}}"#.utf8))
    }

    /// Finger `pointer` at `start` + k·`step` at t = k/120 (k = 0: began; `lift`: ended).
    static func sample(_ k: Int, start: SIMD2<Double>, step: SIMD2<Double>, pointer: Int = 0, lift: Bool = false) -> TouchSample {
        let p = start + step * Double(k)
        return TouchSample(t: Double(k) / 120, x: p.x, y: p.y, phase: lift ? .ended : (k == 0 ? .began : .moved), pointer: pointer)
    }

    /// Checks frames 3…`frames`: the reported velocity against the finite difference of `value`.
    static func expectVelocity(frames: Int, _ body: (Int) -> (value: Double, velocity: Double), expected: Double) {
        var previous = body(0).value
        for k in 1...frames {
            let f = body(k)
            if k >= 3 {
                #expect(abs(f.velocity - (f.value - previous) * 120) < 1e-6)
                #expect(abs(f.velocity - expected) < 1e-6)
            }
            previous = f.value
        }
    }

    /// One finger from `start` by `step` per frame through `engine` (add the sample, frame at its
    /// time): the presented value and velocity against `expected` (pt/s) for 10 frames; then the
    /// lift at frame 11, whose velocity (the release spring's start) must be `released`.
    static func follows(start: SIMD2<Double>, step: SIMD2<Double>, expected: Double, released: Double,
                        _ engine: (TouchSample) -> (value: Double, velocity: Double)) {
        expectVelocity(frames: 10, { k in engine(sample(k, start: start, step: step)) }, expected: expected)
        #expect(abs(engine(sample(11, start: start, step: step, lift: true)).velocity - released) < 1e-6)
    }

    @Test func flickCardMovesWithTheFinger() throws {
        // |D| = |(10, −50)| = 51 pt < distanceThreshold 60 at the lift: kept, the snap-back spring starts with v.
        var e = FlickDismissEngine(model: try FlickDismiss(preset: try Self.preset("flick-dismiss")))
        Self.follows(start: SIMD2(200, 400), step: SIMD2(1, -5), expected: -600, released: -600) { s in
            e.add(s)
            let f = e.frame(at: s.t)
            return (f.center.y, f.velocity.y)
        }
    }

    @Test func pulledRowGrowsWithTheFingerUntilOpen() throws {
        var e = PullToCreateEngine(model: try PullToCreate(preset: try Self.preset("pull-to-create")))
        Self.follows(start: SIMD2(200, 100), step: SIMD2(0, 3), expected: 360, released: 360) { s in e.add(s); let f = e.frame(at: s.t); return (f.height, f.velocity) }
    }

    @Test func aRowPulledFullyOpenIsStill() throws {
        var e = PullToCreateEngine(model: try PullToCreate(preset: try Self.preset("pull-to-create")))
        // Past rowHeight (60 pt) the row is fully open: it no longer follows the finger.
        for k in 0...30 { e.add(Self.sample(k, start: SIMD2(200, 100), step: SIMD2(0, 3))) }
        #expect(e.frame(at: 0.25).height == 60 && e.frame(at: 0.25).velocity == 0)
    }

    @Test func noteFollowsAnEdgePan() throws {
        // The spring curve starts with the finger's speed (Reference §7.6).
        var e = PercentTransitionEngine(model: try PercentTransition(preset: try Self.preset("percent-transition", params: #""completionCurve": "spring""#)))
        Self.follows(start: SIMD2(5, 300), step: SIMD2(4, 1), expected: 480, released: 480) { s in e.add(s); let f = e.frame(at: s.t); return (f.offset, f.velocity) }
    }

    @Test func cardShrinksAtTheRateOfItsFrameAndItsHeightRateStaysNegative() throws {
        let model = try CardDismiss(preset: try Self.preset("card-dismiss"))
        var e = CardDismissEngine(model: model)
        // 2 pt per frame down (240 pt/s): ds/dt = −(1 − 0.86)/0.3 · 240/333 per s.
        let ds = -(1 - 0.86) / 0.3 * 240 / 333
        var last = FrameVelocity.zero
        // Kept at release (240 < flickVelocity 800): the card's spring starts at rest (Reference §7.3).
        Self.follows(start: SIMD2(200, 300), step: SIMD2(0, 2), expected: 844 * ds, released: 0) { s in
            e.add(s)
            let f = e.frame(at: s.t)
            if !s.phase.isLift { last = f.velocity }
            return (f.frame.height, f.velocity.height)
        }
        #expect(abs(last.width - 390 * ds) < 1e-6 && abs(last.x + 390 * ds / 2) < 1e-6)
        #expect(last.height < 0)
    }

    /// `releaseVelocity: finger` (issue 38): the card kept at release springs back from the
    /// frame's own rate. A frame scaled about the centre moves along the path to the full
    /// screen (d = (1 − s)·(−W/2, −H/2, W, H), ḟ = ṡ·(−W/2, −H/2, W, H)), so u̇ = ṡ/(1 − s) keeps
    /// the whole rate: the height's rate at the lift is the drag's, 844·ds, where `rest` gives 0.
    @Test func cardReleasedWithTheFingersVelocityKeepsTheFramesRate() throws {
        var e = CardDismissEngine(model: try CardDismiss(preset: try Self.preset("card-dismiss", params: #""releaseVelocity": "finger""#)))
        let ds = -(1 - 0.86) / 0.3 * 240 / 333
        Self.follows(start: SIMD2(200, 300), step: SIMD2(0, 2), expected: 844 * ds, released: 844 * ds) { s in
            e.add(s)
            let f = e.frame(at: s.t)
            return (f.frame.height, f.velocity.height)
        }
        #expect(e.decision == .keep)
    }

    @Test func pinchedRowFollowsTheSeparation() throws {
        var e = PinchFoldEngine(model: try PinchFold(preset: try Self.preset("pinch-fold")))
        // Fingers part at 2 pt per frame each: ḋ = 480 pt/s, and hᵣ = d − d₀ in create mode.
        Self.expectVelocity(frames: 10, { k in
            e.add(Self.sample(k, start: SIMD2(200, 300), step: SIMD2(0, -2), pointer: 0))
            e.add(Self.sample(k, start: SIMD2(200, 340), step: SIMD2(0, 2), pointer: 1))
            let f = e.frame(at: Double(k) / 120)
            return (f.height, f.velocity)
        }, expected: 480)
        // A lifts first: the spring starts with ḋ (Reference §7.5).
        e.add(Self.sample(11, start: SIMD2(200, 300), step: SIMD2(0, -2), pointer: 0, lift: true))
        #expect(abs(e.frame(at: 11.0 / 120).velocity - 480) < 1e-6)
    }
}
