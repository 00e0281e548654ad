import Foundation
import SpringLayout
import SpringTune
import TraceIO

/// Arbitrary bytes as a trace file, read with --skip-invalid, then up to 4 of its traces run
/// through one parameter set (the defaults) of every model: traces or a ToolError, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSweep(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-sweep-\(getpid()).csv").path
    FileManager.default.createFile(atPath: path, contents: Data(bytes: data, count: size))
    do {
        let traces = Array(try TraceReader(skipInvalid: true).read(path: path).traces.prefix(4))
        guard !traces.isEmpty else { return 0 }
        for kind in ModelKind.all {
            let runner = SweepRunner(kind: kind, scene: Scene(), grid: SweepGrid(axes: [], base: [:]), traces: traces.map(kind.input), threads: 1)
            let results = try runner.run()
            precondition(results.count == 1 && results[0].aggregate.traces == traces.count)
        }
    } catch is ToolError {
    } catch {
        fatalError("unexpected error type: \(error)")
    }
    return 0
}
