import Foundation
import SpringLayout
import SpringTune
import TraceIO

/// The studio's sets as presets (Reference §8.2, §10.16): `POST /api/export` writes the best
/// estimate as a pinned preset file, `POST /api/code` gives any set in a platform's form, the
/// same text `springtune export --format` writes: every parameter, not only the free ones.
enum StudioExport {
    /// `engine`'s preset pinned to `params` (the others keep the preset's values), with
    /// `objective` (the designer's) as its own, named `name`.
    static func pinned(_ engine: StudioEngine, params: [String: ParamValue], objective: Objective, name: String) throws -> Preset {
        var preset = engine.loaded.preset
        preset.objective = objective
        do {
            try Export.pin(&preset, kind: engine.loaded.kind, values: params, scene: preset.scene)
        } catch {
            throw StudioError.badRequest("cannot pin these values: \(error.description)")
        }
        preset.name = name
        return preset
    }

    /// The preset JSON of the pinned set, with a provenance block naming the session (trace
    /// entries relative to `folder`, where it is written) and its number of choices, and the
    /// report row's metrics of the set.
    static func preset(_ engine: StudioEngine, params: [String: ParamValue], objective: Objective, name: String, session: String,
                       choices: Int, folder: String) throws -> String {
        var preset = try pinned(engine, params: params, objective: objective, name: name)
        var metrics: [String: Double?] = [:]
        for m in try engine.evaluate(params) { metrics[m.name] = m.value.number }
        preset.traces = engine.files.map { Export.traceEntry($0, relativeTo: URL(fileURLWithPath: folder)) }
        preset.provenance = Provenance(session: session, choices: choices, metrics: metrics)
        preset.description = "\(engine.loaded.preset.description) Chosen in the studio (\(choices) choices)."
        return try JSONCoding.encode(preset)
    }

    /// The text of `format` for the pinned set (`json`: the preset JSON).
    static func code(_ engine: StudioEngine, params: [String: ParamValue], objective: Objective, format: ExportFormat) throws -> String {
        let preset = try pinned(engine, params: params, objective: objective, name: engine.loaded.preset.name)
        do {
            return try format.text(try PlatformPreset(preset: preset)) ?? JSONCoding.encode(preset)
        } catch let error as StudioError {
            throw error
        } catch {
            throw StudioError.badRequest("cannot write \(format.rawValue) for these values: \(error)")
        }
    }
}
