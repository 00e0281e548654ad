import Foundation
import Testing
@testable import SpringCore

/// ``Simulation`` against the closed forms of ẍ = −ω²x − 2ζωẋ, written out here independently
/// of ``SpringStep``.
@Suite struct SimulationTests {
    func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance * max(1, abs(b)) }

    /// Critically damped (ζ = 1): x(t) = (x₀ + (v₀ + ωx₀)t)e^{−ωt}, ẋ(t) = (v₀ − ω(v₀ + ωx₀)t)e^{−ωt}.
    @Test func criticallyDampedMatchesTheClosedForm() throws {
        let spring = try SpringParameters(frequency: 2, damping: 1)
        let w = spring.omega, x0 = 30.0, v0 = -500.0
        let sim = Simulation(spring: spring, position: 100 + x0, velocity: v0, target: 100)
        for t in stride(from: 0.0, through: 2, by: 0.05) {
            let e = exp(-w * t)
            #expect(close(sim.x(t), 100 + (x0 + (v0 + w * x0) * t) * e), "x(\(t))")
            #expect(close(sim.dx(t), (v0 - w * (v0 + w * x0) * t) * e), "dx(\(t))")
        }
    }

    /// Under-damped (ζ < 1), ω_d = ω√(1 − ζ²):
    /// x(t) = e^{−ζωt}(x₀ cos ω_d t + (v₀ + ζωx₀)/ω_d · sin ω_d t),
    /// ẋ(t) = e^{−ζωt}(v₀ cos ω_d t − (ζωv₀ + ω²x₀)/ω_d · sin ω_d t).
    @Test(arguments: [0.0, 0.15, 0.7])
    func underDampedMatchesTheClosedForm(zeta: Double) throws {
        let spring = try SpringParameters(frequency: 1.3, damping: zeta)
        let w = spring.omega, wd = w * (1 - zeta * zeta).squareRoot(), x0 = -12.0, v0 = 240.0
        let sim = Simulation(spring: spring, position: x0, velocity: v0, target: 0, time: 3)
        for t in stride(from: 3.0, through: 6, by: 0.037) {
            let tau = t - 3, e = exp(-zeta * w * tau), c = cos(wd * tau), s = sin(wd * tau)
            #expect(close(sim.x(t), e * (x0 * c + (v0 + zeta * w * x0) / wd * s)), "x(\(t))")
            #expect(close(sim.dx(t), e * (v0 * c - (zeta * w * v0 + w * w * x0) / wd * s)), "dx(\(t))")
        }
    }

    /// Stepping frame by frame lands where the closed form says, and repeated intervals give
    /// the same state as one step over their sum (to rounding).
    @Test func advancingFollowsTheClosedForm() throws {
        let spring = try SpringParameters(frequency: 1.5, damping: 0.6)
        var sim = Simulation(spring: spring, position: 0, velocity: 800, target: 60, time: 1)
        let exact = sim
        for k in 1...120 { sim.advance(to: 1 + Double(k) / 120) }
        #expect(sim.time == 2)
        #expect(close(sim.position, exact.x(2), 1e-9))
        #expect(close(sim.velocity, exact.dx(2), 1e-9))
        // Going back in time moves nothing.
        let before = (sim.position, sim.velocity)
        sim.advance(to: 1.5)
        #expect(sim.position == before.0 && sim.velocity == before.1 && sim.time == 1.5)
    }

    /// Retargeting keeps position and velocity at that instant, and the spring then pulls toward
    /// the new target: x(t) − new target is the free motion from (position − new target, velocity).
    @Test func retargetKeepsVelocity() throws {
        let spring = try SpringParameters(frequency: 2.5, damping: 0.8)
        var sim = Simulation(spring: spring, position: 0, velocity: 0, target: 100)
        sim.advance(to: 0.1)
        let (p, v) = (sim.position, sim.velocity)
        #expect(v > 0)
        sim.retarget(-40, at: 0.1)
        #expect(sim.target == -40 && sim.time == 0.1)
        #expect(close(sim.position, p, 1e-12) && sim.velocity == v)
        let free = SpringMotion(spring: spring, initial: SpringState(x: p + 40, v: v))
        for t in [0.1, 0.2, 0.5, 1.0] {
            #expect(close(sim.x(t), -40 + free.state(at: t - 0.1).x))
            #expect(close(sim.dx(t), free.state(at: t - 0.1).v))
        }
        #expect(sim.x(3) < 0)
    }

    /// isDone is false while moving or away from the target, true once both are within tolerance.
    @Test func isDoneOnceNearTheTargetAndSlow() throws {
        let spring = try SpringParameters(frequency: 2, damping: 1)
        let sim = Simulation(spring: spring, position: 50, velocity: 0, target: 0)
        #expect(!sim.isDone(at: 0, distance: 0.5, speed: 5))
        #expect(!sim.isDone(at: 0.1, distance: 0.5, speed: 5))
        #expect(sim.isDone(at: 3, distance: 0.5, speed: 5))
        // At the target but moving fast is not done.
        let moving = Simulation(spring: spring, position: 0, velocity: 300, target: 0)
        #expect(!moving.isDone(at: 0, distance: 0.5, speed: 5))
        let resting = Simulation(spring: spring, position: 7, velocity: 0, target: 7)
        #expect(resting.isDone(at: 0, distance: 0, speed: 0) && resting.isDone(at: 10, distance: 0, speed: 0))
    }
}
