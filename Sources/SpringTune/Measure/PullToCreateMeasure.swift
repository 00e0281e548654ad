import SpringLayout

/// `pull-to-create` (Reference §7.4): displacement hᵣ − target. Timeline items: the row height and
/// the fold depth z.
extension PullToCreate: DecisionMeasured {
    public static let metrics: [MetricSpec] = [.overshootPt, .overshootRatio, .settleTime]

    public func read(_ engine: inout PullToCreateEngine, at t: Double, drawn: Bool) -> DecisionReading {
        DecisionReading(foldingRow: engine.frame(at: t), rowHeight: rowHeight, decided: engine.decision != nil, drawn: drawn)
    }

    public func metrics(_ o: DecisionOutcome, engine: PullToCreateEngine) -> TraceMetrics { TraceMetrics(springMetrics(o)) }

    /// The new row folding open at the top, the list pushed down below it (item 0: hᵣ).
    public func picture(_ rows: [TimelineRow]) -> [Animation.Shape] {
        let h = max(0, rows.first { $0.item == 0 }?.y ?? 0)
        return Animation.Shape.folded(y: 0, height: h, rowHeight: rowHeight, screenWidth: scene.width)
            + Animation.Shape.list(from: h, rowHeight: rowHeight, filling: scene.height, up: false, screenWidth: scene.width)
    }
}
