import Foundation
import SpringCore
import Testing
@testable import SpringLayout
@testable import SpringTune
import ToolRuntime
import TraceIO

/// `export --format`: the platform forms of a preset's springs and parameters (Reference §10.4).
@Suite struct PlatformExportTests {
    /// A bundled preset with its main spring replaced.
    static func preset(_ name: String, _ spring: SpringParameters? = nil) throws -> Preset {
        var preset = try Fixture.store.load(name).preset
        if let spring { preset.spring = .typed(spring) }
        return preset
    }

    @Test func identifiersFromNames() {
        #expect(Identifier("clear-fold").upperCamel == "ClearFold")
        #expect(Identifier("clear-fold").lowerCamel == "clearFold")
        #expect(Identifier("flickVelocity").kebab == "flick-velocity")
        #expect(Identifier("snap").upperCamel == "Snap")
        #expect(Identifier("2 fast").upperCamel == "_2Fast")
        #expect(Identifier("évé").kebab == "v")
        #expect(Identifier("").upperCamel == "Preset" && Identifier("").kebab == "preset")
        // Names an exported file could not declare (issue 39): no ASCII word, a keyword, a type the file uses.
        for (name, type) in [("_", "Preset"), ("-", "Preset"), ("日本", "Preset"), ("self", "SelfPreset"), ("Self", "SelfPreset"),
                             ("Any", "AnyPreset"), ("spring", "SpringPreset"), ("animation", "AnimationPreset"), ("Spring-2", "Spring2")] {
            #expect(Identifier(name).upperCamel == type, "\(name)")
        }
    }

    /// flow-layout has two springs (the cells' and the scroll view's bounce); the rest are constants.
    @Test func everySpringOfTheModelIsNamed() throws {
        let set = try PlatformPreset(preset: Self.preset("evernote"))
        #expect(set.springs.map(\.name) == ["spring", "bounce"])
        let bounce = set.springs[1].spring, values = set.constants.map(\.name)
        #expect(abs(bounce.stiffness() - 100) < 1e-9 && abs(bounce.damping - 1) < 1e-12)
        #expect(!values.contains("frequency") && !values.contains("bounceStiffness") && values.contains("boundaryResistance"))
        #expect(set.constants.first { $0.name == "decelerationRate" }?.unit == "per ms")
        let tweetbot = try PlatformPreset(preset: Self.preset("tweetbot"))
        #expect(tweetbot.springs.map(\.name) == ["snap"])
        #expect(tweetbot.constants.first { $0.name == "flickVelocity" }?.unit == "pt/s")
    }

    @Test func swiftFormsWriteTheDocumentedNumbers() throws {
        let set = try PlatformPreset(preset: Self.preset("tweetbot", SpringParameters(duration: 0.5, bounce: 0.3)))
        let swiftUI = SwiftSource(set, framework: .swiftUI).text
        #expect(swiftUI.contains("enum Tweetbot {"))
        #expect(swiftUI.contains("static let snap = Spring(duration: 0.5, bounce: 0.3)"))
        #expect(swiftUI.contains("static let snapAnimation = Animation.spring(response: 0.5, dampingRatio: 0.7)"))
        #expect(swiftUI.contains("static let flickVelocity: Double = 800"))
        #expect(swiftUI.contains("static func snapAnimation(initialVelocity: Double) -> Animation {\n        .interpolatingSpring(mass: 1, stiffness: 157.914, damping: 17.5929, initialVelocity: initialVelocity)"))
        // Over-damped: response and ζ, no negative bounce (its SwiftUI meaning is unpublished).
        let over = SwiftSource(try PlatformPreset(preset: Self.preset("tweetbot", SpringParameters(frequency: 2, damping: 1.5))), framework: .swiftUI).text
        #expect(over.contains("static let snap = Spring(response: 0.5, dampingRatio: 1.5)") && !over.contains("bounce:"))
        let uiKit = SwiftSource(set, framework: .uiKit).text
        #expect(uiKit.contains("UISpringTimingParameters(mass: 1, stiffness: 157.914, damping: 17.5929, initialVelocity: initialVelocity)"))
    }

    @Test func composeNamesTheNearestMaterialToken() throws {
        let token = try SpringParameters(stiffness: 380, dampingCoefficient: 2 * 0.8 * 380.0.squareRoot())
        let kotlin = KotlinSource(try PlatformPreset(preset: Self.preset("tweetbot", token))).text
        #expect(kotlin.contains("const val snapDampingRatio = 0.8f") && kotlin.contains("const val snapStiffness = 380f"))
        #expect(kotlin.contains("fun <T> snapSpec(): SpringSpec<T> = spring(dampingRatio = snapDampingRatio, stiffness = snapStiffness)"))
        // A spring named `spring` must not hide Compose's spring() inside the object.
        #expect(KotlinSource(try PlatformPreset(preset: Self.preset("evernote"))).text.contains("fun <T> springSpec(): SpringSpec<T> = spring(dampingRatio = springDampingRatio"))
        #expect(kotlin.contains("Nearest Material 3 token: Expressive spatial default"))
        #expect(kotlin.contains("distance 0 in"))
        #expect(kotlin.contains("suspend fun Animatable<Float, AnimationVector1D>.animateSnapTo(target: Float, initialVelocity: Float) =\n        animateTo(target, snapSpec(), initialVelocity)"))
        #expect(kotlin.contains("const val distanceThreshold = 60f"))
    }

    @Test func cssEasingAndFigmaSprings() throws {
        let set = try PlatformPreset(preset: Self.preset("evernote"), travel: 300)
        #expect(abs(set.band - 0.5 / 300) < 1e-15)
        let css = try CSSSource(set).text
        let easing = try #require(css.split(separator: "\n").first { $0.contains("--evernote-spring-easing:") })
        let inner = easing.split(separator: "(")[1].split(separator: ")")[0]
        // Stops "progress share%": progress rising (ζ = 1), shares rising from 0 to 100.
        let stops = inner.split(separator: ",").map { $0.split(separator: " ").map { Double($0.trimmingCharacters(in: CharacterSet(charactersIn: "%"))) ?? .nan } }
        let points = stops.map { $0[0] }, shares = [0] + stops.dropFirst().dropLast().map { $0.count == 2 ? $0[1] : .nan } + [100]
        #expect(points.first == 0 && points.last == 1 && zip(points, points.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(zip(shares, shares.dropFirst()).allSatisfy { $0 < $1 })
        #expect(css.contains("--evernote-boundary-resistance: 10;") && css.contains("--evernote-bounce-duration:"))
        #expect(css.contains("transition: transform var(--evernote-spring-duration) var(--evernote-spring-easing);"))
        struct Figma: Decodable { struct Spring: Decodable { var name: String, mass: Double, stiffness: Double, damping: Double }; var springs: [Spring] }
        let springs = try JSONDecoder().decode(Figma.self, from: Data(FigmaSpec(set).text.utf8)).springs
        #expect(springs.map(\.name) == ["spring", "bounce"])
        #expect(springs[1].mass == 1 && springs[1].stiffness == 100 && springs[1].damping == 20)
        #expect(throws: ToolError.self) { try PlatformPreset(preset: Self.preset("evernote"), travel: 0.5) }
    }
}
