import Foundation
import SpringLayout
import TraceIO

/// `springtune export`: a report row turned into a preset (SPEC §8) with a provenance block.
public enum Export {
    /// The sidecar of a report: `DIR/report.csv` → `DIR/report.meta.json`.
    public static func metaPath(forReport report: String) -> String {
        let url = URL(fileURLWithPath: report)
        return url.deletingPathExtension().appendingPathExtension("meta.json").path
    }

    /// Builds the preset for row `configId` (or the best row under the preset's objective).
    public static func preset(report: String, configId: Int?, store: PresetStore = PresetStore()) throws -> Preset {
        let table = try ReportTable(path: report)
        let metaFile = metaPath(forReport: report)
        guard let data = FileManager.default.contents(atPath: metaFile),
              let meta = try? JSONDecoder().decode(ReportMeta.self, from: data) else {
            throw ToolError(.noInput, "\(metaFile): missing or unreadable sidecar (export needs the report's meta.json)")
        }
        let presetFile = meta.preset.file
        let loaded = try store.load(presetFile)
        let idColumn = try table.index(of: "config_id")
        let row: [String]
        if let configId {
            guard let r = table.rows.first(where: { Int($0[idColumn]) == configId }) else {
                throw ToolError(.usage, "\(report): no config_id \(configId)")
            }
            row = r
        } else {
            let ranking = try Ranking(objective: loaded.preset.objective)
            guard let best = try ranking.rank(table).first else {
                throw ToolError(.dataError, "\(report): no parameter set meets the objective (\(ranking.summary))")
            }
            row = best
        }
        var preset = loaded.preset
        var values = loaded.kind.values(of: preset)
        for (k, v) in meta.preset.values { values[k] = v }
        for p in table.parameterColumns { values[p] = .number(table.number(row, try table.index(of: p))!) }
        let resolved: ParameterValues
        do {
            resolved = try ParameterValues.resolve(values, specs: loaded.kind.parameters)
            preset.spring = SpringSpec(try loaded.kind.spring(resolved))
        } catch {
            throw ToolError(.dataError, "\(report): \(error.description)")
        }
        var params = resolved.values
        for name in loaded.kind.springParameterNames { params[name] = nil }
        preset.params = params
        preset.sweep = meta.axes.map { SweepAxis(name: $0.name, values: $0.values) }
        preset.traces = meta.traces.map { URL(fileURLWithPath: $0.file).standardizedFileURL.path }
        let id = Int(row[idColumn]) ?? -1
        var metrics: [String: Double?] = [:]
        for m in table.metricColumns { metrics[m] = table.number(row, try table.index(of: m)) }
        preset.provenance = Provenance(report: URL(fileURLWithPath: report).standardizedFileURL.path,
                                       sha256: try SHA256.file(report), configId: id, metrics: metrics)
        preset.description = "\(loaded.preset.description) Exported from config \(id) of \(URL(fileURLWithPath: report).lastPathComponent)."
        return preset
    }

    /// The preset as JSON in a fixed key order.
    public static func json(_ p: Preset) -> JSONValue {
        var spring: [(String, JSONValue)] = [("frequency", .number(p.spring.frequency)), ("damping", .number(p.spring.damping))]
        if let r = p.spring.response { spring.append(("response", .number(r))) }
        if let d = p.spring.dampingRatio { spring.append(("dampingRatio", .number(d))) }
        if let d = p.spring.duration { spring.append(("duration", .number(d))) }
        if let b = p.spring.bounce { spring.append(("bounce", .number(b))) }
        let sweep: [JSONValue] = p.sweep.map { axis in
            if let r = axis.range {
                return .object([("name", .string(axis.name)), ("from", .number(r.from)), ("to", .number(r.to)),
                                ("steps", .number(Double(r.steps))), ("spacing", .string(r.log ? "log" : "linear"))])
            }
            return .object([("name", .string(axis.name)), ("values", .array(axis.values.map(JSONValue.number)))])
        }
        var objective: [(String, JSONValue)] = [("constraints", .array(p.objective.constraints.map(JSONValue.string)))]
        if let m = p.objective.minimize { objective.append(("minimize", .string(m))) }
        if let m = p.objective.maximize { objective.append(("maximize", .string(m))) }
        let s = p.scene
        var fields: [(String, JSONValue)] = [
            ("schema", .string(p.schema)), ("name", .string(p.name)), ("model", .string(p.model)), ("description", .string(p.description)),
            ("spring", .object(spring)),
            ("params", .object(p.params.keys.sorted().map { ($0, SweepJob.json(p.params[$0]!)) })),
        ]
        fields.append(("scene", .object([("width", .number(s.width)), ("height", .number(s.height)), ("frameRate", .number(s.frameRate)),
                                         ("tolerance", .number(s.tolerance)), ("tail", .number(s.tail)), ("estimator", .string(s.estimator.rawValue))])))
        fields.append(("sweep", .array(sweep)))
        fields.append(("objective", .object(objective)))
        fields.append(("traces", .array(p.traces.map(JSONValue.string))))
        if let pr = p.provenance {
            fields.append(("provenance", .object([
                ("report", .string(pr.report)), ("sha256", .string(pr.sha256)), ("configId", .number(Double(pr.configId))),
                ("metrics", .object(pr.metrics.keys.sorted().map { ($0, JSONValue.number(pr.metrics[$0]!)) })),
            ])))
        }
        return .object(fields)
    }

    /// The parts of a `report.meta.json` that export reads back.
    struct ReportMeta: Decodable {
        struct PresetInfo: Decodable { var file: String; var values: [String: ParamValue] }
        struct Axis: Decodable { var name: String; var values: [Double] }
        struct TraceFile: Decodable { var file: String }
        var preset: PresetInfo
        var axes: [Axis]
        var traces: [TraceFile]
    }

    /// Joins shard reports into the report one run would have written (same bytes).
    public static func merge(_ reports: [String]) throws -> String {
        let tables = try reports.map(ReportTable.init(path:))
        guard let first = tables.first else { throw ToolError(.usage, "merge needs at least one report") }
        for t in tables.dropFirst() where t.columns != first.columns {
            throw ToolError(.dataError, "\(t.path): columns differ from \(first.path)")
        }
        var rows: [(Int, [String])] = []
        var seen = Set<Int>()
        for t in tables {
            for r in t.rows {
                guard let id = Int(r[0]) else { throw ToolError(.dataError, "\(t.path): config_id '\(r[0])' is not an integer") }
                guard seen.insert(id).inserted else { throw ToolError(.dataError, "\(t.path): config_id \(id) appears in more than one shard") }
                rows.append((id, r))
            }
        }
        return first.csv(rows: rows.sorted { $0.0 < $1.0 }.map(\.1))
    }
}
