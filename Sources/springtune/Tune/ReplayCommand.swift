import ArgumentParser
import Foundation
import SpringCore
import SpringLayout
import SpringTune
import ToolRuntime
import TraceIO

struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "replay", abstract: "One trace, one parameter set: timeline CSV, summary JSON and a chart.")
    @OptionGroup var presetOptions: PresetOptions
    @Option(help: "Trace id.") var trace: String
    @Option(help: "Output folder.") var out: String
    @Flag(help: "Also write replay.gif (the run as the phone shows it) and replay-filmstrip.png.") var animate = false
    @Option(help: "Animation frames per second (1-60, default 30).", transform: decimal) var fps: Double = 30
    @Option(help: "Animation speed: 1 real time, 0.5 half speed (0.05-10, default 1).", transform: decimal) var speed: Double = 1
    @Option(name: .customLong("vs"), help: ArgumentHelp("NAME=VALUE: a parameter set drawn beside the first in the animation.",
            discussion: "Repeat to change more values of that set; a NAME given again starts another set, so --vs damping=0.4 --vs damping=0.6 draws three panels (at most \(Replay.maxPanels))."))
    var vs: [String] = []
    @Flag(help: ArgumentHelp("Also write engine.json: the model's engine through the trace as the page's WebAssembly module runs it.",
          discussion: "What the module is handed (the model's index, the scene's and the model's numbers) and every frame's numbers, to check a port of the engine against (Reference §15)."))
    var engine = false

    func validate() throws {
        guard fps.isFinite, (1...60).contains(fps) else { throw ValidationError("--fps must be from 1 to 60") }
        guard speed.isFinite, (0.05...10).contains(speed) else { throw ValidationError("--speed must be from 0.05 to 10") }
        guard vs.isEmpty || animate else { throw ValidationError("--vs draws more panels: give --animate too") }
    }

    func run() throws {
        try reportingErrors {
            let loaded = try presetOptions.load()
            let files = presetOptions.traces.isEmpty ? PresetStore.traceFiles(for: loaded) : presetOptions.traces
            var found: Trace?
            for file in files where found == nil {
                try TraceReader().forEachTrace(path: file) { t in if t.id == trace && found == nil { found = t } }
            }
            guard let found else { throw ToolError(.usage, "no trace '\(trace)' in \(files.joined(separator: ", "))") }
            let sets = presetOptions.parsedSets()
            let outcome = try Replay.run(loaded, set: sets, trace: found)
            var summary = outcome.summary
            var figures: [any GnuplotFigure] = [outcome.chart]
            if animate {
                let others = try Replay.comparedSets(base: sets, vs: vs.map(SweepGrid.parseSet))
                let runs = try [outcome] + others.map { try Replay.run(loaded, set: $0, trace: found) }
                let animation = Replay.animation(runs, kind: loaded.kind, labelled: [], fps: fps, speed: speed)
                if case var .object(fields) = summary {
                    fields.append(("duration", .number(Double(animation.frameCount - 1) * speed / fps)))
                    fields.append(("frames", .number(Double(animation.frameCount))))
                    summary = .object(fields)
                }
                figures.append(animation)
            }
            // The folder is rebuilt whole and swapped in (as a sweep's): an animation of an
            // earlier replay does not stay beside this one's timeline.
            let folder = try OutputFolder(out, markers: OutputFolder.replayMarkers)
            defer { folder.abandon() }
            let dir = folder.target
            try AtomicFile.write(outcome.timeline, to: "\(folder.staging)/timeline.csv")
            try AtomicFile.write(summary.rendered(), to: "\(folder.staging)/summary.json")
            if engine {
                var record = try Replay.engine(loaded, set: sets, trace: found)
                record.pictures = outcome.pictures
                try AtomicFile.write(record.json, to: "\(folder.staging)/engine.json")
            }
            let images = try drawCharts(figures, in: folder)
            try folder.commit()
            print("\(dir)/timeline.csv (\(outcome.run.timeline.count) rows)\n\(dir)/summary.json")
            if engine { print("\(dir)/engine.json") }
            images.forEach { print($0) }
            print(summary.rendered(), terminator: "")
        }
    }
}
