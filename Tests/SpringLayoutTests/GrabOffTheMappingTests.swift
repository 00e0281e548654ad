import Foundation
import SpringCore
import Testing
@testable import SpringLayout

/// Grabs where the new gesture's own mapping cannot show what was presented (Reference §7.8):
/// a row past its open height, a card flying to its place in the list. The grab still moves
/// nothing; the excess fades on the model's spring onto the finger's mapping. Also: a grab after
/// the animation has come to rest is a fresh gesture, a one-finger grab of a pinched row lets
/// it go on, and a retarget back in time does not make the spring run ahead. (A finger held
/// still presents no velocity in any engine: `EngineContractTests`, for every registered model.)
@Suite struct GrabOffTheMappingTests {
    typealias T = DragVelocityTests
    typealias I = InterruptionTests

    /// The edges' largest distance between two frames (pt).
    static func distance(_ a: Rect, _ b: Rect) -> Double { zip(a.edges, b.edges).map { abs($0 - $1) }.max()! }

    @Test func cardGrabbedFlyingToTheListDoesNotJump() throws {
        let model = try CardDismiss(preset: try T.preset("card-dismiss"))
        var first = CardDismissEngine(model: model)
        // 12 pt per frame down: past commitProgress (100 pt) while dragging, committed to dismiss.
        I.gesture(&first, frames: 20, start: SIMD2(200, 300), step: SIMD2(0, 12)) { e, s in e.add(s); _ = e.frame(at: s.t) }
        #expect(first.decision == .dismiss)
        let grabTime = try #require(first.decisionTime) + 0.1
        var playing = first
        let before = playing.frame(at: grabTime).frame
        let p0 = (1 - before.width / model.scene.width) / (1 - model.minScale) * model.commitProgress
        #expect(Self.distance(before, model.frame(progress: p0)) > 20, "off the drag path: the old mapping jumped this far")
        var next = first.interrupted(at: grabTime)
        next.add(I.touch(grabTime, 100, 500, .began))
        #expect(Self.distance(next.frame(at: grabTime).frame, before) < 0.5)
        // Held still: the excess fades and the card rests on the drag path at p₀.
        #expect(Self.distance(next.frame(at: grabTime + 3).frame, model.frame(progress: p0)) < 0.5)
        #expect(next.decision == nil)
    }

    /// A pull-to-create row on an underdamped spring (damping ζ) released open at 600 pt/s.
    static func overshootingRow(damping: Double = 0.3) throws -> (engine: PullToCreateEngine, grabTime: Double, shown: Double) {
        var e = PullToCreateEngine(model: try PullToCreate(preset: try T.preset("pull-to-create", spring: #""frequency": 2, "damping": \#(damping)"#)))
        I.gesture(&e, frames: 11, start: SIMD2(200, 100), step: SIMD2(0, 5)) { e, s in e.add(s); _ = e.frame(at: s.t) }
        #expect(e.decision == .create)
        // The first frame more than 2 pt past the open height.
        for k in 12...120 {
            var probe = e
            let h = probe.frame(at: Double(k) / 120).height
            if h > 62 { return (e, Double(k) / 120, h) }
        }
        Issue.record("the row never passed 62 pt")
        return (e, 0, 0)
    }

    @Test func rowGrabbedPastItsHeightDoesNotJump() throws {
        let (first, grabTime, shown) = try Self.overshootingRow()
        var held = first.interrupted(at: grabTime)
        held.add(I.touch(grabTime, 50, 600, .began))
        #expect(abs(held.frame(at: grabTime).height - shown) < 0.5, "the old clamp showed 60")
        #expect(abs(held.frame(at: grabTime + 3).height - 60) < 0.5, "held still, it settles on the open height")
        // Moved up 10 pt at once: the mapping follows the finger from the open height at once,
        // the excess still fades, so 3 s later the row is 50 pt.
        var moved = first.interrupted(at: grabTime)
        moved.add(I.touch(grabTime, 50, 600, .began))
        moved.add(I.touch(grabTime + 1.0 / 120, 50, 590, .moved))
        #expect(abs(moved.frame(at: grabTime + 3).height - 50) < 0.5)
    }

    /// On an undamped spring (ζ 0) the row rings for ever; grabbed past its open height under a
    /// still finger, the excess still falls to 0 without crossing it (the fade is critically
    /// damped at the model's frequency).
    @Test func excessFadesWithoutSwingingOnAnUndampedSpring() throws {
        let (first, grabTime, shown) = try Self.overshootingRow(damping: 0)
        var held = first.interrupted(at: grabTime)
        held.add(I.touch(grabTime, 50, 600, .began))
        var previous = shown
        for k in 0...360 {
            let h = held.frame(at: grabTime + Double(k) / 120).height
            #expect(h <= previous + 1e-9 && h >= 60 - 1e-9, "frame \(k): \(h) after \(previous)")
            previous = h
        }
        #expect(abs(previous - 60) < 0.01)
    }

    /// Nothing moving: a one-finger tap on a row at rest is no pinch, even where p₀ = 0 would
    /// commit (commitFraction 0, fold: a grabbed row would be dismissed).
    @Test func pinchedRowAtRestIsAFreshGesture() throws {
        let model = try PinchFold(preset: try T.preset("pinch-fold", params: #""mode": "fold", "commitFraction": 0"#))
        for first in [PinchFoldEngine(model: model), {
            var e = PinchFoldEngine(model: model)
            e.add(I.touch(0, 100, 300, .began)); e.add(I.touch(0.05, 100, 300, .ended)); _ = e.frame(at: 0.05)
            return e
        }()] {
            var next = first.interrupted(at: 1)
            next.add(I.touch(1, 100, 500, .began))
            next.add(I.touch(1.05, 100, 500, .ended))
            #expect(next.frame(at: 1.05).height == model.rowHeight)
            #expect(next.decision == .keep)
        }
    }

    @Test func pinchedRowGrabbedByOneFingerGoesOn() throws {
        var (next, grabTime, before) = try I.grabbedPinch()
        #expect(abs(next.frame(at: grabTime).height - before) < 0.5)
        next.add(I.touch(grabTime + 0.1, 100, 500, .ended))
        _ = next.frame(at: grabTime + 0.1)
        let end = next.frame(at: grabTime + 5)
        #expect(abs(end.height - end.target) < 0.01, "it rests on its target instead of staying where it was grabbed")
        #expect(abs(end.height - before) > 1)
    }

    @Test func transitionAtRestGivesAFreshGesture() throws {
        var first = PercentTransitionEngine(model: try PercentTransition(preset: try T.preset("percent-transition", params: #""completionCurve": "spring""#)))
        // An edge pan moving left at 120 pt/s (finishVelocity 0): kept, back to 0.
        I.gesture(&first, frames: 11, start: SIMD2(15, 300), step: SIMD2(-1, 0)) { e, s in e.add(s); _ = e.frame(at: s.t) }
        #expect(first.decision == .keep)
        let later = 11.0 / 120 + 5
        var next = first.interrupted(at: later)
        #expect(next.grabOffset == nil)
        // A pan from the middle of the screen is not an edge pan: the note stays.
        next.add(I.touch(later, 200, 300, .began))
        next.add(I.touch(later + 1.0 / 120, 250, 300, .moved))
        #expect(next.frame(at: later + 1.0 / 120).offset == 0)
    }

    @Test func cardBackAtRestGivesAFreshGesture() throws {
        let (model, first) = try I.keptCard()
        let later = 20.0 / 120 + 5
        var next = first.interrupted(at: later)
        // An edge pan now, though the first gesture was a drag down: it shrinks the card.
        next.add(I.touch(later, 5, 400, .began))
        next.add(I.touch(later + 1.0 / 120, 65, 400, .moved))
        #expect(next.isEdgePan)
        #expect(next.frame(at: later + 1.0 / 120).frame.width < model.scene.width - 1)
    }

    @Test func retargetBackInTimeDoesNotRunAhead() throws {
        var s = Simulation(spring: try SpringParameters(frequency: 2, damping: 0.5), position: 0, velocity: 500, target: 100)
        s.advance(to: 0.3)
        var late = s, early = s
        late.retarget(40, at: 0.3)
        early.retarget(40, at: 0.2)
        #expect(early.time == 0.3)
        #expect(abs(early.x(0.8) - late.x(0.8)) < 1e-12)
    }

    @Test func aTouchWithNoPlaceMovesNothing() throws {
        var input = TouchInput()
        input.add(TouchSample(t: 0, x: .nan, y: 20, phase: .began))
        #expect(input.first == nil, "a first sample with no place is dropped")
        input.add(TouchSample(t: 0, x: 10, y: 20, phase: .began))
        input.add(TouchSample(t: 0.01, x: .nan, y: .nan, phase: .moved))
        #expect(input.latest?.x == 10 && input.latest?.y == 20)
        #expect(TouchInput.clamp(.nan) == 0)
    }
}
