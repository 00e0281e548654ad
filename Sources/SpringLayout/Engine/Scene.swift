import SpringCore

/// The screen and clock a model runs in (Reference §1, §6).
public struct Scene: Hashable, Sendable {
    /// Screen width (pt).
    public var width: Double = 390
    /// Screen height (pt).
    public var height: Double = 844
    /// Frame rate F (Hz).
    public var frameRate: Double = 120
    /// Position tolerance ε (pt).
    public var tolerance: Double = 0.5
    /// Simulation tail after release (s).
    public var tail: Double = 5
    /// Release-velocity estimator.
    public var estimator: VelocityEstimator = .lsq2

    /// The default scene: 390 × 844 pt at 120 Hz, tolerance 0.5 pt, 5 s tail, `lsq2` estimator.
    public init() {}

    /// Frames in the tail after the release frame.
    public var tailFrames: Int { Int((tail * frameRate).rounded()) }
}

extension Scene {
    /// The scene as the WebAssembly engine is handed it (Reference §15): width, height (pt),
    /// frame rate (Hz), tolerance (pt), tail (s) and the estimator's index in
    /// `VelocityEstimator.allCases` (lsq2, impulse, ios, last).
    public var numbers: [Double] {
        [width, height, frameRate, tolerance, tail, NumberReader.number(of: estimator)]
    }

    /// The scene of ``numbers``; nil for another count, a number that is not finite, or an
    /// estimator index out of range.
    public init?(numbers: [Double]) {
        var r = NumberReader(numbers)
        guard let w = r.number(), let h = r.number(), let f = r.number(), let tolerance = r.number(), let tail = r.number(),
              let estimator = r.choice(VelocityEstimator.self), r.isAtEnd else { return nil }
        self.init()
        (width, height, frameRate, self.tolerance, self.tail, self.estimator) = (w, h, f, tolerance, tail, estimator)
    }
}

#if !hasFeature(Embedded)
// Decoding and the sweep's values: a preset's side (the WebAssembly build, Reference §15, is
// given the numbers). Codable here, in the type's file, so that encoding is synthesized.
extension Scene: Codable {
    /// Decodes strictly; missing keys take the defaults, and values out of the ranges `--set`/`--vary` take fail with the key's path.
    public init(from decoder: any Decoder) throws {
        let c = try StrictContainer(decoder, keys: ["width", "height", "frameRate", "tolerance", "tail", "estimator"])
        // The values a sweep can vary take the ranges `--set`/`--vary` take (``sweepable``: a
        // height of 0.5 pt passed here and was refused there). Bounded so that a run has at most
        // 600 s × 1000 Hz frames (Reference §11).
        func swept(_ name: String) throws -> Double? {
            guard let v = try c.decodeIfPresent(Double.self, name) else { return nil }
            if let problem = Self.sweepable.first(where: { $0.name == name })?.check(.number(v)) { throw c.fail(name, problem) }
            return v
        }
        width = try swept("width") ?? width
        height = try swept("height") ?? height
        frameRate = try swept("frameRate") ?? frameRate
        tolerance = try c.number("tolerance", "must be in (0, 1000]") { $0 > 0 && $0 <= 1000 } ?? tolerance
        tail = try swept("tail") ?? tail
        estimator = try c.decodeIfPresent(VelocityEstimator.self, "estimator") ?? estimator
    }

    /// The scene values a sweep can vary (`--vary frameRate=60,120`) or fix (`--set`) like a
    /// model's parameters, so a preset can be checked on other displays and phones.
    public static let sweepable: [ParameterSpec] = [
        .number("frameRate", "Hz", 120, "display frame rate F", min: 1, max: 1000, domain: nil),
        .number("width", "pt", 390, "screen width", min: 1, max: 100_000, domain: nil),
        .number("height", "pt", 844, "screen height", min: 1, max: 100_000, domain: nil),
        .number("tail", "s", 5, "simulated time after release", min: 0, max: 600, domain: nil),
    ]

    /// This scene with the sweepable values among `values` applied, and the other values. This
    /// is the one place scene values given as parameters (`--set`, `--vary`, a search box, the
    /// studio, an export) are checked, so every command that runs a scene refuses the same values.
    ///
    /// - Throws: ``PresetError`` naming the value when it is not a number in its range
    ///   (``sweepable``: a frame rate of 0 or NaN would never end a frame loop).
    public func applying(_ values: [String: ParamValue]) throws(PresetError) -> (scene: Scene, rest: [String: ParamValue]) {
        var scene = self, rest = values
        for spec in Self.sweepable {
            guard let given = rest.removeValue(forKey: spec.name) else { continue }
            if let problem = spec.check(given) { throw PresetError(path: spec.name, message: problem) }
            guard let v = given.number else { continue }
            switch spec.name {
            case "frameRate": scene.frameRate = v
            case "width": scene.width = v
            case "height": scene.height = v
            default: scene.tail = v
            }
        }
        return (scene, rest)
    }
}
#endif

/// The frame clock of a trace (Reference §6): frame k is at t₀ + k/F, computed, not accumulated; the
/// input at frame k is the latest sample with time ≤ tₖ (1e-9 s slack); the release frame is
/// the first whose input is the lift row.
public struct FrameClock: Sendable {
    /// The time of frame 0: the trace's first sample (s).
    public let t0: Double
    /// Frames per second F (Hz).
    public let frameRate: Double
    /// Index of the release frame.
    public let releaseFrame: Int
    /// Index of the last frame (release frame + tail).
    public let lastFrame: Int

    /// The slack when comparing a sample's time with a frame's (s): 1e-9.
    public static let slack = 1e-9

    /// The clock of `trace` at the scene's frame rate, its release frame and the last frame of the scene's tail.
    public init(trace: Trace, scene: Scene) {
        t0 = trace.samples.first?.t ?? 0
        frameRate = scene.frameRate
        let lift = trace.liftOffTime
        var k = max(0, Int(((lift - t0) * scene.frameRate).rounded(.down)) - 1)
        while t0 + Double(k) / scene.frameRate + Self.slack < lift { k += 1 }
        while k > 0, t0 + Double(k - 1) / scene.frameRate + Self.slack >= lift { k -= 1 }
        releaseFrame = k
        lastFrame = k + scene.tailFrames
    }

    /// Time of frame k.
    @inlinable public func time(_ k: Int) -> Double { t0 + Double(k) / frameRate }

    /// For each frame up to the release frame, the index of its input sample.
    public func inputs(_ trace: Trace) -> [Int] {
        var out: [Int] = []
        out.reserveCapacity(releaseFrame + 1)
        var i = 0
        let s = trace.samples
        for k in 0...releaseFrame {
            let tk = time(k) + Self.slack
            while i + 1 < s.count, s[i + 1].t <= tk { i += 1 }
            out.append(i)
        }
        return out
    }
}

