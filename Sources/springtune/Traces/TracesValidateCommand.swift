import ArgumentParser
import Foundation
import SpringCore
import SpringLayout
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
                    var units = UnitsCheck(scene: Scene())
                    let report = try TraceReader(skipInvalid: skipInvalid).forEachTrace(path: file) { units.consider($0) }
                    describe(report, file: file)
                    noteUnits(units, file: file)
                    print("\(file): \(report.traces) traces valid" + (report.skipped.isEmpty ? "" : ", \(report.skipped.count) skipped"))
                }
            }
        }
    }
}
