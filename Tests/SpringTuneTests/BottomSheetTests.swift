import Foundation
import SpringCore
import Testing
@testable import SpringLayout
@testable import SpringTune

/// `bottom-sheet` (Reference §7.10) on the default 390 × 844 pt scene: detents at top edges
/// 844·(1 − 0.92) = 67.52 pt (large), 422 pt (medium) and 844 pt (closed).
@Suite struct BottomSheetTests {
    /// A drag from the medium detent's top edge (x = 195) by `dy` at `speed` pt/s.
    static func drag(_ dy: Double, speed: Double) -> Trace { straightDrag(start: [195, 422], delta: [0, dy], speed: speed) }

    @Test func detentsAreTheScreenFractions() throws {
        let m = try engine(BottomSheet.self)
        #expect(m.detents.map { ($0 * 1e9).rounded() / 1e9 } == [67.52, 422, 844])
        #expect(m.startTop == 422)
        #expect(throws: PresetError.self) { try engine(BottomSheet.self, ["mediumDetent": .number(0.9), "largeDetent": .number(0.8)]) }
    }

    @Test func aSlowReleaseGoesToTheNearestDetent() throws {
        let m = try engine(BottomSheet.self)
        // 180 pt down at 200 pt/s: top 602 pt, nearer 422 than 844: kept, back at the medium detent.
        let kept = m.run(m.prepare(Self.drag(180, speed: 200)), timeline: true)
        #expect(kept.decision == .keep)
        #expect(abs(kept.timeline.last!.y - 422) <= 0.5)
        // 230 pt down (top 652 pt, past the midpoint 633 pt): closed.
        #expect(m.run(m.prepare(Self.drag(230, speed: 200)), timeline: false).decision == .dismiss)
        #expect(m.detent(top: 300, velocity: 0) == 422 && abs(m.detent(top: 200, velocity: 599) - 67.52) < 1e-9)
    }

    @Test func aFlickGoesToTheNextDetentInItsDirection() throws {
        let m = try engine(BottomSheet.self)
        #expect(m.run(m.prepare(Self.drag(60, speed: 1000)), timeline: false).decision == .dismiss)
        let up = m.run(m.prepare(Self.drag(-60, speed: 1000)), timeline: true)
        #expect(up.decision == .keep)
        #expect(abs(up.timeline.last!.y - 67.52) <= 0.5)
        // At 600 pt/s exactly the threshold holds; below it the nearest detent wins.
        #expect(m.detent(top: 430, velocity: 600) == 844 && m.detent(top: 430, velocity: 599.9) == 422)
        #expect(m.detent(top: 500, velocity: -600) == 422 && abs(m.detent(top: 40, velocity: -5000) - 67.52) < 1e-9)
    }

    @Test func pastTheLargeDetentTheSheetMovesAtOverdrag() throws {
        let m = try engine(BottomSheet.self, ["startDetent": .text("large")])
        #expect(abs(m.startTop - 67.52) < 1e-9)
        var e = BottomSheetEngine(model: m)
        e.add(TouchSample(t: 0, x: 195, y: 100, phase: .began))
        e.add(TouchSample(t: 0.5, x: 195, y: 0, phase: .moved))
        // 100 pt up past the large detent: 67.52 − 100·0.3 = 37.52 pt.
        #expect(abs(e.frame(at: 0.5).top - 37.52) < 1e-9)
        // And never below the screen.
        e.add(TouchSample(t: 1, x: 195, y: 1900, phase: .moved))
        #expect(e.frame(at: 1).top == 844)
    }

    /// A critically damped return (ζ = 1, ω = 2π/response) from x₀ = top − 422 with the finger's
    /// release velocity v₀: x(τ) = (x₀ + (v₀ + ωx₀)τ)·e^(−ωτ), to 1e-9 pt.
    @Test func theReturnIsTheClosedFormSpring() throws {
        let m = try engine(BottomSheet.self, ["dampingRatio": .number(1)])
        let trace = Self.drag(80, speed: 150)
        let v0 = VelocityEstimator.lsq2.releaseVelocity(of: trace).y
        var e = BottomSheetEngine(model: m)
        trace.samples.forEach { e.add($0) }
        let lift = trace.samples.last!.t
        let release = e.frame(at: lift)
        #expect(e.decision == .keep && abs(release.top - 502) < 1e-9)
        let w = 2 * Double.pi / 0.45, x0 = 80.0
        for tau in [0.05, 0.2, 0.5, 1.0] {
            let x = (x0 + (v0 + w * x0) * tau) * exp(-w * tau)
            #expect(abs(e.frame(at: lift + tau).top - (422 + x)) < 1e-9)
        }
    }
}
