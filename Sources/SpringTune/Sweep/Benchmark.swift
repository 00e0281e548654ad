import CPUCheck
import Foundation
import SpringLayout
import ToolRuntime
import TraceIO

/// `springtune bench`: fixed sweep workloads, timed end to end.
public enum Benchmark {
    public struct Result: Sendable {
        public var name: String
        public var configs: Int
        public var itemSteps: Double
        /// Best of the repetitions (s).
        public var seconds: Double
        public var setsPerSecond: Double { Double(configs) / seconds }
        public var itemStepsPerSecond: Double { itemSteps / seconds }
    }

    /// A sweep grid as `springtune sweep` gives it on the command line (Reference §10.1): `--vary`
    /// axes (`NAME=FROM:TO:STEPS[:log]` or `NAME=v1,v2,…`) that replace the preset's axes of
    /// those names, and `--set` values (`NAME=VALUE`) that remove them. One text serves the
    /// in-process workloads, the child `springtune` that callgrind counts and the NumPy rewrite,
    /// so all three sweep the same sets.
    public struct Grid: Sendable {
        /// `--vary` texts.
        public var vary: [String]
        /// `--set` texts.
        public var set: [String] = []

        /// The command-line arguments: `--vary A --vary B … --set C …`.
        public var arguments: [String] { vary.flatMap { ["--vary", $0] } + set.flatMap { ["--set", $0] } }

        /// This grid with `assignment` (`NAME=VALUE`) fixed: the axis NAME dropped, the value set.
        public func fixing(_ assignment: String) -> Grid {
            let name = assignment.prefix { $0 != "=" } + "="
            return Grid(vary: vary.filter { !$0.hasPrefix(name) }, set: set + [assignment])
        }

        /// `job` sweeping this grid.
        public func applied(to job: SweepJob) throws -> SweepJob {
            var job = job
            job.vary = try vary.map(SweepGrid.parseVary)
            job.set = Dictionary(uniqueKeysWithValues: try set.map(SweepGrid.parseSet))
            return job
        }
    }

    /// The bench grid, over `evernote`: its default sweep until 2026-11-24, boundaryResistance
    /// 4, 6, 8, 10, 14, 20 × damping 0.5…1.2 in 8 linear steps × frequency 0.5…4 Hz in 8 log
    /// steps, 384 sets (it replaces each of the preset's three axes). Pinned here rather than
    /// read from the preset, whose default grid then became 240 sets and may change again: the
    /// work `bench` times and counts must stay the same from release to release, or its figures
    /// could not be compared with the history in docs/Performance.md.
    public static let grid = Grid(vary: ["boundaryResistance=4,6,8,10,14,20", "damping=0.5:1.2:8", "frequency=0.5:4:8:log"])

    /// The counted grid: ``grid`` with boundaryResistance 10, 64 sets (a sixth of it, the same
    /// mix of springs), counted with callgrind in about 15 s.
    public static let countedGrid = grid.fixing("boundaryResistance=10")

    /// The large workload: boundaryResistance 4…20 in 10 steps × damping 0.4…1.3 in 25 ×
    /// frequency 0.5…4 Hz in 40 log steps, 10,000 sets, fixed since it was added.
    public static let largeGrid = Grid(vary: ["boundaryResistance=4:20:10", "damping=0.4:1.3:25", "frequency=0.5:4:40:log"])

    /// What the kernel was compiled for (figures depend on it; the numbers do not).
    public static var buildTarget: String { springtune_build_level() == 3 ? "x86-64-v3 (AVX2)" : "baseline (no AVX2)" }

    /// Item-steps of one parameter set over the preset's traces: Σ frames × rows.
    static func itemSteps(_ job: SweepJob) throws -> Double {
        let files = job.traceFiles ?? PresetStore.traceFiles(for: job.loaded)
        let rows = job.loaded.preset.params["itemCount"]?.number ?? 1
        var frames = 0.0
        for file in files {
            for trace in try TraceReader().read(path: file).traces {
                frames += Double(FrameClock(trace: trace, scene: job.loaded.preset.scene).lastFrame)
            }
        }
        return frames * rows
    }

    /// Runs `job` `repetitions` times and keeps the fastest.
    public static func measure(_ name: String, job: SweepJob, repetitions: Int) throws -> Result {
        var best = Double.infinity, configs = 0
        for _ in 0..<repetitions {
            let start = Date()
            let outcome = try job.run()
            best = min(best, Date().timeIntervalSince(start))
            configs = outcome.configs
        }
        return Result(name: name, configs: configs, itemSteps: try itemSteps(job) * Double(configs), seconds: best)
    }

    /// Instructions counted by callgrind (`valgrind --tool=callgrind`) for `springtune ARGS`,
    /// only inside the functions `toggle` names (callgrind's `--toggle-collect` pattern), or nil
    /// without valgrind. Counted, not timed, so stable on a busy machine.
    public static func instructions(_ executable: String, _ arguments: [String], toggle: String) throws -> Int? {
        guard let valgrind = Subprocess.executable("valgrind") else { return nil }
        let r = try Subprocess.run(valgrind, ["--tool=callgrind", "--callgrind-out-file=/dev/null", "--demangle=no", "--toggle-collect=\(toggle)",
                                              executable] + arguments)
        guard r.status == 0, let line = r.errors.split(separator: "\n").first(where: { $0.contains("Collected :") }),
              let count = Int(line.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") else {
            // valgrind prefixes its lines with "==PID== "; name the last one that says something.
            let said = r.errors.split(separator: "\n").last { $0.split(separator: " ", maxSplits: 1).count > 1 } ?? ""
            throw ToolError(.software, "callgrind run failed (exit \(r.status)): \(said)")
        }
        return count
    }

    /// The flow-layout kernel's entry, as callgrind sees it: the `MeasuredModel` witness of
    /// `FlowLayout.run(_:_:)`, through which the sweep runs a group of sets over one trace
    /// (lanes, every frame, the early exit, the results). One exact name: a pattern matching
    /// nested functions would toggle collection off inside the inner one.
    static let kernel = "$s12SpringLayout04FlowB0V0A4Tune13MeasuredModelA2dEP3runySayAD8TraceRunVGSayxG_8PreparedQztFZTW"

    /// Instructions per item-step of the flow-layout kernel: the instructions executed inside
    /// ``kernel`` during a sweep, over the sweep's item-steps (each set counted with its full
    /// tail, Reference §6). Start-up, reading, each trace's scroll motion (shared by all sets),
    /// aggregation and writing are outside it.
    public struct Count: Sendable {
        public var instructions: Int
        public var itemSteps: Double
        public var perItemStep: Double { Double(instructions) / itemSteps }
    }

    /// Counts `sweep` over `gridArguments` (sets `sets`) on one thread.
    public static func count(_ executable: String, job: SweepJob, gridArguments: [String], sets: Int, outputDirectory: String) throws -> Count? {
        guard let counted = try instructions(executable, ["sweep"] + gridArguments + ["--no-charts", "--threads", "1", "--out", "\(outputDirectory)/grid"],
                                             toggle: kernel) else { return nil }
        guard counted > 0 else { throw ToolError(.software, "callgrind counted no instruction in the flow-layout kernel (\(kernel)): was the function renamed?") }
        return Count(instructions: counted, itemSteps: try itemSteps(job) * Double(sets))
    }

    /// Wall seconds of the NumPy rewrite in `bench/` (its own timing of the computation, one
    /// core) sweeping `grid` over `preset`, or nil without python3 or the script; throws with
    /// Python's last line when the script fails (NumPy missing, say).
    public static func numpySeconds(script: String, preset: String, grid: Grid, traces: [String]) throws -> Double? {
        guard FileManager.default.fileExists(atPath: script), let python = Subprocess.executable("python3") else { return nil }
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("springtune-numpy-\(getpid()).csv").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let r = try Subprocess.run(python, [script, "--preset", preset] + grid.arguments + ["--out", out, "--traces"] + traces,
                                   environment: ["OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"])
        guard r.status == 0 else {
            let said = r.errors.split(separator: "\n").last ?? ""
            throw ToolError(.software, "python3 \(script) exited \(r.status) (\(said))")
        }
        let field = r.output.split(separator: " ").first { $0.hasPrefix("seconds=") }
        return field.flatMap { Double($0.dropFirst("seconds=".count)) }
    }
}
