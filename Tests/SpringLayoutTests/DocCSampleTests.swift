import Foundation
import SpringCore
import Testing
@testable import SpringLayout

// The block "A photo you flick away" of DriveAnInteractionPerFrame.md, as it is written there
// (`theSampleIsTheArticles` checks it, line for line, between the two markers).
// BEGIN PhotoGesture
/// The photo's gesture: what the pan handler and the display link call.
struct PhotoGesture {
    let model: FlickDismiss                            // "flick-dismiss" presets: tweetbot
    private(set) var engine: FlickDismissEngine?

    /// A touch at its own time (`UITouch.timestamp`, s) and place (pt). A touch that begins
    /// while the photo still moves takes it where it is shown; at rest, a fresh engine.
    mutating func touch(_ phase: TouchPhase, at t: Double, x: Double, y: Double) {
        if phase == .began {
            engine = engine?.interrupted(at: t) ?? FlickDismissEngine(model: model)
        }
        engine?.add(TouchSample(t: t, x: x, y: y, phase: phase))
    }

    /// The photo's centre at a display frame's time (s); nil before the first touch.
    mutating func center(at t: Double) -> SIMD2<Double>? {
        guard var engine else { return nil }
        let frame = engine.frame(at: t)
        self.engine = engine
        return frame.center
    }

    /// True once the photo was thrown and has left the screen.
    func isGone(at center: SIMD2<Double>) -> Bool {
        engine?.decision == .dismiss && engine?.isOnScreen(center) == false
    }
}
// END PhotoGesture

/// The DocC article's pan-handler sample (issue 38): compiled here as the article writes it, it
/// grabs a photo springing back where it is shown, within half a point, where a fresh engine
/// per touch (the sample before) jumps.
@Suite struct DocCSampleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The lines of `text` between the markers (exclusive).
    static func marked(_ text: String) -> [Substring] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let a = lines.firstIndex(of: "// BEGIN PhotoGesture"), let b = lines.firstIndex(of: "// END PhotoGesture") else { return [] }
        return Array(lines[(a + 1)..<b])
    }

    @Test func theSampleIsTheArticles() throws {
        let article = try String(contentsOf: Self.root.appendingPathComponent("Sources/SpringLayout/SpringLayout.docc/DriveAnInteractionPerFrame.md"), encoding: .utf8)
        let section = try #require(article.range(of: "## A photo you flick away"))
        let rest = article[section.upperBound...]
        let open = try #require(rest.range(of: "```swift\nimport SpringCore\nimport SpringLayout\n\n"))
        let close = try #require(rest[open.upperBound...].range(of: "```"))
        let block = rest[open.upperBound..<close.lowerBound].split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        let here = Self.marked(try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8))
        #expect(!here.isEmpty && Array(block) == here)
    }

    /// A kept flick: 10 samples at 120 Hz moving (1, −4) pt each from (200, 400), released at
    /// |D| 41 pt and 495 pt/s (under tweetbot's 60 pt and 800 pt/s); the photo springs back home
    /// with the finger's velocity. 50 ms after the lift a new touch
    /// begins: the photo shown at that time, before and after the touch, differs by ≤ 0.5 pt.
    @Test func aMovingPhotoIsGrabbedWithoutAJump() throws {
        let preset = try Preset.decode(Data(#"{"schema": "springtune.preset/1", "name": "t", "model": "flick-dismiss", "spring": {"frequency": 1.5, "damping": 0.9}, "params": {}}"#.utf8))
        let model = try FlickDismiss(preset: preset)
        func flicked() -> PhotoGesture {
            var g = PhotoGesture(model: model)
            for k in 0...10 {
                g.touch(k == 0 ? .began : k == 10 ? .ended : .moved, at: 5 + Double(k) / 120, x: 200 + Double(k), y: 400 - 4 * Double(k))
                _ = g.center(at: 5 + Double(k) / 120)
            }
            return g
        }
        let t = 5 + 10.0 / 120 + 0.05
        var g = flicked()
        let shownBefore = g.center(at: t)
        g.touch(.began, at: t, x: 100, y: 600)
        let shownAfter = g.center(at: t)
        let before = try #require(shownBefore), after = try #require(shownAfter)
        #expect(g.engine?.decision == nil)
        #expect(Self.distance(after - before) <= 0.5, "jumped \(Self.distance(after - before)) pt")
        // A fresh engine on the same touch shows the photo where a gesture from rest begins.
        var reset = PhotoGesture(model: model)
        reset.touch(.began, at: t, x: 100, y: 600)
        let shownFresh = reset.center(at: t)
        let fresh = try #require(shownFresh)
        #expect(Self.distance(fresh - before) > 5)
    }

    /// |v| (pt).
    static func distance(_ v: SIMD2<Double>) -> Double { (v * v).sum().squareRoot() }
}
