import Foundation
import SpringCore
import ToolRuntime
import TraceIO

/// Something gnuplot draws from `NAME.dat` with the script `NAME.gp`, both kept beside the
/// images (the script runs from that folder).
public protocol GnuplotFigure: Sendable {
    var name: String { get }
    var data: String { get }
    var script: String { get }
    /// The files the script writes, relative to its folder.
    var imageNames: [String] { get }
}

/// A gnuplot string literal: double-quoted with `\` and `"` escaped, control characters
/// (a line break would end the command) and backquotes (command substitution) replaced, so
/// text from a report or a trace never runs anything.
func gnuplotQuote(_ s: String) -> String {
    let cleaned = String(s.unicodeScalars.map { $0.value < 0x20 || $0 == "`" || $0.value == 0x7F ? " " : Character($0) })
    return "\"" + cleaned.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
}

/// A chart drawn by gnuplot as `NAME.png` and `NAME.svg`.
public struct Chart: GnuplotFigure {
    /// One line of a line panel.
    public struct Series: Sendable {
        /// How a series is drawn: a measured line, a cloud of points, an objective's limit (a
        /// dashed red line), the chosen set (a large ring), a Pareto front, or a smooth model
        /// curve (a line without point marks, e.g. a fit drawn over its samples).
        public enum Style: Sendable { case line, points, limit, chosen, front, curve }

        public var label: String
        public var points: [(Double, Double)]
        public var style: Style
        public init(label: String, points: [(Double, Double)], style: Style = .line) {
            self.label = label; self.points = points; self.style = style
        }

        /// The gnuplot `with` clause (`many`: thin lines for a crowd of series).
        func with(many: Bool) -> String {
            switch style {
            case .line: many ? "with lines lw 1" : "with linespoints lw 2 pt 7 ps 0.6"
            case .points: "with points pt 7 ps 0.5 lc rgb '#7f8c8d'"
            case .limit: "with lines dt 2 lw 2 lc rgb '#c0392b'"
            case .chosen: "with points pt 6 ps 2.5 lw 2 lc rgb '#000000'"
            case .front: "with linespoints lw 2 pt 7 ps 0.8 lc rgb '#e67e22'"
            case .curve: "with lines lw 2 lc rgb '#2471a3'"
            }
        }
    }

    /// One part of the bars of a stacked-bar panel: its value in each bar, drawn in the colour of
    /// gnuplot's line type `color` (the same thing keeps its colour from chart to chart), or grey
    /// when nil (a remainder such as the interactions' share).
    public struct Part: Sendable {
        public var label: String
        public var values: [Double]
        public var color: Int?
        public init(label: String, values: [Double], color: Int?) {
            self.label = label; self.values = values; self.color = color
        }
    }

    public enum Panel: Sendable {
        case lines(title: String, x: String, y: String, series: [Series], logX: Bool)
        /// Values on a grid of axis indices; tick labels show the axis values.
        case heatmap(title: String, x: String, xValues: [Double], y: String, yValues: [Double], z: [[Double?]])
        /// One bar per category, its parts stacked bottom to top; a part's value of at least
        /// 0.05 of the tallest bar is written on it to 3 decimals.
        case stackedBars(title: String, y: String, categories: [String], parts: [Part])
    }

    public var name: String
    public var title: String
    public var panels: [Panel]

    /// `name` becomes file names: it is made safe (``safeFileName(_:)``).
    public init(name: String, title: String, panels: [Panel]) {
        self.name = safeFileName(name); self.title = title; self.panels = panels
    }

    public var imageNames: [String] { ["\(name).png", "\(name).svg"] }

    /// gnuplot data blocks, one per series (or one heatmap matrix per panel), in panel order.
    public var data: String {
        var blocks: [String] = []
        for panel in panels {
            switch panel {
            case let .lines(_, _, _, series, _):
                for s in series { blocks.append(s.points.map { "\(NumberFormat.cell($0.0)) \(NumberFormat.cell($0.1))" }.joined(separator: "\n")) }
            case let .heatmap(_, _, xs, _, ys, z):
                var rows: [String] = []
                for j in ys.indices {
                    for i in xs.indices { rows.append("\(i) \(j) \(z[j][i].map(NumberFormat.cell) ?? "NaN")") }
                    rows.append("")
                }
                blocks.append(rows.joined(separator: "\n"))
            case let .stackedBars(_, _, categories, parts):
                blocks.append(categories.indices.map { i in ([String(i)] + parts.map { NumberFormat.cell($0.values[i]) }).joined(separator: " ") }.joined(separator: "\n"))
            }
        }
        return blocks.joined(separator: "\n\n\n") + "\n"
    }

    /// The gnuplot script that draws both images.
    public var script: String {
        let columns = min(panels.count, 3), rows = (panels.count + columns - 1) / max(columns, 1)
        // 520 px a panel; a stacked-bar panel 190 px a bar, so a bar's name fits under it.
        let width = panels.map { panel in if case let .stackedBars(_, _, bars, _) = panel { max(520, 190 * bars.count) } else { 520 } }.max() ?? 520
        let size = (w: width * columns, h: 400 * rows)
        func body() -> String {
            var out = panels.count > 1 ? "set multiplot layout \(rows),\(columns) title \(quote(title))\n" : ""
            var block = 0
            for panel in panels {
                out += "reset session\nset grid\n"
                switch panel {
                case let .lines(t, x, y, series, logX):
                    out += "set title \(quote(panels.count > 1 ? t : title))\nset xlabel \(quote(x))\nset ylabel \(quote(y))\n"
                    // Many series (a replay's items) read better as thin lines without a key.
                    let many = series.count > 8
                    out += (many ? "unset key\n" : "set key below\n") + (logX ? "set logscale x\n" : "")
                    let plots = series.map { s -> String in
                        defer { block += 1 }
                        return "'\(name).dat' index \(block) using 1:2 \(s.with(many: many)) title \(quote(s.label))"
                    }
                    out += plots.isEmpty ? Self.emptyPlot : "plot " + plots.joined(separator: ", \\\n     ") + "\n"
                case let .heatmap(t, x, xs, y, ys, _):
                    out += "set title \(quote(panels.count > 1 ? t : title))\nset xlabel \(quote(x))\nset ylabel \(quote(y))\n"
                    out += "set xtics (\(ticks(xs)))\nset ytics (\(ticks(ys)))\nset xrange [-0.5:\(xs.count) - 0.5]\nset yrange [-0.5:\(ys.count) - 0.5]\n"
                    out += "set palette rgbformulae 33,13,10\nset cblabel \(quote(t))\n"
                    out += "plot '\(name).dat' index \(block) using 1:2:3 with image notitle\n"
                    block += 1
                case let .stackedBars(t, y, categories, parts):
                    out += stackedBars(title: panels.count > 1 ? t : title, y: y, categories: categories, parts: parts, block: block)
                    block += 1
                }
            }
            return out + (panels.count > 1 ? "unset multiplot\n" : "")
        }
        let b = body()
        return """
        # springtune chart '\(name)': run `gnuplot \(name).gp` in this folder to redraw.
        set terminal pngcairo size \(size.w),\(size.h) noenhanced font ",10"
        set output '\(name).png'
        \(b)set output
        set terminal svg size \(size.w),\(size.h) noenhanced font ",10"
        set output '\(name).svg'
        \(b)set output

        """
    }

    /// A lines panel with no series (a replay whose items all stay off screen): an empty frame
    /// saying so; gnuplot refuses `plot NaN` without ranges ("all points y value undefined").
    static let emptyPlot = "set xrange [0:1]\nset yrange [0:1]\nset label 1 \"no data\" at 0.5, 0.5 center\nplot NaN notitle\n"

    /// The gnuplot commands of a stacked-bar panel (a row-stacked histogram; bars at x = 0, 1, …).
    private func stackedBars(title: String, y: String, categories: [String], parts: [Part], block: Int) -> String {
        let tallest = categories.indices.map { i in parts.reduce(0) { $0 + $1.values[i] } }.max() ?? 0
        var out = "set title \(quote(title))\nset ylabel \(quote(y))\nunset xlabel\nset key below\nset grid noxtics\n"
        out += "set style data histograms\nset style histogram rowstacked\nset style fill solid 0.75 border -1\nset boxwidth 0.6\n"
        out += "set xrange [-0.5:\(categories.count) - 0.5]\nset yrange [0:\(NumberFormat.cell(max(tallest, 1e-9) * 1.05))]\n"
        out += "set xtics (\(categories.enumerated().map { "\(quote($1)) \($0)" }.joined(separator: ", "))) nomirror\n"
        var label = 0
        for i in categories.indices {
            var bottom = 0.0
            for p in parts {
                let v = p.values[i]
                if v >= 0.05 * tallest, v > 0 {
                    label += 1
                    out += "set label \(label) \(quote(NumberFormat.fixed(v, 3))) at \(i), \(NumberFormat.cell(bottom + v / 2)) center front\n"
                }
                bottom += v
            }
        }
        let plots = parts.enumerated().map { k, p in
            "'\(name).dat' index \(block) using \(k + 2) \(p.color.map { "lc \($0)" } ?? "lc rgb '#bdc3c7'") title \(quote(p.label))"
        }
        return out + "plot " + (plots.isEmpty ? "NaN notitle" : plots.joined(separator: ", \\\n     ")) + "\n"
    }

    private func ticks(_ values: [Double]) -> String {
        let step = max(1, values.count / 8)
        return values.indices.filter { $0 % step == 0 }.map { "\"\(NumberFormat.significant(values[$0], 4))\" \($0)" }.joined(separator: ", ")
    }

    private func quote(_ s: String) -> String { gnuplotQuote(s) }
}

/// Runs gnuplot as a subprocess (Reference §9.6: a missing gnuplot never loses the CSV).
public enum Gnuplot {
    /// The gnuplot executable on PATH, or nil.
    public static func executable(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let given = environment["SPRINGTUNE_GNUPLOT"] { return FileManager.default.isExecutableFile(atPath: given) ? given : nil }
        return Subprocess.executable("gnuplot", environment: environment)
    }

    /// Writes the data and scripts of `charts` into `directory` and draws them all with one
    /// gnuplot process. Returns the image paths. Throws `.unavailable` (69) without gnuplot.
    @discardableResult
    public static func draw(_ charts: [any GnuplotFigure], in directory: String) throws -> [String] {
        guard !charts.isEmpty else { return [] }
        for chart in charts {
            try AtomicFile.write(chart.data, to: "\(directory)/\(chart.name).dat")
            try AtomicFile.write(chart.script, to: "\(directory)/\(chart.name).gp")
        }
        guard let gnuplot = executable() else {
            throw ToolError(.unavailable, "gnuplot not found on PATH (install gnuplot-nox); charts skipped, scripts kept in \(directory)")
        }
        let drawn = try Subprocess.run(gnuplot, charts.map { "\($0.name).gp" }, directory: directory, discardOutput: true)
        let images = charts.flatMap { c in c.imageNames.map { "\(directory)/\($0)" } }
        guard drawn.status == 0 else {
            for image in images { try? FileManager.default.removeItem(atPath: image) }
            let lines = drawn.errors.split(separator: "\n")
            let line = (lines.first { $0.contains("line") } ?? lines.first ?? "").trimmingCharacters(in: .whitespaces)
            throw ToolError(.software, "gnuplot failed (exit \(drawn.status)): \(line.isEmpty ? "it printed nothing" : line)")
        }
        return images
    }
}
