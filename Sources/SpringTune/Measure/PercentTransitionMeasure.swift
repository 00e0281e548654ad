import SpringLayout

/// `percent-transition` (Reference §7.6): displacement d = s − end after release, and the
/// `velocity_jump` of the hand-off; a touch that began away from the edge started nothing and
/// has only its decision. Timeline item 0: the note's x offset s.
extension PercentTransition: DecisionMeasured {
    public static let metrics: [MetricSpec] = [.overshootPt, .overshootRatio, .settleTime, .velocityJump]

    public func read(_ engine: inout PercentTransitionEngine, at t: Double, drawn: Bool) -> DecisionReading {
        let f = engine.frame(at: t)
        var reading = DecisionReading(items: drawn ? [(f.offset, f.target, f.velocity)] : [])
        if engine.decision != nil, engine.isEdgePan { reading.spring = (f.offset - f.target, abs(f.offset - f.target)) }
        return reading
    }

    public func metrics(_ o: DecisionOutcome, engine: PercentTransitionEngine) -> TraceMetrics {
        guard engine.isEdgePan else { return TraceMetrics() }
        return TraceMetrics(springMetrics(o) + [(.velocityJump, engine.velocityJump)])
    }

    /// The list behind, and the note sliding right by s (item 0).
    public func picture(_ rows: [TimelineRow]) -> [Animation.Shape] {
        let s = rows.first { $0.item == 0 }?.y ?? 0
        let behind = (0..<Int(scene.height / 64)).map { Animation.Shape.row(y: 20 + Double($0) * 64, height: 60, screenWidth: scene.width, color: 0xc7c7cc) }
        return behind + [.rect(s - 6, 0, 6, scene.height, 0x8e8e93), .rect(s, 0, scene.width, scene.height, 0xfff3c4)]
    }
}
