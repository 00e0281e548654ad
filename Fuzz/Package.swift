// swift-tools-version: 6.1
// libFuzzer's entry point around the harnesses of the main package's FuzzTargets module (a
// separate package: LLVMFuzzerTestOneInput only links with --sanitize=fuzzer). One executable,
// `fuzz`; FUZZ_HARNESS names the harness it feeds. `make fuzz` runs each (Fuzz/run.sh).
// Run: swift build --package-path Fuzz -c release --sanitize=fuzzer &&
//      FUZZ_HARNESS=traces SWIFT_BACKTRACE=enable=no Fuzz/.build/release/fuzz -max_total_time=120 Fuzz/corpus
import PackageDescription

let package = Package(
    name: "Fuzz",
    dependencies: [.package(name: "springtune", path: "..")],
    targets: [
        .executableTarget(name: "fuzz", dependencies: [.product(name: "FuzzTargets", package: "springtune")]),
    ]
)
