import Foundation
import SpringLayout
import SpringTune
import ToolRuntime
import TraceIO

/// Arbitrary bytes as a trace file, read with --skip-invalid, then its traces run through one
/// parameter set (the defaults) of every model, streamed in blocks of weight 64: results or a
/// ToolError, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSweep(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-sweep-\(getpid()).csv").path
    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes: data, count: size))
    do {
        for kind in ModelKind.all {
            let traces = try TraceSource(files: [path], kind: kind, skipInvalid: true, scene: Scene(), blockSamples: 64)
            let runner = SweepRunner(kind: kind, scene: Scene(), sets: SweepGrid(axes: [], base: [:]), threads: 1)
            let results = try runner.run(traces)
            precondition(results.count == 1 && results[0].aggregate.traces == traces.tags.count)
        }
    } catch is ToolError {
    } catch {
        fatalError("unexpected error type: \(error)")
    }
    return 0
}
