import Foundation

/// A Material 3 motion spring token (Reference §10.4): damping ratio ζ and stiffness k at unit
/// mass, as Jetpack Compose's `MotionScheme` uses them.
///
/// Values from androidx, compose/material3/material3/src/commonMain/kotlin/androidx/compose/
/// material3/tokens/ExpressiveMotionTokens.kt and StandardMotionTokens.kt (generated tokens,
/// VERSION v0_14_0): https://github.com/androidx/androidx/tree/androidx-main/compose/material3/material3/src/commonMain/kotlin/androidx/compose/material3/tokens
/// The effects springs are the same in both schemes.
public struct MaterialSpringToken: Hashable, Sendable {
    /// Material 3's motion scheme: which family of springs a token belongs to.
    public enum Scheme: String, Sendable {
        /// `MotionScheme.expressive()`: bouncier spatial springs (the Material 3 Expressive default).
        case expressive
        /// `MotionScheme.standard()`: critically damped spatial springs.
        case standard
    }
    /// What a token animates.
    public enum Motion: String, Sendable {
        /// Position and size: the springs that may overshoot.
        case spatial
        /// Colour and opacity: critically damped springs that never overshoot.
        case effects
    }
    /// How quickly the token's spring settles.
    public enum Speed: String, Sendable {
        /// The stiffest spring of its scheme and motion (`…FastSpatial…`, `…FastEffects…`).
        case fast
        /// The middle spring (`…DefaultSpatial…`, `…DefaultEffects…`).
        case `default`
        /// The softest spring (`…SlowSpatial…`, `…SlowEffects…`).
        case slow
    }

    /// The motion scheme the token belongs to.
    public let scheme: Scheme
    /// Whether the token animates position and size or colour and opacity.
    public let motion: Motion
    /// The token's speed within its scheme and motion.
    public let speed: Speed
    /// Damping ratio ζ (the token named `…Damping`).
    public let dampingRatio: Double
    /// Stiffness k at unit mass, in 1/s².
    public let stiffness: Double

    /// Every token: Expressive then Standard; spatial then effects; fast, default, slow.
    public static let all: [MaterialSpringToken] = [
        .init(scheme: .expressive, motion: .spatial, speed: .fast, dampingRatio: 0.6, stiffness: 800),
        .init(scheme: .expressive, motion: .spatial, speed: .default, dampingRatio: 0.8, stiffness: 380),
        .init(scheme: .expressive, motion: .spatial, speed: .slow, dampingRatio: 0.8, stiffness: 200),
        .init(scheme: .expressive, motion: .effects, speed: .fast, dampingRatio: 1, stiffness: 3800),
        .init(scheme: .expressive, motion: .effects, speed: .default, dampingRatio: 1, stiffness: 1600),
        .init(scheme: .expressive, motion: .effects, speed: .slow, dampingRatio: 1, stiffness: 800),
        .init(scheme: .standard, motion: .spatial, speed: .fast, dampingRatio: 0.9, stiffness: 1400),
        .init(scheme: .standard, motion: .spatial, speed: .default, dampingRatio: 0.9, stiffness: 700),
        .init(scheme: .standard, motion: .spatial, speed: .slow, dampingRatio: 0.9, stiffness: 300),
        .init(scheme: .standard, motion: .effects, speed: .fast, dampingRatio: 1, stiffness: 3800),
        .init(scheme: .standard, motion: .effects, speed: .default, dampingRatio: 1, stiffness: 1600),
        .init(scheme: .standard, motion: .effects, speed: .slow, dampingRatio: 1, stiffness: 800),
    ]

    /// "Expressive spatial default".
    public var name: String { "\(scheme.rawValue.capitalized) \(motion.rawValue) \(speed.rawValue)" }

    /// The Compose expression for the token: `MotionScheme.expressive().defaultSpatialSpec()`.
    public var compose: String { "MotionScheme.\(scheme.rawValue)().\(speed.rawValue)\(motion.rawValue.capitalized)Spec()" }

    /// Distance from a spring in (log₂ k, 4ζ): d = √(log₂(k/kₜ)² + (4·(ζ − ζₜ))²), so a factor
    /// of 2 in stiffness (√2 in frequency) counts as much as 0.25 in damping ratio.
    public func distance(to spring: SpringParameters) -> Double {
        let dk = log2(spring.stiffness() / stiffness), dz = 4 * (spring.damping - dampingRatio)
        return (dk * dk + dz * dz).squareRoot()
    }

    /// The token nearest to `spring` (the first in ``all`` on a tie) and its distance.
    public static func nearest(to spring: SpringParameters) -> (token: MaterialSpringToken, distance: Double) {
        all.map { ($0, $0.distance(to: spring)) }.min { $0.1 < $1.1 }!
    }
}
