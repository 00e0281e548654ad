import Foundation
import SpringTune
import ToolRuntime
import TraceIO

/// Arbitrary bytes as a shard: a report and, after the first NUL byte, its `report.meta.json`.
/// `merge` joins it (alone, and with itself: refused for repeated ids), `export` turns its rows
/// (the first three and the best) into a preset and every platform form. Results or a
/// ToolError, never a crash; and whatever export returns reads back through the preset reader
/// (issue 27 item 10).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMerge(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-merge-\(getpid())").path
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let bytes = Data(bytes: data, count: size)
    let cut = bytes.firstIndex(of: 0) ?? bytes.endIndex
    let report = "\(dir)/report.csv"
    _ = FileManager.default.createFile(atPath: report, contents: bytes[..<cut])
    _ = FileManager.default.createFile(atPath: ReportMeta.path(forReport: report), contents: cut < bytes.endIndex ? bytes[(cut + 1)...] : Data())
    do {
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
    } catch is ToolError {
    } catch {
        fatalError("unexpected error type: \(error)")
    }
    return 0
}
