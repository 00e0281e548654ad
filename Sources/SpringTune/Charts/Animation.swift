import Foundation
import SpringCore
import SpringLayout
import TraceIO

/// A replay drawn as a phone would show it (issue: see the motion): one or more panels side by
/// side, each the screen to scale in a phone-shaped frame, with the finger as a dot and a time
/// readout. gnuplot writes `NAME.gif` (an animation at `fps`, slowed by `speed`) and
/// `NAME-filmstrip.png` (8 frames at equal intervals, for places that do not play GIFs).
public struct Animation: GnuplotFigure {
    /// A filled rectangle in screen points (top-left corner, size) and its colour 0xRRGGBB.
    public struct Shape: Sendable {
        public var x: Double, y: Double, width: Double, height: Double
        public var color: Int

        /// The part inside a screen of `size` (nil when none is).
        func clipped(to size: SIMD2<Double>) -> Shape? {
            let x0 = max(x, 0), y0 = max(y, 0), x1 = min(x + width, size.x), y1 = min(y + height, size.y)
            guard x1 > x0, y1 > y0 else { return nil }
            return Shape(x: x0, y: y0, width: x1 - x0, height: y1 - y0, color: color)
        }
    }

    /// What is on screen at one moment: shapes, and the fingers that are down.
    public struct Frame: Sendable {
        public var t: Double
        public var shapes: [Shape]
        public var fingers: [SIMD2<Double>]
    }

    /// One phone: its label (parameters and key metrics) and its frames.
    public struct Panel: Sendable {
        public var label: PanelLabel
        public var frames: [Frame]
    }

    public var name: String
    public var screen: SIMD2<Double>
    public var panels: [Panel]
    /// Frames per second of animation and the slow-motion factor (0.5: half speed).
    public var fps: Double
    public var speed: Double

    public var imageNames: [String] { ["\(name).gif", "\(name)-filmstrip.png"] }

    public init(name: String, screen: SIMD2<Double>, panels: [Panel], fps: Double, speed: Double) {
        self.name = safeFileName(name); self.screen = screen; self.panels = panels; self.fps = fps; self.speed = speed
    }

    /// Frames in the animation (every panel has the same number).
    public var frameCount: Int { panels.map(\.frames.count).min() ?? 0 }

    /// Width of one panel of the GIF in pixels; the phone's aspect ratio sets the height.
    static let panelWidth = 360.0
    /// Font sizes (pt) scaled to the panel: its title, and the time readout in the phone's chin.
    static let titleFont = Int(panelWidth / 30), readoutFont = Int(panelWidth / 18)
    /// Lines a title may take: parameters, then metrics (the rest is named, ``PanelLabel``).
    static let parameterLines = 3, metricLines = 2
    /// The phone's chin below the screen, where the time is, as a fraction of the screen height.
    static let chin = 0.12

    /// Characters that fit in `pixels` at `font` pt (a character is at most about 0.66 em wide
    /// in gnuplot's default sans; 8 % of the width kept free).
    static func characters(_ pixels: Double, font: Int) -> Int { Int(pixels * 0.92 / (0.66 * Double(font))) }

    /// `lines` as one gnuplot string expression, joined by line breaks (joined in gnuplot: the
    /// quoting turns control characters into spaces).
    static func multiline(_ lines: [String]) -> String {
        lines.isEmpty ? "\"\"" : lines.map(gnuplotQuote).joined(separator: " . \"\\n\" . ")
    }

    /// Each panel's title lines in a GIF panel.
    private var titles: [[String]] {
        panels.map { $0.label.lines(width: Self.characters(Self.panelWidth, font: Self.titleFont),
                                    parameterLines: Self.parameterLines, metricLines: Self.metricLines) }
    }

    /// Data blocks: per frame, per panel, the shapes (`cx cy halfwidth halfheight colour`),
    /// then the fingers (`x y`; one point far off screen when none is down).
    public var data: String {
        var out = ""
        for k in 0..<frameCount {
            for p in panels {
                let f = p.frames[k]
                // Clipped to the screen: what lies beyond it is not seen.
                let shapes = f.shapes.compactMap { $0.clipped(to: screen) }
                out += shapes.map { s in
                    "\(NumberFormat.cell(s.x + s.width / 2)) \(NumberFormat.cell(s.y + s.height / 2)) \(NumberFormat.cell(s.width / 2)) \(NumberFormat.cell(s.height / 2)) \(s.color)"
                }.joined(separator: "\n")
                out += shapes.isEmpty ? "-1e6 -1e6 0 0 0" : ""
                out += "\n\n\n"
                out += f.fingers.isEmpty ? "-1e6 -1e6" : f.fingers.map { "\(NumberFormat.cell($0.x)) \(NumberFormat.cell($0.y))" }.joined(separator: "\n")
                out += "\n\n\n"
            }
        }
        return out
    }

    /// The time readout at `t` s: large, white, centred on the phone's dark chin.
    private func readout(_ t: Double) -> String {
        let at = "first \(NumberFormat.cell(screen.x / 2)), first \(NumberFormat.cell((1 + Self.chin / 2) * screen.y))"
        return "set label 1 \(gnuplotQuote("t = \(NumberFormat.fixed(t, 2)) s")) at \(at) center tc rgb '#ffffff' font ',\(Self.readoutFont)' front\n"
    }

    /// The plot of panel p at frame k (`dot`: the finger's point size).
    private func plot(_ k: Int, _ p: Int, dot: Double) -> String {
        let block = (k * panels.count + p) * 2
        return "plot '\(name).dat' index \(block) using 1:2:3:4:5 with boxxyerror fs solid 1.0 noborder lc rgb variable, "
            + "'' index \(block + 1) using 1:2 with points pt 7 ps \(dot) lc rgb '#d81b60'\n"
    }

    /// gnuplot commands for frame k, panel by panel (a multiplot when there are several).
    private func frameCommands(_ k: Int, titles: [[String]]) -> String {
        var out = panels.count > 1 ? "set multiplot layout 1,\(panels.count)\n" : ""
        for p in panels.indices {
            out += "set title \(Self.multiline(titles[p]))\n" + readout(panels[p].frames[k].t) + plot(k, p, dot: 2.5)
        }
        return out + (panels.count > 1 ? "unset multiplot\n" : "")
    }

    /// The phone: a dark frame with a chin below the screen (where the time is), the screen light.
    private var setup: String {
        let (w, h) = (screen.x, screen.y)
        return """
        unset key
        unset tics
        unset border
        set xrange [\(NumberFormat.cell(-0.06 * w)):\(NumberFormat.cell(1.06 * w))]
        set yrange [\(NumberFormat.cell((1.02 + Self.chin) * h)):\(NumberFormat.cell(-0.04 * h))]
        set object 1 rect from \(NumberFormat.cell(-0.04 * w)),\(NumberFormat.cell(-0.025 * h)) to \(NumberFormat.cell(1.04 * w)),\(NumberFormat.cell((1 + Self.chin) * h)) back fc rgb '#1c1c1e' fs solid 1.0 noborder
        set object 2 rect from 0,0 to \(NumberFormat.cell(w)),\(NumberFormat.cell(h)) back fc rgb '#f2f2f7' fs solid 1.0 noborder

        """
    }

    /// Pixel height of a phone `width` pixels wide with `lines` lines of text at `font` pt above it.
    private func height(width: Double, lines: Int, font: Int) -> Int {
        Int(width * 0.94 * (1.06 + Self.chin) * screen.y / (1.12 * screen.x) + Double(lines + 3) * 1.6 * Double(font))
    }

    public var script: String {
        let titles = self.titles, lines = titles.map(\.count).max() ?? 1
        let pw = Int(Self.panelWidth), ph = height(width: Self.panelWidth, lines: lines, font: Self.titleFont)
        let delay = max(1, Int((100 / fps).rounded()))
        var out = "# springtune animation '\(name)': run `gnuplot \(name).gp` in this folder to redraw.\nreset session\n"
        out += "set terminal gif animate delay \(delay) loop 0 size \(pw * panels.count),\(ph) font ',\(Self.titleFont)'\nset output '\(name).gif'\n" + setup
        out += "set margins 1, 1, 0, \(lines + 2)\n"
        for k in 0..<frameCount { out += frameCommands(k, titles: titles) }
        return out + "set output\n" + filmstrip
    }

    /// Filmstrip: 8 frames at equal intervals, each panel's strip a row under its label (the
    /// row's width, so the whole label fits), each frame titled with its time.
    private var filmstrip: String {
        let frameWidth = Self.panelWidth / 2, rowFont = 9, timeFont = 7
        let rows = panels.map { $0.label.lines(width: Self.characters(8 * frameWidth, font: rowFont), parameterLines: 2, metricLines: 1) }
        let lines = rows.map(\.count).max() ?? 1
        let rowHeight = height(width: frameWidth, lines: lines + 1, font: timeFont)
        let picks = (0..<8).map { i in frameCount <= 1 ? 0 : i * (frameCount - 1) / 7 }
        var out = "set terminal pngcairo size \(Int(8 * frameWidth)),\(rowHeight * panels.count) font ',\(timeFont)'\nset output '\(name)-filmstrip.png'\n"
        // Room above each frame (in lines of the terminal's font) for the row's label and the time.
        let top = Int((Double(lines * rowFont) / Double(timeFont) + 2).rounded(.up))
        out += "unset label 1\nset margins 1, 1, 0, \(top)\nset multiplot layout \(panels.count),8\n"
        for (p, panel) in panels.enumerated() {
            for k in picks {
                let rowTop = 1 - Double(p) / Double(panels.count)
                out += k == picks[0]
                    ? "set label 2 \(Self.multiline(rows[p])) at screen 0.005, screen \(NumberFormat.cell(rowTop)) left offset 0, char -1 font ',\(rowFont)' front\n"
                    : "unset label 2\n"
                out += "set title \(gnuplotQuote("t = \(NumberFormat.fixed(panel.frames[k].t, 2)) s"))\n" + plot(k, p, dot: 1.2)
            }
        }
        return out + "unset multiplot\nset output\n"
    }
}

extension Animation {
    /// A panel of a replay: its pictures sampled at `fps` (slowed by `speed`) from touch-down to
    /// `duration` seconds, each frame showing the latest simulated frame at or before its time
    /// and the fingers then down (each pointer's latest sample, until it lifts).
    public static func panel(label: PanelLabel, pictures: [(t: Double, shapes: [Shape])], trace: Trace,
                             duration: Double, fps: Double, speed: Double) -> Panel {
        let count = Int((duration * fps / speed).rounded(.down)) + 1
        let t0 = trace.samples.first?.t ?? 0
        var frames: [Frame] = []
        frames.reserveCapacity(count)
        var p = 0
        for j in 0..<count {
            let tau = Double(j) * speed / fps
            while p + 1 < pictures.count, pictures[p + 1].t <= tau + 1e-9 { p += 1 }
            var latest: [Int: TouchSample] = [:]
            for s in trace.samples where s.t - t0 <= tau + 1e-9 { latest[s.pointer] = s }
            let fingers = latest.keys.sorted().compactMap { latest[$0].flatMap { $0.phase.isLift ? nil : SIMD2($0.x, $0.y) } }
            frames.append(Frame(t: tau, shapes: pictures.isEmpty ? [] : pictures[p].shapes, fingers: fingers))
        }
        return Panel(label: label, frames: frames)
    }
}
