import Foundation
import SpringCore
import Testing
@testable import SpringLayout

/// Helpers for grabs and retargets (Reference §7.8), and the engines' `retarget` (each engine's
/// own API, not ``TouchEngine``'s): a retargeted spring keeps its position and velocity and comes
/// to rest at the new target. That a grab of any engine moves what is shown by less than 0.5 pt
/// and then follows the new finger is checked for every registered model by
/// `EngineContractTests` (SpringTuneTests); `GrabOffTheMappingTests` holds the grabs particular
/// to one model.
@Suite struct InterruptionTests {
    typealias T = DragVelocityTests

    /// The first gesture: `frames` samples from `start` by `step`, then the lift.
    static func gesture<E>(_ engine: inout E, frames: Int, start: SIMD2<Double>, step: SIMD2<Double>, pointer: Int = 0,
                           add: (inout E, TouchSample) -> Void) {
        for k in 0...frames { add(&engine, T.sample(k, start: start, step: step, pointer: pointer, lift: k == frames)) }
    }

    /// A sample of the second gesture at time t.
    static func touch(_ t: Double, _ x: Double, _ y: Double, _ phase: TouchPhase, pointer: Int = 0) -> TouchSample {
        TouchSample(t: t, x: x, y: y, phase: phase, pointer: pointer)
    }

    /// A slow drag down (4 pt a frame for 20 frames) past the content's top, released at
    /// t = 20/120 s before commitProgress: kept, the card grows back to full screen.
    static func keptCard() throws -> (model: CardDismiss, engine: CardDismissEngine) {
        let model = try CardDismiss(preset: try T.preset("card-dismiss"))
        var card = CardDismissEngine(model: model)
        Self.gesture(&card, frames: 20, start: SIMD2(200, 300), step: SIMD2(0, 4)) { e, s in e.add(s); _ = e.frame(at: s.t) }
        #expect(card.decision == .keep)
        return (model, card)
    }

    /// A pinch released mid-way: two fingers 1 pt apart per frame each (2 pt/frame apart) for 10
    /// frames, 20 pt of 60, both lifted at frame 11: the row folds away.
    static func releasedPinch() throws -> PinchFoldEngine {
        var first = PinchFoldEngine(model: try PinchFold(preset: try T.preset("pinch-fold")))
        for k in 0...11 {
            first.add(T.sample(k, start: SIMD2(200, 300), step: SIMD2(0, -1), pointer: 0, lift: k == 11))
            first.add(T.sample(k, start: SIMD2(200, 340), step: SIMD2(0, 1), pointer: 1, lift: k == 11))
            _ = first.frame(at: Double(k) / 120)
        }
        return first
    }

    /// ``releasedPinch()`` grabbed 50 ms after its lift by a finger at (100, 500): the new
    /// engine, the grab time, and the height the first showed then (mid-flight).
    static func grabbedPinch() throws -> (engine: PinchFoldEngine, grabTime: Double, before: Double) {
        let first = try releasedPinch()
        let grabTime = 11.0 / 120 + 0.05
        var playing = first
        let before = playing.frame(at: grabTime).height
        #expect(before > 1, "mid-flight")
        var next = first.interrupted(at: grabTime)
        next.add(Self.touch(grabTime, 100, 500, .began, pointer: 0))
        return (next, grabTime, before)
    }

    /// Retargets `engine` 50 ms after its lift (frame 11) to `newTarget`: at that time the value
    /// and its velocity are unchanged (the same state, a new destination), and 5 s later it rests
    /// at `newTarget` (within 0.01).
    static func retarget<E>(_ engine: E, to newTarget: Double, retarget: (inout E, Double, Double) -> Void,
                            value: (inout E, Double) -> (value: Double, velocity: Double)) {
        let t = 11.0 / 120 + 0.05
        var before = engine, after = engine
        let old = value(&before, t)
        retarget(&after, newTarget, t)
        let now = value(&after, t)
        #expect(abs(now.value - old.value) < 1e-9 && abs(now.velocity - old.velocity) < 1e-9)
        #expect(abs(value(&after, t + 5).value - newTarget) < 0.01)
        #expect(abs(value(&before, t + 5).value - newTarget) > 1, "the old destination was elsewhere")
    }

    @Test func retargetedSpringsKeepTheirState() throws {
        var flick = FlickDismissEngine(model: try FlickDismiss(preset: try T.preset("flick-dismiss")))
        Self.gesture(&flick, frames: 11, start: SIMD2(200, 400), step: SIMD2(1, -5)) { e, s in e.add(s); _ = e.frame(at: s.t) }
        Self.retarget(flick, to: 300, retarget: { $0.retarget(center: SIMD2($0.restCenter.x, $1), at: $2) },
                      value: { let f = $0.frame(at: $1); return (f.center.y, f.velocity.y) })
        var pull = PullToCreateEngine(model: try PullToCreate(preset: try T.preset("pull-to-create")))
        Self.gesture(&pull, frames: 11, start: SIMD2(200, 100), step: SIMD2(0, 3)) { e, s in e.add(s); _ = e.frame(at: s.t) }
        Self.retarget(pull, to: 45, retarget: { $0.retarget(height: $1, at: $2) }, value: { let f = $0.frame(at: $1); return (f.height, f.velocity) })
        var transition = PercentTransitionEngine(model: try PercentTransition(preset: try T.preset("percent-transition", params: #""completionCurve": "spring""#)))
        Self.gesture(&transition, frames: 11, start: SIMD2(5, 300), step: SIMD2(4, 0)) { e, s in e.add(s); _ = e.frame(at: s.t) }
        Self.retarget(transition, to: 100, retarget: { $0.retarget(offset: $1, at: $2) }, value: { let f = $0.frame(at: $1); return (f.offset, f.velocity) })
        Self.retarget(try Self.releasedPinch(), to: 45, retarget: { $0.retarget(height: $1, at: $2) },
                      value: { let f = $0.frame(at: $1); return (f.height, f.velocity) })
    }

    /// A returning card sent to a smaller frame: the frame shown is unchanged at the retarget,
    /// and it comes to rest on the new frame.
    @Test func retargetedCardStartsFromItsFrame() throws {
        var (_, card) = try Self.keptCard()
        let t = 20.0 / 120 + 0.05, goal = Rect(x: 40, y: 100, width: 200, height: 300)
        var before = card
        let shown = before.frame(at: t).frame
        card.retarget(goal, at: t)
        for (a, b) in zip(card.frame(at: t).frame.edges, shown.edges) { #expect(abs(a - b) < 1e-9) }
        for (a, b) in zip(card.frame(at: t + 5).frame.edges, goal.edges) { #expect(abs(a - b) < 0.01) }
    }
}
