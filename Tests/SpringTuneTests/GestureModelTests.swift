import Foundation
import SpringCore
import Testing
@testable import SpringLayout
@testable import SpringTune

/// Two fingers on one vertical line at x = 200, starting `start` apart around y = 400 and
/// moving apart (or together, for a negative change) by `change` at constant speed over
/// `duration`, sampled together `count` times, then both lifted at the last sample's time.
func pinchTrace(start: Double, change: Double, duration: Double = 0.3, count: Int = 30) -> Trace {
    var s: [TouchSample] = []
    for i in 0...count {
        let t = duration * Double(i) / Double(count), half = (start + change * Double(i) / Double(count)) / 2
        s.append(TouchSample(t: t, x: 200, y: 400 - half, phase: i == 0 ? .began : .moved, pointer: 0))
        s.append(TouchSample(t: t, x: 200, y: 400 + half, phase: i == 0 ? .began : .moved, pointer: 1))
    }
    for p in 0...1 {
        let last = s.last { $0.pointer == p }!
        s.append(TouchSample(t: duration, x: last.x, y: last.y, phase: .ended, pointer: p))
    }
    return Trace(id: "pinch", samples: s)
}

@Suite struct PinchFoldTests {
    @Test func openingFortySixOfSixtyCreatesAndFortyFourCancels() throws {
        let m = try engine(PinchFold.self)
        #expect(m.run(m.prepare(pinchTrace(start: 20, change: 46)), timeline: false).decision == .create)
        #expect(m.run(m.prepare(pinchTrace(start: 20, change: 44)), timeline: false).decision == .cancel)
        let fold = try engine(PinchFold.self, ["mode": .text("fold")])
        #expect(fold.run(fold.prepare(pinchTrace(start: 150, change: -46)), timeline: false).decision == .dismiss)
        #expect(fold.run(fold.prepare(pinchTrace(start: 150, change: -44)), timeline: false).decision == .keep)
    }

    @Test func oneFingerIsNoPinch() throws {
        let m = try engine(PinchFold.self)
        let run = m.run(m.prepare(straightDrag(start: [200, 300], delta: [0, 80], speed: 400)), timeline: true)
        #expect(run.decision == .cancel)
        #expect(run.metrics[.overshootPt] == 0 && run.metrics[.overshootRatio] == 0 && run.metrics[.settleTime] == 0)
        #expect(run.timeline.filter { $0.item == 0 }.allSatisfy { $0.y == 0 })   // nothing moves
    }

    /// The spring starts from hᵣ with ḋ = sgn(y_B − y_A)·(v_B − v_A), each finger's velocity by
    /// the §4 estimator over its own samples.
    @Test func springStartsWithTheSeparationSpeed() throws {
        let m = try engine(PinchFold.self)
        let trace = pinchTrace(start: 20, change: 30, duration: 0.25)   // p = 0.5 at release: cancel, spring back to 0
        let va = VelocityEstimator.lsq2.releaseVelocity(of: trace.pointer(0)).y
        let vb = VelocityEstimator.lsq2.releaseVelocity(of: trace.pointer(1)).y
        #expect(abs((vb - va) - 120) < 1e-6)   // 30 pt in 0.25 s
        var e = PinchFoldEngine(model: m)
        var feed = TraceFeed(trace: trace, scene: m.scene)
        var k = 0
        while e.decision == nil {
            feed.samples(upTo: k).forEach { e.add($0) }
            _ = e.frame(at: feed.clock.time(k))
            k += 1
        }
        #expect(e.decision == .cancel)
        #expect(abs(e.releaseSpeed - (vb - va)) < 1e-12)
        // One frame later the height is the closed-form spring from (30, ḋ) toward 0.
        let motion = SpringMotion(spring: try SpringParameters(frequency: 2.5, damping: 0.8), initial: SpringState(x: 30, v: vb - va))
        let next = e.frame(at: feed.clock.time(k))
        #expect(abs(next.height - motion.state(at: 1 / 120).x) < 1e-9)
    }
}

@Suite struct PercentTransitionTests {
    @Test func edgePanFromEightFinishesAndFromThirtyStartsNothing() throws {
        let m = try engine(PercentTransition.self)
        let from8 = m.run(m.prepare(straightDrag(start: [8, 400], delta: [120, 0], speed: 500)), timeline: false)
        #expect(from8.decision == .dismiss)
        #expect(from8.metrics[.velocityJump] != nil)
        let from30 = m.run(m.prepare(straightDrag(start: [30, 400], delta: [120, 0], speed: 500)), timeline: true)
        #expect(from30.decision == .keep)
        #expect(from30.metrics.values.isEmpty)
        #expect(from30.timeline.allSatisfy { $0.y == 0 })
    }

    /// linear: |(end − s)/T − v_s| with T = duration·(1 − p); spring: 0.
    @Test func velocityJumpOfTheCurves() throws {
        let trace = straightDrag(start: [8, 400], delta: [120, 0], speed: 500)
        let v = VelocityEstimator.lsq2.releaseVelocity(of: trace).x
        let p = 120.0 / 390, s = p * 390, T = 0.35 * (1 - p)
        let linear = try engine(PercentTransition.self)
        let jump = try #require(linear.run(linear.prepare(trace), timeline: false).metrics[.velocityJump])
        #expect(abs(jump - abs((390 - s) / T - v)) < 1e-9)
        let spring = try engine(PercentTransition.self, ["completionCurve": .text("spring")])
        #expect(spring.run(spring.prepare(trace), timeline: false).metrics[.velocityJump] == 0)
        let ease = try engine(PercentTransition.self, ["completionCurve": .text("easeInOut")])
        #expect(abs(try #require(ease.run(ease.prepare(trace), timeline: false).metrics[.velocityJump]) - v) < 1e-9)
    }

    @Test func easeInOutIsTheBezierCurve() {
        #expect(PercentTransition.easeInOut(0) == 0 && PercentTransition.easeInOut(1) == 1)
        #expect(abs(PercentTransition.easeInOut(0.5) - 0.5) < 1e-12)   // symmetric curve
        // u = 0.25: x = 3·0.5625·0.25·0.42 + 3·0.75·0.0625·0.58 + 0.015625, y = 3u² − 2u³.
        let x = 3 * 0.5625 * 0.25 * 0.42 + 3 * 0.75 * 0.0625 * 0.58 + 0.015625
        #expect(abs(PercentTransition.easeInOut(x) - (3 * 0.0625 - 2 * 0.015625)) < 1e-12)
    }
}

@Suite struct CardContentOffsetTests {
    /// A 200 pt drag down whose content starts 150 pt below its top: progress (200 − 150)/333.
    @Test func dragPastTheContentTop() throws {
        let m = try engine(CardDismiss.self, ["contentOffset": .number(150)])
        var e = CardDismissEngine(model: m)
        for s in straightDrag(start: [200, 300], delta: [0, 200], speed: 100).samples.dropLast() { e.add(s) }
        #expect(abs(e.progress - 50.0 / 333) < 1e-15)
        let plain = try engine(CardDismiss.self)
        var p = CardDismissEngine(model: plain)
        for s in straightDrag(start: [200, 300], delta: [0, 200], speed: 100).samples.dropLast() { p.add(s) }
        #expect(abs(p.progress - 200.0 / 333) < 1e-15)
    }
}
