import SpringCore

/// What a grabbed animation showed beyond where the new gesture's own mapping puts it
/// (Reference §7.8): a row springing past its open height, a card flying to its place in the
/// list (off the drag path). That excess Δ, taken at the grab time t₀, fades on a critically
/// damped spring of the model's frequency f from rest: shown = mapping + Δ·a(t − t₀) with
/// a(τ) = (1 + ωτ)·e^(−ωτ), ω = 2πf, so a(0) = 1, ȧ(0) = 0 and a falls to 0 without crossing it
/// (whatever the model's own damping, 0 included): the grab moves nothing and the finger's
/// mapping takes over, about 1.06/f s to 1 % (6.6/ω).
struct GrabFade: Sendable {
    /// a(t): a unit displacement at rest at t₀, pulled to 0.
    private let unit: Simulation

    /// A fade that starts at time `t` (s) at the frequency of `spring`, critically damped.
    init(spring: SpringParameters, at t: Double) {
        var critical = spring
        critical.damping = 1
        unit = Simulation(spring: critical, position: 1, velocity: 0, target: 0, time: t)
    }

    /// The share a(t) of the excess still shown and its rate ȧ(t) (1/s); (1, 0) up to t₀.
    func share(at t: Double) -> (value: Double, rate: Double) {
        t <= unit.time ? (1, 0) : (unit.x(t), unit.dx(t))
    }
}

/// A scalar excess Δ (pt) and its fade: what ``PullToCreateEngine``, ``PinchFoldEngine`` and
/// ``PercentTransitionEngine`` add to their mapping after a grab.
struct GrabExcess: Sendable {
    /// Δ: what was shown minus the new gesture's mapping at the grab (pt).
    let amount: Double
    let fade: GrabFade

    /// Δ·a(t) (pt) and Δ·ȧ(t) (pt/s).
    func at(_ t: Double) -> (value: Double, rate: Double) {
        let s = fade.share(at: t)
        return (amount * s.value, amount * s.rate)
    }
}

extension Scene {
    /// The most a grab may move what is shown (pt): Reference §7.8's promise.
    static let grabTolerance = 0.5

    /// True when a value `distance` pt from where a fresh engine starts, moving at `speed` pt/s,
    /// may be handed to a fresh engine by a grab: within d = min(ε, 0.5 pt) and moving less than
    /// d in a frame (|speed| ≤ d·F). The 0.5 pt bound keeps the grab's promise whatever the
    /// preset's ε (up to 1000 pt).
    func isAtRest(distance: Double, speed: Double) -> Bool {
        let d = min(tolerance, Self.grabTolerance)
        return abs(distance) <= d && abs(speed) <= d * frameRate
    }
}
