import Foundation
import Testing
@testable import Preference

@Suite struct PreferenceSpaceTests {
    let space = try! PreferenceSpace(axes: [
        .numeric("damping", min: 0.5, max: 1.2),
        .numeric("frequency", min: 0.5, max: 4, log: true),
        .words("curve", ["easeIn", "linear", "spring"]),
    ])

    @Test func encodesToTheUnitBox() throws {
        #expect(space.dimension == 5)
        // 0.85 is halfway from 0.5 to 1.2; √(0.5·4) is halfway in log space.
        let x = try space.encode(["damping": .number(0.85), "frequency": .number(2.0.squareRoot()), "curve": .word("linear")])
        #expect(abs(x[0] - 0.5) < 1e-15 && abs(x[1] - 0.5) < 1e-15)
        #expect(Array(x[2...]) == [0, 1, 0])
    }

    @Test func roundTrips() throws {
        let values: [String: AxisValue] = ["damping": .number(0.73), "frequency": .number(3.1), "curve": .word("spring")]
        let back = space.decode(try space.encode(values))
        guard case let .number(d) = back["damping"], case let .number(f) = back["frequency"] else { Issue.record("numbers"); return }
        #expect(abs(d - 0.73) < 1e-14 && abs(f - 3.1) < 1e-14)
        #expect(back["curve"] == .word("spring"))
        #expect(space.decode([0, 1, 0, 0, 0])["frequency"] == .number(4))
    }

    /// Decoding clamps numbers to the box and snaps a word axis to its largest coordinate.
    @Test func decodeClampsAndSnaps() {
        let back = space.decode([-0.3, 1.7, 0.2, 0.1, 0.6])
        #expect(back["damping"] == .number(0.5) && back["frequency"] == .number(4) && back["curve"] == .word("spring"))
        #expect(space.snap([-0.3, 1.7, 0.2, 0.7, 0.6]) == [0, 1, 0, 1, 0])
    }

    @Test func refusesBadInput() {
        #expect(throws: PreferenceError.self) { try space.encode(["damping": .number(1)]) }
        #expect(throws: PreferenceError.self) { try space.encode(["damping": .number(1), "frequency": .number(1), "curve": .word("bouncy")]) }
        #expect(throws: PreferenceError.self) { try PreferenceSpace(axes: [.numeric("f", min: 0, max: 1, log: true)]) }
        #expect(throws: PreferenceError.self) { try PreferenceSpace(axes: [.numeric("a", min: 0, max: 1), .numeric("a", min: 0, max: 1)]) }
        #expect(throws: PreferenceError.self) { try PreferenceSpace(axes: []) }
    }
}
