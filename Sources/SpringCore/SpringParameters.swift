#if !hasFeature(Embedded)
import Foundation
#endif

/// A damped spring in canonical form (Reference §2): undamped natural `frequency` f in Hz and
/// `damping` ratio ζ (1 = critical), unit mass. Displacement x from the target obeys
/// ẍ = −ω²x − 2ζωẋ with ω = 2πf.
public struct SpringParameters: Hashable, Sendable {
    /// Undamped natural frequency f, in Hz (> 0).
    public var frequency: Double
    /// Damping ratio ζ (≥ 0; 1 = critical damping).
    public var damping: Double

    /// A spring of natural frequency f = `frequency` (Hz) and damping ratio ζ = `damping`.
    ///
    /// - Throws: ``SpringError/outOfRange(_:_:_:)`` when f is not finite and > 0, or ζ is not finite and ≥ 0.
    public init(frequency: Double, damping: Double) throws(SpringError) {
        guard frequency.isFinite, frequency > 0 else { throw .outOfRange("frequency", frequency, "must be finite and > 0") }
        guard damping.isFinite, damping >= 0 else { throw .outOfRange("damping", damping, "must be finite and >= 0") }
        self.frequency = frequency
        self.damping = damping
    }

    /// Angular natural frequency ω = 2πf, in rad/s.
    public var omega: Double { 2 * .pi * frequency }

    // MARK: Input forms

    /// From stiffness k, damping coefficient c and mass m: ω = √(k/m), ζ = c / (2√(km)).
    public init(stiffness k: Double, dampingCoefficient c: Double, mass m: Double = 1) throws(SpringError) {
        guard m.isFinite, m > 0 else { throw .outOfRange("mass", m, "must be finite and > 0") }
        guard k.isFinite, k > 0 else { throw .outOfRange("stiffness", k, "must be finite and > 0") }
        try self.init(frequency: (k / m).squareRoot() / (2 * .pi), damping: c / (2 * (k * m).squareRoot()))
    }

    /// From SwiftUI / UIKit `response` (s) and `dampingRatio`: ω = 2π/response.
    public init(response: Double, dampingRatio: Double) throws(SpringError) {
        guard response.isFinite, response > 0 else { throw .outOfRange("response", response, "must be finite and > 0") }
        try self.init(frequency: 1 / response, damping: dampingRatio)
    }

    /// From SwiftUI `duration` (s) and `bounce`: ω = 2π/duration; ζ = 1 − bounce for bounce ≥ 0,
    /// ζ = 1/(1 + bounce) for bounce < 0.
    public init(duration: Double, bounce: Double) throws(SpringError) {
        guard duration.isFinite, duration > 0 else { throw .outOfRange("duration", duration, "must be finite and > 0") }
        guard bounce.isFinite, bounce > -1, bounce <= 1 else { throw .outOfRange("bounce", bounce, "must be in (-1, 1]") }
        try self.init(frequency: 1 / duration, damping: bounce >= 0 ? 1 - bounce : 1 / (1 + bounce))
    }

    /// From Origami / Rebound `tension` and `friction` (unit mass):
    /// k = (tension − 30)·3.62 + 194, c = (friction − 8)·3 + 25, where 0 maps to 0.
    public init(tension: Double, friction: Double) throws(SpringError) {
        try self.init(stiffness: Self.origamiStiffness(tension), dampingCoefficient: Self.origamiDamping(friction))
    }

    // MARK: Output forms (mass 1 unless given)

    /// Stiffness k = m·ω².
    public func stiffness(mass m: Double = 1) -> Double { m * omega * omega }
    /// Damping coefficient c = 2ζ·√(k m) = 2ζωm.
    public func dampingCoefficient(mass m: Double = 1) -> Double { 2 * damping * omega * m }
    /// SwiftUI / UIKit `response` = 2π/ω = 1/f, in seconds (equal to SwiftUI's `duration`).
    public var response: Double { 1 / frequency }
    /// SwiftUI `bounce`: 1 − ζ for ζ ≤ 1, 1/ζ − 1 for ζ > 1.
    public var bounce: Double { damping <= 1 ? 1 - damping : 1 / damping - 1 }
    /// Origami `tension` for unit mass (inverse of ``origamiStiffness(_:)``).
    public var tension: Double { Self.origamiTension(stiffness: stiffness()) }
    /// Origami `friction` for unit mass (inverse of ``origamiDamping(_:)``).
    public var friction: Double { Self.origamiFriction(dampingCoefficient: dampingCoefficient()) }

    /// Origami tension → stiffness: (tension − 30)·3.62 + 194; 0 maps to 0.
    public static func origamiStiffness(_ tension: Double) -> Double { tension == 0 ? 0 : (tension - 30) * 3.62 + 194 }
    /// Origami friction → damping coefficient: (friction − 8)·3 + 25; 0 maps to 0.
    public static func origamiDamping(_ friction: Double) -> Double { friction == 0 ? 0 : (friction - 8) * 3 + 25 }
    /// Stiffness → Origami tension; 0 maps to 0.
    public static func origamiTension(stiffness k: Double) -> Double { k == 0 ? 0 : (k - 194) / 3.62 + 30 }
    /// Damping coefficient → Origami friction; 0 maps to 0.
    public static func origamiFriction(dampingCoefficient c: Double) -> Double { c == 0 ? 0 : (c - 25) / 3 + 8 }
}

#if !hasFeature(Embedded)
/// A spring as JSON: `{"frequency": f, "damping": ζ}` (Embedded Swift, the WebAssembly build, has
/// no Codable: the page hands the engine numbers).
extension SpringParameters: Codable {}
#endif

/// A spring input that is out of its range: one line naming the value.
public enum SpringError: Error, Equatable, CustomStringConvertible {
    /// The parameter `name` has `value`, which breaks `rule` (for example "must be finite and > 0").
    case outOfRange(String, Double, String)

    /// One line: the name, the value and the rule it breaks.
    public var description: String {
        switch self {
        case let .outOfRange(name, value, rule): "\(name) = \(value) \(rule)"
        }
    }
}
