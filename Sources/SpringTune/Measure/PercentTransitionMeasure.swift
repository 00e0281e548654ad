import SpringLayout

/// `percent-transition` (Reference §7.6): displacement d = s − end after release, and the
/// `velocity_jump` of the hand-off; a touch that began away from the edge started nothing and
/// has only its decision. Timeline item 0: the note's x offset s.
extension PercentTransition: DecisionMeasured {
    public static let metrics: [MetricSpec] = [.overshootPt, .overshootRatio, .settleTime, .velocityJump]

    public func makeEngine() -> PercentTransitionEngine { PercentTransitionEngine(model: self) }

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
}
