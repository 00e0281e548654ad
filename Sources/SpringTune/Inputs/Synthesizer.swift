import Foundation
import SpringCore
import TraceIO

/// `springtune traces synthesize`: labelled traces from a documented human-motion model, for
/// coverage beyond the recordings. Deterministic for a seed (SplitMix64, Box–Muller).
///
/// Motion: a minimum-jerk reach p(s) = p₀ + D·(10s³ − 15s⁴ + 6s⁵), s = t/T (Flash & Hogan
/// 1985), sampled at a per-trace rate drawn from 60–240 Hz with ±10 % timing jitter, plus
/// Gaussian sensor noise (σ = 0.25 pt) on every position.
/// - `flick`: D 150–600 pt in any direction, T 0.15–0.35 s, lifted while still moving
///   (at s = 0.45–0.7, around peak speed): a throw, labelled `dismiss`.
/// - `drag`: D 40–300 pt in any direction, T 0.4–1.2 s, then held still 80–200 ms before
///   lift-off: a slow drag that ends at rest, labelled `keep`.
/// - `pull`: straight down 10–120 pt, T 0.3–0.9 s, held 50–150 ms: labelled `create` when it
///   reaches a full 60 pt row, else `cancel` (the rule of the bundled pull set).
/// - `pinch-open` / `pinch-close`: two pointers on one vertical line, sampled together (one
///   digitizer frame), each moving half of a separation change of 10–120 pt by the same
///   minimum-jerk profile, held 50–150 ms, then lifted one after the other within a frame.
///   Opening starts 20–60 pt apart and is labelled `create` when the fingers separate by a
///   full 60 pt row, else `cancel`; closing starts 90–200 pt apart and is labelled `dismiss`
///   (delete) when they close by a full row, else `keep`.
public struct Synthesizer: Sendable {
    public enum Kind: String, CaseIterable, Sendable {
        case flick, drag, pull
        case pinchOpen = "pinch-open", pinchClose = "pinch-close"
    }

    public var kind: Kind
    public var seed: UInt64
    /// Overrides the kind's label rule.
    public var intent: TraceIntent?

    public init(kind: Kind, seed: UInt64, intent: TraceIntent? = nil) {
        self.kind = kind; self.seed = seed; self.intent = intent
    }

    public static let noise = 0.25
    public static let rowHeight = 60.0

    public func traces(count: Int) -> [Trace] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { trace(index: $0, rng: &rng) }
    }

    /// Minimum-jerk position fraction at s ∈ [0, 1].
    public static func minimumJerk(_ s: Double) -> Double { s * s * s * (10 - 15 * s + 6 * s * s) }

    private func trace(index: Int, rng: inout SplitMix64) -> Trace {
        if kind == .pinchOpen || kind == .pinchClose { return pinch(index: index, rng: &rng) }
        let rate = rng.uniform(60, 240), period = 1 / rate
        var start = SIMD2(rng.uniform(100, 290), rng.uniform(250, 600))
        var delta: SIMD2<Double>, duration: Double, stopAt = 1.0, hold = 0.0, label: TraceIntent
        switch kind {
        case .flick:
            delta = rng.direction() * rng.uniform(150, 600)
            duration = rng.uniform(0.15, 0.35)
            stopAt = rng.uniform(0.45, 0.7)
            label = .dismiss
        case .drag:
            delta = rng.direction() * rng.uniform(40, 300)
            duration = rng.uniform(0.4, 1.2)
            hold = rng.uniform(0.08, 0.2)
            label = .keep
        case .pinchOpen, .pinchClose:
            preconditionFailure("two-finger kinds are drawn by pinch(index:rng:)")
        case .pull:
            start = SIMD2(rng.uniform(100, 290), 120)
            delta = SIMD2(0, rng.uniform(10, 120))
            duration = rng.uniform(0.3, 0.9)
            hold = rng.uniform(0.05, 0.15)
            label = delta.y >= Self.rowHeight ? .create : .cancel
        }
        var samples: [TouchSample] = []
        var t = 0.0
        let end = duration * stopAt + hold
        while t <= end {
            let s = min(t / duration, stopAt)
            let p = start + delta * Self.minimumJerk(s) + SIMD2(rng.gaussian(), rng.gaussian()) * Self.noise
            samples.append(TouchSample(t: t, x: p.x, y: p.y, phase: samples.isEmpty ? .began : .moved))
            t += period * rng.uniform(0.9, 1.1)
        }
        let last = samples[samples.count - 1]
        samples.append(TouchSample(t: last.t + period * rng.uniform(0.2, 1), x: last.x, y: last.y, phase: .ended))
        return Trace(id: "synthetic-\(kind.rawValue)-\(seed)-\(index)", intent: intent ?? label, samples: samples)
    }

    /// A two-finger pinch (see the type's documentation); pointer 0 is the upper finger.
    private func pinch(index: Int, rng: inout SplitMix64) -> Trace {
        let opening = kind == .pinchOpen
        let rate = rng.uniform(60, 240), period = 1 / rate
        let center = SIMD2(rng.uniform(120, 270), rng.uniform(300, 600))
        let d0 = opening ? rng.uniform(20, 60) : rng.uniform(90, 200)
        let change = rng.uniform(10, opening ? 120 : min(120, d0 - 10)) * (opening ? 1 : -1)
        let duration = rng.uniform(0.3, 0.9), hold = rng.uniform(0.05, 0.15)
        var samples: [TouchSample] = []
        var t = 0.0
        while t <= duration + hold {
            let half = (d0 + change * Self.minimumJerk(min(t / duration, 1))) / 2
            for (pointer, side) in [(0, -1.0), (1, 1.0)] {
                let p = center + SIMD2(0, side * half) + SIMD2(rng.gaussian(), rng.gaussian()) * Self.noise
                samples.append(TouchSample(t: t, x: p.x, y: p.y, phase: t == 0 ? .began : .moved, pointer: pointer))
            }
            t += period * rng.uniform(0.9, 1.1)
        }
        let lastT = samples[samples.count - 1].t
        let lifts = [rng.uniform(0.2, 1), rng.uniform(0.2, 1)].map { lastT + period * $0 }
        for pointer in (lifts[0] <= lifts[1] ? [0, 1] : [1, 0]) {
            let last = samples.last { $0.pointer == pointer }!
            samples.append(TouchSample(t: lifts[pointer], x: last.x, y: last.y, phase: .ended, pointer: pointer))
        }
        let full = abs(change) >= Self.rowHeight
        let label: TraceIntent = opening ? (full ? .create : .cancel) : (full ? .dismiss : .keep)
        return Trace(id: "synthetic-\(kind.rawValue)-\(seed)-\(index)", intent: intent ?? label, samples: samples)
    }
}

/// SplitMix64 (Steele, Lea & Flood 2014): a small, fast, seedable generator.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1) with 53 random bits.
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }
    mutating func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * unit() }

    /// A unit vector in a uniformly random direction.
    mutating func direction() -> SIMD2<Double> {
        let angle = uniform(0, 2 * .pi)
        return SIMD2(cos(angle), sin(angle))
    }

    /// Standard normal by Box–Muller.
    mutating func gaussian() -> Double {
        let u = max(unit(), 0x1p-53), v = unit()
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }
}
