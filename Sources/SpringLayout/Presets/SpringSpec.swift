import Foundation
import SpringCore

/// The preset's spring: canonical frequency f (Hz) and damping ratio ζ, or any input form of
/// Reference §2 (`response` + `dampingRatio`, `duration` + `bounce`, `stiffness` +
/// `dampingCoefficient` [+ `mass`], `tension` + `friction`). When several are given they must agree.
public struct SpringSpec: Sendable, Codable, Equatable {
    /// Undamped natural frequency f (Hz).
    public var frequency: Double
    /// Damping ratio ζ (1 = critical).
    public var damping: Double
    /// Other forms a preset file gave besides frequency and damping, kept so the file reads
    /// back as written. `export` writes the canonical pair only: one number per quantity, so
    /// editing `damping` by hand is the whole change.
    public var response: Double?
    /// The damping ratio ζ, as given beside `response`.
    public var dampingRatio: Double?
    /// SwiftUI's duration (s, the response 1/f), as given beside `bounce`.
    public var duration: Double?
    /// SwiftUI's bounce (ζ = 1 − bounce for bounce ≥ 0, 1/(1 + bounce) below), as given beside `duration`.
    public var bounce: Double?

    /// The canonical pair of `s`, no other form.
    public init(_ s: SpringParameters) {
        frequency = s.frequency
        damping = s.damping
    }

    /// The canonical pair of `s` as a file should show it, each to 12 significant digits
    /// (``/SpringCore/NumberFormat/typed(_:)``): a spring converted from another form (f = 1/response) or
    /// fitted is written 3.33333333333, not 3.3333333333333335. For `export` and `fit`.
    public static func typed(_ s: SpringParameters) -> SpringSpec {
        var spec = SpringSpec(s)
        (spec.frequency, spec.damping) = (NumberFormat.typed(s.frequency), NumberFormat.typed(s.damping))
        return spec
    }

    static let keys: Set<String> = ["frequency", "damping", "response", "dampingRatio", "duration", "bounce",
                                    "stiffness", "dampingCoefficient", "mass", "tension", "friction"]

    /// Decodes any input form (or several that agree to 1e-6); a form that is out of range, incomplete or disagrees fails with the key's path.
    public init(from decoder: any Decoder) throws {
        let c = try StrictContainer(decoder, keys: Self.keys)
        func pair(_ a: String, _ b: String) throws -> (Double, Double)? {
            let x = try c.decodeIfPresent(Double.self, a), y = try c.decodeIfPresent(Double.self, b)
            if x == nil && y == nil { return nil }
            guard let x else { throw c.fail(a, "required with '\(b)'") }
            guard let y else { throw c.fail(b, "required with '\(a)'") }
            return (x, y)
        }
        var forms: [(String, SpringParameters)] = []
        do {
            if let (f, z) = try pair("frequency", "damping") { forms.append(("frequency", try SpringParameters(frequency: f, damping: z))) }
            if let (r, z) = try pair("response", "dampingRatio") { forms.append(("response", try SpringParameters(response: r, dampingRatio: z))) }
            if let (d, b) = try pair("duration", "bounce") { forms.append(("duration", try SpringParameters(duration: d, bounce: b))) }
            if let (k, cc) = try pair("stiffness", "dampingCoefficient") {
                forms.append(("stiffness", try SpringParameters(stiffness: k, dampingCoefficient: cc, mass: try c.positive("mass") ?? 1)))
            }
            if let (t, fr) = try pair("tension", "friction") { forms.append(("tension", try SpringParameters(tension: t, friction: fr))) }
        } catch let error as SpringError {
            guard case let .outOfRange(name, _, _) = error else { throw error }
            throw c.fail(name == "damping" && c.contains("dampingRatio") ? "dampingRatio" : name, error.description)
        }
        guard let (key, first) = forms.first else { throw c.fail("frequency", "give frequency + damping or another spring form") }
        if let (bad, problem) = Self.problem(first, form: key) { throw c.fail(bad, problem) }
        for (key, other) in forms.dropFirst() {
            let agree = abs(other.frequency - first.frequency) <= 1e-6 * first.frequency && abs(other.damping - first.damping) <= 1e-6 * max(1, first.damping)
            if !agree {
                let say = { (s: SpringParameters) in "f \(NumberFormat.significant(s.frequency, 9)) Hz, ζ \(NumberFormat.significant(s.damping, 9))" }
                throw c.fail(key, "gives \(say(other)) where '\(forms[0].0)' gives \(say(first)); the spring has several forms that disagree: keep one (e.g. frequency + damping) and remove the others")
            }
        }
        self.init(first)
        // Keep the other forms the file gave, as numbers of the first one (they agree with it).
        if c.contains("response") { (response, dampingRatio) = (first.response, first.damping) }
        if c.contains("duration") { (duration, bounce) = (first.response, first.bounce) }
    }
}
