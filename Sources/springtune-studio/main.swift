// `springtune-studio`: the studio's server, started by `springtune studio` (StudioLauncher) with
// the command's options as one JSON argument. Built by `make build`, not by `make demo`, so the
// command line's first build compiles no server (SwiftNIO, Hummingbird, GRDB).
import Foundation
import SpringStudio
import SpringTune
import ToolRuntime

Cleanup.shared.install()
StandardStreams.install()
/// Writes each line of a note to stderr, cut to one line each (as `springtune` does).
let note: @Sendable (String) -> Void = { text in
    StandardStreams.error(text.split(separator: "\n", omittingEmptySubsequences: false).map(Echo.cut).joined(separator: "\n") + "\n")
}
do {
    let arguments = CommandLine.arguments.dropFirst()
    guard arguments.count == 1, let json = arguments.first,
          let options = try? JSONDecoder().decode(StudioOptions.self, from: Data(json.utf8)) else {
        throw ToolError(.usage, "springtune-studio is started by `springtune studio`, with its options as one JSON argument")
    }
    if let seeds = options.simulate {
        print(try Studio.simulate(preset: options.preset, traces: options.traces, seeds: seeds, rounds: options.rounds, free: options.free), terminator: "")
    } else if let report = options.report, let session = options.session {
        print("report: \(try StudioReport.write(session: session, preset: options.preset, traces: options.traces, to: report))")
    } else if let prototype = options.prototype, let session = options.session {
        print("prototype: \(try StudioPrototype.write(session: session, preset: options.preset, traces: options.traces, to: prototype))")
    } else {
        try Studio.run(options, note: note)
    }
    finishProcess(0)
} catch let error as ToolError {
    StandardStreams.error("springtune: \(Echo.cut(error.message))\(error.code == .usage ? " (see springtune studio --help)" : "")\n")
    finishProcess(error.code.rawValue)
} catch {
    StandardStreams.error("springtune: \(Echo.cut("\(error)"))\n")
    finishProcess(70)
}
