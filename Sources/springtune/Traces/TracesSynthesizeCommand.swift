import ArgumentParser
import Foundation
import SpringCore
import SpringTune
import TraceIO

extension TracesCommand {
    struct Synthesize: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Labelled synthetic traces from a minimum-jerk motion model with sensor noise (see README).")
        @Option(help: "flick (throws, dismiss), drag (slow drags ending at rest, keep), pull (downward pulls, create/cancel), pinch-open (create/cancel) or pinch-close (dismiss/keep), two pointers.")
        var kind: Synthesizer.Kind
        @Option(help: "Number of traces.") var count: Int
        @Option(help: "Random seed (same seed, same bytes).") var seed: UInt64
        @Option(help: "Label every trace with this intent instead of the kind's rule.") var intent: TraceIntent?
        @Option(name: [.short, .customLong("output")], help: "Output CSV; '.synthetic' is inserted before the extension when the name lacks 'synthetic'.") var output: String

        func validate() throws {
            guard count >= 1 else { throw ValidationError("--count must be >= 1") }
        }

        func run() throws {
            try reportingErrors {
                var url = URL(fileURLWithPath: output)
                if !url.lastPathComponent.contains("synthetic") {
                    let ext = url.pathExtension.isEmpty ? "csv" : url.pathExtension
                    url = url.deletingPathExtension().appendingPathExtension("synthetic").appendingPathExtension(ext)
                }
                let traces = Synthesizer(kind: kind, seed: seed, intent: intent).traces(count: count)
                try TraceWriter.write(traces, synthetic: true, to: url.path)
                print("\(url.path): \(traces.count) synthetic \(kind.rawValue) traces (seed \(seed))")
            }
        }
    }
}
