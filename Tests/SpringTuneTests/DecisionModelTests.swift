import Foundation
import SpringCore
import Testing
@testable import SpringLayout
@testable import SpringTune

/// A straight drag from `start` by `delta` at constant `speed` (pt/s), sampled `count` times,
/// lifted at the last sample's time (so lsq2 sees exactly `speed`).
func straightDrag(start: SIMD2<Double>, delta: SIMD2<Double>, speed: Double, count: Int = 12, intent: TraceIntent? = nil) -> Trace {
    let length = (delta * delta).sum().squareRoot()
    let duration = length / speed
    var s: [TouchSample] = (0...count).map { i in
        let u = Double(i) / Double(count)
        let p = start + delta * u
        return TouchSample(t: duration * u, x: p.x, y: p.y, phase: i == 0 ? .began : .moved)
    }
    s.append(TouchSample(t: duration, x: s.last!.x, y: s.last!.y, phase: .ended))
    return Trace(id: "drag", intent: intent, samples: s)
}

func engine<M: MeasuredModel>(_: M.Type, _ overrides: [String: ParamValue] = [:], scene: Scene = Scene()) throws -> M {
    try M(values: ParameterValues.resolve(overrides, specs: M.parameters), scene: scene)
}

@Suite struct FlickDismissTests {
    @Test func seventyPointsAtNineHundredDismisses() throws {
        let m = try engine(FlickDismiss.self)
        let run = m.run(m.prepare(straightDrag(start: [200, 400], delta: [70, 0], speed: 900)), timeline: false)
        #expect(run.decision == .dismiss)
        #expect(run.metrics[.overshootPt] == nil && run.metrics[.settleTime] == nil)   // no spring after a throw
        // Thrown right at 900 pt/s: the card's left edge (centre 195 + 70 − 195) leaves x = 390.
        let exit = try #require(run.metrics[.exitTime])
        let tau = exit, x = 70 + 0.1 * 900 * tau + 0.5 * 200 * tau * tau
        #expect(x - 195 > 195 - 1e-9)
    }

    @Test func atSevenHundredItSnapsBackWithTheClosedFormOvershoot() throws {
        let m = try engine(FlickDismiss.self)
        let trace = straightDrag(start: [200, 400], delta: [70, 0], speed: 700)
        let v = VelocityEstimator.lsq2.releaseVelocity(of: trace)
        #expect(abs(v.x - 700) < 1e-6)
        let run = m.run(m.prepare(trace), timeline: false)
        #expect(run.decision == .keep)
        // The 2-D spring from D = (70, 0), v = (700, 0) moves along x only.
        let motion = SpringMotion(spring: try SpringParameters(frequency: 1.5, damping: 0.7), initial: SpringState(x: 70, v: v.x))
        let clock = FrameClock(trace: trace, scene: Scene()), r = clock.releaseFrame
        let sampled = (r...clock.lastFrame).map { max(0, -motion.state(at: clock.time($0) - clock.time(r)).x) }.max()!
        #expect(abs(run.metrics[.overshootPt]! - sampled) < 1e-9)
        #expect(abs(run.metrics[.overshootRatio]! - sampled / 70) < 1e-11)
        // …and the continuous peak is within one frame's motion of it.
        let peak = try #require(motion.peakOvershoot())
        #expect(abs(peak.ratio * 70 - sampled) < 0.05)
    }

    @Test func angleRule() throws {
        let m = try engine(FlickDismiss.self)
        #expect(m.dismisses(displacement: [0, 100], velocity: [0, 1000]))
        #expect(!m.dismisses(displacement: [0, 100], velocity: [0, -1000]))   // thrown back: 180°
        #expect(m.dismisses(displacement: [100, 0], velocity: [0, 1000]))     // 90° is allowed
        #expect(!m.dismisses(displacement: [0, 0], velocity: [0, 5000]))
    }
}

@Suite struct CardDismissTests {
    @Test func dragDownAtFiveHundredCommitsAtPointTwoSeconds() throws {
        let m = try engine(CardDismiss.self)
        // Sampled at 120 Hz from y₀: y = y₀ + 500·t.
        var s = (0...40).map { k in TouchSample(t: Double(k) / 120, x: 200, y: 300 + 500 * Double(k) / 120, phase: k == 0 ? .began : .moved) }
        s.append(TouchSample(t: 40.0 / 120, x: 200, y: s.last!.y, phase: .ended))
        let run = m.run(m.prepare(Trace(id: "down", samples: s)), timeline: false)
        #expect(run.decision == .dismiss)
        #expect(abs(run.metrics[.decisionTime]! - 0.2) < 1e-12)
        // From rest with ζ = 0.7 the spring overshoots by the §2 formula (to frame sampling).
        #expect(abs(run.metrics[.overshootRatio]! - exp(-0.7 * .pi / (1 - 0.49).squareRoot())) < 2e-3)
    }

    @Test func slowShortDragIsKeptAndFlickDismisses() throws {
        let m = try engine(CardDismiss.self)
        let slow = m.run(m.prepare(straightDrag(start: [200, 300], delta: [0, 50], speed: 300)), timeline: false)
        #expect(slow.decision == .keep)
        let flick = m.run(m.prepare(straightDrag(start: [200, 300], delta: [0, 50], speed: 900)), timeline: false)
        #expect(flick.decision == .dismiss)
        let clock = FrameClock(trace: straightDrag(start: [200, 300], delta: [0, 50], speed: 900), scene: Scene())
        #expect(abs(flick.metrics[.decisionTime]! - Double(clock.releaseFrame) / 120) < 1e-12)
        // An edge pan (starts within 20 pt of the left edge) reads x, not y.
        let pan = m.run(m.prepare(straightDrag(start: [10, 300], delta: [150, 0], speed: 600)), timeline: false)
        #expect(pan.decision == .dismiss)
    }
}

@Suite struct PullToCreateTests {
    @Test func createsAtThreeQuartersOfARow() throws {
        let m = try engine(PullToCreate.self)
        #expect(m.creates(pull: 0.75 * 60))
        #expect(!m.creates(pull: 0.74 * 60))
        let at = m.run(m.prepare(straightDrag(start: [200, 100], delta: [0, 45], speed: 100)), timeline: false)
        #expect(at.decision == .create)
        let below = m.run(m.prepare(straightDrag(start: [200, 100], delta: [0, 44.4], speed: 100)), timeline: false)
        #expect(below.decision == .cancel)
    }

    @Test func foldIsDefinedForEveryHeight() {
        let closed = Fold(height: 0, rowHeight: 60), open = Fold(height: 60, rowHeight: 60)
        #expect(abs(closed.angle - .pi / 2) < 1e-15 && abs(closed.depth - 30) < 1e-12)
        #expect(open.angle == 0 && open.depth == 0)
        let half = Fold(height: 30, rowHeight: 60)
        #expect(abs(half.angle - .pi / 3) < 1e-12 && abs(half.depth - 30 * (3.0).squareRoot() / 2) < 1e-12)
        for h in [-10.0, 1e9, .infinity, -.infinity, .nan] {
            let f = Fold(height: h, rowHeight: 60)
            #expect(f.angle.isFinite && f.depth.isFinite)
        }
    }
}
