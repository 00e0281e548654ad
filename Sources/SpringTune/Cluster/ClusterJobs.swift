import Foundation
import ToolRuntime
import TraceIO

/// `sweep --shard auto`: the shard this process runs, from the environment an array job gives
/// each task. The environment is passed in (never read here), so the rules can be tested.
public enum ShardEnvironment {
    /// The variables `--shard auto` looks at, in order, for messages and docs.
    public static let described = "SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT (a Slurm array job) or JOB_COMPLETION_INDEX with --shard-count (a Kubernetes Indexed Job)"

    /// Shard `(index, count)`, 1-based, for this task.
    ///
    /// - A Slurm array task (`SLURM_ARRAY_TASK_ID` set): index = ID − `SLURM_ARRAY_TASK_MIN` + 1,
    ///   count = `SLURM_ARRAY_TASK_COUNT`, so `--array=0-7` and `--array=1-8` both give 1…8.
    ///   The array must be contiguous with step 1 (MAX − MIN + 1 = COUNT); `shardCount`, when
    ///   given, must equal COUNT.
    /// - Else a Kubernetes Indexed Job (`JOB_COMPLETION_INDEX`, 0-based): index + 1 of
    ///   `shardCount`, which is then required (the Job's `completions`).
    /// - Else a usage error naming the variables looked for.
    public static func shard(shardCount: Int?, environment: [String: String]) throws -> (index: Int, count: Int) {
        if let count = shardCount, count < 1 { throw ToolError(.usage, "--shard-count must be at least 1, got \(count)") }
        if environment["SLURM_ARRAY_TASK_ID"] != nil {
            func value(_ name: String) throws -> Int {
                guard let text = environment[name] else {
                    throw ToolError(.usage, "--shard auto: SLURM_ARRAY_TASK_ID is set but \(name) is not (Slurm 18.08 or later sets both; or give --shard I/N)")
                }
                guard let n = integer(text) else { throw ToolError(.usage, "--shard auto: \(name) is not a whole number: '\(text.prefix(40))'") }
                return n
            }
            let id = try value("SLURM_ARRAY_TASK_ID"), count = try value("SLURM_ARRAY_TASK_COUNT")
            let min = try value("SLURM_ARRAY_TASK_MIN"), max = try value("SLURM_ARRAY_TASK_MAX")
            let step = try environment["SLURM_ARRAY_TASK_STEP"].map { _ in try value("SLURM_ARRAY_TASK_STEP") } ?? 1
            guard count >= 1, min <= max, step == 1, max - min + 1 == count else {
                throw ToolError(.usage, "--shard auto: the Slurm array \(min)-\(max) (step \(step)) has \(count) tasks, not one per id; submit it with a contiguous range such as --array=1-\(count)")
            }
            guard (min...max).contains(id) else {
                throw ToolError(.usage, "--shard auto: SLURM_ARRAY_TASK_ID \(id) lies outside the array \(min)-\(max)")
            }
            if let shardCount, shardCount != count {
                throw ToolError(.usage, "--shard-count \(shardCount) differs from the Slurm array's \(count) tasks (SLURM_ARRAY_TASK_COUNT)")
            }
            return (id - min + 1, count)
        }
        if let text = environment["JOB_COMPLETION_INDEX"] {
            guard let index = integer(text) else { throw ToolError(.usage, "--shard auto: JOB_COMPLETION_INDEX is not a whole number: '\(text.prefix(40))'") }
            guard let count = shardCount else {
                throw ToolError(.usage, "--shard auto: JOB_COMPLETION_INDEX is set (a Kubernetes Indexed Job) but not the number of shards: give --shard-count N (the Job's completions)")
            }
            guard index < count else {
                throw ToolError(.usage, "--shard auto: JOB_COMPLETION_INDEX \(index) is not below --shard-count \(count) (indexes run from 0 to completions - 1)")
            }
            return (index + 1, count)
        }
        throw ToolError(.usage, "--shard auto: not in an array task: it reads \(described), and none is set; or give --shard I/N")
    }

    /// A plain decimal whole number ≥ 0 (no sign, no spaces, at most 9 digits).
    static func integer(_ text: String) -> Int? {
        guard (1...9).contains(text.utf8.count), text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(text)
    }
}

/// Quoting for job scripts: every string placed in one is quoted for its context, and strings
/// with control characters (a newline could start a command) are refused.
public enum ScriptQuoting {
    /// Refuses control characters (NUL, newline, carriage return, escape …) in `text`.
    public static func check(_ text: String, _ what: String) throws {
        if let bad = text.unicodeScalars.first(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw ToolError(.usage, "\(what) contains a control character (U+\(String(format: "%04X", bad.value))); refusing to write it into a job script")
        }
    }

    /// One shell word: `'…'`, a quote inside written `'\''`. Nothing in it is expanded.
    public static func shell(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// One argument of an `#SBATCH` line, which sbatch reads itself (no shell): in double
    /// quotes, with `\` and `"` escaped by a backslash; `#`, `$`, spaces and `'` stay literal.
    public static func sbatch(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// Literal text inside a Slurm file-name pattern (`--output`): `%` doubled.
    public static func slurmPattern(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%%")
    }
}

/// The two job scripts of `springtune slurm submit`: an array job running one shard of the
/// sweep per task, and a merge job (submitted with an `afterok` dependency on the array) that
/// joins the shards into `OUT/report.csv` and draws the charts. Each script records its exit
/// status beside the logs, so the submitter can tell a merge that failed from one that never ran.
public struct SlurmScripts: Sendable {
    /// Absolute path of the springtune executable the jobs run.
    public var executable: String
    /// Absolute output folder.
    public var out: String
    /// Array tasks (shards).
    public var shards: Int
    /// `sweep` arguments for every task (absolute paths), without `--shard`, `--out`, `--threads`.
    public var sweepArguments: [String]
    /// Whether the merge job draws the default charts.
    public var charts = true
    public var jobName = "springtune"
    public var partition: String?
    /// More sbatch options, one per element, for both jobs.
    public var sbatchArguments: [String] = []

    public init(executable: String, out: String, shards: Int, sweepArguments: [String]) {
        self.executable = executable
        self.out = out
        self.shards = shards
        self.sweepArguments = sweepArguments
    }

    public var slurmDirectory: String { "\(out)/slurm" }
    public var sweepScript: String { "\(slurmDirectory)/sweep.sbatch" }
    public var mergeScript: String { "\(slurmDirectory)/merge.sbatch" }
    public var logDirectory: String { "\(slurmDirectory)/logs" }
    public var statusDirectory: String { "\(slurmDirectory)/status" }
    /// Written by the merge job: `STATUS JOBID`.
    public var mergeStatus: String { "\(slurmDirectory)/merge.status" }
    /// Written by each array task: `STATUS ARRAYJOBID`.
    public func shardStatus(_ index: Int) -> String { "\(statusDirectory)/shard-\(index)" }
    public func shardLog(job: String, index: Int) -> String { "\(logDirectory)/sweep-\(job)_\(index).out" }
    public func mergeLog(job: String) -> String { "\(logDirectory)/merge-\(job).out" }
    public var report: String { "\(out)/report.csv" }

    /// Options that the scripts set themselves and an `--sbatch-arg` may not change.
    public static let reservedOptions = ["--array", "--dependency", "--output", "--error", "--wait", "--parsable", "--job-name",
                                         "--kill-on-invalid-dep", "--chdir", "--open-mode"]
    static let reservedShort: [Character] = ["a", "d", "o", "e", "W", "J", "D"]

    /// Refuses what could not be written safely or would break the scripts' layout.
    public func validate() throws {
        guard (1...1000).contains(shards) else { throw ToolError(.usage, "--shards must be from 1 to 1000, got \(shards)") }
        guard executable.hasPrefix("/"), out.hasPrefix("/") else { throw ToolError(.software, "job script paths must be absolute") }
        try ScriptQuoting.check(executable, "the springtune executable's path")
        try ScriptQuoting.check(out, "--out")
        // Slurm ignores every %-pattern of a file name that holds a backslash, so the tasks'
        // logs would overwrite one another.
        guard !out.contains("\\") else { throw ToolError(.usage, "--out contains a backslash, which Slurm log file names cannot hold") }
        for a in sweepArguments { try ScriptQuoting.check(a, "a sweep argument") }
        try ScriptQuoting.check(jobName, "the job name")
        if let partition {
            try ScriptQuoting.check(partition, "--partition")
            guard !partition.isEmpty else { throw ToolError(.usage, "--partition must not be empty") }
        }
        for a in sbatchArguments {
            try ScriptQuoting.check(a, "--sbatch-arg")
            guard a.hasPrefix("-"), a.count > 1 else {
                throw ToolError(.usage, "--sbatch-arg takes one sbatch option such as --sbatch-arg=--time=30, got '\(a.prefix(40))'")
            }
            let name = a.hasPrefix("--") ? String(a.prefix { $0 != "=" }) : ""
            let short = a.hasPrefix("--") ? nil : a.dropFirst().first
            if Self.reservedOptions.contains(name) || short.map(Self.reservedShort.contains) == true {
                throw ToolError(.usage, "--sbatch-arg \(a.prefix(40)): springtune sets this option itself (array, dependency, logs, job name); it cannot be changed")
            }
        }
    }

    private func header(name: String, array: Bool, output: String, comment: [String]) -> String {
        var lines = ["#!/bin/bash"]
        lines.append("#SBATCH --job-name=\(ScriptQuoting.sbatch(name))")
        if array { lines.append("#SBATCH --array=1-\(shards)") }
        lines.append("#SBATCH --output=\(ScriptQuoting.sbatch(output))")
        if let partition { lines.append("#SBATCH --partition=\(ScriptQuoting.sbatch(partition))") }
        for a in sbatchArguments { lines.append("#SBATCH \(ScriptQuoting.sbatch(a))") }
        return (lines + comment.map { "# " + $0 }).joined(separator: "\n") + "\n"
    }

    /// The array job: one shard per task, shard K into `OUT/shards/K`.
    public func sweep() throws -> String {
        try validate()
        let q = ScriptQuoting.shell
        let logs = ScriptQuoting.slurmPattern(logDirectory)
        var text = header(name: jobName, array: true, output: "\(logs)/sweep-%A_%a.out", comment: [
            "Written by `springtune slurm submit`: array task K runs shard K of \(shards) of the sweep into OUT/shards/K.",
        ])
        let command = ([q(executable), "sweep"] + sweepArguments.map(q)).joined(separator: " ")
        text += """
        set -u
        : "${SLURM_ARRAY_TASK_ID:?submit this script with sbatch as an array job (--array=1-\(shards))}"
        out=\(q(out))
        status=0
        \(command) \\
          --shard auto --out "$out/shards/$SLURM_ARRAY_TASK_ID" --threads "${SLURM_CPUS_PER_TASK:-1}" || status=$?
        # The task's exit status, for `slurm submit --wait` to name a failed shard.
        printf '%s %s\\n' "$status" "${SLURM_ARRAY_JOB_ID:-}" > "$out/slurm/status/shard-$SLURM_ARRAY_TASK_ID.tmp" &&
          mv -f "$out/slurm/status/shard-$SLURM_ARRAY_TASK_ID.tmp" "$out/slurm/status/shard-$SLURM_ARRAY_TASK_ID"
        exit "$status"

        """
        return text
    }

    /// The merge job: shards 1…N into `OUT/report.csv` (+ meta and, unless disabled, the charts).
    public func merge() throws -> String {
        try validate()
        let q = ScriptQuoting.shell
        let logs = ScriptQuoting.slurmPattern(logDirectory)
        var text = header(name: jobName + "-merge", array: false, output: "\(logs)/merge-%j.out", comment: [
            "Written by `springtune slurm submit`: joins the \(shards) shards into OUT/report.csv\(charts ? " and draws the charts" : "").",
            "Submitted with --dependency=afterok:<array job> --kill-on-invalid-dep=yes, so it runs only when every shard succeeded.",
        ])
        text += """
        set -u
        out=\(q(out))
        reports=()
        for ((i = 1; i <= \(shards); i++)); do reports+=("$out/shards/$i/report.csv"); done
        status=0
        \(q(executable)) merge "${reports[@]}" -o "$out/report.csv"\(charts ? " --charts" : "") || status=$?
        # The merge's exit status; its absence after the job tells the submitter the merge never ran.
        printf '%s %s\\n' "$status" "${SLURM_JOB_ID:-}" > "$out/slurm/merge.status.tmp" &&
          mv -f "$out/slurm/merge.status.tmp" "$out/slurm/merge.status"
        exit "$status"

        """
        return text
    }

    /// Reads a status file written by a script: `(status, job id)`, nil when absent or unreadable.
    public static func readStatus(_ path: String) -> (status: Int, job: String)? {
        guard let data = FileManager.default.contents(atPath: path), data.count < 200,
              let text = String(data: data, encoding: .utf8) else { return nil }
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
        guard let first = parts.first, let status = ShardEnvironment.integer(first) else { return nil }
        return (status, parts.count > 1 ? parts[1] : "")
    }
}
