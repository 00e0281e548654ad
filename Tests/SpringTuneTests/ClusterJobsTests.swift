import Foundation
import Testing
@testable import SpringTune
import ToolRuntime
import TraceIO

/// `sweep --shard auto` from an array task's environment, and the job scripts of `slurm submit`.
@Suite struct ShardEnvironmentTests {
    func slurm(id: Int, min: Int, max: Int, count: Int, step: Int? = nil) -> [String: String] {
        var env = ["SLURM_ARRAY_TASK_ID": "\(id)", "SLURM_ARRAY_TASK_MIN": "\(min)", "SLURM_ARRAY_TASK_MAX": "\(max)",
                   "SLURM_ARRAY_TASK_COUNT": "\(count)", "SLURM_JOB_ID": "99"]
        if let step { env["SLURM_ARRAY_TASK_STEP"] = "\(step)" }
        return env
    }

    func usageError(_ body: () throws -> Any) -> String? {
        do { _ = try body(); return nil } catch let e as ToolError { return e.code == .usage ? e.message : "wrong code \(e.code)" } catch { return "\(error)" }
    }

    @Test func slurmArraysFromOneOrZero() throws {
        #expect(try ShardEnvironment.shard(shardCount: nil, environment: slurm(id: 1, min: 1, max: 4, count: 4)) == (1, 4))
        #expect(try ShardEnvironment.shard(shardCount: nil, environment: slurm(id: 4, min: 1, max: 4, count: 4, step: 1)) == (4, 4))
        #expect(try ShardEnvironment.shard(shardCount: nil, environment: slurm(id: 0, min: 0, max: 7, count: 8)) == (1, 8))
        #expect(try ShardEnvironment.shard(shardCount: nil, environment: slurm(id: 7, min: 0, max: 7, count: 8)) == (8, 8))
        #expect(try ShardEnvironment.shard(shardCount: nil, environment: slurm(id: 12, min: 10, max: 13, count: 4)) == (3, 4))
        // --shard-count agreeing with the array is accepted; disagreeing is refused.
        #expect(try ShardEnvironment.shard(shardCount: 4, environment: slurm(id: 2, min: 1, max: 4, count: 4)) == (2, 4))
        #expect(usageError { try ShardEnvironment.shard(shardCount: 5, environment: slurm(id: 2, min: 1, max: 4, count: 4)) }?.contains("differs") == true)
    }

    @Test func slurmArraysThatAreNotOneShardPerId() throws {
        // --array=1-7:2 (ids 1, 3, 5, 7) and --array=1,2,5 are refused, with the fix.
        let step = usageError { try ShardEnvironment.shard(shardCount: nil, environment: slurm(id: 3, min: 1, max: 7, count: 4, step: 2)) }
        #expect(step?.contains("--array=1-4") == true)
        #expect(usageError { try ShardEnvironment.shard(shardCount: nil, environment: slurm(id: 2, min: 1, max: 5, count: 3)) } != nil)
        #expect(usageError { try ShardEnvironment.shard(shardCount: nil, environment: slurm(id: 9, min: 1, max: 4, count: 4)) }?.contains("outside") == true)
        var partial = slurm(id: 1, min: 1, max: 4, count: 4)
        partial["SLURM_ARRAY_TASK_COUNT"] = nil
        #expect(usageError { try ShardEnvironment.shard(shardCount: nil, environment: partial) }?.contains("SLURM_ARRAY_TASK_COUNT") == true)
        for bad in ["-1", "+2", " 2", "2x", "", "1234567890"] {
            var env = slurm(id: 1, min: 1, max: 4, count: 4)
            env["SLURM_ARRAY_TASK_ID"] = bad
            #expect(usageError { try ShardEnvironment.shard(shardCount: nil, environment: env) }?.contains("whole number") == true, "\(bad)")
        }
    }

    @Test func kubernetesIndexedJobs() throws {
        #expect(try ShardEnvironment.shard(shardCount: 3, environment: ["JOB_COMPLETION_INDEX": "0"]) == (1, 3))
        #expect(try ShardEnvironment.shard(shardCount: 3, environment: ["JOB_COMPLETION_INDEX": "2"]) == (3, 3))
        #expect(usageError { try ShardEnvironment.shard(shardCount: 3, environment: ["JOB_COMPLETION_INDEX": "3"]) } != nil)
        #expect(usageError { try ShardEnvironment.shard(shardCount: nil, environment: ["JOB_COMPLETION_INDEX": "0"]) }?.contains("--shard-count") == true)
        #expect(usageError { try ShardEnvironment.shard(shardCount: 0, environment: ["JOB_COMPLETION_INDEX": "0"]) } != nil)
        // A Slurm array wins over a stray index.
        var both = slurm(id: 2, min: 1, max: 2, count: 2)
        both["JOB_COMPLETION_INDEX"] = "0"
        #expect(try ShardEnvironment.shard(shardCount: nil, environment: both) == (2, 2))
    }

    @Test func noArrayTaskNamesTheVariables() {
        let message = usageError { try ShardEnvironment.shard(shardCount: nil, environment: ["SLURM_JOB_ID": "5", "HOME": "/root"]) }
        #expect(message?.contains("SLURM_ARRAY_TASK_ID") == true)
        #expect(message?.contains("JOB_COMPLETION_INDEX") == true)
    }
}

@Suite struct SlurmScriptTests {
    @Test func quoting() {
        #expect(ScriptQuoting.shell("plain") == "'plain'")
        #expect(ScriptQuoting.shell("it's") == "'it'\\''s'")
        #expect(ScriptQuoting.sbatch("a \"b\" \\c #d $e") == "\"a \\\"b\\\" \\\\c #d $e\"")
        #expect(ScriptQuoting.slurmPattern("/x/100%/y") == "/x/100%%/y")
        #expect(throws: ToolError.self) { try ScriptQuoting.check("a\nb", "x") }
        #expect(throws: ToolError.self) { try ScriptQuoting.check("a\u{0}b", "x") }
        #expect(throws: ToolError.self) { try ScriptQuoting.check("a\rb", "x") }
    }

    func scripts(out: String = "/shared/ev", arguments: [String] = ["--preset", "/p/evernote.json"]) -> SlurmScripts {
        SlurmScripts(executable: "/opt/springtune/bin/springtune", out: out, shards: 4, sweepArguments: arguments)
    }

    @Test func layoutOfTheScripts() throws {
        var s = scripts(out: "/shared/ev 100%")
        s.partition = "short"
        s.sbatchArguments = ["--time=30", "--account=a b"]
        let sweep = try s.sweep(), merge = try s.merge()
        #expect(sweep.hasPrefix("#!/bin/bash\n"))
        #expect(sweep.contains("#SBATCH --array=1-4\n"))
        #expect(sweep.contains("#SBATCH --output=\"/shared/ev 100%%/slurm/logs/sweep-%A_%a.out\"\n"))
        #expect(sweep.contains("#SBATCH --partition=\"short\"\n"))
        #expect(sweep.contains("#SBATCH \"--account=a b\"\n"))
        #expect(sweep.contains("--shard auto --out \"$out/shards/$SLURM_ARRAY_TASK_ID\" --threads \"${SLURM_CPUS_PER_TASK:-1}\""))
        #expect(merge.contains("#SBATCH --output=\"/shared/ev 100%%/slurm/logs/merge-%j.out\"\n"))
        #expect(merge.contains("merge \"${reports[@]}\" -o \"$out/report.csv\" --charts"))
        #expect(!merge.contains("--array"))
        s.charts = false
        #expect(try !s.merge().contains("--charts"))
    }

    @Test func refusals() {
        var s = scripts()
        s.sbatchArguments = ["--array=1-9"]
        #expect(throws: ToolError.self) { try s.sweep() }
        s.sbatchArguments = ["-d", "afterok:1"]
        #expect(throws: ToolError.self) { try s.sweep() }
        s.sbatchArguments = ["time=30"]
        #expect(throws: ToolError.self) { try s.sweep() }
        s.sbatchArguments = ["--time=30\n#SBATCH --x"]
        #expect(throws: ToolError.self) { try s.sweep() }
        #expect(throws: ToolError.self) { try scripts(out: "/a\\b").sweep() }
        #expect(throws: ToolError.self) { try scripts(out: "relative").sweep() }
        #expect(throws: ToolError.self) { try scripts(arguments: ["--set", "a=1\nrm -rf /"]).sweep() }
        var many = scripts()
        many.shards = 1001
        #expect(throws: ToolError.self) { try many.sweep() }
    }

    /// The array script run by bash, with hostile text in the output folder and the sweep
    /// arguments: every value reaches the program verbatim and nothing in them runs.
    @Test func hostileTextRunsNothing() throws {
        let root = Fixture.tempDir()
        let out = "\(root)/it's \"$(touch \(root)/INJECTED)\" `touch \(root)/INJECTED` $HOME;touch \(root)/INJECTED"
        try FileManager.default.createDirectory(atPath: "\(out)/slurm/status", withIntermediateDirectories: true)
        let program = "\(root)/args.sh"
        try "#!/bin/sh\nfor a; do printf '%s\\n' \"$a\"; done > \"$ARGS_FILE\"\nexit 3\n".write(toFile: program, atomically: true, encoding: .utf8)
        chmod(program, 0o755)
        let hostile = ["--preset", "x'; touch \(root)/INJECTED; '", "--set", "a=$(touch \(root)/INJECTED)", "--vary", "`touch \(root)/INJECTED`", "--traces", "\\'\"*"]
        var s = SlurmScripts(executable: program, out: out, shards: 2, sweepArguments: hostile)
        s.jobName = "j"
        let script = "\(root)/sweep.sbatch"
        try s.sweep().write(toFile: script, atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = [script]
        p.environment = ["PATH": "/usr/bin:/bin", "SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_JOB_ID": "77", "ARGS_FILE": "\(root)/args.txt"]
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == 3)
        #expect(!FileManager.default.fileExists(atPath: "\(root)/INJECTED"))
        let args = try String(contentsOfFile: "\(root)/args.txt", encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(args.dropLast() == ["sweep"] + hostile + ["--shard", "auto", "--out", "\(out)/shards/2", "--threads", "1"])
        // The task's status, for the submitter.
        #expect(SlurmScripts.readStatus(s.shardStatus(2))! == (3, "77"))
    }
}
