import Dispatch
import Foundation
import Preference
import SpringCore

/// The seeded cluster bootstrap of Reference §14: resample `G` groups with replacement, `B`
/// times, and recompute a report column from the resampled traces. A resample is a weight per
/// group (how often it was drawn), so a column's statistic is computed from per-group sums
/// without copying traces.
///
/// Resample `b` draws its groups from its own generator, SplitMix64 seeded with
/// `seed ^ (b + 1) · φ64` (φ64 = 0x9E3779B97F4A7C15), each index by the high word of a 64×64-bit
/// product (Lemire's method, bias below 2⁻⁵⁰ for a few thousand groups). Nothing depends on the
/// order resamples are computed in, so the bytes are the same for any thread count.
public struct ClusterBootstrap: Sendable, Equatable {
    /// Resamples (B), 1000 by default.
    public var resamples: Int
    public var seed: UInt64

    public static let defaultResamples = 1000

    public init(resamples: Int = ClusterBootstrap.defaultResamples, seed: UInt64 = 0) {
        self.resamples = resamples; self.seed = seed
    }

    /// The group weights of resample `b` over `groups` groups (counts that add up to `groups`).
    public func weights(_ b: Int, groups: Int) -> [Double] {
        var rng = Preference.SplitMix64(seed: seed ^ (UInt64(b + 1) &* 0x9E37_79B9_7F4A_7C15))
        var w = [Double](repeating: 0, count: groups)
        for _ in 0..<groups { w[Int(UInt64(groups).multipliedFullWidth(by: rng.next()).high)] += 1 }
        return w
    }

    /// The bootstrap distribution of each statistic: its defined values over the B resamples,
    /// sorted. Statistics share the resamples (so differences and joint verdicts are paired).
    /// Resamples are computed on every core, each stored by its index, so the result is the
    /// same for any number of cores.
    public func distributions(_ statistics: [GroupStatistic], groups: Int) -> [BootstrapDistribution] {
        let k = statistics.count, count = resamples
        let buffer = UnsafeMutableBufferPointer<Double>.allocate(capacity: count * k)
        buffer.initialize(repeating: .nan)
        defer { buffer.deallocate() }
        nonisolated(unsafe) let shared = buffer
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, count))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for b in stride(from: worker, to: count, by: workers) {
                let w = weights(b, groups: groups)
                for (i, s) in statistics.enumerated() { shared[b * k + i] = s.value(w) ?? .nan }
            }
        }
        return (0..<k).map { i in
            let defined = (0..<count).map { buffer[$0 * k + i] }.filter { !$0.isNaN }
            return BootstrapDistribution(sorted: defined.sorted(), resamples: count)
        }
    }
}

/// The values a statistic took over the resamples where it was defined, sorted.
public struct BootstrapDistribution: Sendable, Equatable {
    public var sorted: [Double]
    /// Resamples drawn (the undefined ones are missing from ``sorted``).
    public var resamples: Int

    public init(sorted: [Double], resamples: Int) { self.sorted = sorted; self.resamples = resamples }

    /// The nearest-rank `p` quantile (the ⌈p·n⌉-th smallest of the n defined values), nil when
    /// no resample defined it. p·n is taken less 1e-9 before rounding up, so that a level such
    /// as (1 − 0.95)/2 = 0.025000000000000022 gives rank 25 of 1000, not 26.
    public func quantile(_ p: Double) -> Double? {
        guard !sorted.isEmpty else { return nil }
        let rank = Int((p * Double(sorted.count) - 1e-9).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    /// The two-sided interval at `level` (0.95: the 2.5 % and 97.5 % quantiles).
    public func interval(_ level: Double = 0.95) -> (lo: Double, hi: Double)? {
        guard let lo = quantile((1 - level) / 2), let hi = quantile(1 - (1 - level) / 2) else { return nil }
        return (lo, hi)
    }
}

/// A report column as a function of group weights (Reference §8.3's aggregates over the
/// traces of weighted groups): each group's traces count `w[g]` times.
public indirect enum GroupStatistic: Sendable {
    /// `b − a` over the same weights: a paired difference (nil when either is undefined or
    /// both are the same infinity).
    case difference(GroupStatistic, GroupStatistic)
    /// Σ w·sum / Σ w·count: a `_mean` (over finite values) or a rate (numerators over denominators).
    case ratio(numerator: [Double], denominator: [Double])
    /// Σ w·count: a count of traces such as `unsettled`, out of the group sizes `of`.
    case sum([Double], of: [Double])
    /// The nearest-rank quantile `q` of the values (⌈q·m⌉-th smallest of m weighted values), or
    /// with `q` nil their maximum: values sorted ascending with their groups.
    case rank(q: Double?, sorted: [(value: Double, group: Int)], perGroup: [Double])

    /// The traces each group adds to the statistic (a rate's denominator, a metric's defined
    /// values; a difference's first side).
    public var counts: [Double] {
        switch self {
        case let .difference(a, _): a.counts
        case let .ratio(_, den): den
        case let .sum(_, of): of
        case let .rank(_, _, perGroup): perGroup
        }
    }

    public func value(_ w: [Double]) -> Double? {
        switch self {
        case let .difference(a, b):
            guard let x = a.value(w), let y = b.value(w) else { return nil }
            let d = y - x
            return d.isNaN ? nil : d
        case let .ratio(num, den):
            var n = 0.0, d = 0.0
            for g in w.indices where w[g] != 0 { n += w[g] * num[g]; d += w[g] * den[g] }
            return d > 0 ? n / d : nil
        case let .sum(counts, _):
            var n = 0.0
            for g in w.indices where w[g] != 0 { n += w[g] * counts[g] }
            return n
        case let .rank(q, sorted, perGroup):
            guard let q else { return sorted.last { w[$0.group] > 0 }?.value }
            var m = 0.0
            for g in w.indices { m += w[g] * perGroup[g] }
            guard m > 0 else { return nil }
            let rank = max((q * m).rounded(.up), 1)
            var seen = 0.0
            for entry in sorted {
                seen += w[entry.group]
                if seen >= rank { return entry.value }
            }
            return sorted.last?.value
        }
    }
}
