import ArgumentParser
import Foundation
import SpringLayout
import SpringTune
import ToolRuntime
import TraceIO

struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "merge", abstract: "Join shard reports (sweep --shard i/n) into one report.")
    @Argument(help: "Shard report CSVs.") var reports: [String]
    @Option(name: [.short, .customLong("output")], help: "Merged report CSV (its report.meta.json is written beside it).") var output: String
    @Flag(name: .customLong("allow-partial"), help: "Merge even when shards are missing (the merged meta lists the missing config ids).")
    var allowPartial = false
    @Flag(help: "Also draw the default sweep charts (without the page and animations) beside the merged report.")
    var charts = false
    @Option(help: "The best sets given intervals in intervals.csv (as sweep --top).") var top = 5
    @Option(help: "Seed of the intervals' bootstrap (as sweep --seed).") var seed: UInt64 = 0
    @Option(help: "Bootstrap resamples (as sweep --resamples).") var resamples = ClusterBootstrap.defaultResamples
    @Option(help: "Worker threads for running the best sets again (default: all cores).") var threads: Int = ProcessInfo.processInfo.activeProcessorCount

    func validate() throws {
        guard (1...1000).contains(top) else { throw ValidationError("--top must be from 1 to 1000") }
        guard (100...100_000).contains(resamples) else { throw ValidationError("--resamples must be from 100 to 100000") }
        guard (1...256).contains(threads) else { throw ValidationError("--threads must be from 1 to 256") }
    }

    func run() throws {
        try reportingErrors {
            let inputs = reports.flatMap { [$0, ReportMeta.path(forReport: $0)] }
            for written in [output, ReportMeta.path(forReport: output)] {
                if let input = inputs.first(where: { InputFile.same($0, written) }) {
                    throw ToolError(.usage, "-o \(output) would overwrite the input \(input); choose another output")
                }
            }
            // The output's folder lock: a sweep or search writing that folder would swap the merged file away.
            let images: [String] = try OutputFolder.writing(into: URL(fileURLWithPath: output).deletingLastPathComponent().path) {
                let table = try Export.merge(reports, allowPartial: allowPartial)
                var meta = table.meta!
                // The merged grid's best sets with their intervals, as one sweep writes them
                // (Reference §14): run again from the shards' traces (before anything is written);
                // none for a partial merge, and an earlier merge's file is removed.
                let intervalsPath = SetIntervals.path(besideReport: output)
                var intervals: String?
                if meta.missing == nil, let ranking = try? Ranking(objective: meta.preset.objective) {
                    do {
                        let rerun = try ReportRerun(table, threads: threads)
                        intervals = try BestIntervals(ranked: try ranking.rank(table), top: top, ranking: ranking,
                                                      bootstrap: ClusterBootstrap(resamples: resamples, seed: seed), measure: rerun.measure).csv
                    } catch let error as ToolError where [.noInput, .dataError].contains(error.code) {
                        note("springtune: no intervals.csv: \(error.message)")
                    }
                }
                if intervals == nil, FileManager.default.fileExists(atPath: intervalsPath) { try FileManager.default.removeItem(atPath: intervalsPath) }
                try AtomicFile.write(table.csv(), to: output)
                if let intervals {
                    try AtomicFile.write(intervals, to: intervalsPath)
                    print("intervals: \(intervalsPath)")
                }
                var images: [String] = []
                if charts {
                    let kind = try ModelKind(name: meta.preset.model)
                    let figures = try ReportCharts.sweepDefaults(table, kind: kind, ranking: try? Ranking(objective: meta.preset.objective))
                    do {
                        images = try Gnuplot.draw(figures, in: URL(fileURLWithPath: output).deletingLastPathComponent().path)
                        meta.charts = images.map { URL(fileURLWithPath: $0).lastPathComponent }
                        meta.chartsSkipped = nil
                    } catch let error as ToolError where error.code == .unavailable {
                        meta.chartsSkipped = error.message
                        note("springtune: \(error.message)")
                    }
                }
                try AtomicFile.write(try meta.encoded(), to: ReportMeta.path(forReport: output))
                print(output + (meta.missing.map { " (partial: \($0.count) sets missing)" } ?? ""))
                return images
            }
            if !images.isEmpty { print("charts: \(images.count) images in \(URL(fileURLWithPath: output).deletingLastPathComponent().path)") }
        }
    }
}
