import Foundation

/// What an animation panel says about its run: the parameter values (`damping 0.4`) and the key
/// metrics (`settle 1.21 s`), laid out in lines of a given width. Nothing is dropped silently:
/// when the lines run out, the last one names what did not fit (`+2 more: gravity, velocityScale`).
public struct PanelLabel: Sendable, Equatable {
    /// Put before the first line (`A:` in `compare --animate`); empty for none.
    public var heading: String
    /// `NAME VALUE` parts, one per parameter shown.
    public var parameters: [String]
    /// Metric and decision parts.
    public var metrics: [String]

    public init(heading: String = "", parameters: [String], metrics: [String]) {
        self.heading = heading; self.parameters = parameters; self.metrics = metrics
    }

    /// Everything on one line (`A: damping 0.4 · settle 1.21 s`).
    public var text: String {
        (heading.isEmpty ? "" : heading + " ") + (parameters + metrics).joined(separator: " · ")
    }

    /// The parameters (after the heading) in at most `parameterLines` lines and the metrics
    /// in at most `metricLines`, each line at most `width` characters.
    public func lines(width: Int, parameterLines: Int, metricLines: Int) -> [String] {
        var shown = parameters
        if !heading.isEmpty { shown = shown.isEmpty ? [heading] : [heading + " " + shown[0]] + shown.dropFirst() }
        return Self.wrap(shown, names: parameters.map(Self.name), width: width, maxLines: parameterLines)
            + Self.wrap(metrics, names: metrics.map(Self.name), width: width, maxLines: metricLines)
    }

    /// A part's name: its first word (`damping` of `damping 0.4`).
    static func name(_ part: String) -> String { part.split(separator: " ").first.map(String.init) ?? part }

    /// `text` cut to `width` characters, the cut marked "…".
    static func cut(_ text: String, _ width: Int) -> String {
        text.count > width ? String(text.prefix(width - 1)) + "…" : text
    }

    /// `parts` joined by " · " into lines of at most `width` characters (a longer part alone on
    /// its line, cut). Past `maxLines`, the last line becomes `+N more: NAME, NAME` with the
    /// `names` of the parts left out (cut to the width).
    static func wrap(_ parts: [String], names: [String], width: Int, maxLines: Int) -> [String] {
        let width = max(width, 12)
        var lines: [(text: String, parts: Int)] = []
        for part in parts.map({ cut($0, width) }) {
            if let last = lines.last, last.text.count + 3 + part.count <= width {
                lines[lines.count - 1] = (last.text + " · " + part, last.parts + 1)
            } else {
                lines.append((part, 1))
            }
        }
        guard lines.count > maxLines else { return lines.map(\.text) }
        let kept = lines.prefix(max(maxLines - 1, 0))
        let rest = names.dropFirst(kept.reduce(0) { $0 + $1.parts })
        return kept.map(\.text) + [cut("+\(rest.count) more: " + rest.joined(separator: ", "), width)]
    }
}
