import Foundation
import Testing
import SpringCore
import SpringLayout
@testable import SpringTune
import ToolRuntime
import TraceIO

/// How sure (Reference §14): the cluster bootstrap against exact and closed-form numbers, the
/// statistics against the report's own aggregates, splits, sure verdicts and groups in files.
@Suite struct ClusterBootstrapTests {
    /// Four groups' traces (values per group), few enough that all 4⁴ = 256 ordered draws of the
    /// groups can be enumerated: the exact bootstrap distribution.
    static let groups: [[Double]] = [[1.0, 2.0, 9.0], [3.0], [4.0, 4.5], [0.5, 7.0, 8.0, 2.5]]

    static func statistic(_ kind: String) -> GroupStatistic {
        let g = groups.count
        switch kind {
        case "mean":
            return .ratio(numerator: groups.map { $0.reduce(0, +) }, denominator: groups.map { Double($0.count) })
        default:
            var sorted: [(value: Double, group: Int)] = []
            for (i, values) in groups.enumerated() { for v in values { sorted.append((v, i)) } }
            sorted.sort { $0.value != $1.value ? $0.value < $1.value : $0.group < $1.group }
            return .rank(q: kind == "p95" ? 0.95 : nil, sorted: sorted, perGroup: (0..<g).map { Double(groups[$0].count) })
        }
    }

    /// The statistic computed the plain way: concatenate the drawn groups' traces.
    static func direct(_ kind: String, draw: [Int]) -> Double {
        let values = draw.flatMap { groups[$0] }
        switch kind {
        case "mean": return values.reduce(0, +) / Double(values.count)
        case "p95": return Aggregate.summary(values).p95!
        default: return values.max()!
        }
    }

    /// Every ordered draw of 4 groups from 4, each with probability 1/256.
    static var draws: [[Int]] {
        (0..<256).map { n in (0..<4).map { (n >> (2 * $0)) & 3 } }
    }

    @Test(arguments: ["mean", "p95", "max"])
    func weightsGiveTheStatisticOfTheConcatenatedTraces(_ kind: String) {
        let s = Self.statistic(kind)
        for draw in Self.draws {
            var w = [Double](repeating: 0, count: 4)
            for g in draw { w[g] += 1 }
            let got = s.value(w)!, want = Self.direct(kind, draw: draw)
            #expect(abs(got - want) <= 1e-12 * max(1, abs(want)), "\(kind) \(draw): \(got) vs \(want)")
        }
    }

    /// The B-resample quantiles land where the exact distribution puts the 2.5 % and 97.5 %
    /// points, within the resampling error: P(X < lo) ≤ p + δ and P(X ≤ lo) ≥ p − δ, with
    /// δ = 4·√(p(1−p)/B) (four standard errors of an empirical quantile's level).
    @Test(arguments: ["mean", "p95", "max"])
    func quantilesMatchTheEnumeratedBootstrap(_ kind: String) {
        let exact = Self.draws.map { Self.direct(kind, draw: $0) }
        let b = 4000
        let dist = ClusterBootstrap(resamples: b, seed: 7).distributions([Self.statistic(kind)], groups: 4)[0]
        #expect(dist.sorted.count == b)
        for p in [0.025, 0.975] {
            let q = dist.quantile(p)!
            let below = Double(exact.filter { $0 < q - 1e-12 }.count) / 256, atOrBelow = Double(exact.filter { $0 <= q + 1e-12 }.count) / 256
            let delta = 4 * (p * (1 - p) / Double(b)).squareRoot()
            #expect(below <= p + delta, "\(kind) p \(p): P(X < \(q)) = \(below)")
            #expect(atOrBelow >= p - delta, "\(kind) p \(p): P(X ≤ \(q)) = \(atOrBelow)")
        }
    }

    /// A rate over one-trace groups is a binomial proportion: its percentile interval agrees
    /// with Wilson's score interval of the same count to within 0.02 (both approximate the same
    /// binomial; at n = 200, p = 0.1 they differ by about 0.005).
    @Test(arguments: [(20, 200), (60, 200), (5, 120)])
    func aRateOverOneTraceGroupsIsNearWilson(_ k: Int, _ n: Int) {
        let num = (0..<n).map { $0 < k ? 1.0 : 0.0 }
        let dist = ClusterBootstrap(resamples: 4000, seed: 3).distributions([.ratio(numerator: num, denominator: [Double](repeating: 1, count: n))], groups: n)[0]
        let (lo, hi) = dist.interval()!
        let p = Double(k) / Double(n), z = 1.959963984540054, nn = Double(n)
        let centre = (p + z * z / (2 * nn)) / (1 + z * z / nn)
        let half = z / (1 + z * z / nn) * (p * (1 - p) / nn + z * z / (4 * nn * nn)).squareRoot()
        #expect(abs(lo - (centre - half)) <= 0.02, "lo \(lo) vs Wilson \(centre - half)")
        #expect(abs(hi - (centre + half)) <= 0.02, "hi \(hi) vs Wilson \(centre + half)")
    }

    @Test func resamplesAreSeededAndIndependentOfOrder() {
        let a = ClusterBootstrap(resamples: 50, seed: 11), b = ClusterBootstrap(resamples: 50, seed: 12)
        #expect(a.weights(17, groups: 9) == a.weights(17, groups: 9))
        #expect(a.weights(17, groups: 9) != b.weights(17, groups: 9))
        #expect(a.weights(3, groups: 9).reduce(0, +) == 9)
        let s = Self.statistic("mean")
        #expect(a.distributions([s], groups: 4) == a.distributions([s], groups: 4))
    }
}

@Suite struct SureChoiceTests {
    static func tweetbot() throws -> (PresetStore.Loaded, TraceSource) {
        let loaded = try PresetStore().load("tweetbot")
        let traces = try TraceSource(files: PresetStore.traceFiles(for: loaded), kind: loaded.kind, skipInvalid: false, scene: loaded.preset.scene)
        return (loaded, traces)
    }

    /// With every group weighted once, each statistic is the report's own aggregate.
    @Test func unitWeightsGiveTheReportRow() throws {
        let (loaded, traces) = try Self.tweetbot()
        let set = try MeasuredSet.measure(kind: loaded.kind, scene: loaded.preset.scene, values: loaded.kind.values(of: loaded.preset), traces: traces, threads: 2)
        #expect(set.groups.count == 15)
        let ones = [Double](repeating: 1, count: set.groups.count)
        #expect(!set.intervalColumns.isEmpty)
        for column in set.intervalColumns {
            let want = set.value(column), got = set.statistic(column)!.value(ones).map { MetricValue(measured: $0).number! }
            if let want, want.isFinite { #expect(abs(got! - want) <= 1e-9 * max(1, abs(want)), "\(column): \(got!) vs \(want)") } else { #expect(got == want, "\(column)") }
        }
        // Per group, the traces of each group add up to the whole set.
        let per = PerGroup(set, ranking: try Ranking(objective: loaded.preset.objective))
        #expect(per.rows.map(\.traces).reduce(0, +) == 242)
        #expect(per.csv.split(separator: "\n").count == 16)
    }

    @Test func sureVerdictsUseOneSidedBoundsAndSayHowManyMore() throws {
        // 10 groups of 10 traces, 1 in 10 positive: the rate is 0.1.
        let num = [Double](repeating: 1, count: 10), den = [Double](repeating: 10, count: 10)
        var dist = ClusterBootstrap(resamples: 1000, seed: 1).distributions([.ratio(numerator: num, denominator: den)], groups: 10)[0]
        // Equal groups: every resample gives 0.1.
        #expect(dist.sorted.allSatisfy { abs($0 - 0.1) < 1e-12 })
        dist = BootstrapDistribution(sorted: (0..<100).map { 0.05 + Double($0) * 0.001 }, resamples: 100)
        let interval = Interval(column: "false_dismiss_rate", value: 0.1, lo: 0.05, hi: 0.149, traces: 100, groups: 10, distribution: dist)
        let loose = SureVerdict(try Constraint(parsing: "false_dismiss_rate <= 0.2"), interval, confidence: 0.9)
        #expect(loose.met)
        #expect(abs(loose.bound! - 0.139) < 1e-12)
        let tight = SureVerdict(try Constraint(parsing: "false_dismiss_rate <= 0.12"), interval, confidence: 0.9)
        #expect(!tight.met)
        // The bound's distance 0.039 must shrink to the room 0.02: n' = 10·(0.039/0.02)² = 38.0…, 29 more groups.
        #expect(tight.moreGroups == 29)
        #expect(tight.moreTraces == 290)
        let cannot = SureVerdict(try Constraint(parsing: "false_dismiss_rate <= 0.08"), interval, confidence: 0.9)
        #expect(!cannot.met && cannot.moreGroups == nil && cannot.text.contains("cannot"))
        let lower = SureVerdict(try Constraint(parsing: "false_dismiss_rate >= 0.06"), interval, confidence: 0.9)
        #expect(abs(lower.bound! - 0.059) < 1e-12 && !lower.met)
    }

    @Test func splitsHoldOutGroupsBySeed() throws {
        let groups = (0..<10).map { "g\($0)" }
        let half = try GroupSplit.make(.fraction(0.5), groups: groups + groups, seed: 1)
        #expect(half.count == 1 && half[0].heldOut.count == 5 && half[0].tuning.count == 5)
        #expect(Set(half[0].heldOut).isDisjoint(with: half[0].tuning))
        #expect(try GroupSplit.make(.fraction(0.5), groups: groups, seed: 1) == half)
        #expect(try GroupSplit.make(.fraction(0.5), groups: groups, seed: 2) != half)
        let folds = try GroupSplit.make(.folds(3), groups: groups, seed: 1)
        #expect(folds.count == 3)
        #expect(folds.flatMap(\.heldOut).sorted() == groups.sorted())
        #expect(try GroupSplit.make(.groups(["g3"]), groups: groups, seed: 0)[0].heldOut == ["g3"])
        for bad: GroupSplit.Request in [.groups(["nobody"]), .folds(11), .folds(1), .groups(groups)] {
            #expect(throws: ToolError.self) { try GroupSplit.make(bad, groups: groups, seed: 0) }
        }
        #expect(throws: ToolError.self) { try GroupSplit.make(.fraction(0.5), groups: ["only"], seed: 0) }
    }

    @Test func anObjectiveTakesAConfidenceInRange() throws {
        let ok = try JSONDecoder().decode(Objective.self, from: Data(#"{"constraints": [], "confidence": 0.9}"#.utf8))
        #expect(ok.confidence == 0.9)
        #expect(try Ranking(objective: ok).confidence == 0.9)
        for bad in ["1.2", "0.3", "\"high\""] {
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(Objective.self, from: Data(#"{"constraints": [], "confidence": \#(bad)}"#.utf8)) }
        }
    }
}

@Suite struct TraceGroupTests {
    func write(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "groups-\(UUID().uuidString).csv"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func theGroupColumnIsReadKeptAndWritten() throws {
        let path = try write("trace,t,x,y,phase,group\na,0,0,0,began,ann\na,0.1,1,0,ended,ann\nb,0,0,0,began,\nb,0.1,1,0,ended,\n")
        let (traces, report) = try TraceReader().read(path: path)
        #expect(report.unknownColumns.isEmpty)
        #expect(traces.map(\.group) == ["ann", nil])
        let again = try write(TraceWriter.csv(traces))
        #expect(try TraceReader().read(path: again).traces == traces)
        let source = try TraceSource(files: [path], kind: try ModelKind(name: "flick-dismiss"), skipInvalid: false, scene: Scene())
        #expect(source.tags.map(\.group) == ["ann", "b"])   // without a group, a trace is its own
        let only = try TraceSource(files: [path], kind: try ModelKind(name: "flick-dismiss"), skipInvalid: false, scene: Scene(), groups: ["ann"])
        #expect(only.tags.map(\.id) == ["a"])
    }

    @Test func aGroupThatChangesWithinATraceIsAnErrorAtItsCell() throws {
        let path = try write("trace,t,x,y,phase,group\na,0,0,0,began,ann\na,0.1,1,0,ended,bob\n")
        #expect { try TraceReader().read(path: path) } throws: { error in
            (error as? ToolError)?.message.contains(":3:") == true && (error as? ToolError)?.message.contains("group changes") == true
        }
    }

    @Test func groupWordsAreCleanedAndBounded() {
        #expect(TraceReader.groupWord("a\u{7}b") == "ab")
        #expect(TraceReader.groupWord(String(repeating: "é", count: 300)).utf8.count <= TraceReader.maxGroupBytes)
    }
}
