import Foundation
import SpringCore
import SpringLayout
import TraceIO

/// How sure a report's best sets are (Reference §14): the top-ranked sets measured again trace
/// by trace (a handful of sets, beside the grid's thousands) and bootstrapped over groups; the
/// chosen set — the best, or with a confidence the best whose constraints are sure — with its
/// verdicts and, when asked, per group. `sweep`, `merge` and `search` write `intervals.csv` from it.
public struct BestIntervals: Sendable {
    /// Every interval column of the top sets (and the chosen set), in rank order.
    public var sets: [SetIntervals]
    /// The chosen set, nil when no set is eligible (or, with a confidence, none is sure).
    public var chosen: HowSure?
    /// The best-ranked set when it is not the chosen one (it was not sure).
    public var best: HowSure?
    /// Ranked sets checked for sureness before the chosen one (or all checked, when none is).
    public var checked: Int
    public var bootstrap: ClusterBootstrap
    public var groups: Int

    /// Below this many groups a bootstrap over them says little (with 4 groups there are only
    /// 35 distinct resamples): the output says so.
    public static let fewGroups = 10

    /// Sets checked for sure constraints, best first, before giving up.
    public static let maxChecked = 40

    /// `ranked` best first; `measure` runs one row's set trace by trace. The chosen set is the
    /// first ranked, or with a confidence the first of the best ``maxChecked`` that is sure.
    public init(ranked: [SweepReport.Row], top: Int, ranking: Ranking, bootstrap: ClusterBootstrap,
                measure: @escaping (SweepReport.Row) throws -> MeasuredSet) throws {
        var cache = MeasuredSets(measure: measure)
        var chosen: HowSure?, first: HowSure?, checked = 0
        for row in ranked.prefix(ranking.confidence == nil ? 1 : Self.maxChecked) {
            let sure = HowSure(try cache.set(row), ranking: ranking, bootstrap: bootstrap)
            checked += 1
            if first == nil { first = sure }
            if ranking.confidence == nil || sure.isSure { chosen = sure; break }
        }
        try self.init(chosen: chosen, first: first, checked: checked, ranked: ranked, top: top, bootstrap: bootstrap, cache: &cache)
    }

    /// With the choice already made (`chosen`, and `first`, the best-ranked set checked).
    public init(chosen: HowSure?, first: HowSure?, checked: Int, ranked: [SweepReport.Row], top: Int, bootstrap: ClusterBootstrap,
                cache: inout MeasuredSets) throws {
        self.bootstrap = bootstrap
        self.chosen = chosen
        best = first.flatMap { f in chosen?.set.row.configId == f.set.row.configId ? nil : f }
        self.checked = checked
        var rows = Array(ranked.prefix(top))
        if let c = chosen?.set.row, !rows.contains(where: { $0.configId == c.configId }) { rows.append(c) }
        var sets: [SetIntervals] = []
        for row in rows { sets.append(SetIntervals(try cache.set(row), bootstrap: bootstrap)) }
        self.sets = sets
        groups = try (chosen?.set ?? ranked.first.map { try cache.set($0) })?.groups.count ?? 0
    }

    /// `intervals.csv`'s text.
    public var csv: String { SetIntervals.csv(sets) }

    /// The lines `sweep` and `search` print after the best-sets table: each top set's objective
    /// columns with their intervals, then how sure the chosen set is.
    public func lines(ranking: Ranking) -> [String] {
        guard !sets.isEmpty else { return sureLines(ranking: ranking) }
        var out = ["95 % intervals (cluster bootstrap over \(groups) groups, \(bootstrap.resamples) resamples, seed \(bootstrap.seed)):"]
        if groups < Self.fewGroups {
            out.append("  only \(groups) group\(groups == 1 ? "" : "s") (who made the traces): below \(Self.fewGroups) the intervals understate how far the values could move for other people")
        }
        let keys = ranking.keyColumns
        for s in sets {
            let shown = s.intervals.filter { keys.contains($0.column) }
            out.append("  config \(s.configId): " + shown.map { "\($0.column) \($0.text)" }.joined(separator: "; "))
        }
        out += sureLines(ranking: ranking)
        return out
    }

    /// What the chosen set's sureness says: with a confidence, which set was chosen as sure (or
    /// that none is, with how many more traces would make the best one so); without, which
    /// constraints the chosen set does not meet at 90 %.
    public func sureLines(ranking: Ranking) -> [String] {
        let pct = NumberFormat.short((ranking.confidence ?? HowSure.defaultConfidence) * 100)
        if ranking.confidence != nil {
            guard let chosen else {
                guard let best else { return [] }
                return ["no set is \(pct) % sure on these traces (checked the best \(checked)); the best, config \(best.set.row.configId):"]
                    + best.unsure.map { "  " + $0.text }
            }
            var out: [String] = []
            if let best {
                out.append("chose config \(chosen.set.row.configId), the best whose constraints are \(pct) % sure, over config \(best.set.row.configId):")
                out += best.unsure.map { "  " + $0.text }
            } else {
                out.append("config \(chosen.set.row.configId): every constraint is \(pct) % sure")
            }
            return out
        }
        guard let chosen, !ranking.constraints.isEmpty else { return [] }
        if chosen.isSure { return ["config \(chosen.set.row.configId): every constraint is also met at \(pct) % confidence"] }
        return ["config \(chosen.set.row.configId) is chosen on measured values; at \(pct) % confidence:"] + chosen.unsure.map { "  " + $0.text }
    }
}

/// Rows measured trace by trace, each once.
public struct MeasuredSets {
    let measure: (SweepReport.Row) throws -> MeasuredSet
    private var done: [Int: MeasuredSet] = [:]

    public init(measure: @escaping (SweepReport.Row) throws -> MeasuredSet) { self.measure = measure }

    public mutating func set(_ row: SweepReport.Row) throws -> MeasuredSet {
        if let m = done[row.configId] { return m }
        let m = try measure(row)
        done[row.configId] = m
        return m
    }
}
