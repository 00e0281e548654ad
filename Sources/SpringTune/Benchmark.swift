import Foundation
import SpringLayout
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
}
