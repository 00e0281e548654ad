import ArgumentParser
import Foundation
import SpringTune
import ToolRuntime
import TraceIO

struct SlurmCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "slurm", abstract: "Run a sweep on a Slurm cluster: an array job with one shard per task, then a merge job.",
        subcommands: [Submit.self])

    struct Submit: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write and submit the array job and the merge job of a sharded sweep.",
            discussion: """
            Writes OUT/slurm/sweep.sbatch (an array job: task K runs `springtune sweep … --shard auto` into OUT/shards/K, \
            logs in OUT/slurm/logs/sweep-JOB_K.out) and OUT/slurm/merge.sbatch (dependent on the array with afterok: merges \
            the shards into OUT/report.csv and draws the charts), submits both with sbatch and prints the job ids. \
            Every other option is a `sweep` option (see springtune sweep --help) passed to each task; each task runs \
            with --threads from --cpus-per-task (give --sbatch-arg=--cpus-per-task=K). \
            Example: springtune slurm submit --preset evernote --vary damping=0.4:1.3:40 --shards 32 --out /shared/ev --partition short --wait
            """)

        @OptionGroup var presetOptions: PresetOptions
        @Option(help: "Number of array tasks, one shard each (1-1000).") var shards: Int
        @Option(help: "Output folder (on a file system every node sees): slurm/ (scripts, logs), shards/1…N, and the merged report.csv with its charts.")
        var out: String
        @Option(help: "Slurm partition for both jobs.") var partition: String?
        @Option(name: .customLong("sbatch-arg"), parsing: .unconditionalSingleValue,
                help: "One more sbatch option for both jobs, e.g. --sbatch-arg=--time=30 (repeat for more).")
        var sbatchArgs: [String] = []
        @Flag(help: "Wait until the merge job ends and exit with its status (a failed shard: its status).") var wait = false
        @Flag(name: .customLong("dry-run"), help: "Write the scripts and print the sbatch commands without submitting.") var dryRun = false
        @Argument(parsing: .allUnrecognized, help: "Other sweep options (--vary, --estimator, --skip-invalid, --no-charts, --max-sets, …), passed to every task.")
        var sweepArguments: [String] = []

        func validate() throws {
            guard (1...1000).contains(shards) else { throw ValidationError("--shards must be from 1 to 1000") }
            guard !out.isEmpty else { throw ValidationError("--out must not be empty") }
            guard !(wait && dryRun) else { throw ValidationError("--wait submits and waits; --dry-run submits nothing: give one") }
            for name in ["--shard", "--shard-count", "--threads", "--out", "--refine"] {
                guard let given = sweepArguments.first(where: { $0 == name || $0.hasPrefix(name + "=") }) else { continue }
                switch name {
                case "--threads": throw ValidationError("\(given): each task runs with --threads from --cpus-per-task; give --sbatch-arg=--cpus-per-task=K")
                case "--refine": throw ValidationError("--refine runs whole grids one after another; it cannot be split into shards")
                default: throw ValidationError("\(given): slurm submit sets the shard and the output folders itself")
                }
            }
        }

        func run() throws {
            try reportingErrors {
                let cwd = FileManager.default.currentDirectoryPath
                func absolute(_ path: String) -> String {
                    URL(fileURLWithPath: path.hasPrefix("/") ? path : cwd + "/" + path).standardizedFileURL.path
                }
                // The sweep options, checked as `sweep` checks them (and the grid built) before anything is written.
                let loaded = try presetOptions.load()
                let traces = presetOptions.traces.map(absolute)
                var taskArguments = ["--preset", absolute(loaded.path)] + presetOptions.sets.flatMap { ["--set", $0.argument] } + sweepArguments
                if !sweepArguments.contains("--no-charts") { taskArguments.append("--no-charts") }
                if !traces.isEmpty { taskArguments += ["--traces"] + traces }
                let sweep: SweepCommand
                do {
                    sweep = try SweepCommand.parse(taskArguments + ["--shard", "1/\(shards)", "--out", "/"])
                } catch {
                    throw ValidationError(SweepCommand.message(for: error))
                }
                var job = SweepJob(loaded: loaded, outputDirectory: "/")
                job.vary = sweep.vary
                job.set = presetOptions.parsedSets()
                job.maxSets = sweep.maxSets
                let sets = try job.grid().count
                guard shards <= sets else { throw ToolError(.usage, "--shards \(shards) is more than the grid's \(sets) parameter sets") }
                for file in traces where !FileManager.default.isReadableFile(atPath: file) {
                    throw ToolError(.noInput, "\(file): cannot read trace file")
                }

                var scripts = SlurmScripts(executable: try Self.executablePath(), out: absolute(out), shards: shards, sweepArguments: taskArguments)
                scripts.charts = !sweepArguments.contains("--no-charts")
                scripts.jobName = "springtune-" + safeFileName(loaded.preset.name)
                scripts.partition = partition
                scripts.sbatchArguments = sbatchArgs
                let sweepText = try scripts.sweep(), mergeText = try scripts.merge()
                let sbatch = dryRun ? nil : Subprocess.executable("sbatch")
                if !dryRun && sbatch == nil {
                    throw ToolError(.unavailable, "sbatch not found on PATH: slurm submit needs Slurm's client commands (--dry-run writes the scripts only)")
                }

                try prepare(scripts)
                try AtomicFile.write(sweepText, to: scripts.sweepScript)
                try AtomicFile.write(mergeText, to: scripts.mergeScript)
                print("wrote \(scripts.sweepScript)\nwrote \(scripts.mergeScript)")
                guard let sbatch else {
                    print("dry run: nothing submitted; to submit by hand:")
                    print("  id=$(sbatch --parsable \(ScriptQuoting.shell(scripts.sweepScript))) &&")
                    print("  sbatch --parsable --dependency=afterok:\"${id%%;*}\" --kill-on-invalid-dep=yes \(ScriptQuoting.shell(scripts.mergeScript))")
                    return
                }

                let sweepJob = try Self.submit(sbatch, [scripts.sweepScript], what: "the sweep job")
                var mergeJob = ""
                let mergeArguments = (wait ? ["--wait"] : []) + ["--dependency=afterok:\(sweepJob)", "--kill-on-invalid-dep=yes", scripts.mergeScript]
                let status: Int32
                do {
                    (mergeJob, status) = try Self.sbatch(sbatch, mergeArguments, what: "the merge job") { id in
                        print("sweep job \(sweepJob) (\(shards) tasks), merge job \(id)")
                        print("logs:   \(scripts.logDirectory)")
                        fflush(nil)
                        Cleanup.shared.setInterruptedNote("springtune: stopped waiting; the jobs keep running (squeue; cancel with: scancel \(sweepJob) \(id))")
                    }
                } catch let error as ToolError {
                    // No merge to follow it: the array would run for nothing.
                    let cancelled = Subprocess.executable("scancel").map { (try? Subprocess.run($0, [sweepJob], discardOutput: true))?.status == 0 } ?? false
                    throw ToolError(error.code, error.message + (cancelled ? "; the sweep job \(sweepJob) was cancelled" : "; cancel the sweep job with: scancel \(sweepJob)"))
                }
                guard wait else {
                    print("report: \(scripts.report) (when the merge job ends)")
                    return
                }
                try verdict(scripts, sweepJob: sweepJob, mergeJob: mergeJob, sbatchStatus: status)
                print("report: \(scripts.report)")
            }
        }

        /// Creates OUT, its slurm/ folders (Slurm does not create log folders) and shards/, and
        /// removes the status files of an earlier submission. OUT must be new, empty, or an
        /// earlier `slurm submit` folder.
        func prepare(_ s: SlurmScripts) throws {
            let fm = FileManager.default
            var isDir: ObjCBool = false
            if fm.fileExists(atPath: s.out, isDirectory: &isDir) {
                guard isDir.boolValue else { throw ToolError(.cantCreate, "\(s.out): exists and is not a folder") }
                let entries = (try? fm.contentsOfDirectory(atPath: s.out)) ?? []
                guard entries.isEmpty || fm.fileExists(atPath: s.sweepScript) else {
                    throw ToolError(.cantCreate, "\(s.out): not empty and not a `slurm submit` folder (no slurm/sweep.sbatch); choose a new or empty folder")
                }
            }
            for dir in [s.logDirectory, s.statusDirectory, "\(s.out)/shards"] {
                do { try fm.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
                    throw ToolError(.cantCreate, "\(dir): cannot create directory: \(error.localizedDescription)")
                }
            }
            var stale = [s.mergeStatus]
            for entry in (try? fm.contentsOfDirectory(atPath: s.statusDirectory)) ?? [] where entry.hasPrefix("shard-") {
                stale.append("\(s.statusDirectory)/\(entry)")
            }
            for path in stale {
                var info = stat()
                if lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG { unlink(path) }
            }
        }

        /// After `sbatch --wait` on the merge job: success, or one line saying what failed, with
        /// the failed job's exit status (a shard's sysexits code, 75 for a shard that left no
        /// status, 70 otherwise). A cancelled merge makes sbatch exit 0, so the status files decide.
        func verdict(_ s: SlurmScripts, sweepJob: String, mergeJob: String, sbatchStatus: Int32) throws {
            if let merged = SlurmScripts.readStatus(s.mergeStatus), merged.job == mergeJob {
                guard merged.status != 0 else { return }
                let log = s.mergeLog(job: mergeJob)
                throw ToolError(code(merged.status), "the merge job \(mergeJob) failed (exit \(merged.status))\(Self.lastError(log).map { ": \($0)" } ?? ""); log: \(log)")
            }
            var failed: [(Int, Int)] = [], silent: [Int] = []
            for k in 1...shards {
                if let st = SlurmScripts.readStatus(s.shardStatus(k)), st.job == sweepJob {
                    if st.status != 0 { failed.append((k, st.status)) }
                } else {
                    silent.append(k)
                }
            }
            if let (k, st) = failed.first {
                let log = s.shardLog(job: sweepJob, index: k)
                let more = failed.count > 1 ? "; \(failed.count - 1) more shard\(failed.count > 2 ? "s" : "") failed too" : ""
                throw ToolError(code(st), "shard \(k) of \(shards) failed (exit \(st)\(more))\(Self.lastError(log).map { ": \($0)" } ?? ""); the merge did not run; log: \(log)")
            }
            if !silent.isEmpty {
                let list = silent.prefix(10).map(String.init).joined(separator: ", ") + (silent.count > 10 ? ", …" : "")
                throw ToolError(.tempFailure, "shard\(silent.count > 1 ? "s" : "") \(list) of \(shards) ended without a status (killed: time limit, memory, node failure or scancel?); the merge did not run; logs: \(s.logDirectory)/sweep-\(sweepJob)_*.out")
            }
            throw ToolError(.software, "the merge job \(mergeJob) ended without merging (sbatch exit \(sbatchStatus); cancelled?); logs: \(s.logDirectory)")
        }

        func code(_ status: Int) -> ToolError.Code {
            ToolError.Code(rawValue: Int32(status)) ?? .software
        }

        /// The last `springtune: …` line of a job log (its error line), shortened.
        static func lastError(_ log: String) -> String? {
            guard let handle = FileHandle(forReadingAtPath: log) else { return nil }
            defer { try? handle.close() }
            let size = (try? handle.seekToEnd()) ?? 0
            try? handle.seek(toOffset: size > 65536 ? size - 65536 : 0)
            guard let data = try? handle.readToEnd(), let text = String(data: data, encoding: .utf8) else { return nil }
            guard let line = text.split(separator: "\n").last(where: { $0.hasPrefix("springtune: ") }) else { return nil }
            return line.count > 200 ? String(line.prefix(200)) + "…" : String(line)
        }

        /// The running executable, absolute with links resolved (the jobs run this same binary).
        static func executablePath() throws -> String {
            if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"), path.hasPrefix("/"),
               FileManager.default.isExecutableFile(atPath: path) {
                return path
            }
            if let path = Bundle.main.executablePath, path.hasPrefix("/") { return URL(fileURLWithPath: path).resolvingSymlinksInPath().path }
            throw ToolError(.software, "cannot tell where the springtune executable is, to run it in the jobs")
        }

        static func submit(_ sbatch: String, _ arguments: [String], what: String) throws -> String {
            let (id, status) = try self.sbatch(sbatch, arguments, what: what) { _ in }
            guard status == 0 else { throw ToolError(.unavailable, "sbatch exited \(status) after submitting \(what) \(id)") }
            return id
        }

        /// `sbatch --parsable ARGS`: calls `submitted` with the job id as soon as sbatch prints
        /// it (with `--wait`, sbatch then waits for the job), and returns the id and sbatch's exit
        /// status. sbatch refusing the job (no id) is a one-line error with its message.
        static func sbatch(_ sbatch: String, _ arguments: [String], what: String, submitted: (String) -> Void) throws -> (String, Int32) {
            // --parsable prints `ID` or `ID;CLUSTER` first.
            func jobId(_ line: String) -> String? {
                let job = String(line.prefix { $0 != ";" })
                return !job.isEmpty && job.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) ? job : nil
            }
            var first: String?
            // sbatch inherits our blocked SIGINT: Cleanup stops it when we are interrupted.
            let r = try Subprocess.run(sbatch, ["--parsable"] + arguments) { line in
                guard first == nil else { return }
                first = line
                jobId(line).map(submitted)
            }
            guard let first else {
                let message = r.errors.split(separator: "\n").last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
                throw ToolError(.unavailable, "sbatch refused \(what) (exit \(r.status))\(message.map { ": \($0)" } ?? "")")
            }
            guard let id = jobId(first) else {
                throw ToolError(.unavailable, "sbatch printed '\(oneLine(String(first.prefix(60))))' instead of a job id for \(what)")
            }
            // Warnings of an accepted job, passed on.
            r.errors.split(separator: "\n").forEach { note(oneLine(String($0))) }
            return (id, r.status)
        }
    }
}
