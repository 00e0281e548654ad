import Testing
@testable import SpringLayout
@testable import SpringTune
import ToolRuntime
import TraceIO

/// A panel's label keeps whole parts, wraps to the lines it has, and says what it leaves out
/// (it used to drop `boundaryResistance 20` without a sign).
@Suite struct PanelLabelTests {
    let label = PanelLabel(parameters: ["boundaryResistance 20", "frequency 2.208", "damping 0.5"],
                           metrics: ["settle 1.02 s", "overshoot 0.3 pt"])

    @Test func wrapsWholeParts() {
        #expect(label.lines(width: 200, parameterLines: 3, metricLines: 1)
                == ["boundaryResistance 20 · frequency 2.208 · damping 0.5", "settle 1.02 s · overshoot 0.3 pt"])
        #expect(label.lines(width: 40, parameterLines: 3, metricLines: 2)
                == ["boundaryResistance 20 · frequency 2.208", "damping 0.5", "settle 1.02 s · overshoot 0.3 pt"])
    }

    @Test func namesWhatDoesNotFit() {
        #expect(label.lines(width: 24, parameterLines: 2, metricLines: 1)
                == ["boundaryResistance 20", "+2 more: frequency, dam…", "+2 more: settle, oversh…"])
        #expect(PanelLabel.wrap(["a 1", "b 2", "c 3"], names: ["a", "b", "c"], width: 12, maxLines: 1) == ["+3 more: a,…"])
        #expect(PanelLabel.wrap(["a 1", "b 2", "c 3"], names: ["a", "b", "c"], width: 12, maxLines: 2) == ["a 1 · b 2", "c 3"])
    }

    @Test func headingBeforeTheFirstParameter() {
        var l = label
        l.heading = "A:"
        #expect(l.text == "A: boundaryResistance 20 · frequency 2.208 · damping 0.5 · settle 1.02 s · overshoot 0.3 pt")
        #expect(l.lines(width: 200, parameterLines: 1, metricLines: 1).first == "A: boundaryResistance 20 · frequency 2.208 · damping 0.5")
    }
}

/// `replay --vs`: a name given again starts another set; more than fit side by side is refused.
@Suite struct ComparedSetsTests {
    @Test func repeatedNameStartsANewSet() throws {
        let base: [String: ParamValue] = ["damping": .number(1), "frequency": .number(2)]
        let sets = try Replay.comparedSets(base: base, vs: [("damping", .number(0.6)), ("frequency", .number(3)), ("damping", .number(0.8))])
        #expect(sets.count == 2)
        #expect(sets[0]["damping"]?.number == 0.6 && sets[0]["frequency"]?.number == 3)
        #expect(sets[1]["damping"]?.number == 0.8 && sets[1]["frequency"]?.number == 2)
        #expect(try Replay.comparedSets(base: base, vs: []).isEmpty)
        #expect(throws: ToolError.self) {
            try Replay.comparedSets(base: base, vs: [0.2, 0.4, 0.6, 0.8].map { ("damping", .number($0)) })
        }
    }
}
