import Foundation
import SpringCore
import SpringLayout
import TraceIO

/// `index.html` of a sweep folder: the preset and its grid, the best-sets table, every chart,
/// and animations of the best set on a few representative traces. Plain HTML with relative links
/// only (no script, no network), so the folder can be zipped and mailed.
public enum SweepPage {
    /// A replay of the best set for the page.
    public struct Clip: Sendable {
        public var title: String
        public var animation: Animation
    }

    /// Replays of the best set (`values`) on the representative traces
    /// (``RepresentativeTraces``), one animation each, labelled with the `swept` parameters.
    public static func clips(_ loaded: PresetStore.Loaded, values: [String: ParamValue], swept: [String],
                             picks: [(title: String, trace: Trace)]) throws -> [Clip] {
        try picks.enumerated().map { n, pick in
            let run = try Replay.run(loaded, set: values, trace: pick.trace)
            return Clip(title: pick.title, animation: Replay.animation([run], kind: loaded.kind, labelled: swept, fps: 30, speed: 1, name: "best-\(n + 1)"))
        }
    }

    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// A link to a file in the same folder (the name percent-encoded).
    static func link(_ name: String) -> String {
        escape(name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? name)
    }

    /// The page.
    public static func html(loaded: PresetStore.Loaded, grid: SweepGrid, table: SweepReport, ranking: Ranking?,
                            images: [String], clips: [Clip], traces: Int, search: SearchMeta? = nil, sure: BestIntervals? = nil) -> String {
        let p = loaded.preset
        var out = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>springtune: \(escape(p.name))</title>
        <style>body{font:14px/1.4 -apple-system,Helvetica,Arial,sans-serif;margin:24px;color:#1c1c1e}
        table{border-collapse:collapse;margin:8px 0 16px}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}
        th{background:#f2f2f7}img{max-width:100%;border:1px solid #ddd;margin:6px 0}
        figure{display:inline-block;vertical-align:top;margin:8px 16px 8px 0}figcaption{font-size:12px;color:#555}</style></head><body>
        <h1>\(escape(p.name)) <small>(\(escape(p.model)))</small></h1>
        <p>\(escape(p.description))</p>
        <p>\(table.rows.count) parameter sets × \(traces) traces. Report: <a href="report.csv">report.csv</a>, meta: <a href="report.meta.json">report.meta.json</a>.</p>

        """
        if let search {
            out += searchSection(search)
        } else {
            out += "<h2>Grid</h2><table><tr><th>axis</th><th>values</th></tr>\n"
            for axis in grid.axes {
                out += "<tr><td>\(escape(axis.name))</td><td>\(escape(axis.values.map { $0.number.map { NumberFormat.significant($0, 4) } ?? $0.description }.joined(separator: ", ")))</td></tr>\n"
            }
            out += "</table>\n"
        }
        if let ranking, let ranked = try? ranking.ranked(table) {
            out += "<h2>Best sets</h2><p>\(escape(ranking.summary)). “=” marks a tie on the objective, ordered by the tiebreak.</p>\n"
            let cells = BestSets(ranking: ranking, table: table, entries: Array(ranked.prefix(10)))
            out += "<table><tr>" + cells.header.map { "<th>\(escape($0))</th>" }.joined() + "</tr>\n"
            for row in cells.rows { out += "<tr>" + row.map { "<td>\(escape($0))</td>" }.joined() + "</tr>\n" }
            out += "</table>\n" + (ranked.isEmpty ? "<p>No parameter set meets every constraint.</p>\n" : "")
        }
        if let sure, let ranking { out += sureSection(sure, ranking: ranking) }
        out += importanceSection(table: table, ranking: ranking, images: images)
        if !clips.isEmpty {
            out += "<h2>The best set in motion</h2>\n"
            for c in clips {
                out += "<figure><img src=\"\(link(c.animation.name + ".gif"))\" alt=\"\(escape(c.title))\" width=\"270\">"
                out += "<figcaption>\(escape(c.title)) · <a href=\"\(link(c.animation.name + "-filmstrip.png"))\">filmstrip</a></figcaption></figure>\n"
            }
        }
        out += "<h2>Charts</h2>\n"
        for image in images where image.hasSuffix(".png") && !image.hasPrefix("best-") && image != importanceImage {
            out += figure(image)
        }
        return out + "</body></html>\n"
    }

    /// A search's box, its choice and the choice's margins (Reference §13).
    static func searchSection(_ s: SearchMeta) -> String {
        var out = "<h2>Search box</h2><p>\(s.evaluations) evaluations in batches of \(s.batch), seed \(s.seed); \(s.checks) more checked the choice's neighbours and margins (checks.csv).</p>"
        out += "<table><tr><th>parameter</th><th>from</th><th>to</th><th>scale</th></tr>\n"
        for b in s.box {
            let range = b.words.map { [$0.map(\.description).joined(separator: " | "), "", "words"] }
                ?? [b.from.map(NumberFormat.short) ?? "", b.to.map(NumberFormat.short) ?? "", b.log == true ? "log" : "linear"]
            out += "<tr><td>\(escape(b.name)) (\(escape(b.unit)))</td>" + range.map { "<td>\(escape($0))</td>" }.joined() + "</tr>\n"
        }
        out += "</table>\n"
        if let chosen = s.chosen {
            out += "<h2>Chosen: evaluation \(chosen)</h2><p>\(s.robust == true ? "Robust: every ±2 % neighbour along each free parameter meets the objective." : "Not robust: a ±2 % neighbour breaks the objective.")"
                + (s.givenUp.map { " " + escape($0) + "." } ?? "") + "</p>\n"
            out += "<table><tr><th>parameter</th><th>value</th><th>margin</th><th>down</th><th>up</th><th>what breaks first</th></tr>\n"
            for m in s.margins {
                let cells = [m.name, NumberFormat.short(m.value), m.margin.map { "\(NumberFormat.short($0)) \(m.unit)" } ?? ">25% of the box",
                             m.down.map(NumberFormat.short) ?? "-", m.up.map(NumberFormat.short) ?? "-", m.breaks ?? ""]
                out += "<tr>" + cells.map { "<td>\(escape($0))</td>" }.joined() + "</tr>\n"
            }
            out += "</table>\n"
        }
        return out
    }

    /// How sure the best sets are (Reference §14): the objective's columns with their 95 %
    /// intervals, then what the chosen set's sureness says.
    static func sureSection(_ sure: BestIntervals, ranking: Ranking) -> String {
        let keys = ranking.keyColumns.filter { k in sure.sets.contains { $0[k] != nil } }
        var out = "<h2>How sure</h2><p>95 % intervals from the cluster bootstrap over \(sure.groups) groups (who made the traces), "
            + "\(sure.bootstrap.resamples) resamples, seed \(sure.bootstrap.seed); n: the traces a value rests on (intervals.csv).</p>\n"
        out += "<table><tr><th>config_id</th>" + keys.map { "<th>\(escape($0))</th>" }.joined() + "</tr>\n"
        for s in sure.sets {
            out += "<tr><td>\(s.configId)</td>" + keys.map { k in "<td>\(escape(s[k]?.text ?? ""))</td>" }.joined() + "</tr>\n"
        }
        out += "</table>\n"
        let lines = (sure.groups < BestIntervals.fewGroups ? ["only \(sure.groups) groups: the intervals understate how far the values could move"] : [])
            + sure.sureLines(ranking: ranking)
        return out + (lines.isEmpty ? "" : "<ul>" + lines.map { "<li>\(escape($0.trimmingCharacters(in: .whitespaces)))</li>" }.joined() + "</ul>\n")
    }

    static func figure(_ image: String) -> String {
        "<figure><img src=\"\(link(image))\" alt=\"\(escape(image))\"><figcaption>\(escape(image)) · <a href=\"\(link(String(image.dropLast(4)) + ".svg"))\">SVG</a></figcaption></figure>\n"
    }

    static let importanceImage = "importance.png"

    /// "Which parameter matters": the shares of the objective's key columns (``Importance``) as a
    /// table and the `importance` chart; empty when no axis varies or there is no objective.
    static func importanceSection(table: SweepReport, ranking: Ranking?, images: [String]) -> String {
        guard let ranking, let shares = try? Importance(table, keyOf: ranking), !shares.columns.isEmpty,
              shares.fixedAxes.count < shares.axes.count else { return "" }
        var out = "<h2>Which parameter matters</h2><p>\(escape(shares.summary)). Each share is the variance of the column's means over one axis's values, "
            + "divided by the column's variance (Reference §10.15)" + (shares.fixedAxes.isEmpty ? "" : "; “-”: an axis swept over one value explains nothing")
            + "; every column: <code>springtune importance report.csv</code>.</p>\n<table>"
        out += "<tr>" + shares.header.map { "<th>\(escape($0))</th>" }.joined() + "</tr>\n"
        for c in shares.columns { out += "<tr>" + shares.cells(c).map { "<td>\(escape($0))</td>" }.joined() + "</tr>\n" }
        out += "</table>\n"
        return out + (images.contains(importanceImage) ? figure(importanceImage) : "")
    }
}
