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
public struct Synthesizer: Sendable {
    public enum Kind: String, CaseIterable, Sendable { case flick, drag, pull }

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
