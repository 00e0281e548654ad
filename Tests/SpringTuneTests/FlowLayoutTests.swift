import Foundation
import SpringCore
import Testing
@testable import SpringLayout
@testable import SpringTune
import TraceIO

@Suite struct FlowLayoutTests {
    func model(_ overrides: [String: ParamValue]) throws -> FlowLayout {
        let values = try ParameterValues.resolve(overrides, specs: FlowLayout.parameters)
        return try FlowLayout(values: values, scene: Scene())
    }

    /// The engine an app drives (and the page's WebAssembly module, Reference §15) shows the rows
    /// where the sweep's timeline does: every counted row of every frame, to 1e-9 pt, on traces
    /// spread over evernote's and messages' bundled sets (stretch and lag; flings past the edges).
    @Test(arguments: ["evernote", "messages"])
    func theEngineDrawsTheTimelinesRows(preset: String) throws {
        let loaded = try Fixture.store.load(preset)
        let traces = try PresetStore.traceFiles(for: loaded).flatMap { try TraceReader().read(path: $0).traces }
        let model = try FlowLayout(preset: loaded.preset)
        var compared = 0
        for trace in Swift.stride(from: 0, to: traces.count, by: max(1, traces.count / 12)).map({ loaded.kind.input(traces[$0]) }) {
            let record = EngineRecord(model, trace: trace)
            let rows = model.run(model.prepare(trace), timeline: true).timeline
            let t0 = trace.samples[0].t
            var frames: [Double: [Double]] = [:]
            for f in record.frames { frames[((f.t - t0) * 1e9).rounded()] = f.values }
            for row in rows {
                let values = try #require(frames[(row.t * 1e9).rounded()], "\(trace.id): no engine frame at \(row.t)")
                #expect(abs(values[row.item] - row.y) <= 1e-9 * max(1, abs(row.y)), "\(trace.id) row \(row.item) at \(row.t): \(values[row.item]) against \(row.y)")
                compared += 1
            }
        }
        #expect(compared > 10_000)
    }

    /// A pull from y = 100 down to y = 100 + pull over 0.1 s, held `hold` seconds, then lifted
    /// (more than 40 ms after the last move, so the release velocity is 0).
    func heldPull(pull: Double, hold: Double) -> Trace {
        var s = [TouchSample(t: 0, x: 200, y: 100, phase: .began)]
        for i in 1...10 { s.append(TouchSample(t: Double(i) * 0.01, x: 200, y: 100 + pull * Double(i) / 10, phase: .moved)) }
        s.append(TouchSample(t: 0.1 + hold, x: 200, y: 100 + pull, phase: .ended))
        return Trace(id: "hold", samples: s)
    }

    @Test func heldPullPastTheTopOpensEveryGapByG() throws {
        let m = try model(["boundaryResistance": .number(10)])
        let prep = m.prepare(heldPull(pull: 300, hold: 10))
        let r = prep.clock.releaseFrame
        let o = prep.offsets[r - 1]
        #expect(o < 0)
        let delta = -o, g = delta / 10
        let run = m.run(prep, timeline: true)
        let t = prep.clock.time(r - 1) - prep.clock.t0
        let rows = run.timeline.filter { abs($0.t - t) < 1e-9 }
        #expect(rows.count > 10)
        for row in rows {
            #expect(abs(row.y - (m.restingCenter(row.item) + g * Double(row.item + 1))) < 1e-6, "row \(row.item)")
        }
        // Gaps are g at rest, so the stretch metric sees g.
        #expect(abs(run.metrics[.peakStretchPt]! - g) < 1e-6)
    }

    @Test func heldPullPastTheBottomMirrors() throws {
        let m = try model(["boundaryResistance": .number(8), "initialOffset": .text("bottom")])
        let prep = m.prepare(heldPull(pull: -250, hold: 10))
        let r = prep.clock.releaseFrame
        let o = prep.offsets[r - 1], mx = m.scrollView.maxOffset
        let delta = o - mx, g = delta / 8
        #expect(delta > 0)
        let run = m.run(prep, timeline: true)
        let t = prep.clock.time(r - 1) - prep.clock.t0
        for row in run.timeline where abs(row.t - t) < 1e-9 {
            #expect(abs(row.y - (m.restingCenter(row.item) - mx - g * Double(30 - row.item))) < 1e-6)
        }
    }

    /// One row released from rest: a stiff edge bounce returns the scroll view within a frame,
    /// so the row's spring starts one frame after release from displacement g with v = 0.
    @Test func singleSpringFromRestReproducesTheClosedForm() throws {
        // ζ = 0.6, f = 1.5625 Hz: the peak at 1/(2f√(1−ζ²)) = 0.4 s falls on frame 48.
        let zeta = 0.6, f = 1.5625
        let m = try model(["itemCount": .number(1), "frequency": .number(f), "damping": .number(zeta),
                           "boundaryResistance": .number(4), "bounceStiffness": .number(1e8)])
        let prep = m.prepare(heldPull(pull: 200, hold: 10))
        let run = m.run(prep, timeline: false)
        let exact = exp(-zeta * .pi / (1 - zeta * zeta).squareRoot())
        #expect(abs(run.metrics[.overshootRatio]! - exact) < 1e-9)
        let g = -prep.offsets[prep.clock.releaseFrame] / 4
        #expect(abs(run.metrics[.overshootPt]! - g * exact) < 1e-9 * g)
        // Settle time: the continuous last band crossing, plus the frame the spring starts late.
        let motion = SpringMotion(spring: try SpringParameters(frequency: f, damping: zeta), initial: SpringState(x: g, v: 0))
        let continuous = try #require(motion.settleTime(band: 0.5))
        let frame = 1.0 / 120
        #expect(abs(run.metrics[.settleTime]! - (continuous + frame)) <= frame)
        #expect(!run.unsettled)
    }

    @Test func messagesLagBehindTheFinger() throws {
        let m = try model(["scrollResistance": .number(1000), "boundaryResistance": .number(0), "initialOffset": .text("middle"), "damping": .number(0.8)])
        var s = [TouchSample(t: 0, x: 200, y: 600, phase: .began)]
        for i in 1...20 { s.append(TouchSample(t: Double(i) * 0.008, x: 200, y: 600 - 10 * Double(i), phase: .moved)) }
        s.append(TouchSample(t: 0.17, x: 200, y: 400, phase: .ended))
        let run = m.run(m.prepare(Trace(id: "drag", samples: s)), timeline: false)
        #expect(run.metrics[.maxLagPt]! > 1)          // rows lag while touching
        #expect(run.metrics[.jiggleTime]?.isFinite == true)   // and stop jiggling within the tail
    }

    @Test func frameClockPicksTheLiftRowAtEqualTimes() {
        let t = Trace(id: "a", samples: [TouchSample(t: 1, x: 0, y: 0, phase: .began), TouchSample(t: 1.05, x: 0, y: 5, phase: .moved),
                                          TouchSample(t: 1.05, x: 0, y: 5, phase: .ended)])
        let clock = FrameClock(trace: t, scene: Scene())
        #expect(clock.releaseFrame == 6)
        #expect(clock.inputs(t).last == 2)
        #expect(clock.lastFrame == 606)
    }
}

/// A preset is checked against its model with the key path of the first problem: while decoding
/// when the decoder is given the models (the tool), else when an app builds the engine.
@Suite struct PresetModelCheckTests {
    static let text = try! String(contentsOf: Fixture.repo.appendingPathComponent("Presets/evernote.json"), encoding: .utf8)
    static let edits: [(find: String, replace: String, prefix: String)] = [
        ("\"boundaryResistance\": 10,", "\"boundaryResistance\": -1,", "params.boundaryResistance:"),
        ("\"itemCount\": 30,", "\"itemCount\": 30, \"rowColour\": 3,", "params.rowColour: unknown parameter of flow-layout"),
        ("\"itemCount\": 30,", "\"itemCount\": 30, \"damping\": 3,", "params.damping: belongs in the spring block"),
        ("{ \"name\": \"boundaryResistance\"", "{ \"name\": \"stiffness\"", "sweep[0].name: 'stiffness' is not a parameter"),
    ]

    @Test(arguments: edits.indices)
    func bothWaysNameTheKeyPath(edit: Int) throws {
        let (find, replace, prefix) = Self.edits[edit]
        let data = Data(Self.text.replacingOccurrences(of: find, with: replace).utf8)
        #expect(Self.text.contains(find))
        let decoding = #expect(throws: PresetError.self) { try Preset.decode(data, models: ModelKind.registry) }
        #expect(decoding?.description.hasPrefix(prefix) == true, "\(decoding?.description ?? "")")
        // An app decodes without the models; building the engine runs the same check.
        let preset = try JSONDecoder().decode(Preset.self, from: data)
        let building = #expect(throws: PresetError.self) { try FlowLayout(preset: preset) }
        #expect(building?.description.hasPrefix(prefix) == true, "\(building?.description ?? "")")
    }

    @Test func unknownAndOtherModelsAreNamed() throws {
        let data = Data(Self.text.replacingOccurrences(of: "\"model\": \"flow-layout\"", with: "\"model\": \"carousel\"").utf8)
        let error = #expect(throws: PresetError.self) { try Preset.decode(data, models: ModelKind.registry) }
        #expect(error?.description == "model: unknown model 'carousel' (known: \(ModelKind.names.joined(separator: ", ")))")
        let evernote = try Preset.decode(Data(Self.text.utf8), models: ModelKind.registry)
        #expect(throws: PresetError.self) { try FlickDismiss(preset: evernote) }
        #expect(try FlowLayout(preset: evernote).itemCount == 30)
    }
}
