// swift-tools-version: 6.1
import PackageDescription

/// The condition on every use of a package dependency: the trait `Tool` is enabled.
let tool: TargetDependencyCondition? = .when(traits: ["Tool"])

/// The test targets compile without optimisation even in `make test`'s release build: the code
/// they check (the package's modules) is optimised, the tests' own code only calls it, and
/// optimising it cost 129 s of both cores against 96 s to rebuild them. No product contains a
/// test target.
let tests: [SwiftSetting] = [.unsafeFlags(["-Onone"])]

let package = Package(
    name: "springtune",
    platforms: [.macOS(.v14), .iOS(.v16)],  // macOS 14: Hummingbird 2 (the studio)
    products: [
        .library(name: "SpringCore", targets: ["SpringCore"]),
        .library(name: "SpringLayout", targets: ["SpringLayout"]),
        .library(name: "TraceIO", targets: ["TraceIO"]),
        .library(name: "SpringTune", targets: ["SpringTune"]),
        .library(name: "Preference", targets: ["Preference"]),
        // The fuzz harnesses, for the libFuzzer entry point of Fuzz/ (`make fuzz`).
        .library(name: "FuzzTargets", targets: ["FuzzTargets"]),
        .executable(name: "springtune", targets: ["springtune"]),
        .executable(name: "springtune-studio", targets: ["springtune-studio"]),
    ],
    // The trait `Tool` (on by default) is the command-line tool and its studio: only it needs the
    // six packages below. An app that links SpringCore/SpringLayout depends on this package with
    // `traits: []` and resolves none of them (docs/SpringLayout.md, "Footprint").
    traits: [
        .trait(name: "Tool", description: "The springtune command line and its studio (swift-argument-parser, Hummingbird, SwiftNIO, GRDB, swift-log)."),
        .default(enabledTraits: ["Tool"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // The studio: an HTTP server on SwiftNIO, and SQLite for its sessions (docs/Studio.md says why).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // The studio's live touch: a WebSocket on the same server (Reference §10.16, live touch).
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // NIOCore, which the studio's server uses beside Hummingbird (already a dependency of it).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // `make docs`: the DocC plugin. No target uses it, so a package depending on this one
        // does not resolve it, with or without the `Tool` trait (Tests/cli/footprint.sh checks).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // Spring math, touch samples and velocity estimation. No dependencies.
        // Wasm/runtime.c is the WebAssembly build's heap and memory functions (make wasm), not native code.
        .target(name: "SpringCore", exclude: ["Wasm/runtime.c"]),
        // What an app links: presets, the scroll view and the interaction engines.
        .target(name: "SpringLayout", dependencies: ["SpringCore"]),
        // libcsv, as a system library (Debian: libcsv-dev).
        .systemLibrary(name: "CLibCSV", path: "Sources/CLibCSV"),
        // The build's CPU level, and the check that a build for x86-64-v3 runs on such a CPU.
        .target(name: "CPUCheck"),
        // The command-line tool's runtime: tool errors with their sysexits codes, SIGINT/SIGTERM
        // handling, and the one helper that runs child processes. No dependencies.
        .target(name: "ToolRuntime"),
        // Trace files: streaming CSV on libcsv, validation, importers.
        .target(name: "TraceIO", dependencies: ["SpringCore", "CLibCSV", "ToolRuntime"]),
        // Learning a designer's taste from comparisons: the preference model and its proposals.
        // Pure math, no dependencies.
        .target(name: "Preference"),
        // The tuning engine: sweeps, metrics, reports, charts.
        .target(
            name: "SpringTune",
            dependencies: ["SpringCore", "SpringLayout", "TraceIO", "ToolRuntime", "CPUCheck", "Preference"],
            exclude: ["Resources"]  // the bundled traces: installed by `make install`, found by PresetStore (no Bundle.module)
        ),
        // The studio: a local web application (HTTP API, page assets, SQLite session).
        .target(
            name: "SpringStudio",
            dependencies: ["SpringCore", "SpringLayout", "TraceIO", "ToolRuntime", "SpringTune", "Preference",
                           .product(name: "Hummingbird", package: "hummingbird", condition: tool),
                           .product(name: "HummingbirdCore", package: "hummingbird", condition: tool),
                           .product(name: "NIOCore", package: "swift-nio", condition: tool),
                           .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket", condition: tool),
                           .product(name: "GRDB", package: "GRDB.swift", condition: tool),
                           .product(name: "Logging", package: "swift-log", condition: tool)],
            resources: [.embedInCode("Page/Assets")]
        ),
        // The command line. It does not link the studio: `springtune studio` starts the
        // `springtune-studio` executable built beside it, so `make demo` (this product alone)
        // compiles no server (docs/Development.md, "Two executables").
        .executableTarget(
            name: "springtune",
            dependencies: ["SpringCore", "SpringLayout", "TraceIO", "ToolRuntime", "SpringTune", "Preference",
                           .product(name: "ArgumentParser", package: "swift-argument-parser", condition: tool)]
        ),
        // The fuzz harnesses: arbitrary bytes through the readers, the sweep, the engines, the
        // live replay and search, results or the library's error, never a crash. Built with the
        // package, so `swift test` replays their seeds (FuzzSeedTests); Fuzz/ fuzzes them.
        .target(name: "FuzzTargets", dependencies: ["SpringCore", "SpringLayout", "TraceIO", "ToolRuntime", "SpringTune"]),
        .executableTarget(name: "springtune-studio", dependencies: ["SpringStudio", "SpringTune", "ToolRuntime"]),
        .testTarget(name: "SpringCoreTests", dependencies: ["SpringCore"], swiftSettings: tests),
        .testTarget(name: "SpringLayoutTests", dependencies: ["SpringCore", "SpringLayout"], swiftSettings: tests),
        .testTarget(name: "TraceIOTests", dependencies: ["SpringCore", "ToolRuntime", "TraceIO", "SpringTune"], swiftSettings: tests),
        .testTarget(name: "SpringTuneTests", dependencies: ["SpringCore", "SpringLayout", "TraceIO", "ToolRuntime", "Preference", "SpringTune", "FuzzTargets"], swiftSettings: tests),
        .testTarget(name: "ToolRuntimeTests", dependencies: ["ToolRuntime"], swiftSettings: tests),
        // The router and its middleware are tested by handing requests to the router's responder
        // (StudioRouterTests, with NIOEmbedded's channel), as HummingbirdTesting's router mode does:
        // that product would build AsyncHTTPClient, SwiftNIO SSL and BoringSSL for one test. The
        // HTTP rules over a real connection are Tests/studio/http_checks.py's.
        .testTarget(name: "SpringStudioTests", dependencies: ["SpringCore", "SpringLayout", "TraceIO", "ToolRuntime", "SpringTune", "SpringStudio",
                                                    .product(name: "Hummingbird", package: "hummingbird", condition: tool),
                                                    .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket", condition: tool),
                                                    .product(name: "GRDB", package: "GRDB.swift", condition: tool),
                                                    .product(name: "Logging", package: "swift-log", condition: tool),
                                                    .product(name: "NIOCore", package: "swift-nio", condition: tool),
                                                    .product(name: "NIOEmbedded", package: "swift-nio", condition: tool)],
                    swiftSettings: tests),
        .testTarget(name: "PreferenceTests", dependencies: ["Preference"], swiftSettings: tests),
    ]
)
