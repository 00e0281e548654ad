import Foundation
import SpringLayout
import SpringTune
import TraceIO

/// `POST /api/export`: the studio's best estimate as a pinned preset (Reference §8.2, §10.16).
enum StudioExport {
    /// The preset JSON of `loaded` pinned to `params`, with `objective` (the designer's) as its
    /// own, named `name`, with a provenance block naming the session (trace entries relative to
    /// `folder`, where it is written) and its number of choices, and the report row's metrics of the set.
    static func preset(_ engine: StudioEngine, params: [String: ParamValue], objective: Objective, name: String, session: String,
                       choices: Int, folder: String) throws -> String {
        var preset = engine.loaded.preset
        preset.objective = objective
        do {
            try Export.pin(&preset, kind: engine.loaded.kind, values: params, scene: preset.scene)
        } catch {
            throw StudioError.badRequest("cannot pin these values: \(error.description)")
        }
        var metrics: [String: Double?] = [:]
        for m in try engine.evaluate(params) { metrics[m.name] = m.value.number }
        preset.name = name
        preset.traces = engine.files.map { Export.traceEntry($0, relativeTo: URL(fileURLWithPath: folder)) }
        preset.provenance = Provenance(session: session, choices: choices, metrics: metrics)
        preset.description = "\(engine.loaded.preset.description) Chosen in the studio (\(choices) choices)."
        return try JSONCoding.encode(preset)
    }
}
