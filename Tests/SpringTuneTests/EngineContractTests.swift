import Foundation
import SpringCore
import Testing
@testable import SpringLayout
@testable import SpringTune
import TraceIO

/// The contract every model's per-frame engine keeps (``TouchEngine``), checked for every model
/// of the registry on its bundled preset, so a new model is covered as soon as it is registered:
/// on real traces, frames carry only finite numbers, the engine an app drives decides as the
/// sweep's measurement does, and a grab shows the motion where it was; on a steady gesture made
/// from one of its traces, the rate each frame presents is the rate of what it presents (issue
/// 28: the frame-to-frame change while the finger drags, the motion's own rate after the
/// release), a finger held still presents none, and a grab moves nothing and then follows the
/// new finger. Which of a frame's numbers are rates of which the frame type says
/// (`FrameRates`, internal to SpringLayout); a frame type that does not say fails here.
@Suite struct EngineContractTests {
    /// Every registered model.
    static let models: [String] = ModelKind.names

    /// The models whose frames are not a map of the finger: `flow-layout`'s rows chase their
    /// anchors on springs while the finger drags, and the scroll carries them (boundary stretch
    /// pins the overscrolled part, scroll lag a share) without a spring velocity, so the rate a
    /// frame presents for a row is its spring's, dpᵢ/dt (`FlowLayoutEngine.velocities`): the rate
    /// of its content position pᵢ over a time the offset holds still, not its change from frame
    /// to frame nor its rate while the scroll moves. For these, every rate check is made against
    /// that rate, probed between samples (no new sample: the offset holds, only the springs move):
    /// while dragging, held still, and after a grab (the scroll stops, the springs go on) instead
    /// of after the release (the release scroll carries the rows); and a grab's follow is checked
    /// mid-drag, where the springs' state carries over, not after the release.
    static let springDriven: Set<String> = [FlowLayout.modelName]

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

    // MARK: The rates a frame presents, on a steady gesture

    /// While a finger drags at a constant rate, each rate a frame presents (from frame 3 on, once
    /// the §4 estimator has its samples) is the frame-to-frame change of its number × the frame
    /// rate, to 1e-6 pt/s (an independent finite difference, exact for a map linear in the
    /// finger), the same at every frame, and something moves.
    @Test(arguments: models)
    func dragVelocityIsTheFrameToFrameChange(model: String) throws {
        let (m, gesture) = try Self.steady(model)
        try dragVelocity(m, gesture, springDriven: Self.springDriven.contains(model))
    }

    func dragVelocity<M: InteractionModel>(_ model: M, _ g: SteadyGesture, springDriven: Bool) throws {
        var engine = M.Engine(model: model)
        var previous: [Rate] = [], atFrame3: [Rate] = []
        for k in 0...SteadyGesture.lastDrag {
            g.samples(k).forEach { engine.add($0) }
            let now = try Self.rates(engine.frame(at: g.time(k)))
            if springDriven {
                Self.expectProbed(engine, at: g.time(k), now, "\(M.modelName): frame \(k)")
            } else if k >= 3 {
                if k == 3 { atFrame3 = now }
                for (i, (r, (p, r3))) in zip(now, zip(previous, atFrame3)).enumerated() {
                    let difference = (r.value - p.value) * g.frameRate
                    #expect(abs(r.rate - difference) < 1e-6, "\(M.modelName): frame \(k), rate \(i): \(r.rate) presented, \(difference) by the frames")
                    #expect(abs(r.rate - r3.rate) < 1e-6, "\(M.modelName): frame \(k), rate \(i): \(r.rate), \(r3.rate) at frame 3")
                }
            }
            previous = now
        }
        #expect(previous.contains { abs($0.rate) > 1 }, "\(M.modelName): the steady drag presents no rate")
    }

    /// From the frame that sees the lift to 0.5 s after it, each rate a frame presents is the rate
    /// of the motion that follows: the one-sided difference of its number over copies of the
    /// engine drawn 10 µs and 20 µs later (the release spring, throw or curve starts as fast as
    /// the frame says it moves).
    @Test(arguments: models)
    func velocityFromTheReleaseIsTheMotionsRate(model: String) throws {
        let (m, gesture) = try Self.steady(model)
        try releaseVelocity(m, gesture, springDriven: Self.springDriven.contains(model))
    }

    func releaseVelocity<M: InteractionModel>(_ model: M, _ g: SteadyGesture, springDriven: Bool) throws {
        var engine = M.Engine(model: model)
        let lift = SteadyGesture.lastDrag + 1
        for k in 0...lift + Int(0.5 * g.frameRate) {
            if k <= lift { g.samples(k).forEach { engine.add($0) } }
            let now = try Self.rates(engine.frame(at: g.time(k)))
            // The release scroll carries the rows without a spring velocity (``springDriven``):
            // their rates are probed after a grab instead (``aGrabAfterTheReleaseMovesNothingThenFollowsTheFinger``).
            if k >= lift && !springDriven { Self.expectProbed(engine, at: g.time(k), now, "\(M.modelName): frame \(k)") }
        }
        if !M.decisionLabels.isEmpty { #expect(engine.decision != nil, "\(M.modelName): decided at the lift") }
    }

    /// A finger that has sent no sample for 50 ms (> the 40 ms rule of Reference §4) is still:
    /// the frame presents no rate, and shows what it showed at the finger's last sample.
    @Test(arguments: models)
    func fingerHeldStillPresentsNoVelocity(model: String) throws {
        let (m, gesture) = try Self.steady(model)
        try heldStill(m, gesture, springDriven: Self.springDriven.contains(model))
    }

    func heldStill<M: InteractionModel>(_ model: M, _ g: SteadyGesture, springDriven: Bool) throws {
        var engine = M.Engine(model: model)
        var last: [Rate] = []
        for k in 0...SteadyGesture.lastDrag {
            g.samples(k).forEach { engine.add($0) }
            last = try Self.rates(engine.frame(at: g.time(k)))
        }
        #expect(last.contains { abs($0.rate) > 1 }, "\(M.modelName): moving before it is held")
        let t = g.time(SteadyGesture.lastDrag) + 0.05
        let held = try Self.rates(engine.frame(at: t))
        // The rows' springs go on under a still finger: their rate is probed (``springDriven``).
        if springDriven { return Self.expectProbed(engine, at: t, held, "\(M.modelName): held") }
        for (i, (r, before)) in zip(held, last).enumerated() {
            #expect(r.rate == 0, "\(M.modelName): rate \(i) is \(r.rate) under a still finger")
            #expect(abs(r.value - before.value) < 1e-9, "\(M.modelName): value \(i) moved from \(before.value) to \(r.value)")
        }
    }

    // MARK: Grabs, on a steady gesture

    /// A grab at frame 5 of the drag, then a finger 60 pt to the right making the rest of the
    /// gesture's moves: what the grabbed engine shows is, frame by frame, what the engine it
    /// grabbed shows as its own finger goes on (to 1e-6 pt), the grab's frame included.
    @Test(arguments: models)
    func aGrabMidDragGoesOnAsTheGestureWould(model: String) throws {
        let (m, gesture) = try Self.steady(model)
        try grabMidDrag(m, gesture)
    }

    func grabMidDrag<M: InteractionModel>(_ model: M, _ g: SteadyGesture) throws {
        let grab = 5
        var engine = M.Engine(model: model)
        var grabbed: M.Engine?
        for k in 0...SteadyGesture.lastDrag {
            g.samples(k).forEach { engine.add($0) }
            let shown = engine.frame(at: g.time(k)).shown
            if k == grab { grabbed = engine.interrupted(at: g.time(k)) }
            guard var next = grabbed else { continue }
            g.samples(k, from: grab, shift: SIMD2(60, 0)).forEach { next.add($0) }
            let after = next.frame(at: g.time(k)).shown
            grabbed = next
            #expect(after.count == shown.count)
            for (i, (a, b)) in zip(after, shown).enumerated() {
                #expect(abs(a - b) < 1e-6, "\(M.modelName): frame \(k), value \(i): \(a) grabbed, \(b) not")
            }
        }
    }

    /// Grabs 50 ms and 150 ms after the release, mid-flight, by a finger 60 pt to the right of
    /// where the gesture began: in the grab's frame nothing moves by more than 0.5 pt (Reference
    /// §7.8); held there, each rate is the rate of what is shown (what the grab kept fades on the
    /// model's spring); and a finger making the gesture's first moves moves what is shown by what
    /// those moves do to an engine at rest (to 1e-6 pt; not for ``springDriven`` models, whose
    /// rows take a move on over their springs: their follow is checked mid-drag).
    @Test(arguments: models)
    func aGrabAfterTheReleaseMovesNothingThenFollowsTheFinger(model: String) throws {
        let (m, gesture) = try Self.steady(model)
        try grabAfterRelease(m, gesture, springDriven: Self.springDriven.contains(model))
    }

    func grabAfterRelease<M: InteractionModel>(_ model: M, _ g: SteadyGesture, springDriven: Bool) throws {
        let lift = SteadyGesture.lastDrag + 1, moves = 5
        var fresh = M.Engine(model: model)
        let rest = (0...moves).map { k in
            g.samples(k).forEach { fresh.add($0) }
            return fresh.frame(at: g.time(k)).shown
        }
        for delay in [0.05, 0.15] {
            let grab = lift + Int((delay * g.frameRate).rounded())
            var first = M.Engine(model: model)
            for k in 0...grab {
                if k <= lift { g.samples(k).forEach { first.add($0) } }
                _ = first.frame(at: g.time(k))
            }
            let t0 = g.time(grab)
            var playing = first
            let before = playing.frame(at: t0)
            #expect(try Self.rates(before).contains { abs($0.rate) > 1 }, "\(M.modelName): mid-flight \(delay) s after the release")
            var (moved, still) = (first.interrupted(at: t0), first.interrupted(at: t0))
            for j in 0...moves {
                let t = t0 + g.time(j)
                if j == 0 { g.samples(0, shift: SIMD2(60, 0)).forEach { still.add($0.at(t)) } }
                g.samples(j, shift: SIMD2(60, 0)).forEach { moved.add($0.at(t)) }
                let (a, b) = (moved.frame(at: t), still.frame(at: t))
                let held = try Self.rates(b)
                Self.expectProbed(still, at: t, held, "\(M.modelName): held \(j) frames after a grab \(delay) s after the release")
                if j == 0 {
                    for (i, (x, y)) in zip(a.shown, before.shown).enumerated() {
                        #expect(abs(x - y) <= 0.5, "\(M.modelName): the grab \(delay) s after the release moved value \(i) from \(y) to \(x)")
                    }
                }
                guard !springDriven else { continue }
                for (i, ((x, y), (r, r0))) in zip(zip(a.shown, b.shown), zip(rest[j], rest[0])).enumerated() {
                    #expect(abs((x - y) - (r - r0)) < 1e-6, "\(M.modelName): \(j) moves after a grab \(delay) s after the release moved value \(i) by \(x - y), from rest by \(r - r0)")
                }
            }
        }
    }

    // MARK: The gesture and the rates

    typealias Rate = (value: Double, rate: Double)

    /// `model`'s bundled preset as a model, and a steady gesture made from the first of its
    /// traces whose gesture moves what the engine shows by more than 1 pt over the frames the
    /// drag check reads (for ``springDriven`` models, whose rates are the springs': one that moves
    /// a spring faster than 1 pt/s by then; a list scrolled within its bounds moves none).
    static func steady(_ name: String) throws -> (any InteractionModel, SteadyGesture) {
        let (loaded, traces) = try fixture(name)
        let model = try loaded.kind.type.init(preset: loaded.preset)
        func moves<M: InteractionModel>(_ model: M, _ g: SteadyGesture) -> Bool {
            var engine = M.Engine(model: model)
            let frames = (0...SteadyGesture.lastDrag).map { k in
                g.samples(k).forEach { engine.add($0) }
                return engine.frame(at: g.time(k))
            }
            let (early, late) = (frames[3], frames[SteadyGesture.lastDrag])
            if springDriven.contains(name) { return (try? rates(late))?.contains { abs($0.rate) > 1 } == true }
            return zip(early.shown, late.shown).contains { abs($0 - $1) > 1 }
        }
        for trace in traces {
            let g = SteadyGesture(trace: trace, frameRate: loaded.preset.scene.frameRate)
            if moves(model, g) { return (model, g) }
        }
        throw ContractError("\(name): no trace of its bundled preset gives a steady gesture that moves it")
    }

    /// The rates `frame` presents beside their numbers; a frame type that does not say which
    /// they are fails (conform it to `FrameRates` beside its model).
    static func rates<F: EngineFrame>(_ frame: F) throws -> [Rate] {
        guard let frame = frame as? any FrameRates else {
            throw ContractError("\(F.self) does not say which of its numbers are rates: conform it to FrameRates")
        }
        let rates = frame.rates
        #expect(!rates.isEmpty && rates.allSatisfy { $0.value.isFinite && $0.rate.isFinite })
        return rates
    }

    /// Each rate of `now`, `engine`'s frame at t, against the rate of its number probed on copies
    /// of the engine drawn at t + h and t + 2h, h = 10 µs, with no new sample:
    /// (−3x(t) + 4x(t + h) − x(t + 2h))/2h, to 1e-4·max(1, |rate|) pt/s (second order: the
    /// bundled presets' springs and curves come within 2e-6 of that; a wrong rate is off by a
    /// whole pt/s or more).
    static func expectProbed<E: TouchEngine>(_ engine: E, at t: Double, _ now: [Rate], _ context: @autoclosure () -> String) {
        let h = 1e-5
        var (a, b) = (engine, engine)
        guard let x1 = try? rates(a.frame(at: t + h)), let x2 = try? rates(b.frame(at: t + 2 * h)) else { return }
        #expect(x1.count == now.count && x2.count == now.count)
        for (i, (r, (v1, v2))) in zip(now, zip(x1, x2)).enumerated() {
            let probed = (-3 * r.value + 4 * v1.value - v2.value) / (2 * h)
            #expect(abs(r.rate - probed) <= 1e-4 * max(1, abs(r.rate)), "\(context()), rate \(i): \(r.rate) presented, \(probed) probed")
        }
    }

    struct ContractError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

/// A gesture at a constant rate made from a real trace of a model: each finger the model reads
/// starts where it started in the trace and moves 1 pt a display frame (120 pt/s at 120 Hz)
/// along its own net direction there, one sample per frame at t = k/F, all fingers lifting
/// together at frame ``lastDrag`` + 1. Slow and short enough (11 pt) that no model decides
/// while it drags (a card commits only 100 pt down), each stays where its map of the finger is
/// linear, and what it releases stays there too when a grab moves it 5 pt more.
struct SteadyGesture {
    /// The last frame the fingers move at.
    static let lastDrag = 10
    /// A pointer, where it starts and its move per frame (pt).
    let fingers: [(pointer: Int, start: SIMD2<Double>, step: SIMD2<Double>)]
    /// Display frames per second F.
    let frameRate: Double

    init(trace: Trace, frameRate: Double) {
        self.frameRate = frameRate
        fingers = trace.pointers.map { pointer in
            let samples = trace.samples.filter { $0.pointer == pointer }
            let (a, b) = (samples.first!, samples.last!)
            let d = SIMD2(b.x - a.x, b.y - a.y), length = (d * d).sum().squareRoot()
            return (pointer, SIMD2(a.x, a.y), length > 0 ? d / length : SIMD2(0, 1))
        }
    }

    /// The time of frame k (s).
    func time(_ k: Int) -> Double { Double(k) / frameRate }

    /// Every finger's sample at frame k, `shift` from its place, touching down at frame `first`
    /// (earlier frames give none) and lifting at ``lastDrag`` + 1.
    func samples(_ k: Int, from first: Int = 0, shift: SIMD2<Double> = .zero) -> [TouchSample] {
        guard k >= first else { return [] }
        return fingers.map { f in
            let p = f.start + shift + f.step * Double(k)
            return TouchSample(t: time(k), x: p.x, y: p.y, phase: k == first ? .began : (k == Self.lastDrag + 1 ? .ended : .moved), pointer: f.pointer)
        }
    }
}

extension TouchSample {
    /// The sample at time t.
    func at(_ t: Double) -> TouchSample { TouchSample(t: t, x: x, y: y, phase: phase, pointer: pointer) }
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
