import Foundation
import SpringTune
import ToolRuntime
import TraceIO

/// Arbitrary bytes as a report: read, compared with itself (the objective on its first metric
/// column), ranked, picked on a Pareto front, merged: results or a ToolError.
func fuzzReport(_ bytes: UnsafeBufferPointer<UInt8>) {
    let path = scratchFile("report", bytes, suffix: ".csv")
    expectToolError {
        let table = try SweepReport.read(path)
        _ = table.csv()
        if let column = table.metricColumns.first {
            let ranking = Ranking(constraints: [], column: column, maximize: false)
            _ = try ranking.ranked(table)
            let c = try Comparison(table, table, metrics: nil, tolerances: [.defaultRelative, Tolerance(parsing: "1frame")])
            _ = try ObjectiveVerdict(table, table, comparison: c, ranking: ranking, tolerances: [.defaultRelative])
            _ = try Ranking.paretoFront(table, rows: table.rows, columns: Array(table.metricColumns.prefix(2)))
        }
        _ = try Export.merge([path])
    }
}

/// Arbitrary bytes as a shard: a report and, after the first NUL byte, its `report.meta.json`.
/// `merge` joins it (alone, and with itself: refused for repeated ids), `export` turns its rows
/// (the first three and the best) into a preset and every platform form. Results or a
/// ToolError; whatever export returns reads back through the preset reader.
func fuzzMerge(_ bytes: UnsafeBufferPointer<UInt8>) {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-merge-\(getpid())").path
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let (head, tail) = splitAtNUL(bytes)
    let report = "\(dir)/report.csv"
    _ = FileManager.default.createFile(atPath: report, contents: Data(head))
    _ = FileManager.default.createFile(atPath: ReportMeta.path(forReport: report), contents: Data(tail ?? bytes[bytes.endIndex...]))
    expectToolError {
        let merged = try Export.merge([report], allowPartial: true)
        _ = merged.csv()
        _ = try merged.meta.map { try JSONCoding.encode($0) }
        if (try? Export.merge([report, report])) != nil, !merged.rows.isEmpty { preconditionFailure("a shard merged with itself") }
        for id in merged.rows.prefix(3).map(\.configId) + [nil] {
            guard let preset = try? Export.preset(report: report, configId: id, destination: "\(dir)/preset.json") else { continue }
            do { _ = try PresetStore.decode(Data(try JSONCoding.encode(preset).utf8), path: "export") } catch {
                preconditionFailure("an export that does not read back: \(error)")
            }
            for format in ExportFormat.allCases { _ = try? format.text(PlatformPreset(preset: preset)) }
        }
    }
}
