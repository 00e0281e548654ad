import SpringCore
import SpringLayout

/// The frames of one run (Reference §6): frame k at t₀ + k/F, from frame 0 until `tail` after the
/// decision frame (the release frame, or for `card-dismiss` possibly an earlier commit frame).
/// Every model's measurement walks its frames through this one loop.
struct FrameLoop {
    let clock: FrameClock
    let tailFrames: Int

    init(clock: FrameClock, scene: Scene) {
        self.clock = clock
        tailFrames = scene.tailFrames
    }

    /// What a frame's body tells the loop.
    enum Step {
        /// Go on.
        case next
        /// This is the decision frame: the run ends `tail` after it.
        case decided
        /// Nothing after this frame can change a metric: end here.
        case stop
    }

    /// Runs `body` for k = 0, 1, … and returns the last frame the run lasts to (the frame a
    /// settle time is measured against), even when the body stopped early. Always inlined, so
    /// the body's state stays in registers in the per-row loops.
    @inline(__always)
    func run(_ body: (Int) -> Step) -> Int {
        var last = clock.lastFrame, k = 0
        while k <= last {
            switch body(k) {
            case .next: break
            case .decided: last = k + tailFrames
            case .stop: return last
            }
            k += 1
        }
        return last
    }
}

/// Feeds a trace to an engine frame by frame as the sweep does (Reference §6): before frame k, every
/// sample with time ≤ tₖ (1e-9 s slack) is added.
public struct TraceFeed: Sendable {
    public let trace: Trace
    public let clock: FrameClock
    private var next = 0

    public init(trace: Trace, scene: Scene) {
        self.trace = trace
        clock = FrameClock(trace: trace, scene: scene)
    }

    /// The samples that arrive by frame k (call with increasing k).
    public mutating func samples(upTo k: Int) -> ArraySlice<TouchSample> {
        let start = next, limit = clock.time(k) + FrameClock.slack
        while next < trace.samples.count, trace.samples[next].t <= limit { next += 1 }
        return trace.samples[start..<next]
    }
}

/// Settling (Reference §8): the last frame, from the decision frame on, with any value out of the
/// band ε, turned into a time counted from the decision frame.
struct SettleTracker {
    private(set) var lastOut: Int?

    mutating func record(frame k: Int, outOfBand: Bool) {
        if outOfBand { lastOut = k }
    }

    /// (index of the first frame after the last out-of-band one − decision frame) / F; 0 when
    /// no frame was out of band; +∞ when the last frame still is (the trace is unsettled).
    func time(from decisionFrame: Int, lastFrame: Int, frameRate: Double) -> Double {
        guard let lastOut else { return 0 }
        if lastOut >= lastFrame { return .infinity }
        return Double(lastOut + 1 - decisionFrame) / frameRate
    }
}

/// Overshoot (Reference §8) of items against the sign of their displacement dᵢ at the decision
/// frame: `overshoot_pt` = max over items with |dᵢ(t_r)| ≥ ε of max over the frames where the
/// item counts of max(0, −sgn(dᵢ(t_r))·dᵢ(t)); `overshoot_ratio` = `overshoot_pt` over the
/// largest |dᵢ(t_r)| among the items that count in some frame (nil below 1 pt).
struct OvershootTracker {
    private var atDecision: [Double]
    private var peak: [Double]
    private var counted: [Bool]

    init(items: Int) {
        atDecision = Array(repeating: 0, count: items)
        peak = Array(repeating: 0, count: items)
        counted = Array(repeating: false, count: items)
    }

    /// A tracker in a given state (one lane of a batch run).
    init(atDecision: [Double], peak: [Double], counted: [Bool]) {
        self.atDecision = atDecision
        self.peak = peak
        self.counted = counted
    }

    /// dᵢ at the decision frame, for every item whether or not it counts there.
    mutating func start(item i: Int, displacement d: Double) { atDecision[i] = d }

    /// dᵢ at a frame (the decision frame included) where item i counts.
    mutating func observe(item i: Int, displacement d: Double) {
        counted[i] = true
        peak[i] = max(peak[i], atDecision[i] > 0 ? -d : d)
    }

    /// `overshoot_pt` so far and every item's dᵢ(t_r) (for deciding an early exit).
    func current(tolerance: Double) -> (pt: Double, atDecision: [Double]) {
        (Self.overshoot(items: atDecision.count, tolerance: tolerance, atDecision: { atDecision[$0] }, peak: { peak[$0] }, counted: { counted[$0] }),
         atDecision)
    }

    /// `overshoot_pt` from the per-item state however it is stored (the batch keeps it in lanes):
    /// the largest peak among counted items with |dᵢ(t_r)| ≥ ε, 0 when none.
    @inline(__always)
    static func overshoot(items: Int, tolerance: Double, atDecision: (Int) -> Double, peak: (Int) -> Double, counted: (Int) -> Bool) -> Double {
        var pt = 0.0
        for i in 0..<items where counted(i) && abs(atDecision(i)) >= tolerance { pt = max(pt, peak(i)) }
        return pt
    }

    /// The noise floor (Reference §8), in pt: an overshoot below it is floating-point residue of
    /// a spring converging on its target (a millionth of a point), never motion, and is reported
    /// as 0, and so is its ratio. Applied to the finished run only, so an early exit still
    /// decides on the raw value and gives the full run's numbers.
    static let noiseFloor = 1e-6

    /// `overshoot_pt` and `overshoot_ratio` of the finished run (Reference §8): the largest peak
    /// among counted items with |dᵢ(t_r)| ≥ ε, 0 below ``noiseFloor``; the ratio over the largest
    /// |dᵢ(t_r)| of a counted item, nil when that is below 1 pt.
    func result(tolerance: Double) -> (pt: Double, ratio: Double?) {
        var pt = 0.0, largest = 0.0
        for i in atDecision.indices where counted[i] {
            let d0 = abs(atDecision[i])
            if d0 >= tolerance { pt = max(pt, peak[i]) }
            largest = max(largest, d0)
        }
        if pt < Self.noiseFloor { pt = 0 }
        return (pt, largest >= 1 ? pt / largest : nil)
    }
}
