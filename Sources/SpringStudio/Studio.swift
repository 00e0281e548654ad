import Dispatch
import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import SpringCore
import SpringTune
import ToolRuntime

/// `springtune studio`: loads the preset and its traces, opens the session, listens, prints the
/// one `studio: URL` line, and serves until SIGINT or SIGTERM (exit 0; the session is written
/// as each answer arrives, so nothing is lost).
public enum Studio {
    /// The default session file of a preset: `out/studio/<preset>.sqlite`.
    public static func defaultSession(preset name: String) -> String { "out/studio/\(name).sqlite" }

    /// A new token: 128 random bits as 32 hex digits.
    public static func newToken() -> String {
        var g = SystemRandomNumberGenerator()
        return (0..<2).map { _ in String(g.next() as UInt64, radix: 16) }.map { String(repeating: "0", count: 16 - $0.count) + $0 }.joined()
    }

    /// Runs the studio; returns only when the server stops by itself (it throws when it cannot listen).
    public static func run(_ options: StudioOptions, note: @escaping @Sendable (String) -> Void) throws {
        let loaded = try PresetStore().load(options.preset)
        let engine = try StudioEngine(loaded: loaded, files: options.traces)
        let store = try SessionStore(path: options.session ?? defaultSession(preset: loaded.preset.name),
                                     preset: loaded.preset.name, model: loaded.kind.name)
        let api = try StudioAPI(engine: engine, store: store)
        // The feasible pool (a few seconds of measuring) is made while the page loads, not on the first round.
        api.warmPool()
        let gate = StudioServer.Gate(token: options.token ?? newToken())
        let address = options.host ?? "127.0.0.1"
        if options.host != nil {
            note("springtune: warning: listening on \(address), not only this machine's loopback: anyone who can reach it and has the token can use the studio")
        }
        Cleanup.shared.setStopExit(0, note: "studio: stopped; the session is in \(store.path)", before: { store.closeForStop() })
        let router = StudioServer.router(api: api, gate: gate)
        let app = Application(
            router: router,
            server: StudioServer.server(router),
            configuration: .init(address: .hostname(address, port: options.port), serverName: nil),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? options.port
                gate.allow(hosts: ["127.0.0.1", "localhost"] + (options.host.map { [$0] } ?? []), port: port)
                // With --host the line names that address (another device opens it), unless it is every address.
                let shown = options.host.flatMap { ["0.0.0.0", "::", ""].contains($0) ? nil : $0 } ?? "127.0.0.1"
                let url = "http://\(shown.contains(":") ? "[\(shown)]" : shown):\(port)/?token=\(gate.token)"
                print("studio: \(url)")
                fflush(nil)
                if options.openBrowser { openBrowser(url, note: note) }
            },
            logger: quietLogger()
        )
        let failure = Box()
        let done = DispatchSemaphore(value: 0)
        Task {
            do { try await app.runService(gracefulShutdownSignals: []) } catch { failure.set(error) }
            done.signal()
        }
        done.wait()
        if let error = failure.get() {
            throw ToolError(.unavailable, "cannot listen on \(address):\(options.port): \(error)")
        }
    }

    /// `studio --simulate`: the convergence table of `seeds` simulated designers over `rounds`
    /// rounds (``StudioSimulation``) and the latency of the candidates handler at 60 comparisons.
    public static func simulate(preset: String, traces: [String], seeds: Int, rounds: Int, free: [String]) throws -> String {
        let loaded = try PresetStore().load(preset)
        let engine = try StudioEngine(loaded: loaded, files: traces)
        let outcome = try StudioSimulation.run(engine: engine, seeds: seeds, rounds: rounds, free: free)
        let levers = try StudioSimulation.levers(engine, free: free)
        let ms = { (s: Double) in NumberFormat.fixed(s * 1000, 1) + " ms" }
        var text = "preset \(loaded.preset.name): \(levers.names.count) free parameters (\(levers.box?.dimensions.map { "\($0.name) \($0.description)" }.joined(separator: ", ") ?? "")), \(engine.traces.count) traces\n"
        text += "simulated designers through the studio API (worst of 4, perception noise sd 0.05 of the utility range, optimum within the objective"
            + (free.isEmpty ? "" : " and outside the preset's box along \(free.joined(separator: ", "))") + "): scaled utility of GET /api/best after each round\n"
        text += "feasible pool: \(outcome.feasible) of \(outcome.pool) points meet the objective (measured in \(ms(outcome.poolSeconds)), once per studio)\n"
        text += PreferenceBench.table(outcome.runs, rounds: rounds, free: free)
        if !outcome.latencies.isEmpty {
            let fit = outcome.latencies.sorted(), whole = outcome.handler.sorted()
            text += "at 60 comparisons, \(fit.count) runs: fit and proposal (with constraint checks by measurement) p50 \(ms(PreferenceBench.median(fit))), max \(ms(fit.last!)); "
                + "GET /api/candidates with the round's trace chosen p50 \(ms(PreferenceBench.median(whole))), max \(ms(whole.last!))\n"
        }
        return text
    }

    /// Opens `url` with `$BROWSER` or `xdg-open` when one is there; otherwise says so.
    static func openBrowser(_ url: String, note: @Sendable (String) -> Void) {
        let env = ProcessInfo.processInfo.environment
        guard let opener = env["BROWSER"].flatMap({ Subprocess.executable($0) }) ?? Subprocess.executable("xdg-open") else {
            note("springtune: no browser found (set BROWSER or install xdg-open); open the studio line's address yourself")
            return
        }
        Thread { _ = try? Subprocess.run(opener, [url], discardOutput: true) }.start()
    }

    static func quietLogger() -> Logger {
        var logger = Logger(label: "springtune-studio")
        logger.logLevel = .error
        return logger
    }

    final class Box: @unchecked Sendable {
        private let lock = NSLock()
        private var error: (any Error)?
        func set(_ e: any Error) { lock.lock(); error = e; lock.unlock() }
        func get() -> (any Error)? { lock.lock(); defer { lock.unlock() }; return error }
    }
}
