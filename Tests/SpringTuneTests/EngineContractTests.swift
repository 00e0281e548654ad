import Foundation
import SpringCore
import Testing
@testable import SpringLayout
@testable import SpringTune
import TraceIO

/// The contract every model's per-frame engine keeps (``TouchEngine``), checked for every model
/// of the registry on its bundled preset and real traces, so a new model is covered as soon as it
/// is registered: frames carry only finite numbers, the engine an app drives decides as the
/// sweep's measurement does, and a grab shows the motion where it was.
@Suite struct EngineContractTests {
    /// Every registered model with its first bundled preset.
    static let models: [String] = ModelKind.names

    /// The first bundled preset of `model`, and up to `count` of its traces spread over the set.
    static func fixture(_ model: String, count: Int = 24) throws -> (PresetStore.Loaded, [Trace]) {
        let name = try #require(try Fixture.store.names().first { try Fixture.store.load($0).kind.name == model },
                                "model \(model) has no bundled preset")
        let loaded = try Fixture.store.load(name)
        let traces = try PresetStore.traceFiles(for: loaded).flatMap { try TraceReader().read(path: $0).traces }
        let stride = max(1, traces.count / count)
        return (loaded, Swift.stride(from: 0, to: traces.count, by: stride).map { loaded.kind.input(traces[$0]) })
    }

    @Test(arguments: models)
    func engineKeepsTheContractOnRealTraces(model: String) throws {
        let (loaded, traces) = try Self.fixture(model)
        #expect(traces.count >= 4)
        try check(loaded.kind.type, loaded: loaded, traces: traces)
    }

    /// Drives `M`'s engine through each trace as the sweep feeds it (samples by frame time, one
    /// frame per display frame to 0.5 s past the release) and checks the contract.
    func check<M: MeasuredModel>(_ type: M.Type, loaded: PresetStore.Loaded, traces: [Trace]) throws {
        let model = try M(preset: loaded.preset)
        for trace in traces {
            var feed = TraceFeed(trace: trace, scene: model.scene)
            let clock = feed.clock
            var engine = M.Engine(model: model)
            let last = clock.releaseFrame + Int(0.5 * clock.frameRate)
            // A grab 0.1 s after the release, in frame order: the grabbed engine shows the motion where it was.
            let grabFrame = clock.releaseFrame + Int(0.1 * clock.frameRate)
            var shown: [Double] = [], after: [Double] = []
            for k in 0...last {
                feed.samples(upTo: k).forEach { engine.add($0) }
                let frame = engine.frame(at: clock.time(k))
                let finite = frame.values.allSatisfy { $0.isFinite }
                #expect(finite, "\(M.modelName): frame \(k) of \(trace.id)")
                #expect(frame.shown.count <= frame.values.count && Array(frame.values.prefix(frame.shown.count)) == frame.shown)
                if k == grabFrame {
                    var grabbed = engine.interrupted(at: clock.time(k))
                    if let touch = trace.samples.first { grabbed.add(TouchSample(t: clock.time(k), x: touch.x, y: touch.y, phase: .began)) }
                    (shown, after) = (frame.shown, grabbed.frame(at: clock.time(k)).shown)
                }
            }
            // The engine an app drives decides as the measurement does.
            let measured = model.run(model.prepare(trace), timeline: false)
            #expect(engine.decision == measured.decision, "\(M.modelName): \(trace.id)")
            if M.decisionLabels.isEmpty { #expect(engine.decision == nil) } else { #expect(engine.decision != nil) }
            #expect(!shown.isEmpty && shown.count == after.count)
            for (a, b) in zip(shown, after) { #expect(abs(a - b) <= 0.5, "\(M.modelName): the grab of \(trace.id) moved \(a) to \(b)") }
        }
    }
}

/// ``FlowLayoutTouchEngine`` grabbed farther past an edge than the rubber band reaches (where a
/// fast release's bounce can carry the list): the grab keeps the offset shown, and the list then
/// eases back to its edge instead of staying out of bounds (the driver's raw offset cannot
/// express such an offset; a constant shift kept it there for good).
@Suite struct FlowLayoutTouchEngineTests {
    @Test(arguments: [2.0, 1.0, -1.5])
    func aListHeldPastTheRubberBandsReachEasesBack(viewports: Double) throws {
        let model = try FlowLayout(preset: try Fixture.store.load("evernote").preset)
        let view = model.scrollView, edge = viewports > 0 ? view.maxOffset : 0
        let start = edge + viewports * view.viewportHeight
        var e = FlowLayoutTouchEngine(model: model, offset: start)
        e.add(TouchSample(t: 0, x: 200, y: 400, phase: .began))
        #expect(abs(e.frame(at: 0).offset - start) < 1e-6)
        e.add(TouchSample(t: 0.1, x: 200, y: 400, phase: .moved))
        e.add(TouchSample(t: 0.2, x: 200, y: 400, phase: .ended))
        var last = e.frame(at: 0.2)
        for k in 1...600 { last = e.frame(at: 0.2 + Double(k) / 120) }
        #expect(abs(last.offset - edge) <= 0.5, "after 5 s the offset is \(last.offset), the edge \(edge)")
        #expect(last.values.allSatisfy { $0.isFinite })
    }
}
