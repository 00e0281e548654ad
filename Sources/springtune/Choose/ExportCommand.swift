import SpringCore
import ArgumentParser
import Foundation
import SpringLayout
import SpringTune
import TraceIO

extension ExportFormat: ExpressibleByArgument {}

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write a report row as a preset JSON with provenance, or as SwiftUI, UIKit, Compose, CSS or Figma springs.")
    @Argument(help: "Report CSV (its report.meta.json must sit beside it).") var report: String
    @Option(help: "config_id to export.") var config: Int?
    @Flag(help: "Export the best set under the objective the sweep recorded (or the one the objective flags state; it goes into the export).") var best = false
    @OptionGroup var objectiveOptions: ObjectiveOptions
    @Option(name: [.short, .customLong("output")], help: "File to write (its extension is not checked).") var output: String
    @Option(help: ArgumentHelp("What to write, with the file's usual extension: " + ExportFormat.allCases.map { "\($0.rawValue) (.\($0.usualExtension))" }.joined(separator: ", ")
                               + ". json is the preset; the others are SwiftUI, UIKit, Jetpack Compose, CSS and Figma text.",
                               valueName: ExportFormat.allCases.map(\.rawValue).joined(separator: "|")))
    var format: ExportFormat = .json
    @Option(help: "css: the travel in pt the easing's duration is timed for (settle to within the scene's tolerance of it; default: the scene's height).", transform: decimal)
    var travel: Double?
    @Flag(name: .customLong("copy-traces"), help: "json: copy the sweep's own trace files beside the export (OUT-traces/) and refer to the copies.")
    var copyTraces = false
    @Flag(name: .customLong("keep-sweep"), help: "json: keep the sweep's axes in the export (default: an empty sweep, so the export sweeps to the one set it ships).")
    var keepSweep = false

    func validate() throws {
        guard (config != nil) != best else { throw ValidationError("give exactly one of --config ID and --best") }
        if copyTraces && format != .json { throw ValidationError("--copy-traces goes with --format json only") }
        if keepSweep && format != .json { throw ValidationError("--keep-sweep goes with --format json only") }
        if travel != nil && format != .css { throw ValidationError("--travel goes with --format css only") }
        if !best && (objectiveOptions.statesObjective || objectiveOptions.robust || objectiveOptions.tiebreak != nil) {
            throw ValidationError("--where, --target, --minimize, --maximize, --tiebreak and --robust go with --best")
        }
    }

    func run() throws {
        try reportingErrors {
            // The report is read and ranked once: the note on targets and the row come from the same ranking.
            let table = try SweepReport.read(report, sidecar: .required)
            var objective: Objective?
            if best { objective = try objectiveOptions.objective(for: table) }
            let choice = try Export.choice(table, configId: config, objective: objective)
            if let ranked = choice.ranked, let objective { try Ranking(objective: objective).note(ranked).map { note("springtune: \($0)") } }
            var preset = try Export.preset(table, row: choice.row, destination: output, keepSweep: keepSweep, objective: objective)
            let id = preset.provenance?.configId ?? 0
            // The output's folder lock, as merge takes it: a run writing that folder would swap the file away.
            try OutputFolder.writing(into: URL(fileURLWithPath: output).deletingLastPathComponent().path) {
                if format == .json {
                    if copyTraces { try Export.copyTraces(&preset, destination: output) }
                    try AtomicFile.write(try JSONCoding.encode(preset), to: output)
                    print("\(output): config \(id), frequency \(NumberFormat.cell(preset.spring.frequency)) Hz, damping \(NumberFormat.cell(preset.spring.damping))"
                          + (keepSweep ? ", \(preset.sweep.count) sweep axes kept" : ", pinned (no sweep axes)"))
                } else if let text = try format.text(PlatformPreset(preset: preset, travel: travel)) {
                    try AtomicFile.write(text, to: output)
                    print("\(output): \(format.rawValue) for config \(id) of \(PlatformPreset.comment(preset.name))")
                }
            }
        }
    }
}
