import Foundation
import SpringCore
import Testing
@testable import SpringLayout

/// A gesture that grabs a moving interaction (Reference §7.8): for each engine, a first gesture
/// is released, its animation runs to mid-flight, a second finger lands somewhere else entirely
/// and `interrupted(at:)` continues from what was presented. In the frame of the grab the
/// presented value moves by less than 0.5 pt (issue 28); then it follows the new finger.
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

    /// Grabs `first` 50 ms after its lift (frame 11) with a finger at `finger`, moved by `move` a
    /// frame later: the presented value is within 0.5 pt of what `first` showed (mid-flight, more
    /// than 1 pt from 0), then that plus `expectedMove`.
    static func grab<E>(_ first: E, finger: SIMD2<Double>, move: SIMD2<Double>, expectedMove: Double, interrupt: (E, Double) -> E,
                        add: (inout E, TouchSample) -> Void, value: (inout E, Double) -> Double) {
        let grabTime = 11.0 / 120 + 0.05, next = grabTime + 1.0 / 120
        var playing = first
        let before = value(&playing, grabTime)
        #expect(before > 1, "mid-flight")
        var grabbed = interrupt(first, grabTime)
        add(&grabbed, Self.touch(grabTime, finger.x, finger.y, .began))
        #expect(abs(value(&grabbed, grabTime) - before) < 0.5)
        add(&grabbed, Self.touch(next, finger.x + move.x, finger.y + move.y, .moved))
        #expect(abs(value(&grabbed, next) - (before + expectedMove)) < 1e-9)
    }

    @Test func flickGrabbedMidSnapBack() throws {
        var first = FlickDismissEngine(model: try FlickDismiss(preset: try T.preset("flick-dismiss")))
        // 10 frames of (1, −5) pt: |D| = 51 pt < 60, kept; the card springs back to the centre.
        Self.gesture(&first, frames: 11, start: SIMD2(200, 400), step: SIMD2(1, -5)) { e, s in e.add(s); _ = e.frame(at: s.t) }
        let grabTime = 11.0 / 120 + 0.08
        var playing = first
        let before = playing.frame(at: grabTime).center
        #expect(first.decision == .keep)
        #expect(abs(before.y - first.restCenter.y) > 5, "mid-flight, away from the centre")
        var next = first.interrupted(at: grabTime)
        next.add(Self.touch(grabTime, 40, 700, .began))
        let grabbed = next.frame(at: grabTime).center
        #expect(((grabbed - before) * (grabbed - before)).sum().squareRoot() < 0.5)
        next.add(Self.touch(grabTime + 1.0 / 120, 43, 690, .moved))
        let moved = next.frame(at: grabTime + 1.0 / 120).center
        #expect(abs(moved.x - (before.x + 3)) < 1e-9 && abs(moved.y - (before.y - 10)) < 1e-9)
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

    @Test func cardGrabbedMidReturn() throws {
        let (model, first) = try Self.keptCard()
        let grabTime = 20.0 / 120 + 0.05
        var playing = first
        let before = playing.frame(at: grabTime).frame
        #expect(before.width < model.scene.width - 1, "mid-return, still smaller than the screen")
        var next = first.interrupted(at: grabTime)
        next.add(Self.touch(grabTime, 100, 500, .began))
        let grabbed = next.frame(at: grabTime).frame
        for (a, b) in zip(grabbed.edges, before.edges) { #expect(abs(a - b) < 0.5) }
        next.add(Self.touch(grabTime + 1.0 / 120, 100, 520, .moved))
        #expect(next.frame(at: grabTime + 1.0 / 120).frame.width < grabbed.width, "dragging down shrinks it again")
    }

    @Test func pulledRowGrabbedMidSpring() throws {
        var first = PullToCreateEngine(model: try PullToCreate(preset: try T.preset("pull-to-create")))
        // 10 frames of 3 pt: 30 pt of 60, below commitFraction 0.75: cancelled, folding away.
        Self.gesture(&first, frames: 11, start: SIMD2(200, 100), step: SIMD2(0, 3)) { e, s in e.add(s); _ = e.frame(at: s.t) }
        Self.grab(first, finger: SIMD2(50, 600), move: SIMD2(0, 5), expectedMove: 5, interrupt: { $0.interrupted(at: $1) },
                  add: { $0.add($1) }, value: { $0.frame(at: $1).height })
    }

    /// A pinch released mid-way and grabbed 50 ms after its lift by a finger at (100, 500): the
    /// new engine, the grab time, and the height the first showed then (mid-flight).
    static func grabbedPinch() throws -> (engine: PinchFoldEngine, grabTime: Double, before: Double) {
        var first = PinchFoldEngine(model: try PinchFold(preset: try T.preset("pinch-fold")))
        // Two fingers 1 pt apart per frame each (2 pt/frame apart), 10 frames: 20 pt of 60, released: the row folds away.
        for k in 0...11 {
            first.add(T.sample(k, start: SIMD2(200, 300), step: SIMD2(0, -1), pointer: 0, lift: k == 11))
            first.add(T.sample(k, start: SIMD2(200, 340), step: SIMD2(0, 1), pointer: 1, lift: k == 11))
            _ = first.frame(at: Double(k) / 120)
        }
        let grabTime = 11.0 / 120 + 0.05
        var playing = first
        let before = playing.frame(at: grabTime).height
        #expect(before > 1, "mid-flight")
        var next = first.interrupted(at: grabTime)
        next.add(Self.touch(grabTime, 100, 500, .began, pointer: 0))
        return (next, grabTime, before)
    }

    @Test func pinchedRowGrabbedMidSpring() throws {
        var (next, grabTime, before) = try Self.grabbedPinch()
        next.add(Self.touch(grabTime, 100, 560, .began, pointer: 1))
        #expect(abs(next.frame(at: grabTime).height - before) < 0.5)
    }

    @Test func transitionGrabbedMidSpring() throws {
        var first = PercentTransitionEngine(model: try PercentTransition(preset: try T.preset("percent-transition", params: #""completionCurve": "spring""#)))
        // An edge pan 4 pt per frame from x = 5 for 10 frames: 40 pt, slow: kept, the view springs back.
        Self.gesture(&first, frames: 11, start: SIMD2(5, 300), step: SIMD2(4, 0)) { e, s in e.add(s); _ = e.frame(at: s.t) }
        Self.grab(first, finger: SIMD2(200, 300), move: SIMD2(6, 0), expectedMove: 6, interrupt: { $0.interrupted(at: $1) },
                  add: { $0.add($1) }, value: { $0.frame(at: $1).offset })
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
