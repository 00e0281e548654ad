import ArgumentParser
import Foundation
import SpringLayout
import SpringTune
import TraceIO

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "export", abstract: "Write a report row as a preset JSON with provenance.")
    @Argument(help: "Report CSV (its report.meta.json must sit beside it).") var report: String
    @Option(help: "config_id to export.") var config: Int?
    @Flag(help: "Export the best set under the preset's objective.") var best = false
    @Option(name: [.short, .customLong("output")], help: "Preset file to write.") var output: String
    @Flag(name: .customLong("copy-traces"), help: "Copy the sweep's own trace files beside the export (OUT-traces/) and refer to the copies.")
    var copyTraces = false
    @Flag(name: .customLong("keep-sweep"), help: "Keep the sweep's axes in the export (default: an empty sweep, so the export sweeps to the one set it ships).")
    var keepSweep = false

    func validate() throws {
        guard (config != nil) != best else { throw ValidationError("give exactly one of --config ID and --best") }
    }

    func run() throws {
        try reportingErrors {
            var preset = try Export.preset(report: report, configId: config, destination: output, keepSweep: keepSweep)
            if copyTraces { try Export.copyTraces(&preset, destination: output) }
            try AtomicFile.write(try JSONCoding.encode(preset), to: output)
            print("\(output): config \(preset.provenance!.configId), frequency \(formatNumber(preset.spring.frequency)) Hz, damping \(formatNumber(preset.spring.damping))"
                  + (keepSweep ? ", \(preset.sweep.count) sweep axes kept" : ", pinned (no sweep axes)"))
        }
    }
}
