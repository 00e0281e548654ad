import Foundation
import SpringCore
import Testing
@testable import SpringLayout

/// The engines in an app's types (Reference §7.9): conversions that keep signs, the preset's
/// springs by name, and the relative velocity UIKit and SwiftUI take.
@Suite struct AppShapesTests {
    static func bundled(_ name: String) throws -> Preset {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Presets/\(name).json")
        return try Preset.decode(try Data(contentsOf: url))
    }

    @Test func conversionsKeepValuesAndSigns() {
        let p = CGPoint(SIMD2(12.5, -3))
        #expect(p.x == 12.5 && p.y == -3)
        #expect(SIMD2<Double>(p) == SIMD2(12.5, -3))
        let r = CGRect(Rect(x: 1, y: 2, width: 30, height: -40))
        #expect(r.origin.x == 1 && r.origin.y == 2 && r.size.width == 30 && r.size.height == -40)
        let v = FrameVelocity(x: 5, y: 6, width: -70, height: -80)
        #expect(v.origin == CGPoint(x: 5, y: 6) && v.size.width == -70 && v.size.height == -80)
        let s = TouchSample(t: 0.25, location: CGPoint(x: 7, y: 8), phase: .moved, pointer: 1)
        #expect(s == TouchSample(t: 0.25, x: 7, y: 8, phase: .moved, pointer: 1))
    }

    /// A card dragged down shrinks: its size rate stays negative through the app's type.
    @Test func aShrinkingCardsSizeRateIsNegative() throws {
        var e = CardDismissEngine(model: try CardDismiss(preset: try DragVelocityTests.preset("card-dismiss")))
        for k in 0...5 { e.add(DragVelocityTests.sample(k, start: SIMD2(200, 300), step: SIMD2(0, 4))) }
        let size = e.frame(at: 5.0 / 120).velocity.size
        #expect(size.width < 0 && size.height < 0)
    }

    @Test func presetSpringsByName() throws {
        let tweetbot = try Self.bundled("tweetbot")
        let springs = try tweetbot.springs(for: FlickDismiss.self)
        #expect(Array(springs.keys) == ["snap"])
        #expect(springs["snap"] == (try FlickDismiss(preset: tweetbot)).snap)
        let evernote = try Self.bundled("evernote")
        let flow = try evernote.springs(for: FlowLayout.self)
        #expect(Set(flow.keys) == ["spring", "bounce"])
        #expect(flow["spring"] == (try FlowLayout(preset: evernote)).spring)
        #expect(throws: PresetError.self) { _ = try tweetbot.springs(for: FlowLayout.self) }
    }

    /// UIKit's relative initial velocity: v / distance; a throw at 600 pt/s over 300 pt is 2/s.
    @Test func relativeVelocity() {
        #expect(SpringParameters.relativeVelocity(600, from: 100, to: 400) == 2)
        #expect(SpringParameters.relativeVelocity(-600, from: 100, to: 400) == -2)
        #expect(SpringParameters.relativeVelocity(600, from: 100, to: 100) == 0)
    }
}
