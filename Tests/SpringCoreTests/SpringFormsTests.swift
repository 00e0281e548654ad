import Foundation
import Testing
@testable import SpringCore

/// The platform forms of a spring (Reference §10.4) against documented cases and closed forms.
@Suite struct SpringFormsTests {
    static func close(_ a: Double, _ b: Double, _ tolerance: Double = 0.01) -> Bool { abs(a - b) <= tolerance }

    /// SwiftUI's `Spring(duration: 0.5, bounce: 0.3)` is stiffness (2π/0.5)² = 157.91 and damping
    /// 4π(1 − 0.3)/0.5 = 17.59 at mass 1; stiffness 100, damping 10 is duration 2π/10 = 0.628 s,
    /// bounce 1 − 10/(2·10) = 0.5.
    @Test func swiftUIDocumentedCases() throws {
        let a = try SpringParameters(duration: 0.5, bounce: 0.3)
        #expect(Self.close(a.stiffness(), 157.91) && Self.close(a.dampingCoefficient(), 17.59))
        let b = try SpringParameters(stiffness: 100, dampingCoefficient: 10)
        #expect(Self.close(b.response, 0.628) && Self.close(b.bounce, 0.5))
        #expect(Self.close(b.stiffness(), 100, 1e-9) && Self.close(b.dampingCoefficient(), 10, 1e-9))
    }

    @Test func materialTokensAreTheDocumentedOnes() throws {
        #expect(MaterialSpringToken.all.count == 12)
        let expressive = MaterialSpringToken.all.first { $0.name == "Expressive spatial default" }!
        #expect(expressive.dampingRatio == 0.8 && expressive.stiffness == 380)
        #expect(expressive.compose == "MotionScheme.expressive().defaultSpatialSpec()")
        let standard = MaterialSpringToken.all.first { $0.name == "Standard spatial default" }!
        #expect(standard.dampingRatio == 0.9 && standard.stiffness == 700)
        // A spring equal to a token maps to it, at distance 0.
        for (k, z, name) in [(380.0, 0.8, "Expressive spatial default"), (700, 0.9, "Standard spatial default"),
                             (800, 0.6, "Expressive spatial fast"), (1400, 0.9, "Standard spatial fast")] {
            let spring = try SpringParameters(stiffness: k, dampingCoefficient: 2 * z * k.squareRoot())
            let (token, distance) = MaterialSpringToken.nearest(to: spring)
            #expect(token.name == name && distance < 1e-9)
        }
        // Twice the stiffness of Standard spatial slow (300) and ζ 0.9: one octave from it, and
        // from Standard spatial default (700) log₂(700/600) away, which is nearer.
        let between = try SpringParameters(stiffness: 600, dampingCoefficient: 2 * 0.9 * 600.0.squareRoot())
        #expect(MaterialSpringToken.nearest(to: between).token.name == "Standard spatial default")
        #expect(Self.close(MaterialSpringToken.nearest(to: between).distance, log2(700.0 / 600), 1e-9))
    }

    @Test func easingEndsAtZeroAndOneAndIsMonotoneWithoutOvershoot() throws {
        for z in [1.0, 1.5, 3.0] {
            let e = try #require(SpringEasing(spring: SpringParameters(frequency: 2, damping: z), band: 0.5 / 844))
            #expect(e.stops.first == .init(time: 0, progress: 0) && e.stops.last == .init(time: e.duration, progress: 1))
            #expect(zip(e.stops, e.stops.dropFirst()).allSatisfy { $0.progress <= $1.progress && $0.time < $1.time })
        }
    }

    /// The curve between its stops, not only at them, is within half the band of the spring's
    /// step response: checked at 100,003 times (not the curve's grid) on the closed form
    /// 1 − x(t); under-damped, the curve's peak is the closed form's 1 + e^{−πζ/√(1−ζ²)} to half
    /// the band; the duration is where the response last leaves half the band.
    @Test func easingFollowsTheSpringBetweenItsStops() throws {
        let band = 0.5 / 844
        for (f, z) in [(1.5, 0.2), (1.5, 0.5), (1.5, 0.7), (1.5, 0.9), (2.0, 1.0), (0.8, 2.5)] {
            let spring = try SpringParameters(frequency: f, damping: z)
            let e = try #require(SpringEasing(spring: spring, band: band))
            let motion = SpringMotion(spring: spring, initial: SpringState(x: 1, v: 0))
            var worst = 0.0, k = 0
            for i in 0...100_002 {
                let t = e.duration * Double(i) / 100_002
                while k + 2 < e.stops.count, e.stops[k + 1].time <= t { k += 1 }
                let a = e.stops[k], b = e.stops[k + 1]
                let curve = a.progress + (b.progress - a.progress) * (t - a.time) / (b.time - a.time)
                worst = max(worst, abs(curve - (1 - motion.state(at: t).x)))
            }
            #expect(worst <= band / 2 * 1.01 && e.deviation <= band / 2, "f \(f) ζ \(z): \(worst * 844) pt off the spring")
            #expect(e.stops.count < 200, "f \(f) ζ \(z): \(e.stops.count) stops")
            if z < 1 {
                let peak = exp(-Double.pi * z / (1 - z * z).squareRoot())
                let curvePeak = e.stops.map(\.progress).max()! - 1
                #expect(abs(curvePeak - peak) <= band / 2, "ζ \(z): \(curvePeak) vs \(peak)")
            }
            #expect(abs(motion.state(at: e.duration).x) <= band / 2 * (1 + 1e-9))
            let settle = try #require(motion.settleTime(band: band / 2))
            #expect(e.duration >= settle && e.duration < settle + 0.001 && (e.duration * 1000).rounded() == e.duration * 1000)
        }
        #expect(try SpringEasing(spring: SpringParameters(frequency: 1, damping: 0), band: 0.01) == nil)
    }

    @Test func decimalsDropTrailingZeros() {
        #expect(NumberFormat.decimals(0.50004, 4) == "0.5")
        #expect(NumberFormat.decimals(0.99996, 4) == "1")
        #expect(NumberFormat.decimals(-0.00001, 4) == "0")
        #expect(NumberFormat.decimals(1.04321, 4) == "1.0432")
        #expect(NumberFormat.decimals(120, 4) == "120")
    }
}
