import Foundation
import FuzzTargets

/// The harness `FUZZ_HARNESS` names (Fuzz/run.sh sets it), looked up at the first input.
let harness: FuzzHarness = {
    let name = ProcessInfo.processInfo.environment["FUZZ_HARNESS"] ?? ""
    guard let found = FuzzHarness.named(name) else {
        fatalError("FUZZ_HARNESS=\(name) names no harness (\(FuzzHarness.all.map(\.name).joined(separator: ", ")))")
    }
    return found
}()

/// libFuzzer's entry point: one input to the harness.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    harness.run(UnsafeBufferPointer(start: data, count: size))
    return 0
}
