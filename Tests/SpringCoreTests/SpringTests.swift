import Foundation
import Testing
@testable import SpringCore

@Suite struct ConversionTests {
    @Test func durationBounceToStiffnessAndDamping() throws {
        let s = try SpringParameters(duration: 0.5, bounce: 0.3)
        #expect(abs(s.stiffness() - 157.91) < 0.005)
        #expect(abs(s.dampingCoefficient() - 17.59) < 0.005)
    }

    @Test func stiffnessDampingToDurationBounce() throws {
        let s = try SpringParameters(stiffness: 100, dampingCoefficient: 10)
        #expect(abs(s.response - 0.628) < 0.0005)
        #expect(abs(s.bounce - 0.5) < 1e-12)
    }

    @Test func origami() throws {
        let s = try SpringParameters(tension: 40, friction: 7)
        #expect(abs(s.stiffness() - 230.2) < 1e-9)
        #expect(abs(s.dampingCoefficient() - 22) < 1e-9)
        #expect(abs(s.tension - 40) < 1e-9)
        #expect(abs(s.friction - 7) < 1e-9)
        #expect(SpringParameters.origamiStiffness(0) == 0 && SpringParameters.origamiDamping(0) == 0)
    }

    @Test(arguments: [0.0, 0.2, 0.7, 1.0, 1.5, 4.0])
    func roundTrips(zeta: Double) throws {
        let s = try SpringParameters(frequency: 1.7, damping: zeta)
        let viaKC = try SpringParameters(stiffness: s.stiffness(mass: 2.5), dampingCoefficient: s.dampingCoefficient(mass: 2.5), mass: 2.5)
        let viaResponse = try SpringParameters(response: s.response, dampingRatio: s.damping)
        let viaBounce = try SpringParameters(duration: s.response, bounce: s.bounce)
        let viaOrigami = try SpringParameters(tension: s.tension, friction: s.friction)
        for t in [viaKC, viaResponse, viaBounce, viaOrigami] {
            #expect(abs(t.frequency - s.frequency) < 1e-12 * 10)
            #expect(abs(t.damping - s.damping) < 1e-12 * 10)
        }
    }

    @Test func negativeBounceIsOverdamped() throws {
        let s = try SpringParameters(duration: 1, bounce: -0.5)
        #expect(abs(s.damping - 2) < 1e-15)
        #expect(abs(s.bounce + 0.5) < 1e-15)
    }

    @Test func rejectsOutOfRange() {
        #expect(throws: SpringError.self) { try SpringParameters(frequency: 0, damping: 1) }
        #expect(throws: SpringError.self) { try SpringParameters(frequency: 1, damping: -0.1) }
        #expect(throws: SpringError.self) { try SpringParameters(frequency: .nan, damping: 1) }
    }
}

@Suite struct PropagationTests {
    /// Step from 100 to 1000 (m = 1), sampled every 200 ms and rounded (Reference §2).
    func stepSamples(k: Double, c: Double, count: Int) throws -> [Double] {
        let s = try SpringParameters(stiffness: k, dampingCoefficient: c)
        let step = SpringStep(spring: s, dt: 0.2)
        var state = SpringState(x: 100 - 1000, v: 0)
        var out: [Double] = []
        for _ in 0..<count {
            out.append((1000 + state.x).rounded())
            state = step.apply(state)
        }
        return out
    }

    @Test func underdampedStepCheckCase() throws {
        #expect(try stepSamples(k: 300, c: 10, count: 9) == [100, 1343, 873, 1046, 984, 1005, 998, 1001, 1000])
    }

    @Test func overdampedStepCheckCase() throws {
        #expect(try stepSamples(k: 100, c: 20, count: 6) == [100, 635, 918, 984, 997, 1000])
    }

    /// Many small steps equal one large step: no frame-rate-dependent error.
    @Test(arguments: [0.0, 0.3, 0.999999999, 1.0, 1.000000001, 2.5, 40])
    func stepsCompose(zeta: Double) throws {
        let s = try SpringParameters(frequency: 2, damping: zeta)
        let start = SpringState(x: 37, v: -410)
        let big = SpringStep(spring: s, dt: 0.75).apply(start)
        var small = start
        let step = SpringStep(spring: s, dt: 0.75 / 90)
        for _ in 0..<90 { small = step.apply(small) }
        #expect(abs(small.x - big.x) < 1e-9 * max(1, abs(big.x)))
        #expect(abs(small.v - big.v) < 1e-9 * max(1, abs(big.v)))
    }

    /// Near ζ = 1 the closed form is continuous: no loss of precision on either side.
    @Test func continuousAcrossCriticalDamping() throws {
        let crit = SpringStep(spring: try SpringParameters(frequency: 1, damping: 1), dt: 0.37)
        for eps in [1e-4, 1e-8, 1e-12] {
            for z in [1 - eps, 1 + eps] {
                let near = SpringStep(spring: try SpringParameters(frequency: 1, damping: z), dt: 0.37)
                #expect(abs(near.xx - crit.xx) < 10 * eps)
                #expect(abs(near.xv - crit.xv) < 10 * eps)
                #expect(abs(near.vx - crit.vx) < 100 * eps)
                #expect(abs(near.vv - crit.vv) < 100 * eps)
            }
        }
    }

    /// The closed form satisfies ẍ = −ω²x − 2ζωẋ (checked by central differences).
    @Test(arguments: [0.0, 0.5, 1.0, 3.0])
    func satisfiesTheEquation(zeta: Double) throws {
        let s = try SpringParameters(frequency: 1.3, damping: zeta)
        let m = SpringMotion(spring: s, initial: SpringState(x: 1, v: 2))
        let t = 0.4, h = 1e-4
        let a = (m.state(at: t + h).v - m.state(at: t - h).v) / (2 * h)
        let st = m.state(at: t)
        #expect(abs(a - (-s.omega * s.omega * st.x - 2 * zeta * s.omega * st.v)) < 1e-5)
        #expect(abs((m.state(at: t + h).x - m.state(at: t - h).x) / (2 * h) - st.v) < 1e-6)
    }

    @Test func largeOverdampedTimesStayFinite() throws {
        let s = try SpringParameters(frequency: 10, damping: 50)
        let st = SpringMotion(spring: s, initial: SpringState(x: 1, v: 0)).state(at: 1000)
        #expect(st.x.isFinite && st.x > 0 && st.x < 1)
    }
}

@Suite struct AnalysisTests {
    @Test(arguments: [(0.5, 16.30), (0.7, 4.60), (0.8, 1.52)])
    func percentOvershoot(zeta: Double, percent: Double) throws {
        let m = SpringMotion(spring: try SpringParameters(frequency: 1, damping: zeta), initial: SpringState(x: 1, v: 0))
        let peak = try #require(m.peakOvershoot())
        let exact = exp(-zeta * .pi / (1 - zeta * zeta).squareRoot())
        #expect(abs(peak.ratio - exact) < 1e-12)
        #expect(abs(100 * peak.ratio - percent) < 0.005)
        // The peak is at half the damped period.
        #expect(abs(peak.time - 0.5 / (1 - zeta * zeta).squareRoot()) < 1e-12)
    }

    @Test func frequencyOneDampingHalfOvershootRatio() throws {
        let m = SpringMotion(spring: try SpringParameters(frequency: 1, damping: 0.5), initial: SpringState(x: 1, v: 0))
        #expect(abs(m.peakOvershoot()!.ratio - 0.163034) < 1e-6)
    }

    @Test func noOvershootWhenCriticalFromRest() throws {
        let m = SpringMotion(spring: try SpringParameters(frequency: 1, damping: 1), initial: SpringState(x: 1, v: 0))
        #expect(m.peakOvershoot() == nil)
    }

    @Test func criticalOvershootWithInwardVelocity() throws {
        // x = e^{−ωt}(1 + (v₀ + ω)t) crosses at t* = −1/(v₀ + ω) and peaks at t = v₀/(ω(v₀ + ω)).
        let s = try SpringParameters(frequency: 1, damping: 1)
        let w = s.omega, v0 = -3 * w
        let m = SpringMotion(spring: s, initial: SpringState(x: 1, v: v0))
        let peak = try #require(m.peakOvershoot())
        let tp = v0 / (w * (v0 + w))
        #expect(abs(peak.time - tp) < 1e-12)
        #expect(abs(peak.ratio - abs(exp(-w * tp) * (1 + (v0 + w) * tp))) < 1e-12)
        #expect(abs(m.firstZeroCrossing()! - (-1 / (v0 + w))) < 1e-12)
    }

    /// A band that underflows against the amplitude (the CSS easing of a 1e308 pt travel tried
    /// it) or a ζ of 1e-300 gives "never settles" instead of trapping on an infinite count.
    @Test func settleTimeBeyondAnyCountIsNil() throws {
        let m = SpringMotion(spring: try SpringParameters(frequency: 2, damping: 0.3), initial: SpringState(x: 1, v: 0))
        #expect(m.settleTime(band: Double.leastNormalMagnitude / 4) == nil)
        let slow = SpringMotion(spring: try SpringParameters(frequency: 1, damping: 1e-300), initial: SpringState(x: 1, v: 0))
        #expect(slow.settleTime(band: 0.5) == nil)
        #expect(m.settleTime(band: 0.01) != nil)
    }

    @Test func settleTimeCriticalClosedForm() throws {
        // ζ = 1 from rest: x = e^{−ωt}(1 + ωt); solve x = band independently by Newton.
        let s = try SpringParameters(frequency: 1, damping: 1)
        let w = s.omega, band = 0.005
        var t = 1.0
        for _ in 0..<60 { t -= (exp(-w * t) * (1 + w * t) - band) / (-w * w * t * exp(-w * t)) }
        let m = SpringMotion(spring: s, initial: SpringState(x: 1, v: 0))
        #expect(abs(m.settleTime(band: band)! - t) < 1e-9)
    }

    @Test(arguments: [0.05, 0.3, 0.5, 0.9, 0.999, 1.5, 6])
    func settleTimeIsTheLastBandCrossing(zeta: Double) throws {
        let m = SpringMotion(spring: try SpringParameters(frequency: 2, damping: zeta), initial: SpringState(x: 1, v: 0.7))
        let band = 0.01
        let ts = try #require(m.settleTime(band: band))
        #expect(abs(abs(m.state(at: ts).x) - band) < 1e-9)
        // Dense scan: nothing after it exceeds the band, something just before does.
        for i in 1...4000 { #expect(abs(m.state(at: ts + Double(i) * 0.001).x) <= band + 1e-12) }
        #expect(abs(m.state(at: ts - 1e-6).x) > band)
    }

    @Test func undampedNeverSettles() throws {
        let m = SpringMotion(spring: try SpringParameters(frequency: 1, damping: 0), initial: SpringState(x: 1, v: 0))
        #expect(m.settleTime(band: 0.005) == nil)
        #expect(abs(m.peakOvershoot()!.ratio - 1) < 1e-12)
    }

    @Test func alreadyInBand() throws {
        let m = SpringMotion(spring: try SpringParameters(frequency: 1, damping: 1), initial: SpringState(x: 0.001, v: 0))
        #expect(m.settleTime(band: 0.005) == 0)
    }
}
