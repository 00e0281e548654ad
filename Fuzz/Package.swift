// swift-tools-version: 6.1
// libFuzzer harnesses (a separate package: their entry point is LLVMFuzzerTestOneInput, so they
// only link with --sanitize=fuzzer): the trace reader, the reader through one sweep run of every
// model, the preset decoder through grid construction, the importers, report reading in
// compare/pick/merge, `spring`'s numbers, a preset through one gesture of its model's per-frame
// engine (every value finite), a shard with its meta through merge and export, the studio's
// live samples past the socket's message layer (LiveReplay), and search's --free values and box.
// `make fuzz` runs each.
// Run: swift build --package-path Fuzz -c release --sanitize=fuzzer &&
//      SWIFT_BACKTRACE=enable=no Fuzz/.build/release/fuzz-traces -max_total_time=120 Fuzz/corpus
import PackageDescription

let package = Package(
    name: "Fuzz",
    dependencies: [.package(name: "springtune", path: "..")],
    targets: [
        .executableTarget(name: "fuzz-traces", dependencies: [.product(name: "ToolRuntime", package: "springtune"), .product(name: "TraceIO", package: "springtune")]),
        .executableTarget(name: "fuzz-sweep", dependencies: [.product(name: "SpringLayout", package: "springtune"), .product(name: "ToolRuntime", package: "springtune"), .product(name: "TraceIO", package: "springtune"), .product(name: "SpringTune", package: "springtune")]),
        .executableTarget(name: "fuzz-preset", dependencies: [.product(name: "SpringLayout", package: "springtune"), .product(name: "ToolRuntime", package: "springtune"), .product(name: "TraceIO", package: "springtune"), .product(name: "SpringTune", package: "springtune")]),
        .executableTarget(name: "fuzz-import", dependencies: [.product(name: "ToolRuntime", package: "springtune"), .product(name: "TraceIO", package: "springtune")]),
        .executableTarget(name: "fuzz-report", dependencies: [.product(name: "ToolRuntime", package: "springtune"), .product(name: "TraceIO", package: "springtune"), .product(name: "SpringTune", package: "springtune")]),
        .executableTarget(name: "fuzz-spring", dependencies: [.product(name: "SpringCore", package: "springtune"), .product(name: "SpringTune", package: "springtune")]),
        .executableTarget(name: "fuzz-engine", dependencies: [.product(name: "SpringCore", package: "springtune"), .product(name: "SpringLayout", package: "springtune"), .product(name: "SpringTune", package: "springtune")]),
        .executableTarget(name: "fuzz-live", dependencies: [.product(name: "SpringCore", package: "springtune"), .product(name: "SpringLayout", package: "springtune"), .product(name: "TraceIO", package: "springtune"), .product(name: "SpringTune", package: "springtune")]),
        .executableTarget(name: "fuzz-search", dependencies: [.product(name: "SpringLayout", package: "springtune"), .product(name: "SpringTune", package: "springtune")]),
        .executableTarget(name: "fuzz-merge", dependencies: [.product(name: "ToolRuntime", package: "springtune"), .product(name: "TraceIO", package: "springtune"), .product(name: "SpringTune", package: "springtune")]),
    ]
)
