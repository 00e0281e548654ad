import SpringCore

/// What a grabbed animation showed beyond where the new gesture's own mapping puts it
/// (Reference §7.8): a row springing past its open height, a card flying to its place in the
/// list (off the drag path). That excess Δ, taken at the grab time t₀, fades on the model's own
/// spring from rest: shown = mapping + Δ·a(t − t₀) with a(0) = 1, ȧ(0) = 0 and a → 0, so the
/// grab moves nothing and the finger's mapping takes over within the spring's settle time.
struct GrabFade: Sendable {
    /// a(t): a unit displacement at rest at t₀, pulled to 0.
    private let unit: Simulation

    /// A fade that starts at time `t` (s) on `spring`.
    init(spring: SpringParameters, at t: Double) {
        unit = Simulation(spring: spring, position: 1, velocity: 0, target: 0, time: t)
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
    /// True when a value `distance` pt from where it rests, moving at `speed` pt/s, is at rest:
    /// within the tolerance ε and moving less than ε in a frame (|speed| ≤ ε·F).
    func isAtRest(distance: Double, speed: Double) -> Bool {
        abs(distance) <= tolerance && abs(speed) <= tolerance * frameRate
    }
}
