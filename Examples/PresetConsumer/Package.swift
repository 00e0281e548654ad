// swift-tools-version: 6.1
// A separate package that uses springtune's SpringLayout library the way an app does:
// decode a preset (bundled or exported) with a plain JSONDecoder and build its engine
// (preset-consumer), and record touches with TraceRecorder (record-demo).
import PackageDescription

let package = Package(
    name: "PresetConsumer",
    // `traits: []`: the tool's trait off, so none of the command line's packages are resolved.
    dependencies: [.package(name: "springtune", path: "../..", traits: [])],
    targets: [
        .executableTarget(name: "preset-consumer", dependencies: [.product(name: "SpringCore", package: "springtune"), .product(name: "SpringLayout", package: "springtune")]),
        .executableTarget(name: "record-demo", dependencies: [.product(name: "SpringLayout", package: "springtune")]),
    ]
)
