import Foundation
import ToolRuntime
import TraceIO

/// What `springtune studio` was asked (Reference §10.16), handed to the `springtune-studio`
/// executable as one JSON argument: the command line's only build (`make demo`) compiles no
/// server, and `springtune studio` starts the studio built beside it (``StudioLauncher``).
public struct StudioOptions: Codable, Sendable, Equatable {
    /// The preset's name or path ("" with `report`: the session names it).
    public var preset: String
    public var traces: [String]
    /// The session's SQLite file; nil: `out/studio/<preset>.sqlite`.
    public var session: String?
    public var port: Int
    /// An address to listen on other than 127.0.0.1 (`--host`), with a warning.
    public var host: String?
    public var token: String?
    public var openBrowser: Bool
    /// Serve nothing: this many simulated designers answer rounds (`--simulate`).
    public var simulate: Int?
    /// Rounds per simulated designer.
    public var rounds: Int
    /// Parameters the simulated designers' box frees beyond the preset's (`--free`).
    public var free: [String]
    /// Serve nothing: write the session's self-contained page here (`--report`).
    public var report: String?
    /// Serve nothing: write the session's candidates as a self-contained prototype here (`--prototype`).
    public var prototype: String?

    public init(preset: String, traces: [String] = [], session: String? = nil, port: Int = 0, host: String? = nil, token: String? = nil,
                openBrowser: Bool = false, simulate: Int? = nil, rounds: Int = 30, free: [String] = [], report: String? = nil,
                prototype: String? = nil) {
        self.preset = preset; self.traces = traces; self.session = session; self.port = port
        self.host = host; self.token = token; self.openBrowser = openBrowser; self.simulate = simulate; self.rounds = rounds
        self.free = free; self.report = report; self.prototype = prototype
    }
}

/// Starts the studio executable (`springtune-studio`) in place of this process: the one the
/// environment names (`SPRINGTUNE_STUDIO`), else the one beside this executable (a build folder,
/// or `PREFIX/bin` after `make install`). The process keeps its id, standard streams and
/// signals, so Ctrl-C and the exit status are the studio's own.
public enum StudioLauncher {
    /// The executable's file name.
    public static let executableName = "springtune-studio"

    /// The studio executable to start, or a ToolError (69) saying how to build it.
    public static func executable(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String {
        if let given = environment["SPRINGTUNE_STUDIO"], !given.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: given) else {
                throw ToolError(.unavailable, "SPRINGTUNE_STUDIO=\(given.prefix(200)): not an executable file")
            }
            return given
        }
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let beside = URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent(executableName).path
        guard FileManager.default.isExecutableFile(atPath: beside) else {
            throw ToolError(.unavailable, "the studio is not built: \(beside) is missing (`make build` or `swift build -c release` builds it beside springtune; `make demo` builds the command line only)")
        }
        return beside
    }

    /// Replaces this process with the studio executable running `options`; returns only by throwing.
    public static func exec(_ options: StudioOptions) throws -> Never {
        let path = try executable()
        let json = String(decoding: try JSONEncoder().encode(options), as: UTF8.self)
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(executableName), strdup(json), nil]
        execv(path, argv)
        let reason = String(cString: strerror(errno))
        throw ToolError(.unavailable, "cannot start \(path): \(reason)")
    }
}
