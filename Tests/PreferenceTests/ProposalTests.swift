import Foundation
import Testing
@testable import Preference

@Suite struct ProposalTests {
    let space = try! PreferenceSpace(axes: [.numeric("a", min: 0, max: 1), .numeric("b", min: 1, max: 100, log: true),
                                            .words("w", ["x", "y"])])

    func someData() -> PreferenceData {
        var data = PreferenceData()
        var rng = SplitMix64(seed: 3)
        for _ in 0..<6 {
            let shown = (0..<4).map { _ in data.add(point: space.snap((0..<space.dimension).map { _ in rng.unit() })) }
            // The designer likes a high first coordinate.
            let worst = shown.min { data.points[$0][0] < data.points[$1][0] }!
            data.record(shown: shown, answer: .worst(worst))
        }
        return data
    }

    @Test func sameSeedSameProposals() throws {
        let model = try PreferenceModel.fit(someData(), space: space)
        let a = try Proposal.next(k: 4, model: model, seed: 42)
        let b = try Proposal.next(k: 4, model: model, seed: 42)
        #expect(a == b && a.count == 4)
        #expect(Set(a.map(\.x)).count == 4)
        #expect(try Proposal.next(k: 4, model: model, seed: 43).map(\.x) != a.map(\.x))
    }

    /// The feasibility test may be costly (the studio measures the candidate): a proposal asks it
    /// about each point once, and about few points.
    @Test func feasibilityIsAskedSparingly() throws {
        let model = try PreferenceModel.fit(someData(), space: space)
        final class Asked: @unchecked Sendable { var points: [[Double]] = [] }
        let asked = Asked()
        _ = try Proposal.next(k: 4, model: model, seed: 8, feasible: { asked.points.append($0); return true })
        #expect(asked.points.count < 100, "\(asked.points.count) calls")
        #expect(Set(asked.points).count == asked.points.count)
    }

    /// The first candidate is the best estimate; every candidate is a point of the space (word axes one-hot).
    @Test func firstIsTheBestAndAllAreSnapped() throws {
        let model = try PreferenceModel.fit(someData(), space: space)
        let next = try Proposal.next(k: 3, model: model, seed: 1)
        let best = model.best(pool: Proposal.pool(space: space, seed: 1))!
        #expect(next[0].x == best.x)
        #expect(next[0].x[0] > 0.5)
        for c in next { #expect(space.snap(c.x) == c.x) }
    }

    /// The designer prefers a high first coordinate, but only a < 0.3 is feasible: no candidate
    /// (and no best) ever leaves the feasible part.
    @Test func feasibilityIsRespected() throws {
        let model = try PreferenceModel.fit(someData(), space: space)
        for seed in 0..<5 as Range<UInt64> {
            let next = try Proposal.next(k: 6, model: model, seed: seed, feasible: { $0[0] < 0.3 && $0[3] == 1 })
            #expect(next.count == 6)
            #expect(next.allSatisfy { $0.x[0] < 0.3 && $0.x[3] == 1 })
        }
        #expect(throws: PreferenceError.self) { try Proposal.next(k: 4, model: model, seed: 0, feasible: { _ in false }) }
        // Feasible only in a corner few pool points reach: still six candidates, all in it.
        let corner = try Proposal.next(k: 6, model: model, seed: 0, feasible: { $0[0] > 0.9 && $0[1] < 0.1 })
        #expect(corner.count == 6 && corner.allSatisfy { $0.x[0] > 0.9 && $0.x[1] < 0.1 })
        #expect(throws: PreferenceError.self) { try Proposal.next(k: 7, model: model, seed: 0) }
    }
}

/// The acceptance of Reference §12 on a 3-axis space: simulated worst-of-four designers reach a
/// scaled utility ≥ 0.95 within 20 rounds for at least 8 of 10 seeds, and the model's median
/// beats random proposals' median (`springtune bench --preference` prints the full table).
@Suite struct ConvergenceTests {
    @Test func simulatedDesignersConverge() throws {
        let space = try PreferenceSpace(axes: [.numeric("a", min: 0, max: 1), .numeric("b", min: 0.5, max: 4, log: true), .numeric("c", min: 6, max: 14)])
        var model: [Double] = [], random: [Double] = []
        for seed in 0..<10 as Range<UInt64> {
            model.append(try SimulatedDesigner.run(space: space, rounds: 20, seed: seed, strategy: .model).scores[19])
            random.append(try SimulatedDesigner.run(space: space, rounds: 20, seed: seed, strategy: .random).scores[19])
        }
        #expect(model.filter { $0 >= 0.95 }.count >= 8, "\(model)")
        #expect(model.sorted()[5] > random.sorted()[5], "model \(model), random \(random)")
    }

    @Test func theDesignerIsScaledAndNoisy() {
        let designer = SimulatedDesigner(dimension: 3, seed: 9)
        #expect(designer.utility(designer.optimum) == 1)
        let corners = (0..<8).map { c in (0..<3).map { Double((c >> $0) & 1) } }
        #expect(abs(corners.map(designer.utility).min()!) < 1e-12)
        var rng = SplitMix64(seed: 1)
        let near = designer.optimum.map { $0 + 0.01 }, far = [0.0, 0.0, 0.0]
        let picks = (0..<200).map { _ in designer.worst(of: [near, far], using: &rng) }
        #expect(picks.filter { $0 == 1 }.count > 190)
    }
}
