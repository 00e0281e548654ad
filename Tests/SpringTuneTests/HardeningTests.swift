import Foundation
import SpringCore
import SpringLayout
import Testing
@testable import SpringTune
import ToolRuntime
import TraceIO

/// Issue 27: numbers and objectives that used to trap or pass unchecked.
@Suite struct HardeningTests {
    @Test func intClampingNeverTraps() {
        #expect(Int(clamping: .nan, to: 32...2000) == 32)
        #expect(Int(clamping: .infinity, to: 32...2000) == 2000)
        #expect(Int(clamping: -.infinity, to: 0...Int.max) == 0)
        #expect(Int(clamping: 1e300, to: 0...Int.max) == Int.max)
        #expect(Int(clamping: 99.9, to: 0...1000) == 99)
    }

    /// The reproducers of issue 27 item 1: each spring is analysed (no trap). A ζ of 1e-300
    /// would need ~1e300 half periods to settle: reported as never settling.
    @Test(arguments: [(1.0, 1e-300), (1e308, 0.5), (1.0, 1e-320), (1e-300, 0.5), (1, 5e-324)])
    func extremeSpringsSettleOrNot(frequency: Double, damping: Double) throws {
        let spring = try SpringParameters(frequency: frequency, damping: damping)
        let motion = SpringMotion(spring: spring, initial: SpringState(x: 1, v: 0))
        let settle = motion.settleTime(band: 0.005)
        if damping < 1e-100 { #expect(settle == nil) }
        _ = SpringEasing(spring: spring, band: 0.005)
    }

    /// Found by fuzz-spring: ζ 7.1e-15 at 1.48e188 Hz with v₀ = 1 walked back 1e14 extrema
    /// (a hang); the settle time is now the envelope's band crossing ln(a/band)/(ζω).
    @Test func slowEnvelopeSettlesAtTheEnvelopeTime() throws {
        let spring = try SpringParameters(frequency: 1.479028100317311e+188, damping: 7.10700945635362e-15)
        let motion = SpringMotion(spring: spring, initial: SpringState(x: 1, v: 1))
        let settle = try #require(motion.settleTime(band: 0.005))
        let envelope = log(motion.amplitudeBound / 0.005) / (spring.damping * spring.omega)
        #expect(abs(settle - envelope) <= 64 * .pi / spring.omega)
    }

    /// The objective of evernote.json replaced by `json`, decoded as the command line does.
    func decodeEvernote(objective json: String) throws -> PresetError? {
        var text = try String(contentsOfFile: try #require(PresetStore().presetsDirectory).appendingPathComponent("evernote.json").path, encoding: .utf8)
        let start = try #require(text.range(of: "\"objective\""))
        let end = try #require(text[start.upperBound...].range(of: "}"))
        text.replaceSubrange(start.lowerBound..<end.upperBound, with: "\"objective\": {\(json)}")
        do {
            _ = try Preset.decode(Data(text.utf8), models: ModelKind.registry, reportColumns: ModelKind.reportColumnsByModel)
            return nil
        } catch { return error }
    }

    /// A constraint's value must be a finite number; `worstOver` must name an axis a sweep can
    /// vary: both refused when the preset loads, at their key path.
    @Test(arguments: [(#""constraints":["overshoot_pt_p95 <= nan"],"minimize":"settle_time_p95""#, "objective.constraints[0]"),
                      (#""constraints":["overshoot_pt_p95 >= inf"],"minimize":"settle_time_p95""#, "objective.constraints[0]"),
                      (#""constraints":["overshoot_pt_p95"],"minimize":"settle_time_p95""#, "objective.constraints[0]"),
                      (#""minimize":"settle_time_p95","worstOver":["frameRate","nope"]"#, "objective.worstOver[1]")])
    func badObjectivesFailAtLoad(json: String, path: String) throws {
        let error = try #require(try decodeEvernote(objective: json))
        #expect(error.path == path)
        #expect(try decodeEvernote(objective: #""minimize":"settle_time_p95","worstOver":["frameRate"]"#) == nil)
    }

    /// A scene value takes one range in a preset and in `--set`/`--vary` (``Scene/sweepable``):
    /// a height of 0.5 pt passed in a preset and was refused by `--set height=0.5`.
    @Test(arguments: [("height", 0.5), ("width", 0.5), ("frameRate", 0.5), ("tail", 601.0)])
    func sceneRangesAreTheSweepRanges(name: String, value: Double) throws {
        let json = Data(#"{"\#(name)": \#(value)}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Scene.self, from: json) }
        let spec = try #require(Scene.sweepable.first { $0.name == name })
        #expect(spec.check(.number(value)) != nil)
        #expect(throws: Never.self) { try JSONDecoder().decode(Scene.self, from: Data(#"{"\#(name)": 1}"#.utf8)) }
    }

    /// Every command that runs a scene refuses the same scene values (issue 39: `replay --set
    /// frameRate=nan` trapped, `=0` and `=-1` never ended, `=2000` ran): the check is in
    /// ``Scene/applying(_:)``, which replay, sweep, search, the studio and export all use.
    @Test(arguments: [("frameRate", Double.nan), ("frameRate", .infinity), ("frameRate", 1e308), ("frameRate", 0), ("frameRate", -0.0),
                      ("frameRate", -1), ("frameRate", 2000), ("width", .nan), ("height", 1e308), ("tail", .nan), ("tail", -1)])
    func everyCommandRefusesABadSceneValue(name: String, value: Double) throws {
        let loaded = try Fixture.store.load("tweetbot")
        let trace = try TraceReader().read(path: PresetStore.traceFiles(for: loaded)[0]).traces[0]
        let error = try #require(throws: ToolError.self) { try Replay.run(loaded, set: [name: .number(value)], trace: trace) }
        #expect(error.message.hasPrefix("\(name): ") && error.message.contains("out of range"))
        #expect(throws: PresetError.self) { try loaded.preset.scene.applying([name: .number(value)]) }
        #expect(throws: ToolError.self) { try SweepGrid.make(preset: loaded.preset, kind: loaded.kind, vary: [], set: [name: .number(value)]) }
    }

    /// Found by a sweep with `--set duration=1e-300` (evernote-transition): velocity jumps near
    /// 1e300 overflowed the variance, the shares were NaN and gnuplot failed on `nan`.
    @Test func importanceSharesAreScaleFreeUpToDoubleMax() {
        let levels = [[0, 0, 1, 1], [0, 1, 0, 1]]
        let small = Importance.decompose("m", [1, 2, 4, 5], levels: levels)
        let huge = Importance.decompose("m", [1e300, 2e300, 4e300, 5e300], levels: levels)
        #expect(small.shares.compactMap { $0 } == [0.9, 0.1])   // main effects 9/4 and 1/4 of V = 10/4
        for (a, b) in zip(small.shares, huge.shares) { #expect(abs(a! - b!) < 1e-12) }
        #expect(huge.variance == .infinity)
    }
}

