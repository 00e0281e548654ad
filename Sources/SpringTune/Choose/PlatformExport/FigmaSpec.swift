import SpringCore
import SpringLayout

/// `export --format figma` (Reference §10.4): JSON with each spring in the terms of Figma's
/// custom spring (mass 1, stiffness k = ω², damping c = 2ζω) and every other parameter with its
/// value and unit, for pasting into Figma's prototype settings by hand or by a plugin.
public struct FigmaSpec: Sendable, Encodable {
    public struct Spring: Sendable, Encodable {
        public var name: String
        public var mass: Double, stiffness: Double, damping: Double
    }

    public var name: String, model: String, source: String
    public var springs: [Spring]
    public var constants: [PlatformPreset.Constant]

    public init(_ set: PlatformPreset) {
        let n = { (x: Double) in Double(PlatformPreset.number(x)) ?? x }
        (name, model, source) = (set.name, set.model, set.source)
        springs = set.springs.map { Spring(name: $0.name, mass: 1, stiffness: n($0.spring.stiffness()), damping: n($0.spring.dampingCoefficient())) }
        constants = set.constants
    }

    public var text: String { get throws { try JSONCoding.encode(self) } }
}
