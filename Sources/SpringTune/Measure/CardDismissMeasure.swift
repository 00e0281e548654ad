import SpringLayout

/// `card-dismiss` (Reference §7.3): the spring's displacement is (u − 1)·L from the decision frame,
/// which may come before the release. Timeline items: the frame's y, height, x and width.
extension CardDismiss: DecisionMeasured {
    public static let metrics: [MetricSpec] = [.overshootPt, .overshootRatio, .settleTime, .decisionTime]

    public func read(_ engine: inout CardDismissEngine, at t: Double, drawn: Bool) -> DecisionReading {
        let f = engine.frame(at: t)
        var reading = DecisionReading(items: drawn ? [(f.frame.y, f.target.y, f.velocity.y), (f.frame.height, f.target.height, f.velocity.height),
                                                      (f.frame.x, f.target.x, f.velocity.x), (f.frame.width, f.target.width, f.velocity.width)] : [])
        if engine.decision != nil { reading.spring = (engine.displacement, abs(engine.displacement)) }
        return reading
    }

    public func metrics(_ o: DecisionOutcome, engine: CardDismissEngine) -> TraceMetrics {
        TraceMetrics(springMetrics(o) + [(.decisionTime, o.decisionTime)])
    }

    /// The card detail's frame (items 0–3: y, height, x, width).
    public func picture(_ rows: [TimelineRow]) -> [Animation.Shape] {
        let v = Dictionary(rows.map { ($0.item, $0.y) }, uniquingKeysWith: { a, _ in a })
        guard let y = v[0], let h = v[1], let x = v[2], let w = v[3] else { return [] }
        return [.rect(cardFrame.x, cardFrame.y, cardFrame.width, cardFrame.height, 0xd1d1d6), .rect(x, y, w, h, 0x5e9ed6)]
    }
}
