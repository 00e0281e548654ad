import Foundation
import SpringLayout
import SpringTune
import ToolRuntime

/// `springtune studio --session FILE --prototype OUT.html` (Reference §10.16): the session's
/// candidates as one self-contained page that a colleague opens on a phone and feels: feel mode
/// alone (the phone on the whole screen, a switch among the candidates), each touch stepping the
/// engines' WebAssembly module inside the file, the session's image on the moving layer. No
/// server and no network: the module, the numbers and the image are in the file, and its
/// Content-Security-Policy lets it fetch nothing.
public enum StudioPrototype {
    /// Writes the prototype of the session at `session` to `path`, atomically; returns the path.
    public static func write(session: String, preset: String, traces: [String], to path: String) throws -> String {
        try StudioReport.write(session: session, preset: preset, traces: traces, to: path, what: "the prototype", page)
    }

    /// One candidate: its name on the switch, its parameter set and what the module starts with.
    struct Candidate: Encodable {
        var name: String
        var params: ParamSet
        var engine: EngineStartAnswer
    }

    /// The image as the page decodes it: its type, image pixels per pt and its bytes in base64.
    struct Image: Encodable {
        var type: String, scale: Int, data: String
    }

    /// What the page holds, as one JSON object.
    struct Content: Encodable {
        var preset: String, model: String
        var candidates: [Candidate]
        var image: Image?
        /// The engines' WebAssembly module, base64.
        var module: String
    }

    /// The candidates: the preset's values, the model's best once a round is answered, then the
    /// open round's candidates (the same set once, under its first name: the same model and scene
    /// numbers).
    static func candidates(_ api: StudioAPI) throws -> [Candidate] {
        let loaded = api.engine.loaded
        var sets: [(String, [String: ParamValue])] = [("preset", [:])]
        if try !api.store.choices().isEmpty { sets.append(("best", try api.best().params.values)) }
        if let round = try api.store.openRound() {
            sets += round.candidates.enumerated().map { ("round \(round.number) · \($0.offset + 1)", $0.element.params) }
        }
        var out: [Candidate] = []
        for (name, set) in sets {
            let start = EngineStartAnswer(try Replay.engineStart(loaded, set: set))
            if out.contains(where: { $0.engine.numbers == start.numbers && $0.engine.scene == start.scene }) { continue }
            out.append(Candidate(name: name, params: ParamSet(Replay.values(loaded, set: set)), engine: start))
        }
        return out
    }

    /// The page of `api`'s session.
    static func page(_ api: StudioAPI) throws -> String {
        let loaded = api.engine.loaded
        let module = StudioAssets.all.first { $0.path == "/engine.wasm" }!.bytes
        let content = Content(preset: loaded.preset.name, model: loaded.kind.name, candidates: try candidates(api),
                              image: try api.store.image().map { Image(type: $0.type, scale: $0.scale, data: Data($0.bytes).base64EncodedString()) },
                              module: Data(module).base64EncodedString())
        return try StudioReport.document(
            title: StudioReport.escaped("\(loaded.preset.name) — springtune prototype"),
            head: """
                <meta name="viewport" content="width=device-width, initial-scale=1, maximum-scale=1, user-scalable=no">
                <meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline' 'wasm-unsafe-eval'; style-src 'unsafe-inline'; img-src data:">
                """,
            bodyAttributes: " data-feel=\"on\"", style: PackageResources.studio_css,
            body: """
                <header><p id="error" role="alert" hidden></p></header>
                <div id="stage"><main id="panels"><article class="panel selected"><canvas class="stage"></canvas></article></main>
                <nav id="feel-switch" aria-label="candidates"></nav></div>
                """,
            data: content, modules: modules)
    }

    /// The page modules the prototype runs, each importing only modules before it (inlined as
    /// the report's are, ``StudioReport/inlinedModules(_:)``).
    static let modules: [(name: String, bytes: [UInt8])] = [
        ("pictures.js", PackageResources.pictures_js), ("engine.js", PackageResources.engine_js), ("stage.js", PackageResources.stage_js),
        ("touch.js", PackageResources.touch_js), ("prototype.js", PackageResources.prototype_js),
    ]
}
