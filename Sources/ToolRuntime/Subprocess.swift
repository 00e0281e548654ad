import Foundation

/// The one way springtune runs another program (gnuplot, sbatch, scancel, valgrind, python3):
/// an argument vector, never a shell, so no argument is ever interpreted; standard input is
/// /dev/null; standard error is captured (what a failing tool says); standard output is captured
/// or discarded, and each captured stream keeps at most ``keptBytes`` (its last bytes), so a
/// chatty tool cannot exhaust memory. The child is registered with ``Cleanup``: SIGINT/SIGTERM
/// kill it before springtune exits (it inherits springtune's blocked SIGINT/SIGTERM).
///
/// Why not swift-subprocess (1.0.2): every entry point of its API is `async`, while springtune's
/// commands are synchronous (`ParsableCommand.run()`, with SIGINT/SIGTERM taken by one `sigwait`
/// thread); each call would need a task and a semaphore around it, and the package brings
/// swift-system and its own SIGCHLD handling into the build. Foundation's `Process` does what
/// the four callers need in about a hundred lines. Reference §11.
public enum Subprocess {
    /// What a finished child left: its exit status (or 128 + signal), and the kept tail of
    /// standard output ("" when discarded) and of standard error, decoded as UTF-8.
    public struct Finished: Sendable, Equatable {
        public var status: Int32
        public var output: String
        public var errors: String
    }

    /// Bytes kept of each captured stream: 1 MiB, the last ones (a failing tool says why at the end).
    public static let keptBytes = 1 << 20

    /// The first executable named `name` on PATH (default /usr/bin:/bin), or nil.
    public static func executable(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `executable` with `arguments` and waits for it.
    ///
    /// - Parameters:
    ///   - environment: variables added to (or replacing) springtune's own.
    ///   - directory: the child's working directory (default: springtune's).
    ///   - discardOutput: standard output goes to /dev/null instead of being captured.
    ///   - onLine: called with each line of standard output (without its `\n`) as soon as it
    ///     arrives, on the calling thread; a last line without `\n` is passed at the end.
    /// - Throws: ``ToolError`` `.unavailable` (69) when the program cannot be started. A
    ///   non-zero exit status is a result, not an error.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                           directory: String? = nil, discardOutput: Bool = false,
                           onLine: (String) -> Void = { _ in }) throws -> Finished {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.standardInput = FileHandle.nullDevice
        let out = discardOutput ? nil : Pipe(), err = Pipe()
        process.standardOutput = out ?? FileHandle.nullDevice
        process.standardError = err
        do { try process.run() } catch {
            throw ToolError(.unavailable, "cannot run \(executable): \(error.localizedDescription)")
        }
        let pid = process.processIdentifier
        Cleanup.shared.register(child: pid)
        defer { Cleanup.shared.unregister(child: pid) }
        // Standard error is read on another thread, so neither pipe can fill up and block the child.
        let errors = Drained(err.fileHandleForReading)
        var output = Tail()
        if let out {
            var line = Tail()
            let reader = out.fileHandleForReading
            while case let chunk = reader.availableData, !chunk.isEmpty {
                output.append(chunk)
                var rest = chunk[...]
                while let nl = rest.firstIndex(of: UInt8(ascii: "\n")) {
                    line.append(rest[..<nl])
                    onLine(line.take())
                    rest = rest[rest.index(after: nl)...]
                }
                line.append(rest)
            }
            if !line.bytes.isEmpty { onLine(line.take()) }
        }
        process.waitUntilExit()
        Cleanup.shared.parkIfInterrupted()
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return Finished(status: status, output: output.text, errors: errors.wait().text)
    }
}

/// The last ``Subprocess/keptBytes`` bytes appended.
struct Tail {
    private(set) var bytes = Data()

    mutating func append(_ data: some DataProtocol) {
        bytes.append(contentsOf: data)
        if bytes.count > Subprocess.keptBytes { bytes = Data(bytes.suffix(Subprocess.keptBytes)) }
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The text so far, leaving the tail empty.
    mutating func take() -> String {
        defer { bytes = Data() }
        return text
    }
}

/// A stream read to its end on a thread of its own, its tail kept.
private final class Drained: @unchecked Sendable {
    private var tail = Tail()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread { [self] in
            while case let chunk = handle.availableData, !chunk.isEmpty { tail.append(chunk) }
            done.signal()
        }.start()
    }

    /// The kept tail, once the stream has ended.
    func wait() -> Tail {
        done.wait()
        return tail
    }
}
