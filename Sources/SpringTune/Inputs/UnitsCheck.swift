import SpringCore
import SpringLayout
import TraceIO

/// Spots traces in the wrong units, which otherwise pass silently (Reference §3): most samples
/// far off the screen (device units read as points), release speeds no finger reaches, and
/// samples seconds apart (milliseconds read as seconds). Fed one trace at a time by
/// `traces validate`, `traces import` and `sweep`; ``warning(file:)`` says it in one line.
///
/// Trace sets may place some gestures off the screen on purpose (the bundled flick set has 43 %
/// of its samples beyond twice a 390×844 pt screen), so positions are judged by the majority.
public struct UnitsCheck: Sendable {
    /// A sample beyond this many screen widths or heights from the origin is far off the
    /// screen; a file warns when more than half of its samples are.
    public static let screens = 2.0
    /// About the fastest release a finger manages (pt/s).
    public static let fingerSpeed = 20_000.0
    /// Touch sensors report at 60 Hz or faster: a trace of at least ``minimumSamples`` samples
    /// none of which is closer than this to the previous one (s) is on a coarser clock.
    public static let slowestReport = 0.25
    public static let minimumSamples = 4

    let scene: Scene
    /// The sample farthest off the screen (pt; `screens`: the larger of |x|/width and |y|/height).
    private var farthest: (trace: String, x: Double, y: Double, screens: Double)?
    /// Samples seen, and those beyond ``screens``.
    private var samples = 0, offScreen = 0
    private var fastest: (trace: String, speed: Double)?
    /// Traces with enough samples to judge their clock, and those whose samples are all far apart.
    private var clocked = 0, coarse = 0

    public init(scene: Scene) { self.scene = scene }

    /// Looks at one trace (every pointer's positions, the first pointer's release).
    public mutating func consider(_ trace: Trace) {
        for s in trace.samples {
            let off = max(abs(s.x) / scene.width, abs(s.y) / scene.height)
            if off > Self.screens { offScreen += 1 }
            if off > (farthest?.screens ?? Self.screens) { farthest = (trace.id, s.x, s.y, off) }
        }
        samples += trace.samples.count
        let speed = scene.estimator.releaseVelocity(of: trace.firstPointer).magnitude
        if speed.isFinite, speed > (fastest?.speed ?? Self.fingerSpeed) { fastest = (trace.id, speed) }
        let positions = trace.firstPointer.positionSamples
        guard positions.count >= Self.minimumSamples else { return }
        clocked += 1
        let gaps = zip(positions, positions.dropFirst()).map { $1.t - $0.t }.filter { $0 > 0 }
        if let least = gaps.min(), least > Self.slowestReport { coarse += 1 }
    }

    /// One warning line naming the likely mistake and the import option that fixes it, or nil
    /// when every trace looks like points and seconds.
    public func warning(file: String) -> String? {
        var found: [String] = []
        let screen = "\(NumberFormat.cell(scene.width))×\(NumberFormat.cell(scene.height)) pt screen"
        if let f = farthest, offScreen * 2 > samples {
            found.append("\(offScreen) of \(samples) samples lie beyond \(NumberFormat.cell(Self.screens))× the \(screen), up to (\(NumberFormat.fixed(f.x, 0)), \(NumberFormat.fixed(f.y, 0))) pt in \(f.trace): "
                + "device units read as points? import with --scale (units per pt) or --units-per-mm")
        }
        if let f = fastest {
            found.append("release speeds reach \(NumberFormat.fixed(f.speed, 0)) pt/s in \(f.trace), beyond a finger's ~\(NumberFormat.fixed(Self.fingerSpeed, 0)): "
                + "positions in device units (--scale, --units-per-mm) or times in a finer unit than read (--time-unit)")
        }
        if coarse * 2 >= clocked, coarse > 0 {
            found.append("\(coarse) of \(clocked) traces have no two samples closer than \(NumberFormat.cell(Self.slowestReport)) s: "
                + "times in milliseconds read as seconds? import with --time-unit ms")
        }
        return found.isEmpty ? nil : "warning: \(file): " + found.joined(separator: "; ")
    }
}
