import SpringCore
import SpringLayout

/// What a deciding model's engine shows at one frame, for the measurement.
public struct DecisionReading: Sendable {
    /// The items of the timeline (screen y, where it heads, velocity), in item order.
    public var items: [(y: Double, anchor: Double, velocity: Double)]
    /// After the decision: the spring's displacement for overshoot (Reference §8) and the
    /// distance settling is judged on; nil when no spring runs (a thrown photo).
    public var spring: (displacement: Double, distance: Double)?
    /// True once nothing can move any more on screen (a thrown photo has left it).
    public var gone = false
}

extension DecisionReading {
    /// A folding row (Reference §7.4 geometry): timeline items hᵣ and the fold depth z; after the
    /// decision the spring's displacement is hᵣ − target.
    init(foldingRow row: RowFrame, rowHeight: Double, decided: Bool, drawn: Bool) {
        items = drawn ? [(row.height, row.target, row.velocity), (row.fold.depth, Fold(height: row.target, rowHeight: rowHeight).depth, 0)] : []
        if decided { spring = (row.height - row.target, abs(row.height - row.target)) }
    }
}

/// What the one decision loop measured, for the model to turn into its metrics.
public struct DecisionOutcome: Sendable {
    public var decision: TraceIntent?
    /// Time of the decision frame minus the first sample's time (s).
    public var decisionTime: Double
    /// Seconds from the decision frame to the frame the engine reported `gone`, if it did.
    public var goneAfter: Double?
    public var overshootPt: Double
    public var overshootRatio: Double?
    /// +∞ when the spring had not settled by the last frame.
    public var settleTime: Double
}

/// A deciding model measured by the shared loop: the sweep feeds its app engine sample by
/// sample, frame by frame, and reads overshoot and settling of the spring after the decision.
public protocol DecisionMeasured: MeasuredModel where Prepared == Trace, PreparationKey == NoPreparation {
    /// Advances the engine to frame time t and reads it; the timeline items only when `drawn`
    /// (building them every frame of a sweep cost a heap allocation per frame).
    func read(_ engine: inout Engine, at t: Double, drawn: Bool) -> DecisionReading
    /// The model's per-trace metrics from the loop's outcome and the engine as it ended.
    func metrics(_ outcome: DecisionOutcome, engine: Engine) -> TraceMetrics
}

extension DecisionMeasured {
    public func run(_ trace: Trace, timeline: Bool) -> TraceRun {
        var feed = TraceFeed(trace: trace, scene: scene)
        let clock = feed.clock
        // Without a timeline only positions are read: no velocity estimate per frame while down.
        var engine = Engine(model: self, presentsDragVelocity: timeline)
        var overshoot = OvershootTracker(items: 1), settle = SettleTracker()
        var decisionFrame: Int?, goneFrame: Int?
        var rows: [TimelineRow] = []
        let last = FrameLoop(clock: clock, scene: scene).run { k in
            feed.samples(upTo: k).forEach { engine.add($0) }
            let t = clock.time(k)
            let reading = read(&engine, at: t, drawn: timeline)
            if timeline {
                for (i, item) in reading.items.enumerated() {
                    rows.append(TimelineRow(t: t - clock.t0, item: i, y: item.y, anchor: item.anchor, velocity: item.velocity))
                }
            }
            guard engine.decision != nil else { return .next }
            let first = decisionFrame == nil
            if first { decisionFrame = k }
            if let s = reading.spring {
                if first { overshoot.start(item: 0, displacement: s.displacement) }
                overshoot.observe(item: 0, displacement: s.displacement)
                settle.record(frame: k, outOfBand: s.distance > scene.tolerance)
            }
            if reading.gone {
                goneFrame = k
                return .stop
            }
            return first ? .decided : .next
        }
        let d = decisionFrame ?? clock.releaseFrame
        let (pt, ratio) = overshoot.result(tolerance: scene.tolerance)
        let outcome = DecisionOutcome(
            decision: engine.decision, decisionTime: clock.time(d) - clock.t0,
            goneAfter: goneFrame.map { clock.time($0) - clock.time(d) },
            overshootPt: pt, overshootRatio: ratio,
            settleTime: settle.time(from: d, lastFrame: last, frameRate: clock.frameRate))
        return TraceRun(metrics: metrics(outcome, engine: engine), unsettled: outcome.settleTime.isInfinite, decision: engine.decision, timeline: rows)
    }

    /// Overshoot and settling of the spring that ran after the decision.
    public func springMetrics(_ o: DecisionOutcome) -> [(MetricSpec, Double?)] {
        [(.overshootPt, o.overshootPt), (.overshootRatio, o.overshootRatio), (.settleTime, o.settleTime)]
    }
}
