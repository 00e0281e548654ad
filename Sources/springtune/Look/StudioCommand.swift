import ArgumentParser
import Foundation
import SpringTune

struct StudioCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "studio",
        abstract: "A local web page to feel a preset on real touches: sliders, side-by-side candidates, choices.",
        discussion: "Prints one line, studio: http://127.0.0.1:PORT/?token=TOKEN, once it accepts connections; Ctrl-C stops it (exit 0). See docs/Studio.md.")
    @Option(help: "Preset name (see `springtune presets list`) or path to a preset JSON file (with --report or --prototype: the session's).") var preset: String?
    @Option(name: .customLong("traces"), parsing: .upToNextOption, help: "Trace CSV files replacing the preset's bundled set.")
    var traces: [String] = []
    @Option(help: "The session's SQLite file (default out/studio/<preset>.sqlite; a missing folder is created); the same file resumes the session.") var session: String?
    @Option(help: "Port to listen on (0: any free port).") var port: Int = 0
    @Option(help: "Listen on this address instead of 127.0.0.1 (warned: others can reach it).") var host: String?
    @Option(help: "The token the page and the API need (default: 128 random bits, new per start).") var token: String?
    @Flag(help: "Do not open a browser (the default opens one when $BROWSER or xdg-open is there).") var noBrowser = false
    @Option(help: "Serve nothing: simulated designers answer rounds through the studio's API, this many seeds; prints their convergence table.")
    var simulate: Int?
    @Option(help: "Rounds per simulated designer (with --simulate).") var rounds: Int = 30
    @Option(name: .customLong("free"), help: "With --simulate: free this parameter over its domain too; the designers' optimum lies outside the preset's box along it (repeatable).")
    var free: [String] = []
    @Option(help: "Serve nothing: write the session (--session) as one self-contained HTML page here: objective, free parameters, rounds and answers, the best with its metrics, margins and motion.")
    var report: String?
    @Option(help: "Serve nothing: write the session's candidates (--session) as one self-contained page here, to feel on a phone with no server: the engine module, the candidates and the session's image inside, no network.")
    var prototype: String?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
        if let token {
            guard (16...256).contains(token.utf8.count), token.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
                throw ValidationError("--token must be 16 to 256 letters, digits, '-' or '_'")
            }
        }
        if let simulate { guard (1...100).contains(simulate) else { throw ValidationError("--simulate must be from 1 to 100 seeds") } }
        guard (1...100).contains(rounds) else { throw ValidationError("--rounds must be from 1 to 100") }
        if report != nil && prototype != nil { throw ValidationError("give --report or --prototype, not both") }
        if let page = report.map({ ("--report", $0) }) ?? prototype.map({ ("--prototype", $0) }) {
            guard session != nil else { throw ValidationError("\(page.0) needs --session FILE: the session to write") }
            guard simulate == nil else { throw ValidationError("give \(page.0) or --simulate, not both") }
            guard !page.1.isEmpty else { throw ValidationError("\(page.0) must name a file") }
        } else if preset == nil {
            throw ValidationError("--preset is required (a name from `springtune presets list`, or a preset file)")
        }
        if !free.isEmpty && simulate == nil { throw ValidationError("--free goes with --simulate (the page frees parameters itself)") }
        if let session { guard !session.isEmpty else { throw ValidationError("--session must name a file") } }
        if let host { guard !host.isEmpty, host.utf8.count <= 253, !host.contains(where: \.isWhitespace) else { throw ValidationError("--host must be an address or a name") } }
    }

    func run() throws {
        try reportingErrors {
            // The server lives in its own executable (`springtune-studio`, built by `make build`),
            // so the command line's first build compiles none of it.
            try StudioLauncher.exec(StudioOptions(preset: preset ?? "", traces: traces, session: session, port: port, host: host, token: token,
                                                  openBrowser: !noBrowser, simulate: simulate, rounds: rounds, free: free, report: report,
                                                  prototype: prototype))
        }
    }
}
