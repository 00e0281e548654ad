import Foundation
import SpringCore
import Testing
@testable import TraceIO

/// Reference §4 against the AOSP VelocityTracker recordings and their expected velocities.
@Suite struct AOSPVelocityTests {
    struct Expected { var trace: String; var strategy: String; var vx: Double?; var vy: Double? }

    static func expected() throws -> [Expected] {
        var rows: [Expected] = []
        var header: [String: Int] = [:]
        try CSVReader(path: TestData.path("aosp-velocitytracker/expected_velocities.csv")).forEachRecord { r in
            if header.isEmpty { for (i, n) in r.fields.enumerated() { header[n] = i }; return }
            rows.append(Expected(trace: r.fields[header["trace_id"]!], strategy: r.fields[header["strategy"]!],
                                 vx: Double(r.fields[header["vx_px_per_s"]!]), vy: Double(r.fields[header["vy_px_per_s"]!])))
        }
        return rows
    }

    static func traces() throws -> [String: Trace] {
        let imported = try TraceImporter.importFile(TestData.path("aosp-velocitytracker/traces.csv"), format: .csv, mapping: ImportMapping(units: .scale(1)))
        return Dictionary(uniqueKeysWithValues: imported.traces.map { ($0.id, $0) })
    }

    @Test func lsq2MatchesEveryExpectedValueToOneTenthPercent() throws {
        let traces = try Self.traces()
        let cases = try Self.expected().filter { $0.strategy == "lsq2" }
        #expect(cases.count >= 10)
        var checked = 0
        for e in cases {
            guard let trace = traces[e.trace] else { continue }  // ThreeFingerTap: multi-pointer, not a trace
            let v = VelocityEstimator.lsq2.releaseVelocity(of: trace)
            for (got, want) in [(v.x, e.vx), (v.y, e.vy)] {
                guard let want else { continue }
                #expect(abs(got - want) <= 0.001 * abs(want), "\(e.trace): lsq2 \(got) vs \(want)")
                checked += 1
            }
        }
        #expect(checked >= 20)
    }

    @Test func impulseWithinTheSourceTolerance() throws {
        let traces = try Self.traces()
        let cases = try Self.expected().filter { $0.strategy == "impulse" }
        #expect(cases.count >= 10)
        var compared = 0
        for e in cases {
            guard let trace = traces[e.trace] else { continue }  // ThreeFingerTap: multi-pointer, not a trace
            let v = VelocityEstimator.impulse.releaseVelocity(of: trace)
            for (got, want) in [(v.x, e.vx), (v.y, e.vy)] {
                guard let want else { continue }
                #expect(abs(got - want) <= 0.2 * abs(want), "\(e.trace): impulse \(got) vs \(want)")
                compared += 1
            }
        }
        // As many comparisons as lsq2 makes: a run that compared nothing (traces renamed, the
        // file unreadable as expected) fails instead of passing.
        #expect(compared >= 20)
    }
}

@Suite struct EstimatorRuleTests {
    func trace(_ points: [(Double, Double)], liftOff: Double) -> Trace {
        var s = points.enumerated().map { i, p in TouchSample(t: p.0, x: 0, y: p.1, phase: i == 0 ? .began : .moved) }
        s.append(TouchSample(t: liftOff, x: 0, y: points.last!.1, phase: .ended))
        return Trace(id: "a", samples: s)
    }

    @Test func quadraticIsRecoveredExactly() {
        // y = 3 + 200t − 900t²: dy/dt at t = 0.08 is 200 − 1800·0.08 = 56.
        let pts = stride(from: 0.0, through: 0.08, by: 0.008).map { ($0, 3 + 200 * $0 - 900 * $0 * $0) }
        let v = VelocityEstimator.lsq2.releaseVelocity(of: trace(pts, liftOff: 0.09))
        #expect(abs(v.y - 56) < 1e-8)
    }

    @Test func liftOffAfterAPauseMeansZero() {
        let pts = [(0.0, 0.0), (0.01, 10.0), (0.02, 20.0)]
        for e in VelocityEstimator.allCases {
            #expect(e.releaseVelocity(of: trace(pts, liftOff: 0.061)) == .zero)
            #expect(e.releaseVelocity(of: trace(pts, liftOff: 0.06)).y > 0)
        }
    }

    @Test func liftRowPositionIsIgnored() {
        var t = trace([(0.0, 0.0), (0.01, 10.0), (0.02, 20.0)], liftOff: 0.03)
        t.samples[3].y = 5000
        #expect(abs(VelocityEstimator.lsq2.releaseVelocity(of: t).y - 1000) < 1e-9)
        #expect(abs(VelocityEstimator.last.releaseVelocity(of: t).y - 1000) < 1e-9)
    }

    @Test func windowStopsAtGapsAndHorizon() {
        // The 50 ms gap cuts the old, fast part off: only the last two samples count.
        let pts = [(0.0, 0.0), (0.01, 100.0), (0.06, 100.0), (0.07, 110.0)]
        #expect(abs(VelocityEstimator.lsq2.releaseVelocity(of: trace(pts, liftOff: 0.07)).y - 1000) < 1e-9)
        let w = VelocityEstimator.window(ArraySlice((0..<40).map { TouchSample(t: Double($0) * 0.004, x: 0, y: 0, phase: .moved) }))
        #expect(w.count == 20)
    }

    @Test func iosWeights() {
        // Pair velocities oldest first: 100, 200, 400 pt/s → 0.6·100 + 0.35·200 + 0.05·400 = 150.
        let pts = [(0.0, 0.0), (0.01, 1.0), (0.02, 3.0), (0.03, 7.0)]
        #expect(abs(VelocityEstimator.ios.releaseVelocity(of: trace(pts, liftOff: 0.03)).y - 150) < 1e-9)
    }

    @Test func singleSampleIsZero() {
        #expect(VelocityEstimator.lsq2.releaseVelocity(of: trace([(0, 5)], liftOff: 0.01)) == .zero)
    }
}
