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
        public var label: String
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

    /// Width of one panel in pixels; the phone's aspect ratio sets the height.
    static let panelWidth = 360.0

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
                    "\(formatNumber(s.x + s.width / 2)) \(formatNumber(s.y + s.height / 2)) \(formatNumber(s.width / 2)) \(formatNumber(s.height / 2)) \(s.color)"
                }.joined(separator: "\n")
                out += shapes.isEmpty ? "-1e6 -1e6 0 0 0" : ""
                out += "\n\n\n"
                out += f.fingers.isEmpty ? "-1e6 -1e6" : f.fingers.map { "\(formatNumber($0.x)) \(formatNumber($0.y))" }.joined(separator: "\n")
                out += "\n\n\n"
            }
        }
        return out
    }

    /// gnuplot commands for frame k, panel by panel (a multiplot when there are several).
    private func frameCommands(_ k: Int, showTime: Bool) -> String {
        var out = panels.count > 1 ? "set multiplot layout 1,\(panels.count)\n" : ""
        for (p, panel) in panels.enumerated() {
            let block = (k * panels.count + p) * 2
            out += "set title \(gnuplotQuote(panel.label))\n"
            out += showTime ? "set label 1 \(gnuplotQuote("t = \(NumberFormat.fixed(panel.frames[k].t, 2)) s")) at graph 0.04, graph 0.03 front\n" : "unset label 1\n"
            out += "plot '\(name).dat' index \(block) using 1:2:3:4:5 with boxxyerror fs solid 1.0 noborder lc rgb variable, "
            out += "'' index \(block + 1) using 1:2 with points pt 7 ps 2.5 lc rgb '#d81b60'\n"
        }
        return out + (panels.count > 1 ? "unset multiplot\n" : "")
    }

    private var setup: String {
        let (w, h) = (screen.x, screen.y)
        return """
        unset key
        unset tics
        unset border
        set margins 1, 1, 1, 3
        set xrange [\(formatNumber(-0.06 * w)):\(formatNumber(1.06 * w))]
        set yrange [\(formatNumber(1.04 * h)):\(formatNumber(-0.04 * h))]
        set object 1 rect from \(formatNumber(-0.04 * w)),\(formatNumber(-0.025 * h)) to \(formatNumber(1.04 * w)),\(formatNumber(1.025 * h)) back fc rgb '#1c1c1e' fs solid 1.0 noborder
        set object 2 rect from 0,0 to \(formatNumber(w)),\(formatNumber(h)) back fc rgb '#f2f2f7' fs solid 1.0 noborder

        """
    }

    public var script: String {
        let pw = Int(Self.panelWidth), ph = Int(Self.panelWidth * screen.y / screen.x * 1.1)
        let delay = max(1, Int((100 / fps).rounded()))
        var out = "# springtune animation '\(name)': run `gnuplot \(name).gp` in this folder to redraw.\nreset session\n"
        out += "set terminal gif animate delay \(delay) loop 0 size \(pw * panels.count),\(ph) font ',9'\nset output '\(name).gif'\n" + setup
        for k in 0..<frameCount { out += frameCommands(k, showTime: true) }
        out += "set output\n"
        // Filmstrip: 8 frames at equal intervals, each panel's strip a row.
        let picks = (0..<8).map { i in frameCount <= 1 ? 0 : i * (frameCount - 1) / 7 }
        out += "set terminal pngcairo size \(pw * 8 / 2),\(ph * panels.count / 2) font ',7'\nset output '\(name)-filmstrip.png'\n"
        out += "unset label 1\nset multiplot layout \(panels.count),8\n"
        for (p, panel) in panels.enumerated() {
            for k in picks {
                let block = (k * panels.count + p) * 2
                // The strip's first panel: as much of the label as fits above it, then the time
                // on its own line (joined in gnuplot: the quoting turns control characters into spaces).
                let time = gnuplotQuote("t = \(NumberFormat.fixed(panel.frames[k].t, 2)) s")
                out += "set title " + (k == picks[0] ? gnuplotQuote(Self.leading(panel.label, fitting: 34)) + " . \"\\n\" . " : "") + time + "\n"
                out += "plot '\(name).dat' index \(block) using 1:2:3:4:5 with boxxyerror fs solid 1.0 noborder lc rgb variable, "
                out += "'' index \(block + 1) using 1:2 with points pt 7 ps 1.2 lc rgb '#d81b60'\n"
            }
        }
        return out + "unset multiplot\nset output\n"
    }
}

extension Animation {
    /// The label's leading " · "-separated parts that fit in `limit` characters (at least the
    /// first part, cut to the limit).
    static func leading(_ label: String, fitting limit: Int) -> String {
        var kept = ""
        for part in label.components(separatedBy: " · ") {
            let next = kept.isEmpty ? part : kept + " · " + part
            guard next.count <= limit else { break }
            kept = next
        }
        return kept.isEmpty ? String(label.prefix(limit)) : kept
    }

    /// A panel of a replay: its pictures sampled at `fps` (slowed by `speed`) from touch-down to
    /// `duration` seconds, each frame showing the latest simulated frame at or before its time
    /// and the fingers then down (each pointer's latest sample, until it lifts).
    public static func panel(label: String, pictures: [(t: Double, shapes: [Shape])], trace: Trace,
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
