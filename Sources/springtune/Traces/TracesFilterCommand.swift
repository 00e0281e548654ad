import ArgumentParser
import Foundation
import SpringCore
import SpringTune
import TraceIO

extension TracesCommand {
    struct Filter: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Keep the traces whose shape matches (first pointer: net displacement, duration, release speed).")
        @Argument(help: "Trace CSV files.") var files: [String]
        @Option(help: "vertical, horizontal, up, down, left or right (by the net displacement).") var direction: TraceFilter.Direction?
        @Option(name: .customLong("min-travel"), help: "Least net displacement (pt).", transform: decimal) var minTravel: Double?
        @Option(name: .customLong("min-duration"), help: "Least duration, touch-down to lift-off (s).", transform: decimal) var minDuration: Double?
        @Option(name: .customLong("max-duration"), help: "Largest duration (s).", transform: decimal) var maxDuration: Double?
        @Option(name: .customLong("min-release-speed"), help: "Least release speed (pt/s).", transform: decimal) var minReleaseSpeed: Double?
        @Option(help: "Velocity estimator for the release speed.") var estimator: VelocityEstimator = .lsq2
        @Option(name: [.short, .customLong("output")], help: "Output trace CSV.") var output: String

        func validate() throws {
            for (name, v) in [("--min-travel", minTravel), ("--min-duration", minDuration), ("--max-duration", maxDuration), ("--min-release-speed", minReleaseSpeed)] {
                if let v, !(v.isFinite && v >= 0) { throw ValidationError("\(name) must be a finite number >= 0") }
            }
        }

        /// The options given, for the sidecar (units as in the help).
        var criteria: [String] {
            var c = direction.map { ["direction \($0.rawValue)"] } ?? []
            for (name, value, unit) in [("min-travel", minTravel, "pt"), ("min-duration", minDuration, "s"), ("max-duration", maxDuration, "s"),
                                        ("min-release-speed", minReleaseSpeed, "pt/s")] {
                if let value { c.append("\(name) \(NumberFormat.cell(value)) \(unit)") }
            }
            if minReleaseSpeed != nil { c.append("estimator \(estimator.rawValue)") }
            return c
        }

        func run() throws {
            try reportingErrors {
                let (traces, synthetic) = try readTraces(files)
                var filter = TraceFilter()
                filter.direction = direction; filter.minTravel = minTravel; filter.minDuration = minDuration
                filter.maxDuration = maxDuration; filter.minReleaseSpeed = minReleaseSpeed; filter.estimator = estimator
                let kept = traces.filter(filter.keeps)
                let step = try TraceStep(command: "traces filter", files: files, criteria: criteria, traces: traces.count, changed: kept.count)
                try write(kept, synthetic: synthetic, to: output, step: step)
                print("\(output): kept \(kept.count) of \(traces.count) traces")
            }
        }
    }
}
