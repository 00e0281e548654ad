// swift-tools-version: 6.1
// libFuzzer harness for the trace reader (a separate package: its entry point is
// LLVMFuzzerTestOneInput, so it only links with --sanitize=fuzzer).
// Run: swift build --package-path Fuzz -c release --sanitize=fuzzer &&
//      SWIFT_BACKTRACE=enable=no Fuzz/.build/release/fuzz-traces -max_total_time=120 Fuzz/corpus
import PackageDescription

let package = Package(
    name: "Fuzz",
    dependencies: [.package(name: "springtune", path: "..")],
    targets: [
        .executableTarget(name: "fuzz-traces", dependencies: [.product(name: "TraceIO", package: "springtune")]),
    ]
)
