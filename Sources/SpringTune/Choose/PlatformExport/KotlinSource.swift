import SpringCore
import SpringLayout

/// `export --format compose` (Reference §10.4): a Kotlin file with an `object` named after the
/// preset holding each spring as `const val`s (damping ratio ζ, stiffness k = ω² at unit mass)
/// and a `spring(dampingRatio = …, stiffness = …)` spec, an `Animatable` extension that starts
/// it from the finger's velocity (`animateTo(target, spec, initialVelocity)`), the nearest Material 3 motion token
/// (``MaterialSpringToken/nearest(to:)``) in a comment, and every other parameter as a
/// `const val` with its unit.
public struct KotlinSource: Sendable {
    public let set: PlatformPreset

    public init(_ set: PlatformPreset) { self.set = set }

    public var text: String {
        self.set.typeSource(imports: ["import androidx.compose.animation.core.Animatable", "import androidx.compose.animation.core.AnimationVector1D",
                                 "import androidx.compose.animation.core.SpringSpec", "import androidx.compose.animation.core.spring"],
                       doc: "/** The tuned springs and parameters of the \(PlatformPreset.comment(set.name)) preset. */", keyword: "object",
                       spring: spring, constant: constant)
    }

    /// A spring's constants, its spec and the nearest Material token.
    func spring(_ named: PlatformPreset.NamedSpring) -> [String] {
        let s = named.spring, name = Identifier(named.name).lowerCamel, n = PlatformPreset.number
        let (token, distance) = MaterialSpringToken.nearest(to: s)
        return ["// Spring `\(named.name)`: \(PlatformPreset.summary(s)).",
                "// Nearest Material 3 token: \(token.name) (ζ \(n(token.dampingRatio)), k \(n(token.stiffness)); \(token.compose)),",
                "// distance \(NumberFormat.decimals(distance, 2)) in (log₂ k, 4ζ).",
                "const val \(name)DampingRatio = \(n(s.damping))f",
                "const val \(name)Stiffness = \(n(s.stiffness()))f",
                "fun <T> \(name)Spec(): SpringSpec<T> = spring(dampingRatio = \(name)DampingRatio, stiffness = \(name)Stiffness)",
                "// From the finger: initialVelocity is the release velocity in the value's unit per second (dp/s for an offset).",
                "suspend fun Animatable<Float, AnimationVector1D>.animate\(Identifier(named.name).upperCamel)To(target: Float, initialVelocity: Float) =",
                "    animateTo(target, \(name)Spec(), initialVelocity)"]
    }

    /// A parameter as a `const val` with its unit.
    func constant(_ c: PlatformPreset.Constant) -> [String] {
        let value = switch c.value {
        case let .number(x): "\(PlatformPreset.number(x))f"
        case let .text(word): "\"\(word)\""
        }
        return ["// \(PlatformPreset.comment(c.summary)) (\(c.unitNote)).", "const val \(Identifier(c.name).lowerCamel) = \(value)"]
    }
}
