import Foundation
import TraceIO

/// Runs a helper program (valgrind, python3) with an argument vector, never through a shell.
public enum Subprocess {
    /// The first executable named `name` on PATH, or nil.
    public static func executable(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `executable` with `arguments` (and `environment` added to ours); stdout and stderr
    /// are collected whole (they are short for the programs run here). Stopped on SIGINT/SIGTERM.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        do { try process.run() } catch { throw ToolError(.unavailable, "cannot run \(executable): \(error.localizedDescription)") }
        Cleanup.shared.register(child: process.processIdentifier)
        defer { Cleanup.shared.unregister(child: process.processIdentifier) }
        // Read both pipes concurrently so neither fills up and blocks the child.
        nonisolated(unsafe) var errors = Data()
        let done = DispatchSemaphore(value: 0)
        Thread { errors = err.fileHandleForReading.readDataToEndOfFile(); done.signal() }.start()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        done.wait()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self))
    }
}
