import Foundation
import SpringLayout
import TraceIO

/// `springtune export`: a report row turned into a preset (Reference §9.1) with a provenance block.
public enum Export {
    /// Builds the preset for row `configId` (or the best row under the preset's objective)
    /// from the report and its sidecar alone.
    ///
    /// Trace files become portable entries: a bundled set by its name (`flick/traces.csv`), a
    /// user file by its path relative to `destination`'s folder (the exported file), so the
    /// export and its traces can move together; never a path into a build folder.
    public static func preset(report: String, configId: Int?, destination: String = "preset.json") throws -> Preset {
        let table = try ReportTable(path: report)
        let meta = try ReportMeta.read(forReport: report)
        let kind = try ModelKind(name: meta.preset.model)
        let idColumn = try table.index(of: "config_id")
        let row: [String]
        if let configId {
            guard let r = table.rows.first(where: { Int($0[idColumn]) == configId }) else {
                throw ToolError(.usage, "\(report): no config_id \(configId)")
            }
            row = r
        } else {
            let ranking = try Ranking(objective: meta.preset.objective)
            guard let best = try ranking.rank(table).first else {
                throw ToolError(.dataError, "\(report): no parameter set meets the objective (\(ranking.summary))")
            }
            row = best
        }
        var preset = meta.preset
        var values = kind.values(of: preset)
        for (k, v) in meta.values { values[k] = v }
        for p in table.parameterColumns {
            let cell = row[try table.index(of: p)]
            guard let v = table.parameter(cell) else {
                throw ToolError(.dataError, "\(report): config \(row[idColumn]): \(p) '\(cell.prefix(40))' is neither a finite number nor a word")
            }
            values[p] = v
        }
        // Scene values swept or set (frameRate, …) go to the preset's scene block.
        let (scene, modelValues) = meta.scene.applying(values)
        let resolved: ParameterValues
        do {
            resolved = try ParameterValues.resolve(modelValues, specs: kind.parameters)
            preset.spring = SpringSpec(try kind.spring(resolved))
        } catch {
            throw ToolError(.dataError, "\(report): \(error.description)")
        }
        var params = resolved.values
        for name in kind.springParameterNames { params[name] = nil }
        preset.params = params
        preset.scene = scene   // the sweep's (with any `--estimator` override) and the row's scene values
        preset.sweep = meta.axes.map { SweepAxis(name: $0.name, values: $0.values) }
        let folder = URL(fileURLWithPath: destination).deletingLastPathComponent()
        preset.traces = meta.traces.map { traceEntry($0.file, relativeTo: folder) }
        let id = Int(row[idColumn]) ?? -1
        var metrics: [String: Double?] = [:]
        for m in table.metricColumns { metrics[m] = table.number(row, try table.index(of: m)) }
        preset.provenance = Provenance(report: URL(fileURLWithPath: report).standardizedFileURL.path,
                                       sha256: try SHA256.file(report), configId: id, metrics: metrics)
        preset.description = "\(meta.preset.description) Exported from config \(id) of \(URL(fileURLWithPath: report).lastPathComponent)."
        return preset
    }

    /// A bundled set's name, else the file's path relative to `folder`.
    static func traceEntry(_ file: String, relativeTo folder: URL) -> String {
        let path = URL(fileURLWithPath: file).standardizedFileURL.resolvingSymlinksInPath().pathComponents
        let bundled = PresetStore.tracesDirectory.standardizedFileURL.resolvingSymlinksInPath().pathComponents
        if path.count > bundled.count, Array(path.prefix(bundled.count)) == bundled {
            return path.dropFirst(bundled.count).joined(separator: "/")
        }
        return relativePath(path, from: folder.standardizedFileURL.resolvingSymlinksInPath().pathComponents)
    }

    /// `target` (path components) relative to the folder `base`, with `..` where needed.
    static func relativePath(_ target: [String], from base: [String]) -> String {
        var common = 0
        while common < min(target.count, base.count), target[common] == base[common] { common += 1 }
        return (Array(repeating: "..", count: base.count - common) + target[common...]).joined(separator: "/")
    }

    /// `export --copy-traces`: copies the preset's user trace files (and their import sidecars)
    /// into `DIR/<stem>-traces/` beside the export at `destination` and points the preset at
    /// the copies. Bundled sets stay names.
    public static func copyTraces(_ preset: inout Preset, destination: String) throws {
        let exportURL = URL(fileURLWithPath: destination)
        let folder = exportURL.deletingLastPathComponent()
        let copies = folder.appendingPathComponent(exportURL.deletingPathExtension().lastPathComponent + "-traces")
        var used = Set<String>()
        preset.traces = try preset.traces.map { entry in
            let bundled = PresetStore.tracesDirectory.appendingPathComponent(entry).path
            if FileManager.default.fileExists(atPath: bundled) { return entry }
            let source = entry.hasPrefix("/") ? URL(fileURLWithPath: entry) : folder.appendingPathComponent(entry)
            var name = source.lastPathComponent, n = 1
            while !used.insert(name).inserted { n += 1; name = "\(n)-" + source.lastPathComponent }
            let target = copies.appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: source.path) else { throw ToolError(.noInput, "\(source.path): cannot read trace file to copy") }
            try AtomicFile.write(data, to: target.path)
            if let sidecar = FileManager.default.contents(atPath: ImportMeta.path(for: source.path)) {
                try AtomicFile.write(sidecar, to: ImportMeta.path(for: target.path))
            }
            return copies.lastPathComponent + "/" + name
        }
    }

    /// Joins shard reports into the report one run would have written (same bytes).
    ///
    /// Shards must come from one grid: the same columns, and (from their sidecars) the same tool
    /// version, model, axes and trace files (by SHA-256); together they must cover every config
    /// of the grid once. Otherwise exit 65 naming what is missing or mismatched; `allowPartial`
    /// merges a grid with gaps anyway (the merged sidecar lists the missing ids).
    public static func merge(_ reports: [String], allowPartial: Bool = false) throws -> (csv: String, meta: ReportMeta) {
        let tables = try reports.map(ReportTable.init(path:))
        guard let first = tables.first else { throw ToolError(.usage, "merge needs at least one report") }
        for t in tables.dropFirst() where t.columns != first.columns {
            throw ToolError(.dataError, "\(t.path): columns differ from \(first.path)")
        }
        let metas = try reports.map { try ReportMeta.read(forReport: $0) }
        let base = metas[0]
        for (m, path) in zip(metas, reports).dropFirst() {
            var mismatch: [String] = []
            if m.version != base.version { mismatch.append("version \(m.version) vs \(base.version)") }
            if m.preset.model != base.preset.model { mismatch.append("model \(m.preset.model) vs \(base.preset.model)") }
            if m.axes != base.axes { mismatch.append("axes") }
            if m.values != base.values { mismatch.append("fixed values") }
            if m.scene != base.scene { mismatch.append("scene") }
            if m.traces.map(\.sha256) != base.traces.map(\.sha256) { mismatch.append("trace files") }
            if !mismatch.isEmpty { throw ToolError(.dataError, "\(path): not a shard of the same grid as \(reports[0]): \(mismatch.joined(separator: ", ")) differ") }
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
        let missing = (0..<base.configs).filter { !seen.contains($0) }
        if let outside = seen.first(where: { $0 >= base.configs }) {
            throw ToolError(.dataError, "config_id \(outside) is outside the grid of \(base.configs) sets")
        }
        if !missing.isEmpty && !allowPartial {
            throw ToolError(.dataError, "the shards cover \(seen.count) of \(base.configs) sets; missing config ids \(ranges(missing)) (run those shards, or merge with --allow-partial)")
        }
        var meta = base
        meta.shard = nil
        meta.configIds = [0, base.configs - 1]
        meta.missing = missing.isEmpty ? nil : missing
        meta.wallTime = metas.map(\.wallTime).reduce(0, +)
        return (first.csv(rows: rows.sorted { $0.0 < $1.0 }.map(\.1)), meta)
    }

    /// `0-9, 20-29` for a sorted list of ids.
    static func ranges(_ ids: [Int]) -> String {
        var out: [String] = [], start = ids.first ?? 0, prev = start
        for id in ids.dropFirst() + [Int.min] {
            if id == prev + 1 { prev = id; continue }
            out.append(start == prev ? "\(start)" : "\(start)-\(prev)")
            start = id; prev = id
        }
        return out.prefix(10).joined(separator: ", ") + (out.count > 10 ? ", …" : "")
    }
}
