import Foundation
import ToolRuntime
import TraceIO

/// Arbitrary bytes given to the getevent, evemu and csv importers (contacts and gestures): traces
/// that validate, or a ToolError, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImport(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-import-\(getpid()).txt").path
    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes: data, count: size))
    for format in TraceImporter.Format.allCases {
        for grouping in ContactGrouping.allCases {
            do {
                let (traces, _, _) = try TraceImporter.importFile(path, format: format, mapping: ImportMapping(units: .scale(1), rotation: 90), grouping: grouping)
                for t in traces { precondition(TraceRules.problem(t) == nil, "an imported trace breaks a rule of the reader") }
            } catch is ToolError {
            } catch {
                fatalError("unexpected error type: \(error)")
            }
        }
    }
    return 0
}
