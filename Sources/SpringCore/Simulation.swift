#if !hasFeature(Embedded)
import Foundation
#endif

/// A 1-D spring toward a target, in the shape of Flutter's `SpringSimulation`: position x(t),
/// velocity dx(t) and whether it is at rest, at any time, exactly (Reference §2); it starts from
/// any position and velocity, and can be retargeted mid-flight keeping its velocity.
///
/// The state is kept at one time (`time`); `advance(to:)` moves it there by the exact step
/// x' = xx·x + xv·v, v' = vx·x + vv·v of ``SpringStep`` (on the displacement x = position −
/// target), reusing the step's map while the frame interval repeats, so a display loop pays one
/// `exp`/`cos`/`sin` per distinct interval. `x(_:)` and `dx(_:)` read the closed form from that
/// state without moving it.
public struct Simulation: Sendable {
    /// The spring's frequency f (Hz) and damping ratio ζ.
    public let spring: SpringParameters
    /// Where the spring pulls to (pt).
    public private(set) var target: Double
    /// The time of the current state (s, on the caller's clock).
    public private(set) var time: Double
    /// Displacement x − target at `time` (pt).
    public private(set) var displacement: Double
    /// Velocity dx/dt at `time` (pt/s).
    public private(set) var velocity: Double
    private var step: SpringStep?
    private var stepInterval = 0.0

    /// A spring at `position` moving at `velocity` (pt/s) at `time`, pulled toward `target`.
    public init(spring: SpringParameters, position: Double, velocity: Double, target: Double, time: Double = 0) {
        self.spring = spring
        self.target = target
        self.time = time
        displacement = position - target
        self.velocity = velocity
    }

    /// Position at `time`: target + displacement (pt).
    public var position: Double { target + displacement }

    /// Position x(t) at any time t, from the closed form (pt).
    public func x(_ t: Double) -> Double { target + state(at: t).x }

    /// Velocity dx(t) at any time t, from the closed form (pt/s).
    public func dx(_ t: Double) -> Double { state(at: t).v }

    /// True when at time t the spring is within `distance` (pt) of its target and slower than
    /// `speed` (pt/s): |x(t) − target| ≤ distance and |dx(t)| ≤ speed.
    public func isDone(at t: Double, distance: Double, speed: Double) -> Bool {
        let s = state(at: t)
        return abs(s.x) <= distance && abs(s.v) <= speed
    }

    /// Moves the state to time t by the exact step over t − time (nothing moves when t ≤ time,
    /// but the clock still reads t). Intervals that differ only by rounding of the frame times
    /// (1e-12 relative) reuse the cached map.
    public mutating func advance(to t: Double) {
        let dt = t - time
        time = t
        guard dt > 0 else { return }
        if step == nil || abs(dt - stepInterval) > 1e-12 * stepInterval {
            step = SpringStep(spring: spring, dt: dt)
            stepInterval = dt
        }
        let s = step!.apply(SpringState(x: displacement, v: velocity))
        (displacement, velocity) = (s.x, s.v)
    }

    /// Advances to t, then pulls toward `newTarget` from where the spring is, with the velocity
    /// it has. A t before the state's time counts as that time (the state is already there; a
    /// clock set back would make the spring run ahead).
    public mutating func retarget(_ newTarget: Double, at t: Double) {
        advance(to: max(t, time))
        displacement = position - newTarget
        target = newTarget
    }

    /// Displacement and velocity at time t from the current state.
    private func state(at t: Double) -> SpringState {
        SpringMotion(spring: spring, initial: SpringState(x: displacement, v: velocity)).state(at: t - time)
    }
}
