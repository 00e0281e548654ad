import SpringCore
import SpringLayout

/// `export --format swiftui|uikit` (Reference §10.4): a Swift file with an `enum` named after the
/// preset (`Tweetbot`) holding each spring and every other parameter as a `static let`.
///
/// SwiftUI gets each spring three times: `Spring(duration:bounce:)` (iOS 17; over-damped,
/// `Spring(response:dampingRatio:)`), the `Animation` `.spring(response:dampingRatio:)` (iOS 13)
/// from rest, with duration = response = 1/f and bounce = 1 − ζ, and a function returning
/// `.interpolatingSpring(mass: 1, stiffness: k, damping: c, initialVelocity:)` that starts from
/// the finger's velocity (relative: over the distance left, per second). UIKit gets a function returning
/// `UISpringTimingParameters(mass: 1, stiffness: k, damping: c, initialVelocity:)`, k = ω²,
/// c = 2ζω, ω = 2πf; a class instance, so made fresh per call rather than stored.
public struct SwiftSource: Sendable {
    public enum Framework: Sendable { case swiftUI, uiKit }

    public let set: PlatformPreset
    public let framework: Framework

    public init(_ set: PlatformPreset, framework: Framework) { self.set = set; self.framework = framework }

    public var text: String {
        self.set.typeSource(imports: [framework == .swiftUI ? "import SwiftUI" : "import UIKit"],
                       doc: "/// The tuned springs and parameters of the \(PlatformPreset.comment(set.name)) preset.", keyword: "enum",
                       spring: spring, constant: constant)
    }

    /// A spring's declarations.
    func spring(_ named: PlatformPreset.NamedSpring) -> [String] {
        let s = named.spring, name = Identifier(named.name).lowerCamel, n = PlatformPreset.number
        let doc = "/// Spring `\(named.name)`: \(PlatformPreset.summary(s))."
        switch framework {
        case .swiftUI:
            // Over-damped (ζ > 1), bounce would be negative, whose meaning SwiftUI does not publish: response and ζ say it.
            let spring = s.damping <= 1 ? "Spring(duration: \(n(s.response)), bounce: \(n(s.bounce)))"
                : "Spring(response: \(n(s.response)), dampingRatio: \(n(s.damping)))"
            return [doc, "static let \(name) = \(spring)",
                    "/// Spring `\(named.name)` as an animation from rest (response = duration, dampingRatio = ζ).",
                    "static let \(name)Animation = Animation.spring(response: \(n(s.response)), dampingRatio: \(n(s.damping)))",
                    "/// Spring `\(named.name)` from the finger's velocity: `initialVelocity` is the release velocity over the",
                    "/// distance left to travel, per second (as UIKit's), e.g. (v pt/s) / (target − position pt).",
                    "static func \(name)Animation(initialVelocity: Double) -> Animation {",
                    "    .interpolatingSpring(mass: 1, stiffness: \(n(s.stiffness())), damping: \(n(s.dampingCoefficient())), initialVelocity: initialVelocity)",
                    "}"]
        case .uiKit:
            return [doc, "/// `initialVelocity`: the gesture's velocity over the distance left to travel, per second.",
                    "static func \(name)(initialVelocity: CGVector = CGVector(dx: 0, dy: 0)) -> UISpringTimingParameters {",
                    "    UISpringTimingParameters(mass: 1, stiffness: \(n(s.stiffness())), damping: \(n(s.dampingCoefficient())), initialVelocity: initialVelocity)",
                    "}"]
        }
    }

    /// A parameter as a typed constant with its unit in the doc comment.
    func constant(_ c: PlatformPreset.Constant) -> [String] {
        let name = Identifier(c.name).lowerCamel
        let value = switch c.value {
        case let .number(x): ": Double = \(PlatformPreset.number(x))"
        case let .text(word): " = \"\(word)\""
        }
        return ["/// \(PlatformPreset.comment(c.summary)) (\(c.unitNote)).", "static let \(name)\(value)"]
    }
}
