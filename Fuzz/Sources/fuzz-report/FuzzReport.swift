import Foundation
import SpringTune
import ToolRuntime
import TraceIO

/// Arbitrary bytes as a report: read, compared with itself (the objective on its first metric
/// column), ranked, picked on a Pareto front, merged: results or a ToolError, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReport(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-report-\(getpid()).csv").path
    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes: data, count: size))
    do {
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
    } catch is ToolError {
    } catch {
        fatalError("unexpected error type: \(error)")
    }
    return 0
}
