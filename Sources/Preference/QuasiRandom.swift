#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SplitMix64 (Steele, Lea & Flood 2014): a tiny seeded generator whose stream is the same on
/// every machine, so proposals and simulated designers are reproducible.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1) with 53 random bits.
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// Standard normal, by Φ⁻¹ of a uniform in (0, 1).
    public mutating func normal() -> Double { Normal.quantile((Double(next() >> 11) + 0.5) * 0x1p-53) }
}

/// Roberts' R_d sequence: point i is frac(shift + i·α) with α_j = φ_d^{−(j+1)}, φ_d the real
/// root of x^{d+1} = x + 1. Low discrepancy in any dimension; the shift (seeded) makes
/// different pools from one sequence (Cranley–Patterson rotation).
public struct RSequence: Sendable {
    public let alpha: [Double]
    public let shift: [Double]

    public init(dimension d: Int, seed: UInt64) {
        var phi = 2.0
        for _ in 0..<64 { phi = pow(1 + phi, 1 / Double(d + 1)) }
        alpha = (0..<d).map { j in (1 / pow(phi, Double(j + 1))).truncatingRemainder(dividingBy: 1) }
        var rng = SplitMix64(seed: seed)
        shift = (0..<d).map { _ in rng.unit() }
    }

    /// The i-th point, in [0, 1)^d.
    public func point(_ i: Int) -> [Double] {
        zip(alpha, shift).map { a, s in (s + Double(i + 1) * a).truncatingRemainder(dividingBy: 1) }
    }
}
