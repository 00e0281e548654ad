import ArgumentParser
import Foundation
import SpringCore
import SpringTune
import TraceIO

extension TracesCommand {
    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Check trace files against the format (Reference §3).")
        @Argument(help: "Trace CSV files.") var files: [String]
        @Flag(name: .customLong("skip-invalid"), help: "Drop bad traces instead of failing, and say why.") var skipInvalid = false

        func run() throws {
            try reportingErrors {
                for file in files {
                    let report = try TraceReader(skipInvalid: skipInvalid).forEachTrace(path: file) { _ in }
                    describe(report, file: file)
                    print("\(file): \(report.traces) traces valid" + (report.skipped.isEmpty ? "" : ", \(report.skipped.count) skipped"))
                }
            }
        }
    }
}
