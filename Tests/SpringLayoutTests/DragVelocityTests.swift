import Foundation
import SpringCore
import Testing
@testable import SpringLayout

/// The rate each model's frames present while the finger drags at a constant rate, as its
/// Reference §7 section gives it (the finger's, a share of it, the rate of a card's scale), and
/// the rate its release starts with: the finger's where §7 says so, rest where it does not.
/// That every rate a frame presents is the rate of what it shows (its frame-to-frame change
/// while dragging, the motion's own rate after the release, none under a still finger) is
/// checked for every registered model by `EngineContractTests` (SpringTuneTests); this suite
/// holds each model's own numbers.
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

    /// Runs frames 0…`frames` and checks the reported velocity of frames 3… (once the §4
    /// estimator has its samples) against `expected` (pt/s).
    static func expectVelocity(frames: Int, _ body: (Int) -> (value: Double, velocity: Double), expected: Double) {
        for k in 0...frames {
            let f = body(k)
            if k >= 3 { #expect(abs(f.velocity - expected) < 1e-6, "frame \(k): \(f.velocity), not \(expected)") }
        }
    }

    /// One finger from `start` by `step` per frame through `engine` (add the sample, frame at its
    /// time): the presented velocity against `expected` (pt/s) for 10 frames; then the lift at
    /// frame 11, whose velocity (the release spring's start) must be `released`.
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

    /// The sheet's top follows the finger 1:1 between the detents and at `overdrag` (0.3) of its
    /// pace past the large one (Reference §7.10); released, the spring on the finger's path starts
    /// with the finger's velocity, shown through the same map.
    @Test func sheetMovesWithTheFingerAndAtOverdragPastTheLargeDetent() throws {
        let spring = #""response": 0.45, "dampingRatio": 0.85"#
        var e = BottomSheetEngine(model: try BottomSheet(preset: try Self.preset("bottom-sheet", spring: spring)))
        Self.follows(start: SIMD2(195, 500), step: SIMD2(0, -3), expected: -360, released: -360) { s in e.add(s); let f = e.frame(at: s.t); return (f.top, f.velocity) }
        var large = BottomSheetEngine(model: try BottomSheet(preset: try Self.preset("bottom-sheet", params: #""startDetent": "large""#, spring: spring)))
        Self.follows(start: SIMD2(195, 100), step: SIMD2(0, -3), expected: -0.3 * 360, released: -0.3 * 360) { s in
            large.add(s)
            let f = large.frame(at: s.t)
            return (f.top, f.velocity)
        }
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
