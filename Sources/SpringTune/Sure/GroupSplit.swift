import Preference
import SpringCore
import ToolRuntime
import TraceIO

/// Which groups a choice is made on and which it is checked on (Reference §14): a held-out
/// fraction or named groups (one split), or K folds (each group held out once).
///
/// The groups are taken in sorted order and shuffled by Fisher–Yates with SplitMix64 seeded by
/// `seed ^ 0x4F1D_5EED`; a fraction holds out the first round(fraction · G) of them (at least 1,
/// at most G − 1), and fold k holds out the shuffled groups at positions k, k + K, k + 2K, …
public struct GroupSplit: Sendable, Equatable {
    /// What the command line asked for.
    public enum Request: Sendable, Equatable {
        case fraction(Double)
        case groups([String])
        case folds(Int)
    }

    /// The groups choosing and the groups checking, each sorted.
    public var tuning: [String]
    public var heldOut: [String]

    /// The splits `request` makes of `groups` (one, or K for folds). A group that does not exist,
    /// a split that leaves no group on one side, or more folds than groups is a usage error (64).
    public static func make(_ request: Request, groups: [String], seed: UInt64) throws -> [GroupSplit] {
        let all = Array(Set(groups)).sorted()
        guard all.count >= 2 else {
            throw ToolError(.usage, "the traces have \(all.count) group: holding out needs at least 2 (a `group` column names who made each trace)")
        }
        var shuffled = all
        var rng = Preference.SplitMix64(seed: seed ^ 0x4F1D_5EED)
        for i in stride(from: shuffled.count - 1, to: 0, by: -1) {
            let j = Int(UInt64(i + 1).multipliedFullWidth(by: rng.next()).high)
            shuffled.swapAt(i, j)
        }
        func split(_ out: Set<String>) -> GroupSplit {
            GroupSplit(tuning: all.filter { !out.contains($0) }, heldOut: all.filter { out.contains($0) })
        }
        switch request {
        case let .fraction(f):
            let k = min(max(Int((f * Double(all.count)).rounded()), 1), all.count - 1)
            return [split(Set(shuffled.prefix(k)))]
        case let .groups(given):
            let known = Set(all)
            // Each value is a group's name, or names separated by commas.
            let names = given.flatMap { known.contains($0) ? [$0] : $0.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) } }
            if let bad = names.first(where: { !known.contains($0) }) {
                throw ToolError(.usage, "--holdout-groups: no group '\(Echo.cut(bad))' in the traces (groups: \(Echo.list(all).joined(separator: ", ")))")
            }
            guard Set(names).count < all.count else { throw ToolError(.usage, "--holdout-groups holds out every group: none is left to choose on") }
            return [split(Set(names))]
        case let .folds(k):
            guard k >= 2, k <= all.count else {
                throw ToolError(.usage, "--folds \(k): the traces have \(all.count) groups; give 2 to \(min(all.count, 1000)) folds")
            }
            return (0..<k).map { fold in split(Set(stride(from: fold, to: shuffled.count, by: k).map { shuffled[$0] })) }
        }
    }
}
