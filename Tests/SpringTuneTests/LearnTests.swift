import Foundation
import Preference
import SpringCore
import Testing
@testable import SpringLayout
@testable import SpringTune
import ToolRuntime

/// A preset's preference space (Reference §12) and the bench's summaries.
@Suite struct LearnTests {
    let axes = [
        SweepAxis(name: "boundaryResistance", values: [6, 8, 10, 12, 14]),
        try! SweepAxis(name: "frequency", from: 0.5, to: 4, steps: 16, log: true),
        SweepAxis(name: "completionCurve", values: [.text("linear"), .text("easeInOut"), .text("spring")]),
        SweepAxis(name: "damping", values: [0.8, 0.8]),
    ]

    @Test func axesBecomeTheSpace() throws {
        let learned = try PresetPreferenceSpace(axes: axes)
        #expect(learned.space.axes.map(\.name) == ["boundaryResistance", "frequency", "completionCurve"])
        #expect(learned.space.axes[0].kind == .numeric(min: 6, max: 14, log: false))
        #expect(learned.space.axes[1].kind == .numeric(min: 0.5, max: 4, log: true))
        #expect(learned.space.dimension == 5)
        #expect(learned.fixed == ["damping": .number(0.8)])
    }

    /// The box's centre is resistance 10 and frequency √(0.5·4) = √2 (typed to 12 digits, so it reads
    /// back within 1e-11); a point's parameters read back to it.
    @Test func pointsBecomeParameters() throws {
        let learned = try PresetPreferenceSpace(axes: axes)
        let p = learned.parameters([0.5, 0.5, 0, 0.2, 0.9])
        #expect(p["boundaryResistance"] == .number(10))
        #expect(p["frequency"] == .number(NumberFormat.typed(2.0.squareRoot())))
        #expect(p["completionCurve"] == .text("spring") && p["damping"] == .number(0.8))
        let x = try learned.point(p)
        #expect(abs(x[0] - 0.5) < 1e-12 && abs(x[1] - 0.5) < 1e-11 && Array(x[2...]) == [0, 0, 1])
    }

    @Test func nothingToLearnIsADataError() {
        #expect(throws: ToolError(.dataError, "no sweep axis with two or more values to learn a preference over")) {
            try PresetPreferenceSpace(axes: [SweepAxis(name: "damping", values: [0.8])])
        }
    }

    @Test func benchSummaries() {
        #expect(PreferenceBench.median([3, 1, 2]) == 2 && PreferenceBench.median([4, 1, 2, 3]) == 2.5)
        #expect(PreferenceBench.checkpoints(rounds: 12) == [5, 10])
        let runs = (0..<3).map { PreferenceBench.Run(seed: UInt64($0), model: Array(repeating: 0.9 + 0.03 * Double($0), count: 20),
                                                    random: Array(repeating: 0.5, count: 20)) }
        let table = PreferenceBench.table(runs, rounds: 20)
        #expect(table.contains("median    0.930     0.930     0.930     0.500      0.500      0.500"))
        #expect(table.hasSuffix("seeds at ≥ 0.95 after round 20: model 1 of 3, random 0 of 3\n"))
    }
}
