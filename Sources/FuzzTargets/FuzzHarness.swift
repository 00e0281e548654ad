import Foundation

/// One fuzz harness: a function that takes arbitrary bytes and must end, for every input, in
/// results or the library's own error, never a crash (it traps, through `precondition` or
/// `fatalError`, when a result breaks a rule it checks). The harnesses live here, in the main
/// package, so that every build compiles them and `swift test` replays their seed corpora
/// (FuzzSeedTests); `Fuzz/` only wraps them in libFuzzer's entry point (`make fuzz`).
public struct FuzzHarness: Sendable {
    /// The harness's name: `make fuzz FUZZERS=NAME`, `Fuzz/seeds.txt`'s first column.
    public let name: String
    /// The harness's function.
    let body: @Sendable (UnsafeBufferPointer<UInt8>) -> Void

    /// Every harness, in `make fuzz`'s order.
    public static let all: [FuzzHarness] = [
        FuzzHarness(name: "traces", body: fuzzTraces),
        FuzzHarness(name: "sweep", body: fuzzSweep),
        FuzzHarness(name: "preset", body: fuzzPreset),
        FuzzHarness(name: "import", body: fuzzImport),
        FuzzHarness(name: "report", body: fuzzReport),
        FuzzHarness(name: "spring", body: fuzzSpring),
        FuzzHarness(name: "merge", body: fuzzMerge),
        FuzzHarness(name: "engine", body: fuzzEngine),
        FuzzHarness(name: "live", body: fuzzLive),
        FuzzHarness(name: "search", body: fuzzSearch),
    ]

    /// The harness called `name`, or nil.
    public static func named(_ name: String) -> FuzzHarness? { all.first { $0.name == name } }

    /// Feeds one input to the harness.
    public func run(_ bytes: UnsafeBufferPointer<UInt8>) { body(bytes) }

    /// Feeds one input to the harness.
    public func run(_ bytes: [UInt8]) { bytes.withUnsafeBufferPointer(body) }
}

/// A file of this process holding `bytes` (the readers take paths): one per harness, rewritten
/// for every input, in the temporary folder.
func scratchFile(_ harness: String, _ bytes: UnsafeBufferPointer<UInt8>, suffix: String = "") -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-\(harness)-\(getpid())\(suffix)").path
    _ = FileManager.default.createFile(atPath: path, contents: Data(buffer: bytes))
    return path
}

/// `bytes` cut at their first NUL byte: what comes before it, and what comes after it (nil
/// when there is no NUL byte).
func splitAtNUL(_ bytes: UnsafeBufferPointer<UInt8>) -> (head: UnsafeBufferPointer<UInt8>.SubSequence, tail: UnsafeBufferPointer<UInt8>.SubSequence?) {
    guard let cut = bytes.firstIndex(of: 0) else { return (bytes[...], nil) }
    return (bytes[..<cut], bytes[(cut + 1)...])
}
