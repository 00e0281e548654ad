import SpringLayout

/// `flick-dismiss` (Reference §7.2): a kept photo's spring is measured along D/|D| and settles on
/// |centre − C₀|; a thrown one has only an `exit_time`. Timeline items: centre y, centre x.
extension FlickDismiss: DecisionMeasured {
    public static let metrics: [MetricSpec] = [.overshootPt, .overshootRatio, .settleTime, .exitTime]

    public func read(_ engine: inout FlickDismissEngine, at t: Double, drawn: Bool) -> DecisionReading {
        let frame = engine.frame(at: t), rest = engine.restCenter
        var reading = DecisionReading(items: drawn ? [(frame.center.y, rest.y, frame.velocity.y), (frame.center.x, rest.x, frame.velocity.x)] : [])
        switch engine.decision {
        case .keep?:
            let d = frame.center - rest
            reading.spring = ((d * engine.throwAxis).sum(), (d * d).sum().squareRoot())
        case .dismiss?:
            reading.gone = !engine.isOnScreen(frame.center)
        default: break
        }
        return reading
    }

    public func metrics(_ o: DecisionOutcome, engine: FlickDismissEngine) -> TraceMetrics {
        o.decision == .dismiss ? TraceMetrics([(.exitTime, o.goneAfter)]) : TraceMetrics(springMetrics(o))
    }

    /// The photo card at its centre (items 0 and 1: centre y and x).
    public func picture(_ rows: [TimelineRow]) -> [Animation.Shape] {
        guard let y = rows.first(where: { $0.item == 0 })?.y, let x = rows.first(where: { $0.item == 1 })?.y else { return [] }
        return [.rect(x - cardSize.x / 2, y - cardSize.y / 2, cardSize.x, cardSize.y, 0x3a3a3c)]
    }
}
