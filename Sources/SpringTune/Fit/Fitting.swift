import Foundation
import SpringCore
import SpringLayout
import ToolRuntime
import TraceIO

/// `springtune fit`: samples read from CSV, fitted (``SpringFit``, ``DecelerationFit``), and
/// the results as text, JSON, a chart and a preset.
public enum Fitting {
    /// Largest |t| (s) and |value| accepted, as for traces (Reference §3 limits).
    public static let maxTime = TraceReader.maxTime, maxValue = TraceReader.maxCoordinate
    /// UIScrollView's deceleration rates (per ms), for comparison.
    public static let uiKitNormal = 0.998, uiKitFast = 0.99

    /// The `time` and `value` columns of `path`.
    static func samples(path: String, time: String, value: String) throws -> SampleColumns {
        try SampleColumns(path: path, columns: [.init(time, limit: maxTime), .init(value, limit: maxValue)])
    }

    /// A fit failure as one line: at the offending time cell when one applies.
    static func failure(_ error: FitError, _ columns: SampleColumns, timeColumn: String, times: [Double]) -> ToolError {
        if case let .timeNotIncreasing(i) = error {
            return columns.error(row: i, column: 0, "\(timeColumn.prefix(40)): \(times[i]) is not after the previous sample's \(times[i - 1]): \(error.description)")
        }
        return ToolError(.dataError, "\(columns.file): \(error.description)")
    }

    /// `fit spring`: reads `path` and fits a damped spring (the target fixed when given).
    public static func spring(path: String, timeColumn: String = "t", valueColumn: String = "x", target: Double? = nil) throws -> FittedSpring {
        let columns = try samples(path: path, time: timeColumn, value: valueColumn)
        let (t, x) = (columns.values[0], columns.values[1])
        do {
            return FittedSpring(file: path, times: t, values: x, fit: try SpringFit.fit(times: t, values: x, target: target))
        } catch {
            throw failure(error, columns, timeColumn: timeColumn, times: t)
        }
    }

    /// `fit deceleration --format positions`: reads `path` and fits an exponential deceleration.
    public static func deceleration(path: String, timeColumn: String = "t", valueColumn: String = "x") throws -> FittedDeceleration {
        let columns = try samples(path: path, time: timeColumn, value: valueColumn)
        let (t, x) = (columns.values[0], columns.values[1])
        do {
            return FittedDeceleration(file: path, times: t, values: x, fit: try DecelerationFit.fit(times: t, values: x))
        } catch {
            throw failure(error, columns, timeColumn: timeColumn, times: t)
        }
    }

    /// `fit deceleration --format wheel`: per-event scroll deltas (`trace_id`, `t_seconds`,
    /// `dx`, `dy`, other columns ignored), one gesture per `trace_id` (its rows contiguous,
    /// times non-decreasing). Each gesture's momentum tail along its axis (the one with the
    /// larger total |delta|) is found by ``WheelMomentum/tail(times:deltas:)`` and fitted.
    public static func wheel(path: String) throws -> FittedWheel {
        let columns = try SampleColumns(path: path, columns: [.init("t_seconds", limit: maxTime), .init("dx", limit: maxValue), .init("dy", limit: maxValue)],
                                        group: "trace_id")
        let (t, dx, dy) = (columns.values[0], columns.values[1], columns.values[2])
        var gestures: [FittedWheel.Gesture] = []
        var seen = Set<String>()
        var start = 0
        while start < columns.count {
            let id = columns.groups[start]
            guard seen.insert(id).inserted else {
                throw columns.groupError(row: start, "gesture '\(id.prefix(60))' appears again after other gestures (rows of a gesture must be contiguous)")
            }
            var end = start + 1
            while end < columns.count, columns.groups[end] == id {
                if t[end] < t[end - 1] { throw columns.error(row: end, column: 0, "t_seconds goes backwards (\(t[end]) < \(t[end - 1])) in gesture '\(id.prefix(60))'") }
                end += 1
            }
            let sx = dx[start..<end].reduce(0) { $0 + abs($1) }, sy = dy[start..<end].reduce(0) { $0 + abs($1) }
            let axis = sy > sx ? "y" : "x"
            var gesture = FittedWheel.Gesture(trace: id, axis: axis, events: end - start)
            do {
                let tail = try WheelMomentum(times: Array(t[start..<end]), deltas: Array((axis == "y" ? dy : dx)[start..<end]))
                gesture.tail = tail
                gesture.fit = try tail.fit()
            } catch {
                gesture.skipped = error.description
            }
            gestures.append(gesture)
            start = end
        }
        guard gestures.contains(where: { $0.fit != nil }) else {
            throw ToolError(.dataError, "\(path): no gesture has a momentum tail to fit (\(gestures.count) gestures)")
        }
        return FittedWheel(file: path, gestures: gestures)
    }

    /// Where `--plot` goes: an image path (`.png`; the `.svg`, `.gp` and `.dat` beside it), or
    /// an existing folder (or a path ending in `/`), which gets `NAME.png`. A path that exists
    /// as anything else (a device such as /dev/null, a link) is refused; the name is sanitised.
    static func chartLocation(_ plot: String, defaultName: String) throws -> (directory: String, name: String) {
        var info = stat()
        if lstat(plot, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG, (info.st_mode & S_IFMT) != S_IFDIR {
            throw ToolError(.cantCreate, "--plot \(plot): exists and is not a regular file or folder")
        }
        var isDirectory: ObjCBool = false
        if plot.hasSuffix("/") || (FileManager.default.fileExists(atPath: plot, isDirectory: &isDirectory) && isDirectory.boolValue) {
            return (URL(fileURLWithPath: plot).path, defaultName)
        }
        let url = URL(fileURLWithPath: plot)
        return (url.deletingLastPathComponent().path, safeFileName(url.deletingPathExtension().lastPathComponent))
    }

    /// Draws `panels` as one chart at `plot` (see ``chartLocation(_:defaultName:)``); returns the images.
    static func draw(_ panels: [Chart.Panel], title: String, plot: String, defaultName: String) throws -> [String] {
        let (directory, name) = try chartLocation(plot, defaultName: defaultName)
        return try Gnuplot.draw([Chart(name: name, title: title, panels: panels)], in: directory)
    }

    /// `count` evenly spaced times from the first to the last of `times`.
    static func curveTimes(_ times: [Double], count: Int) -> [Double] {
        let a = times[0], b = times[times.count - 1]
        return (0..<count).map { a + (b - a) * Double($0) / Double(count - 1) }
    }

    /// Two-column text lines: a label padded to 22 characters, then the value.
    static func lines(_ rows: [(String, String)]) -> String {
        rows.map { $0.0.padding(toLength: 22, withPad: " ", startingAt: 0) + $0.1 }.joined(separator: "\n") + "\n"
    }
}

/// A spring fitted to a file's samples.
public struct FittedSpring: Sendable {
    public var file: String
    public var times: [Double]
    public var values: [Double]
    public var fit: SpringFit

    /// Every form of Reference §2 for the fitted spring (unit mass), under the names presets use.
    public struct Forms: Encodable, Sendable {
        public var frequency, damping, stiffness, dampingCoefficient, mass, response, dampingRatio, duration, bounce, tension, friction: Double
        init(_ s: SpringParameters) {
            frequency = s.frequency; damping = s.damping; stiffness = s.stiffness(); dampingCoefficient = s.dampingCoefficient(); mass = 1
            response = s.response; dampingRatio = s.damping; duration = s.response; bounce = s.bounce; tension = s.tension; friction = s.friction
        }
    }

    /// The `--json` document.
    public struct Report: Encodable, Sendable {
        public var file: String
        public var samples: Int
        public var startTime, endTime: Double
        public var spring: Forms
        public var target: Double
        public var targetFitted: Bool
        public var initialDisplacement, initialVelocity: Double
        public var rms, relativeRMS, range: Double
        public var warnings: [String]
    }

    public var report: Report {
        Report(file: file, samples: fit.sampleCount, startTime: times[0], endTime: times[times.count - 1], spring: Forms(fit.spring),
               target: fit.target, targetFitted: fit.targetFitted, initialDisplacement: fit.initial.x, initialVelocity: fit.initial.v,
               rms: fit.rms, relativeRMS: fit.relativeRMS, range: fit.range, warnings: fit.warnings)
    }

    /// The readable text block.
    public var text: String {
        let s = fit.spring, f = { NumberFormat.significant($0, 6) }
        return "\(file): \(fit.sampleCount) samples, t \(f(times[0]))–\(f(times[times.count - 1])) s\n" + Fitting.lines([
            ("frequency", "\(f(s.frequency)) Hz"), ("damping", f(s.damping)),
            ("stiffness", "\(f(s.stiffness())) (mass 1)"), ("damping coefficient", f(s.dampingCoefficient())),
            ("response", "\(f(s.response)) s"), ("dampingRatio", f(s.damping)),
            ("duration", "\(f(s.response)) s"), ("bounce", f(s.bounce)),
            ("tension", f(s.tension)), ("friction", f(s.friction)),
            ("target", f(fit.target) + (fit.targetFitted ? " (fitted)" : " (given)")),
            ("initial displacement", "\(f(fit.initial.x)) (position − target at t \(f(fit.startTime)) s)"),
            ("initial velocity", "\(f(fit.initial.v)) per s"),
            ("residual RMS", "\(f(fit.rms)) (\(f(100 * fit.relativeRMS)) % of the \(f(fit.range)) range)"),
        ]) + fit.warnings.map { "warning: \($0)\n" }.joined()
    }

    /// Samples against the fitted curve, and the residuals.
    public var panels: [Chart.Panel] {
        let cycles = (times[times.count - 1] - times[0]) * fit.spring.frequency
        let curve = Fitting.curveTimes(times, count: Int(clamping: 40 * cycles, to: 400...4000))
        let fitted = Chart.Series(label: "fit: f \(NumberFormat.significant(fit.spring.frequency, 6)) Hz, ζ \(NumberFormat.significant(fit.spring.damping, 6))",
                                  points: curve.map { ($0, fit.position(at: $0)) }, style: .curve)
        let residuals = zip(times, values).map { ($0, $1 - fit.position(at: $0)) }
        return [.lines(title: "samples and fitted spring", x: "t (s)", y: "position", series: [fitted, .init(label: "samples", points: Array(zip(times, values)), style: .points)], logX: false),
                .lines(title: "residual (RMS \(NumberFormat.significant(fit.rms, 6)))", x: "t (s)", y: "sample − fit", series: [.init(label: "residual", points: residuals, style: .points)], logX: false)]
    }

    /// Draws the chart at `plot`; returns the image paths.
    public func draw(plot: String) throws -> [String] {
        try Fitting.draw(panels, title: "fit spring: \(file)", plot: plot, defaultName: "fit-spring")
    }

    /// A copy of `loaded` with the fitted spring in its spring block, written for `destination`:
    /// sweep axes over the model's spring parameters are dropped (the fitted values replace
    /// them; returned by name), the provenance (a report's) is dropped, trace entries are
    /// re-expressed for the new file's folder, and the description says where the spring came from.
    public func preset(from loaded: PresetStore.Loaded, destination: String) -> (preset: Preset, droppedAxes: [String]) {
        var preset = loaded.preset
        preset.spring = .typed(fit.spring)
        let springNames = Set(loaded.kind.springParameterNames)
        let dropped = preset.sweep.map(\.name).filter { springNames.contains($0) }
        preset.sweep.removeAll { springNames.contains($0.name) }
        preset.provenance = nil
        let folder = URL(fileURLWithPath: destination).deletingLastPathComponent()
        preset.traces = PresetStore.traceFiles(for: loaded).map { Export.traceEntry($0, relativeTo: folder) }
        preset.description += " Spring fitted by springtune fit from \(URL(fileURLWithPath: file).lastPathComponent) (\(fit.sampleCount) samples, RMS \(NumberFormat.significant(fit.rms, 6)))."
        return (preset, dropped)
    }
}

/// An exponential deceleration fitted to a file's positions.
public struct FittedDeceleration: Sendable {
    public var file: String
    public var times: [Double]
    public var values: [Double]
    public var fit: DecelerationFit

    /// The `--json` document.
    public struct Report: Encodable, Sendable {
        public var file: String
        public var samples: Int
        public var startTime, endTime: Double
        public var decelerationRate, lambda, projectedDistancePerVelocity, initialVelocity, restPosition, remainingDistance: Double
        public var rms, relativeRMS, range: Double
        public var warnings: [String]
    }

    /// Doubts about the fit: an RMS above ``SpringFit/doubtfulRelativeRMS`` of the range (the
    /// motion is not a clean exponential: a bounce, a finger still on the surface, noise).
    public var warnings: [String] {
        guard fit.relativeRMS > SpringFit.doubtfulRelativeRMS else { return [] }
        return ["the residual RMS is \(NumberFormat.significant(100 * fit.relativeRMS, 6)) % of the range: the motion is not a clean exponential deceleration, distrust the rate"]
    }

    public var report: Report {
        Report(file: file, samples: fit.sampleCount, startTime: times[0], endTime: times[times.count - 1],
               decelerationRate: fit.decelerationRate, lambda: fit.lambda, projectedDistancePerVelocity: fit.projectedDistancePerVelocity,
               initialVelocity: fit.initialVelocity, restPosition: fit.restPosition, remainingDistance: fit.remainingDistance,
               rms: fit.rms, relativeRMS: fit.relativeRMS, range: fit.range, warnings: warnings)
    }

    public var text: String {
        let f = { NumberFormat.significant($0, 6) }
        return "\(file): \(fit.sampleCount) samples, t \(f(times[0]))–\(f(times[times.count - 1])) s\n" + Fitting.lines([
            ("decelerationRate", "\(NumberFormat.fixed(fit.decelerationRate, 6)) per ms (UIKit: normal \(Fitting.uiKitNormal), fast \(Fitting.uiKitFast))"),
            ("lambda", "\(f(fit.lambda)) per s"),
            ("projected distance", "\(f(fit.projectedDistancePerVelocity)) per unit/s of release velocity (1/λ, s)"),
            ("initial velocity", "\(f(fit.initialVelocity)) per s"),
            ("rest position", "\(f(fit.restPosition)) (\(f(fit.remainingDistance)) to go at t \(f(fit.startTime)) s)"),
            ("residual RMS", "\(f(fit.rms)) (\(f(100 * fit.relativeRMS)) % of the \(f(fit.range)) range)"),
        ]) + warnings.map { "warning: \($0)\n" }.joined()
    }

    public func draw(plot: String) throws -> [String] {
        let curve = Fitting.curveTimes(times, count: 400)
        return try Fitting.draw([.lines(title: "samples and fitted deceleration", x: "t (s)", y: "position", series: [
            .init(label: "fit: decelerationRate \(NumberFormat.fixed(fit.decelerationRate, 5))", points: curve.map { ($0, fit.position(at: $0)) }, style: .curve),
            .init(label: "samples", points: Array(zip(times, values)), style: .points),
        ], logX: false)], title: "fit deceleration: \(file)", plot: plot, defaultName: "fit-deceleration")
    }
}

/// Deceleration fitted to the momentum tail of each gesture of a wheel-event file.
public struct FittedWheel: Sendable {
    public var file: String
    public var gestures: [Gesture]

    /// One gesture: its momentum tail and the tail's fit, or why it has none.
    public struct Gesture: Sendable {
        public var trace: String
        public var axis: String
        public var events: Int
        public var tail: WheelMomentum?
        public var fit: DecelerationFit?
        public var skipped: String?
    }

    /// One gesture in the `--json` document (the tail's figures absent when it was skipped).
    public struct GestureReport: Encodable, Sendable {
        public var trace: String
        public var axis: String
        public var events: Int
        public var tailEvents: Int?
        public var tailStart, tailEnd, decelerationRate, lambda, projectedDistancePerVelocity, initialVelocity, travel, rms: Double?
        public var skipped: String?
    }

    /// The `--json` document.
    public struct Report: Encodable, Sendable {
        public var file: String
        public var decelerationRate: Double
        public var minimumDecelerationRate, maximumDecelerationRate: Double
        public var fitted, skipped: Int
        public var gestures: [GestureReport]
    }

    var rates: [Double] { gestures.compactMap { $0.fit?.decelerationRate } }

    public var report: Report {
        Report(file: file, decelerationRate: FitSamples.median(rates), minimumDecelerationRate: rates.min()!, maximumDecelerationRate: rates.max()!,
               fitted: rates.count, skipped: gestures.count - rates.count, gestures: gestures.map { g in
                   let tail = g.fit == nil ? nil : g.tail
                   return GestureReport(trace: g.trace, axis: g.axis, events: g.events, tailEvents: tail?.times.count,
                                        tailStart: tail?.times.first, tailEnd: tail?.times.last,
                                        decelerationRate: g.fit?.decelerationRate, lambda: g.fit?.lambda,
                                        projectedDistancePerVelocity: g.fit?.projectedDistancePerVelocity, initialVelocity: g.fit?.initialVelocity,
                                        travel: tail?.positions.last, rms: g.fit?.rms, skipped: g.skipped)
               })
    }

    public var text: String {
        let r = report, f = { NumberFormat.significant($0, 6) }
        var out = "\(file): \(gestures.count) gestures, \(r.fitted) momentum tails fitted\n" + Fitting.lines([
            ("decelerationRate", "\(NumberFormat.fixed(r.decelerationRate, 6)) per ms, median (\(NumberFormat.fixed(r.minimumDecelerationRate, 6))–\(NumberFormat.fixed(r.maximumDecelerationRate, 6)))"),
            ("UIKit", "normal \(Fitting.uiKitNormal), fast \(Fitting.uiKitFast)"),
        ])
        let rows = gestures.map { g -> [String] in
            guard let fit = g.fit, let tail = g.tail else { return [g.trace, g.axis, "–/\(g.events)", "skipped", "", "", "", ""] }
            return [g.trace, g.axis, "\(tail.times.count)/\(g.events)", NumberFormat.fixed(fit.decelerationRate, 6), f(fit.lambda),
                    f(fit.initialVelocity), f(tail.positions[tail.positions.count - 1]), f(fit.rms)]
        }
        out += TextTable(header: ["gesture", "axis", "tail/events", "rate /ms", "λ /s", "v0 /s", "travel", "rms"], rows: rows).rendered
        return out + gestures.compactMap { g in g.skipped.map { "skipped \(g.trace): \($0)\n" } }.joined()
    }

    public func draw(plot: String) throws -> [String] {
        let panels: [Chart.Panel] = gestures.compactMap { g in
            guard let fit = g.fit, let tail = g.tail else { return nil }
            let t0 = tail.times[0], curve = Fitting.curveTimes(tail.times, count: 300)
            return .lines(title: "\(g.trace) (rate \(NumberFormat.fixed(fit.decelerationRate, 5)))", x: "t − \(NumberFormat.significant(t0, 6)) s", y: "travel along \(g.axis)", series: [
                .init(label: "fit", points: curve.map { ($0 - t0, fit.position(at: $0)) }, style: .curve),
                .init(label: "momentum tail", points: zip(tail.times, tail.positions).map { ($0 - t0, $1) }, style: .points),
            ], logX: false)
        }
        return try Fitting.draw(panels, title: "fit deceleration (wheel): \(file)", plot: plot, defaultName: "fit-deceleration")
    }
}
