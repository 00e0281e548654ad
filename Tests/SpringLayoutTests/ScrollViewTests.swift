import Foundation
import SpringCore
import Testing
@testable import SpringLayout

@Suite struct ScrollViewTests {
    func view(content: Double = 2000, viewport: Double = 960) throws -> ScrollView {
        try ScrollView(contentHeight: content, viewportHeight: viewport)
    }

    @Test func projectionAtNormalRate() throws {
        // 1000 pt/s at r = 0.998 per ms: u/λ = 1/(−ln 0.998) ≈ 499.5 pt.
        let v = try view()
        #expect(Int(v.projection(offset: 0, velocity: 1000)) == 499)
        #expect(abs(v.projection(offset: 0, velocity: 1000) - 1 / -log(0.998)) < 1e-9)
    }

    @Test(arguments: [(5.0, 2.74), (10, 5.47), (100, 52.02), (400, 178.98), (960, 340.65)])
    func rubberBand(x: Double, expected: Double) throws {
        let v = try view()
        #expect(abs(v.rubberBanded(x) - expected) < 0.005)
        #expect(abs(v.unRubberBanded(v.rubberBanded(x)) - x) < 1e-9)
    }

    @Test func displayedAndRawAreInverse() throws {
        let v = try view()
        for raw in [-500.0, -3, 0, 400, 1040, 1100, 3000] {
            #expect(abs(v.raw(displayed: v.displayed(raw: raw)) - raw) < 1e-9)
        }
        #expect(v.displayed(raw: 500) == 500)
    }

    @Test func inBoundsDecelerationIsExponential() throws {
        let v = try view()
        let r = v.release(offset: 100, velocity: 400)
        #expect(r.phases.count == 1)
        let lambda = v.lambda
        for tau in [0.0, 0.1, 0.5, 2] {
            let s = r.state(at: tau)
            #expect(abs(s.offset - (100 + 400 / lambda * (1 - exp(-lambda * tau)))) < 1e-9)
            #expect(abs(s.velocity - 400 * exp(-lambda * tau)) < 1e-9)
        }
        #expect(abs(r.restOffset - (100 + 400 / lambda)) < 1e-9)
    }

    @Test func flingIntoTheBottomEdgeBounces() throws {
        let v = try view()
        let r = v.release(offset: 900, velocity: 2000)
        #expect(r.phases.count == 2)
        let hit = r.phases[1]
        #expect(abs(hit.offset - v.maxOffset) < 1e-9)
        // Continuity at the phase boundary, in position and velocity.
        let before = r.state(at: hit.start - 1e-9), after = r.state(at: hit.start + 1e-9)
        #expect(abs(before.offset - after.offset) < 1e-5 && abs(before.velocity - after.velocity) < 1e-3)
        #expect(r.state(at: hit.start + 0.05).offset > v.maxOffset)
        #expect(abs(r.state(at: 10).offset - v.maxOffset) < 1e-6)
        #expect(r.restOffset == v.maxOffset)
    }

    @Test func releasePastTopMovingInwardFastCrossesAndDecelerates() throws {
        let v = try view()
        // Excess −30 pt, content moving down-into-bounds at 2000 pt/s: critically damped spring
        // x = e^{−10τ}(−30 + (2000 − 300)τ) crosses 0 at τ = 30/1700.
        let r = v.release(offset: -30, velocity: 2000)
        #expect(r.phases.count == 2)
        #expect(r.phases[1].kind == .deceleration)
        let tc = 30.0 / 1700
        #expect(abs(r.phases[1].start - tc) < 1e-12)
        // Velocity at the crossing from the closed form: v = e^{−10τ}(1700 − 10(−30 + 1700τ)).
        let vc = exp(-10 * tc) * (1700 - 10 * (-30 + 1700 * tc))
        #expect(abs(r.phases[1].velocity - vc) < 1e-9)
        #expect(abs(r.restOffset - vc / v.lambda) < 1e-9)
    }

    @Test func releasePastTopMovingInwardSlowlyReturnsToTheEdge() throws {
        let v = try view()
        let r = v.release(offset: -30, velocity: 100)
        #expect(r.phases.count == 1)
        #expect(r.restOffset == 0)
        #expect(r.state(at: 1).offset < 0)
    }

    @Test func shortContentBouncesAtOnce() throws {
        let v = try view(content: 500)
        #expect(v.maxOffset == 0)
        let r = v.release(offset: 0, velocity: -800)
        #expect(r.restOffset == 0)
        #expect(r.state(at: 0.05).offset < 0)
    }

    @Test func underdampedBounceIsRejected() throws {
        #expect(throws: SpringError.self) {
            try ScrollView(contentHeight: 100, viewportHeight: 50, bounce: try SpringParameters(frequency: 1, damping: 0.5))
        }
    }
}


/// `TraceRecorder` writes springtune's CSV from an app's touches: times from each trace's first
/// row, rows grouped by trace, open pointers closed `cancelled`, ids quoted.
@Suite struct TraceRecorderTests {
    @Test func recordsValidTraces() {
        var r = TraceRecorder()
        r.record(trace: "a,1", phase: .began, time: 100, x: 1, y: 2, intent: .keep)
        r.record(trace: "b", phase: .moved, time: 100.5, x: 5, y: 6)          // no began yet: becomes began
        r.record(trace: "a,1", phase: .moved, time: 99.9, x: 1, y: 3)         // earlier time: raised to the previous
        r.record(trace: "a,1", phase: .ended, time: 100.25, x: 1, y: 3)
        r.record(trace: "a,1", phase: .moved, time: 100.3, x: 1, y: 4)        // after the lift: ignored
        r.record(trace: "b", phase: .moved, time: .nan, x: 5, y: 6)           // not finite: ignored
        #expect(r.ignoredRows == 2)
        #expect(r.csv == """
        trace,t,x,y,phase,intent,pointer
        "a,1",0,1,2,began,keep,0
        "a,1",0,1,3,moved,keep,0
        "a,1",0.25,1,3,ended,keep,0
        b,0,5,6,began,,0
        b,0,5,6,cancelled,,0

        """)
    }
}
