import SpringCore
import ToolRuntime
import TraceIO

/// `export --format css` (Reference §10.4): custom properties on `:root` for each spring, a
/// duration and a `linear()` easing sampled from the spring's exact step response
/// (``SpringEasing``, timed to the settle band ε/L), every other parameter as a custom property
/// (`--tweetbot-flick-velocity: 800;` with its unit in a comment), and a `transition` example.
public struct CSSSource: Sendable {
    public let set: PlatformPreset
    /// One easing per spring, in ``PlatformPreset/springs`` order.
    public let easings: [SpringEasing]

    /// Exit 65 when a spring never settles (ζ = 0): no finite easing describes it.
    public init(_ set: PlatformPreset) throws {
        self.set = set
        easings = try set.springs.map { named in
            guard let easing = SpringEasing(spring: named.spring, band: set.band) else {
                throw ToolError(.dataError, "\(set.name): spring `\(named.name)` never settles (ζ = 0) or bounces too long for a CSS easing (more than \(SpringEasing.maxStops) stops)")
            }
            return easing
        }
    }

    public var text: String {
        let prefix = "--" + set.identifier.kebab
        var lines = set.header.map { "/* \(PlatformPreset.comment($0)) */" }
        let half = PlatformPreset.number(set.tolerance / 2), travel = PlatformPreset.number(set.travel)
        lines.append("/* Easings: the spring's step response on a \(travel) pt travel, within \(half) pt of it between the stops as at them (half the tolerance ε = \(PlatformPreset.number(set.tolerance)) pt); duration = the time it stays within \(half) pt of the target, where the curve ends at 1. */")
        lines.append(":root {")
        for (named, easing) in zip(set.springs, easings) {
            let name = "\(prefix)-\(Identifier(named.name).kebab)"
            lines.append("  /* Spring `\(named.name)`: \(PlatformPreset.summary(named.spring)) */")
            lines.append("  \(name)-duration: \(NumberFormat.fixed(easing.duration * 1000, 0))ms;")
            lines.append("  \(name)-easing: \(Self.linear(easing));")
        }
        for c in set.constants {
            let value = switch c.value {
            case let .number(x): PlatformPreset.number(x)
            case let .text(word): word
            }
            lines.append("  /* \(PlatformPreset.comment(c.summary)) (\(c.unitNote)) */")
            lines.append("  \(prefix)-\(Identifier(c.name).kebab): \(value);")
        }
        lines.append("}")
        let first = "\(prefix)-\(Identifier(set.springs[0].name).kebab)"
        lines += ["", "/* Example: */", ".\(first.dropFirst(2)) {",
                  "  transition: transform var(\(first)-duration) var(\(first)-easing);", "}"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `linear(0, 0.0123 2.5%, …, 1)`: each inner stop's progress (5 decimals) at its share of
    /// the duration (4 decimals of a percent); 0 and 1 at the ends (CSS Easing Level 2).
    public static func linear(_ easing: SpringEasing) -> String {
        let inner = easing.stops.dropFirst().dropLast().map { s in
            NumberFormat.decimals(s.progress, 5) + " " + NumberFormat.decimals(s.time / easing.duration * 100, 4) + "%"
        }
        return "linear(" + (["0"] + inner + ["1"]).joined(separator: ", ") + ")"
    }
}
