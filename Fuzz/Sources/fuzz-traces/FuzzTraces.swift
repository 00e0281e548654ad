import Foundation
import ToolRuntime
import TraceIO

/// Feeds arbitrary bytes to the strict and the skipping trace reader: any input must end in
/// traces or a ToolError, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTraces(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-traces-\(getpid()).csv").path
    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes: data, count: size))
    for skip in [false, true] {
        do {
            let (traces, _) = try TraceReader(skipInvalid: skip).read(path: path)
            for t in traces { precondition(t.samples.first?.phase == .began && t.samples.last?.phase.isLift == true) }
        } catch is ToolError {
        } catch {
            fatalError("unexpected error type: \(error)")
        }
    }
    return 0
}
