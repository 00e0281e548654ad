import Foundation
import SpringCore
import SpringLayout
import ToolRuntime
import TraceIO

/// `--holdout`, `--holdout-groups` and `--folds` for `sweep` and `search` (Reference §14): the
/// choice is made on the tuning groups only (the same job, its traces limited to them), then
/// the chosen set is measured on the held-out groups and both are shown side by side with
/// their intervals and the held-out verdicts; with folds, K times, each group held out once.
/// One split writes its run into OUT; fold k into OUT/fold-k. `held-out.csv` in OUT has every
/// split's objective columns, tuned and held out, with intervals and verdicts.
public struct HeldOutRun {
    /// What one choice on the tuning groups gave.
    public struct Choice {
        public var table: SweepReport
        public var intervals: BestIntervals?
        public var scene: Scene
        /// Every value of the chosen set (nil when none was chosen).
        public var values: [String: ParamValue]?
        /// The run's own summary lines.
        public var lines: [String]

        public init(table: SweepReport, intervals: BestIntervals?, scene: Scene, values: [String: ParamValue]?, lines: [String]) {
            self.table = table; self.intervals = intervals; self.scene = scene; self.values = values; self.lines = lines
        }
    }

    public var loaded: PresetStore.Loaded
    public var request: GroupSplit.Request
    public var seed: UInt64
    public var bootstrap: ClusterBootstrap
    public var threads: Int
    public var traceFiles: [String]
    public var skipInvalid: Bool
    /// Runs the job on the groups given, into the folder given.
    public var choose: (Set<String>, String) throws -> Choice

    public init(loaded: PresetStore.Loaded, request: GroupSplit.Request, seed: UInt64, bootstrap: ClusterBootstrap, threads: Int,
                traceFiles: [String], skipInvalid: Bool, choose: @escaping (Set<String>, String) throws -> Choice) {
        self.loaded = loaded; self.request = request; self.seed = seed; self.bootstrap = bootstrap; self.threads = threads
        self.traceFiles = traceFiles; self.skipInvalid = skipInvalid; self.choose = choose
    }

    /// Runs every split and returns the lines to print.
    public func run(into out: String) throws -> [String] {
        let all = try TraceSource(files: traceFiles, kind: loaded.kind, skipInvalid: skipInvalid, scene: loaded.preset.scene)
        let splits = try GroupSplit.make(request, groups: all.tags.map(\.group), seed: seed)
        let ranking = try Ranking(objective: loaded.preset.objective)
        var lines: [String] = [], checks: [(Int, HeldOutCheck)] = []
        for (k, split) in splits.enumerated() {
            let folder = splits.count == 1 ? out : "\(out)/fold-\(k + 1)"
            let choice = try choose(Set(split.tuning), folder)
            let name = splits.count == 1 ? "held out" : "fold \(k + 1) of \(splits.count)"
            lines.append("\(name): choosing on \(split.tuning.count) groups, checking on \(split.heldOut.count): \(Echo.list(split.heldOut.map(Echo.cut)).joined(separator: ", "))")
            lines += choice.lines.map { "  " + $0 }
            guard let values = choice.values, let tuned = choice.intervals?.chosen else {
                lines.append("  no set was chosen on the tuning groups: nothing to check")
                continue
            }
            let held = try TraceSource(files: traceFiles, kind: loaded.kind, skipInvalid: skipInvalid, scene: choice.scene, groups: Set(split.heldOut))
            let set = try MeasuredSet.measure(kind: loaded.kind, scene: choice.scene, values: values, traces: held, threads: threads, configId: tuned.set.row.configId)
            let check = HeldOutCheck(split: split, tuned: tuned, heldOut: HowSure(set, ranking: ranking, bootstrap: bootstrap), ranking: ranking)
            checks.append((k + 1, check))
            try check.addSection(toPage: "\(folder)/index.html")
            lines += check.table.rendered.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { "  " + $0 }
            lines.append(check.held ? "  on the held-out groups the choice meets every constraint"
                : "  on the held-out groups the choice BREAKS " + check.broken.map(\.description).joined(separator: ", "))
        }
        if splits.count > 1 {
            let held = checks.filter { $0.1.held }.count
            lines.append("folds: the choice's constraints held on the unseen groups in \(held) of \(splits.count) folds"
                + (checks.count < splits.count ? " (\(splits.count - checks.count) chose no set)" : ""))
        }
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let path = "\(out)/held-out.csv"
        try AtomicFile.write(Self.csv(checks), to: path)
        lines.append("held-out: \(path)")
        return lines
    }

    /// `held-out.csv`: `fold,metric,tuned,tuned_lo,tuned_hi,held_out,held_out_lo,held_out_hi,verdict`.
    static func csv(_ checks: [(Int, HeldOutCheck)]) -> String {
        var w = CSVWriter()
        w.header(["fold", "metric", "tuned", "tuned_lo", "tuned_hi", "held_out", "held_out_lo", "held_out_hi", "verdict"])
        for (k, check) in checks {
            for t in check.tuned.intervals.intervals {
                let h = check.heldOut.intervals[t.column]
                let verdict = check.verdict(t.column)
                w.row([.integer(k), .text(t.column), MetricValue(t.value).field, MetricValue(t.lo).field, MetricValue(t.hi).field,
                       MetricValue(h?.value).field, MetricValue(h?.lo).field, MetricValue(h?.hi).field, .text(verdict)])
            }
        }
        return w.text
    }
}
