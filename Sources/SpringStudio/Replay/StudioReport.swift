import Foundation
import SpringCore
import SpringLayout
import SpringTune
import ToolRuntime
import TraceIO

/// `springtune studio --session FILE --report OUT.html` (Reference §10.16): the session as one
/// self-contained page, to send to someone without a studio: the objective, the free
/// parameters, every answered round with its candidates' values and the answer, the best with
/// its metrics (and their verdicts), changes against the preset, edges and margins, and the
/// best's motion on the rounds' traces, drawn by the studio page's own `stage.js`. No server,
/// no network: the data and the scripts are inside the file (one module script, `inlinedModules`).
public enum StudioReport {
    /// Most traces whose motion the page carries (each a few hundred frames).
    static let motionTraces = 4

    /// Writes the report of the session at `session` (its preset: `preset` when given, else the
    /// one the session names) to `path`, atomically; returns the path.
    public static func write(session: String, preset: String, traces: [String], to path: String) throws -> String {
        try write(session: session, preset: preset, traces: traces, to: path, what: "the report", page)
    }

    /// Writes `page` of the session at `session` (its preset: `preset` when given, else the one
    /// the session names) to `path`, atomically (`what` names the page in an error); returns the path.
    static func write(session: String, preset: String, traces: [String], to path: String, what: String,
                      _ page: (StudioAPI) throws -> String) throws -> String {
        guard FileManager.default.fileExists(atPath: session) else { throw ToolError(.noInput, "\(session): no such session file") }
        let name = try preset.isEmpty ? SessionStore.presetName(of: session) : preset
        let loaded = try PresetStore().load(name)
        let engine = try StudioEngine(loaded: loaded, files: traces)
        let store = try SessionStore(path: session, preset: loaded.preset.name, model: loaded.kind.name)
        let api = try StudioAPI(engine: engine, store: store)
        let html = try page(api)
        store.closeForStop()
        do {
            try AtomicFile.write(html, to: path)
        } catch {
            throw ToolError(.cantCreate, "\(path): cannot write \(what) (\(error))")
        }
        return path
    }

    /// What the page shows, as one JSON object.
    struct Content: Encodable {
        var preset: PresetAnswer
        var session: String
        var rounds: [RoundRecordAnswer]
        var best: BestAnswer
        var motion: [TraceReplayAnswer]

    }

    /// An answered round: its candidates' values and the answer.
    struct RoundRecordAnswer: Encodable {
        var round: Int, trace: String
        var candidates: [CandidateValues]
        /// `worst`, `best` or `same`.
        var answer: String
        var candidate: Int?
    }

    struct CandidateValues: Encodable {
        var id: Int
        var params: ParamSet
    }

    /// The page of `api`'s session.
    static func page(_ api: StudioAPI) throws -> String {
        let choices = try api.store.choices()
        let best = try api.best()
        var watched: [String] = []
        for c in choices where !watched.contains(c.round.trace) && watched.count < motionTraces { watched.append(c.round.trace) }
        if watched.isEmpty, let first = api.engine.infos.first { watched = [first.id] }
        // A round may have watched a recording taken out of the traces since: it replays by itself.
        let motion = try api.replay(best.params.values, ids: watched, on: api.engine).map {
            StudioFrames.answer($0, kind: api.engine.loaded.kind, verdicts: api.current.verdicts, items: false)
        }
        let content = Content(
            preset: api.preset(), session: api.store.path,
            rounds: choices.map { c in
                let (kind, id): (String, Int?) = switch c.answer {
                case let .worst(w): ("worst", w)
                case let .best(b): ("best", b)
                case .same: ("same", nil)
                }
                return RoundRecordAnswer(round: c.round.number, trace: c.round.trace,
                                         candidates: c.round.candidates.map { CandidateValues(id: $0.id, params: ParamSet($0.params)) },
                                         answer: kind, candidate: id)
            },
            best: best, motion: motion)
        let title = Self.escaped("springtune studio session — \(api.engine.loaded.preset.name)")
        return try document(title: title, style: PackageResources.report_css, body: "<h1>\(title)</h1>\n<main id=\"report\"></main>",
                            data: content, modules: reportModules)
    }

    /// A self-contained page: `title` (escaped already), the `style` sheet, `head`'s extra lines,
    /// `body`'s own elements, then `data` as JSON in `<script type="application/json"
    /// id="data">` and `modules` inlined as one module script (``inlinedModules(_:)``). In the
    /// JSON every `<` is written `\u003c` (JSON allows it in strings, the only place it can be),
    /// so nothing in the data (`</script>`, `<!--<script`) can end or change the script element.
    static func document(title: String, head: String = "", bodyAttributes: String = "", style: [UInt8], body: String,
                         data: some Encodable, modules: [(name: String, bytes: [UInt8])]) throws -> String {
        let json = try JSONTextEncoder.encode(data).replacingOccurrences(of: "<", with: "\\u003c")
        let script = try inlinedModules(modules).replacingOccurrences(of: "</script", with: "<\\/script")
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            \(head.isEmpty ? "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">" : head)
            <title>\(title)</title>
            <style>\(String(decoding: style, as: UTF8.self))</style>
            </head>
            <body\(bodyAttributes)>
            \(body)
            <script type="application/json" id="data">\(json)</script>
            <script type="module">\(script)</script>
            </body>
            </html>

            """
    }

    /// The page modules the report runs, each importing only modules before it: the page's
    /// number formatting, its stage (the phones and the magnifier) and the report itself.
    static let reportModules: [(name: String, bytes: [UInt8])] = [
        ("format.js", PackageResources.format_js), ("stage.js", PackageResources.stage_js), ("report.js", PackageResources.report_js),
    ]

    /// `modules` (``reportModules``, ``StudioPrototype/modules``) as the text of one inline
    /// `<script type="module">`. A page opened from
    /// `file://` cannot import a module by URL (and the report has no other file), so the modules
    /// are concatenated in order with their `import` lines taken out and `export ` cut from their
    /// declarations: one module scope, where each name a file imports is the earlier file's own
    /// declaration (Tests/page/shared_names.mjs keeps the page's top-level names distinct across
    /// files). Only a strict form is accepted, else this throws (a page file changed into a form
    /// the cut would get wrong; Tests/page/report_inline.test.mjs checks the same under node): an
    /// import is one whole line `import { a, b } from "./x.js";` naming an earlier module and
    /// names it declares as `export function|const NAME`; an export is a line beginning
    /// `export function `, `export async function `, `export const `, `export let ` or
    /// `export class `; no other line begins with `import` or `export`.
    static func inlinedModules(_ modules: [(name: String, bytes: [UInt8])]) throws -> String {
        var exported: [String: Set<String>] = [:]
        var parts: [String] = []
        let declarations = ["export function ", "export async function ", "export const ", "export let ", "export class "]
        for (name, bytes) in modules {
            var lines: [String] = []
            var names: Set<String> = []
            let source = String(decoding: bytes, as: UTF8.self)
            for line in source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
                if line.hasPrefix("import") {
                    let bad = ToolError(.software, "\(name): the report inlines only `import { a, b } from \"./x.js\";` of an earlier module's exports, not: \(line)")
                    guard line.hasPrefix("import { "), line.hasSuffix("\";"), let from = line.range(of: " } from \"./") else { throw bad }
                    let module = String(line[from.upperBound...].dropLast(2))
                    let imported = line[line.index(line.startIndex, offsetBy: 9)..<from.lowerBound].components(separatedBy: ", ")
                    guard let available = exported[module], imported.allSatisfy({ available.contains($0) }) else { throw bad }
                    continue
                }
                if line.hasPrefix("export") {
                    guard let prefix = declarations.first(where: { line.hasPrefix($0) }) else {
                        throw ToolError(.software, "\(name): the report inlines only `export function|const|let|class` declarations, not: \(line)")
                    }
                    let rest = line.dropFirst(prefix.count)
                    names.insert(String(rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "$" }))
                    lines.append(String(line.dropFirst("export ".count)))
                    continue
                }
                lines.append(line)
            }
            exported[name] = names
            parts.append("// ---- \(name)\n" + lines.joined(separator: "\n"))
        }
        return "\n" + parts.joined(separator: "\n") + "\n"
    }

    /// `text` safe in HTML text and attribute values.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
