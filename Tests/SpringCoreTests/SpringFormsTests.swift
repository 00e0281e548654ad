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
            #expect(e.points.first == 0 && e.points.last == 1)
            #expect(zip(e.points, e.points.dropFirst()).allSatisfy { $0 <= $1 })
            #expect(e.points.count - 1 >= SpringEasing.intervals.lowerBound)
        }
    }

    /// An under-damped step response peaks at 1 + e^{−πζ/√(1−ζ²)}; the samples miss the peak by at
    /// most ½·max|ẍ|·(Δt/2)², with |ẍ| ≤ ω²A(1 + 2ζ) and A = 1/√(1−ζ²) the amplitude bound.
    @Test func easingOvershootsByTheClosedForm() throws {
        for z in [0.2, 0.5, 0.7, 0.9] {
            let spring = try SpringParameters(frequency: 1.5, damping: z)
            let e = try #require(SpringEasing(spring: spring, band: 0.5 / 844))
            #expect(e.points.first == 0 && e.points.last == 1)
            let exact = exp(-Double.pi * z / (1 - z * z).squareRoot())
            let w = spring.omega, sampling = 0.5 * w * w * (1 + 2 * z) / (1 - z * z).squareRoot() * (e.step / 2) * (e.step / 2)
            let sampled = e.points.max()! - 1
            #expect(sampled <= exact + 1e-12 && sampled >= exact - sampling, "ζ \(z): \(sampled) vs \(exact) ± \(sampling)")
            // The duration is the settle time: the step response's last excursion past the band.
            let motion = SpringMotion(spring: spring, initial: SpringState(x: 1, v: 0))
            #expect(abs(motion.state(at: e.duration).x) <= 0.5 / 844 * (1 + 1e-9))
            #expect(abs(motion.state(at: e.duration * 0.999).x) > 0 && e.duration > 0)
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
