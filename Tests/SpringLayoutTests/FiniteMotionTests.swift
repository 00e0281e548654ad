import Foundation
import SpringCore
import Testing
@testable import SpringLayout

/// Every preset that decodes moves finitely (Reference §7, the fuzz-engine findings): the values
/// that make a model undefined are refused with their key path, absurd touches are clamped.
@Suite struct FiniteMotionTests {
    /// A preset of `model` with `spring` (a JSON object body) and `params` (JSON object body).
    static func preset(_ model: String, spring: String = #""frequency": 1.5, "damping": 0.7"#, params: String = "") throws(PresetError) -> Preset {
        let json = #"{"schema": "springtune.preset/1", "name": "t", "model": "\#(model)", "spring": {\#(spring)}, "params": {\#(params)}}"#
        return try Preset.decode(Data(json.utf8))
    }

    /// The path of the error building a model from the preset, or nil when it builds.
    static func refusal<M: InteractionModel>(_ type: M.Type, spring: String = #""frequency": 1.5, "damping": 0.7"#, params: String = "") -> String? {
        do {
            _ = try M(preset: try preset(M.modelName, spring: spring, params: params))
            return nil
        } catch {
            return error.path
        }
    }

    @Test func flickValuesThatMakeTheThrowUndefinedAreRefused() {
        // flickVelocity 0 let a card with v = 0 be thrown along v̂ = 0/0: its centre was (nan, nan).
        #expect(Self.refusal(FlickDismiss.self, params: #""flickVelocity": 0, "maxFlickAngle": 180"#) == "params.flickVelocity")
        #expect(Self.refusal(FlickDismiss.self, params: #""velocityScale": 11"#) == "params.velocityScale")
        #expect(Self.refusal(FlickDismiss.self, params: #""gravity": 1001"#) == "params.gravity")
        #expect(Self.refusal(FlickDismiss.self, params: #""flickVelocity": 1e-9, "maxFlickAngle": 180, "velocityScale": 10, "gravity": 1000"#) == nil)
    }

    @Test func springsBeyondTheEngineRangeAreRefusedWithTheirKey() {
        #expect(Self.refusal(PullToCreate.self, spring: #""frequency": 1e200, "damping": 0.8"#) == "spring.frequency")
        #expect(Self.refusal(PullToCreate.self, spring: #""frequency": 2, "damping": 1e300"#) == "spring.damping")
        #expect(Self.refusal(CardDismiss.self, spring: #""response": 0.0005, "dampingRatio": 1"#) == "spring.response")
        #expect(Self.refusal(FlowLayout.self, spring: #""stiffness": 1e12, "dampingCoefficient": 10"#) == "spring.stiffness")
        #expect(Self.refusal(FlowLayout.self, params: #""bounceStiffness": 1e9"#) == "params.bounceStiffness")
        #expect(Self.refusal(FlowLayout.self, params: #""rubberBand": 1e300"#) == "params.rubberBand")
        #expect(Self.refusal(PinchFold.self, spring: #""frequency": 1000, "damping": 1000"#) == nil)
    }

    /// A one-finger drag at 120 Hz from (100, 100) by `step` per frame for `moves` frames, then a
    /// lift at the last place.
    static func drag(step: SIMD2<Double>, moves: Int) -> [TouchSample] {
        (0...moves + 1).map { k in
            let p = SIMD2(100.0, 100) + step * Double(min(k, moves))
            return TouchSample(t: Double(k) / 120, x: p.x, y: p.y, phase: k == 0 ? .began : (k == moves + 1 ? .ended : .moved))
        }
    }

    @Test func aFingerAtAnAbsurdPlaceIsClampedToTheTraceRange() throws {
        // Reference §11: |x|, |y| ≤ 1e6 pt. A finger at 1e300 pt is taken at 1e6 pt.
        var input = TouchInput()
        input.add(TouchSample(t: 0, x: 1e300, y: -1e308, phase: .began))
        #expect(input.latest?.x == 1e6 && input.latest?.y == -1e6)
        let model = try FlickDismiss(preset: try Self.preset("flick-dismiss", params: #""velocityScale": 10, "gravity": 1000"#))
        var engine = FlickDismissEngine(model: model)
        var last = engine.frame(at: 0)
        for s in Self.drag(step: SIMD2(0, 1e306), moves: 4) {
            engine.add(s)
            last = engine.frame(at: s.t)
        }
        for k in 1...600 { last = engine.frame(at: 0.05 + Double(k) / 120) }
        #expect(last.center.x.isFinite && last.center.y.isFinite && last.velocity.y.isFinite)
        // Moved straight down: x stays at C₀.x.
        #expect(last.center.x == 195)
    }

    @Test func theStiffestSpringAnEngineRunsMovesFinitelyAndArrives() throws {
        let model = try PullToCreate(preset: try Self.preset("pull-to-create", spring: #""frequency": 1000, "damping": 1000"#))
        var engine = PullToCreateEngine(model: model)
        var height = 0.0
        for s in Self.drag(step: SIMD2(0, 1e6), moves: 2) {
            engine.add(s)
            height = engine.frame(at: s.t).height
        }
        for k in 1...120 {
            let f = engine.frame(at: 0.025 + Double(k) / 120)
            #expect(f.height.isFinite && f.velocity.isFinite)
            height = f.height
        }
        // Pulled far past the row: created, and a spring this stiff has arrived within 1 s.
        #expect(engine.decision == .create)
        #expect(abs(height - 60) < 1e-6)
    }
}
