import ArgumentParser
import Foundation
import SpringLayout
import SpringTune
import TraceIO

struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "merge", abstract: "Join shard reports (sweep --shard i/n) into one report.")
    @Argument(help: "Shard report CSVs.") var reports: [String]
    @Option(name: [.short, .customLong("output")], help: "Merged report CSV (its report.meta.json is written beside it).") var output: String
    @Flag(name: .customLong("allow-partial"), help: "Merge even when shards are missing (the merged meta lists the missing config ids).")
    var allowPartial = false
    @Flag(help: "Also draw the default sweep charts (without the page and animations) beside the merged report.")
    var charts = false

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
                try AtomicFile.write(table.csv(), to: output)
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
