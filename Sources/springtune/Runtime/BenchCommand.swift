import ArgumentParser
import Foundation
import Preference
import SpringCore
import SpringLayout
import SpringTune
import ToolRuntime
import TraceIO

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Time three fixed workloads (evernote's pinned 384-set bench grid with charts, a 10,000-set sweep, the bench grid on one thread); count instructions per item-step with callgrind on 64 of its sets; compare one core against the NumPy rewrite in bench/ on the bench grid.",
        discussion: "Takes under a minute. Counting needs valgrind on PATH (else skipped); the NumPy comparison needs python3 with NumPy and bench/flow_layout_numpy.py (run from the repository, or pass --numpy). With --preference --preset NAME it instead times the preference model (fit + proposal of 4 at 60 comparisons) and plays simulated designers over the preset's sweep axes (Reference §12).")
    @Option(help: "Worker threads (default: all cores).") var threads: Int = ProcessInfo.processInfo.activeProcessorCount
    @Option(help: "Repetitions per workload (the fastest counts).") var repetitions: Int = 3
    @Option(help: "The NumPy rewrite to compare against (default: bench/flow_layout_numpy.py, skipped when absent).") var numpy: String?
    @Flag(inversion: .prefixedNo, help: "Count instructions per item-step with callgrind when valgrind is present.") var callgrind = true
    @Flag(help: "Bench the preference model instead: latency of fit + proposal at 60 comparisons, and simulated designers' convergence.") var preference = false
    @Option(help: "With --preference: the preset whose sweep axes the taste is learned over (name or path).") var preset: String?
    @Option(help: "With --preference: simulated designers (seeds 0…N−1).") var seeds: Int = 10
    @Option(help: "With --preference: rounds of worst-of-four per designer.") var rounds: Int = 30
    @Option(help: ArgumentHelp("Time the native engine per frame on an engine record (replay --engine's engine.json) instead.",
            discussion: "Best of --repetitions passes through the record's frames; bench/wasm_frames.mjs times the WebAssembly module on the same record (Reference §15).", valueName: "FILE"))
    var engine: String?

    func validate() throws {
        if engine != nil {
            guard !preference, preset == nil, numpy == nil else { throw ValidationError("--engine is not for --preference, --preset or --numpy") }
        } else if preference {
            guard preset != nil else { throw ValidationError("--preference needs --preset NAME") }
            guard (1...100).contains(seeds) else { throw ValidationError("--seeds must be from 1 to 100") }
            guard (5...200).contains(rounds) else { throw ValidationError("--rounds must be from 5 to 200") }
            guard numpy == nil else { throw ValidationError("--numpy is not for --preference") }
        } else if preset != nil {
            throw ValidationError("--preset is for --preference (the other workloads use evernote)")
        }
        guard (1...256).contains(threads) else { throw ValidationError("--threads must be from 1 to 256") }
        guard (1...100).contains(repetitions) else { throw ValidationError("--repetitions must be from 1 to 100") }
    }

    func run() throws {
        if preference, let preset { return try runPreference(preset) }
        if let engine { return try runEngine(engine) }
        try reportingErrors {
            if let numpy, !FileManager.default.fileExists(atPath: numpy) { throw ToolError(.noInput, "\(numpy): no such file") }
            let numpy = self.numpy ?? "bench/flow_layout_numpy.py"
            let store = PresetStore()
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("springtune-bench-\(getpid())").path
            defer { try? FileManager.default.removeItem(atPath: dir) }
            let evernote = try store.load("evernote")
            var standard = try Benchmark.grid.applied(to: SweepJob(loaded: evernote, outputDirectory: "\(dir)/default"))
            standard.threads = threads
            var large = try Benchmark.largeGrid.applied(to: SweepJob(loaded: evernote, outputDirectory: "\(dir)/large"))
            large.threads = threads
            large.charts = false
            var single = try Benchmark.grid.applied(to: SweepJob(loaded: evernote, outputDirectory: "\(dir)/single"))
            single.threads = 1
            single.charts = false
            let results = [
                try Benchmark.measure("evernote bench grid + charts", job: standard, repetitions: repetitions),
                try Benchmark.measure("evernote 10,000 sets, no charts", job: large, repetitions: max(1, repetitions / 2)),
                try Benchmark.measure("evernote bench grid, 1 thread, no charts", job: single, repetitions: repetitions),
            ]
            print("build: \(Benchmark.buildTarget); threads \(threads), best of \(repetitions) (10k workload: best of \(max(1, repetitions / 2)))")
            print(TextTable(header: ["workload", "sets", "seconds", "sets/s", "item-steps/s"], rows: results.map {
                [$0.name, String($0.configs), NumberFormat.fixed($0.seconds, 3), NumberFormat.fixed($0.setsPerSecond, 0),
                 NumberFormat.significant($0.itemStepsPerSecond, 3)]
            }).rendered, terminator: "")
            do {
                if let seconds = try Benchmark.numpySeconds(script: numpy, preset: evernote.path, grid: Benchmark.grid,
                                                              traces: PresetStore.traceFiles(for: evernote)) {
                    print("NumPy rewrite (\(numpy)), evernote bench grid, one core: \(NumberFormat.fixed(seconds, 3)) s; springtune one thread \(NumberFormat.fixed(results[2].seconds, 3)) s: \(NumberFormat.fixed(seconds / results[2].seconds, 1))× faster")
                } else {
                    print("NumPy comparison skipped (needs python3 with NumPy and \(numpy))")
                }
            } catch let error as ToolError {
                print("NumPy comparison skipped: \(error.message)")
            }
            guard callgrind else { return }
            let self_ = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
            let counted = try Benchmark.countedGrid.applied(to: SweepJob(loaded: evernote, outputDirectory: dir))
            let sets = try counted.grid().count
            if let c = try Benchmark.count(self_, job: counted, gridArguments: ["--preset", "evernote"] + Benchmark.countedGrid.arguments,
                                           sets: sets, outputDirectory: dir) {
                print("callgrind, evernote \(sets) sets (boundaryResistance 10), one thread: \(c.instructions) instructions in the flow-layout kernel; \(NumberFormat.fixed(c.perItemStep, 2)) instructions per item-step (\(NumberFormat.significant(c.itemSteps, 4)) item-steps, full tails)")
            } else {
                print("instruction count skipped (valgrind not on PATH)")
            }
        }
    }

    /// `--engine FILE`: the native engine's time per frame on an engine record, and how far
    /// its frames are from the record's.
    func runEngine(_ path: String) throws {
        try reportingErrors {
            let record = try EngineRecord(json: try InputFile.contents(path, limit: 256 << 20), file: path)
            let (seconds, worst, numbers) = try record.timed(repetitions: repetitions)
            let name = ModelKind.registry[record.engine].modelName
            print("\(path): \(name), \(record.frames.count) frames of \(NumberFormat.fixed(numbers, 0)) numbers, native (\(Benchmark.buildTarget)), best of \(repetitions): "
                  + "\(NumberFormat.fixed(seconds * 1e9, 0)) ns per frame; largest difference from the record \(NumberFormat.significant(worst, 2))")
        }
    }

    /// `--preference`: the latency line and the convergence table (Reference §12).
    func runPreference(_ name: String) throws {
        try reportingErrors {
            let learned = try PresetPreferenceSpace(PresetStore().load(name))
            let axes = learned.space.axes.map { axis -> String in
                if case .numeric(_, _, true) = axis.kind { return "\(axis.name) (log)" }
                return axis.name
            }
            do {
                let latency = try PreferenceBench.latency(space: learned.space, repetitions: max(25, repetitions))
                let ms = { (s: Double) in NumberFormat.fixed(s * 1000, 1) + " ms" }
                print("preset \(name): \(axes.count) axes (\(axes.joined(separator: ", "))); build: \(Benchmark.buildTarget)")
                print("fit + proposal of 4 at \(latency.comparisons) comparisons (\(latency.points) points), \(latency.repetitions) repetitions: p50 \(ms(latency.p50)), p95 \(ms(latency.p95)), max \(ms(latency.max))")
                print("simulated designers (worst of 4, perception noise sd 0.05 of the utility range): scaled utility of the best estimate after each round")
                print(PreferenceBench.table(try PreferenceBench.convergence(space: learned.space, seeds: seeds, rounds: rounds), rounds: rounds), terminator: "")
            } catch let error as PreferenceError {
                throw ToolError(.software, "preference model: \(error.description)")
            }
        }
    }
}
