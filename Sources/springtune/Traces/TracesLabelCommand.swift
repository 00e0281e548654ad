import ArgumentParser
import Foundation
import SpringCore
import SpringTune
import TraceIO

extension TracesCommand {
    struct Label: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set intents: every trace (--intent), those a trace,intent file names (--labels), or those meeting a condition (--where … --intent …).",
            discussion: "Rules apply in order, a later one overriding: --labels first, then each --where with the --intent at the same position. Columns for --where: \(TraceLabeler.columns.joined(separator: ", ")).")
        @Argument(help: "Trace CSV files.") var files: [String]
        @Option(help: "Intent (dismiss, keep, create, cancel); alone: for every trace; with --where: for the traces meeting it.")
        var intent: [TraceIntent] = []
        @Option(help: "A CSV with trace and intent columns.") var labels: String?
        @Option(name: .customLong("where"), help: "Condition such as 'release_speed>=1000', paired with the --intent at the same position.")
        var conditions: [String] = []
        @Option(help: "Velocity estimator for release_* columns.") var estimator: VelocityEstimator = .lsq2
        @Option(name: [.short, .customLong("output")], help: "Output trace CSV.") var output: String

        func validate() throws {
            guard labels != nil || !intent.isEmpty else { throw ValidationError("give --intent, --labels, or --where with --intent") }
            guard conditions.isEmpty ? intent.count <= 1 : conditions.count == intent.count else {
                throw ValidationError("give one --intent per --where (or one --intent alone for every trace)")
            }
        }

        /// The rules in the order they apply, for the sidecar.
        var criteria: [String] {
            var c = labels.map { ["labels \($0)"] } ?? []
            if conditions.isEmpty, let intent = intent.first { c.append("intent \(intent.rawValue) for every trace") }
            c += zip(conditions, intent).map { "where \($0): intent \($1.rawValue)" }
            if c.contains(where: { $0.contains("release_") }) { c.append("estimator \(estimator.rawValue)") }
            return c
        }

        func run() throws {
            try reportingErrors {
                let (traces, synthetic) = try readTraces(files)
                var rules: [TraceLabeler.Rule] = []
                if let labels { rules.append(.named(try TraceLabeler.labels(path: labels))) }
                if conditions.isEmpty, let intent = intent.first { rules.append(.all(intent)) }
                for (text, intent) in zip(conditions, intent) { rules.append(.condition(try Constraint(parsing: text), intent)) }
                var labeler = TraceLabeler(rules: rules)
                labeler.estimator = estimator
                try labeler.validate(traceIDs: Set(traces.map(\.id)))
                let (out, labelled) = labeler.apply(traces)
                let step = try TraceStep(command: "traces label", files: files, criteria: criteria, traces: traces.count, changed: labelled)
                try write(out, synthetic: synthetic, to: output, step: step)
                print("\(output): labelled \(labelled) of \(traces.count) traces")
            }
        }
    }
}
