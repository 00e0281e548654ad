import Foundation
import SpringCore
import SpringLayout
import ToolRuntime
import TraceIO

/// `springtune export`: a report row turned into a preset (Reference §9.1) with a provenance block.
public enum Export {
    /// Builds the preset for row `configId` (or the best row under `objective`, default the one
    /// the sidecar recorded, which the export then carries) from the report and its sidecar alone.
    ///
    /// The export is pinned: its `sweep` is empty, so sweeping it runs exactly the one set it
    /// ships (what a CI gate needs). `keepSweep` keeps the sweep's axes (as lists) for tuning
    /// further; sweeping such an export says on stderr which of its own values the axes override.
    ///
    /// Trace files become portable entries: a bundled set by its name (`flick/traces.csv`), a
    /// user file by its path relative to `destination`'s folder (the exported file), so the
    /// export and its traces can move together; never a path into a build folder.
    public static func preset(report: String, configId: Int?, destination: String = "preset.json", keepSweep: Bool = false,
                              objective: Objective? = nil) throws -> Preset {
        let table = try SweepReport.read(report, sidecar: .required)
        return try preset(table, row: try choice(table, configId: configId, objective: objective).row, destination: destination,
                          keepSweep: keepSweep, objective: objective)
    }

    /// The row to export from a report read with its sidecar: config `configId`, or the best
    /// under `objective` (default: the sidecar's), with the ranked sets it was chosen from.
    public static func choice(_ table: SweepReport, configId: Int?, objective: Objective? = nil) throws -> (row: SweepReport.Row, ranked: [Ranking.Entry]?) {
        if let configId {
            guard let r = table.rows.first(where: { $0.configId == configId }) else {
                throw ToolError(.usage, "\(table.path): no config_id \(configId)")
            }
            return (r, nil)
        }
        let ranking = try Ranking(objective: objective ?? table.meta!.preset.objective)
        let ranked = try ranking.ranked(table)
        guard let best = ranked.first else {
            throw ToolError(.dataError, "\(table.path): no parameter set meets the objective (\(ranking.summary))")
        }
        // With a confidence (Reference §14.3) the choice is the one sweep and search made: a
        // search's recorded choice, or the best sure set, the top sets run again from the sidecar.
        guard ranking.confidence != nil else { return (best.row, ranked) }
        if let search = table.meta?.search {
            guard let id = search.chosen, let row = table.rows.first(where: { $0.configId == id }) else {
                throw ToolError(.dataError, "\(table.path): its search chose no set (\(search.givenUp ?? "none is sure"))")
            }
            return (row, ranked)
        }
        let rerun = try ReportRerun(table, threads: ProcessInfo.processInfo.activeProcessorCount)
        let sure = try BestIntervals(ranked: ranked.map(\.row), top: 1, ranking: ranking, bootstrap: ClusterBootstrap(), measure: rerun.measure)
        guard let chosen = sure.chosen?.set.row.configId, let row = table.rows.first(where: { $0.configId == chosen }) else {
            throw ToolError(.dataError, "\(table.path): no parameter set's constraints are \(NumberFormat.short(ranking.confidence! * 100)) % sure (\(ranking.summary))")
        }
        return (row, ranked)
    }

    /// The preset of `row` of `table` (read with its sidecar; see ``preset(report:configId:destination:keepSweep:objective:)``).
    public static func preset(_ table: SweepReport, row: SweepReport.Row, destination: String = "preset.json", keepSweep: Bool = false,
                              objective: Objective? = nil) throws -> Preset {
        let report = table.path, meta = table.meta!
        let kind = try ModelKind(name: meta.preset.model)
        var preset = meta.preset
        if let objective { preset.objective = objective }
        // The row's swept values are its config id's in the sidecar's axes (the decoder checked the cells).
        do {
            // The sweep's scene (with any `--estimator` override) and the row's scene values.
            try pin(&preset, kind: kind, values: table.values(of: row), scene: meta.scene)
        } catch {
            throw ToolError(.dataError, "\(report): \(error.description)")
        }
        preset.sweep = keepSweep ? meta.axes.map(\.listed) : []
        let folder = URL(fileURLWithPath: destination).deletingLastPathComponent()
        preset.traces = meta.traces.map { traceEntry($0.file, relativeTo: folder) }
        let id = row.configId
        var metrics: [String: Double?] = [:]
        for (spec, value) in zip(table.specs, row.values).dropFirst() { metrics[spec.name] = value.number }
        preset.provenance = Provenance(report: relativePath(report, from: folder),
                                       sha256: try SHA256.file(report), configId: id, metrics: metrics)
        preset.provenance?.intervals = try SetIntervals.read(SetIntervals.path(besideReport: report), configId: id)
        preset.description = "\(meta.preset.description) Exported from config \(id) of \(URL(fileURLWithPath: report).lastPathComponent)."
        // What is written must read back (a damping of 1e308 did not): refused here, 65.
        do { _ = try PresetStore.decode(Data(try JSONCoding.encode(preset).utf8), path: "config \(id)") } catch let error as ToolError {
            throw ToolError(.dataError, "\(report): cannot export \(error.message): the preset would not read back")
        }
        return preset
    }

    /// Sets `preset`'s spring, params and scene to its own values with `values` applied (scene
    /// values such as `frameRate` go to the scene block, `scene` being the one the values ran
    /// in) and drops its sweep axes: a pinned preset (Reference §8.2).
    public static func pin(_ preset: inout Preset, kind: ModelKind, values: [String: ParamValue], scene: Scene) throws(PresetError) {
        var all = kind.values(of: preset)
        for (k, v) in values { all[k] = v }
        let (scene, modelValues) = try scene.applying(all)
        let resolved = try ParameterValues.resolve(modelValues, specs: kind.parameters)
        preset.spring = .typed(try kind.spring(resolved))
        var params = resolved.values
        for name in kind.springParameterNames { params[name] = nil }
        preset.params = params
        preset.scene = scene
        preset.sweep = []
    }

    /// A bundled set's name, else the file's path relative to `folder`.
    public static func traceEntry(_ file: String, relativeTo folder: URL) -> String {
        let path = components(URL(fileURLWithPath: file)), bundled = components(PresetStore.tracesDirectory)
        if path.count > bundled.count, Array(path.prefix(bundled.count)) == bundled {
            return path.dropFirst(bundled.count).joined(separator: "/")
        }
        return relativePath(file, from: folder)
    }

    /// A file's real path (links resolved) as components.
    static func components(_ url: URL) -> [String] { url.standardizedFileURL.resolvingSymlinksInPath().pathComponents }

    /// The file at `path` relative to `folder`, with `..` where needed.
    static func relativePath(_ path: String, from folder: URL) -> String {
        let target = components(URL(fileURLWithPath: path)), base = components(folder)
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
            let data = try InputFile.contents(source.path, limit: InputFile.maxTraceBytes)
            try AtomicFile.write(data, to: target.path)
            if let sidecar = try? InputFile.contents(ImportMeta.path(for: source.path)) {
                try AtomicFile.write(sidecar, to: ImportMeta.path(for: target.path))
            }
            return copies.lastPathComponent + "/" + name
        }
    }

    /// Joins shard reports into the report one run would have written (same bytes), with its
    /// sidecar (``SweepReport/meta``); `merge` writes both once.
    ///
    /// Shards must come from one grid: the same columns, and (from their sidecars) the same tool
    /// version, model, axes and trace files (by SHA-256); together they must cover every config
    /// of the grid once. Otherwise exit 65 naming what is missing or mismatched; `allowPartial`
    /// merges a grid with gaps anyway (the merged sidecar lists the missing ids).
    public static func merge(_ reports: [String], allowPartial: Bool = false) throws -> SweepReport {
        let tables = try reports.map { try SweepReport.read($0, sidecar: .required) }
        guard let first = tables.first, let base = first.meta else { throw ToolError(.usage, "merge needs at least one report") }
        for t in tables.dropFirst() where t.columns != first.columns {
            throw ToolError(.dataError, "\(t.path): columns differ from \(first.path)")
        }
        for t in tables.dropFirst() {
            let m = t.meta!
            var mismatch: [String] = []
            if m.version != base.version { mismatch.append("version \(m.version) vs \(base.version)") }
            if m.preset.model != base.preset.model { mismatch.append("model \(m.preset.model) vs \(base.preset.model)") }
            if m.axes != base.axes { mismatch.append("axes") }
            if m.values != base.values { mismatch.append("fixed values") }
            if m.scene != base.scene { mismatch.append("scene") }
            if m.traces.map(\.sha256) != base.traces.map(\.sha256) { mismatch.append("trace files") }
            if !mismatch.isEmpty { throw ToolError(.dataError, "\(t.path): not a shard of the same grid as \(first.path): \(mismatch.joined(separator: ", ")) differ") }
        }
        var rows: [SweepReport.Row] = []
        var seen = Set<Int>()
        for t in tables {
            for r in t.rows {
                guard seen.insert(r.configId).inserted else { throw ToolError(.dataError, "\(t.path): config_id \(r.configId) appears in more than one shard") }
                rows.append(r)
            }
        }
        let missing = (0..<base.configs).filter { !seen.contains($0) }
        if !missing.isEmpty && !allowPartial {
            throw ToolError(.dataError, "the shards cover \(seen.count) of \(base.configs) sets; missing config ids \(ranges(missing)) (run those shards, or merge with --allow-partial)")
        }
        var meta = base
        meta.shard = nil
        meta.configIds = [0, base.configs - 1]
        meta.missing = missing.isEmpty ? nil : missing
        meta.wallTime = tables.map { $0.meta!.wallTime }.reduce(0, +)
        var merged = first
        merged.rows = rows.sorted { $0.configId < $1.configId }
        merged.meta = meta
        return merged
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
