import SpringLayout

/// `pinch-fold` (Reference §7.5): displacement hᵣ − target after the first lift; a trace whose two
/// fingers are never down together is no pinch, and its metrics are 0. Reads every pointer.
/// Timeline items: the row height and the fold depth z.
extension PinchFold: DecisionMeasured {
    public static let metrics: [MetricSpec] = [.overshootPt, .overshootRatio, .settleTime]
    public static let usesAllPointers = true

    public func read(_ engine: inout PinchFoldEngine, at t: Double, drawn: Bool) -> DecisionReading {
        DecisionReading(foldingRow: engine.frame(at: t), rowHeight: rowHeight, decided: engine.decision != nil, drawn: drawn)
    }

    public func metrics(_ o: DecisionOutcome, engine: PinchFoldEngine) -> TraceMetrics {
        guard engine.startSeparation != nil else { return TraceMetrics([(.overshootPt, 0), (.overshootRatio, 0), (.settleTime, 0)]) }
        return TraceMetrics(springMetrics(o))
    }

    /// The row between the fingers at mid-screen, folding open or shut, the list parted around it.
    public func picture(_ rows: [TimelineRow]) -> [Animation.Shape] {
        let h = max(0, rows.first { $0.item == 0 }?.y ?? 0), c = scene.height / 2
        return Animation.Shape.list(from: c - h / 2, rowHeight: rowHeight, filling: c, up: true, screenWidth: scene.width)
            + Animation.Shape.folded(y: c - h / 2, height: h, rowHeight: rowHeight, screenWidth: scene.width)
            + Animation.Shape.list(from: c + h / 2, rowHeight: rowHeight, filling: c, up: false, screenWidth: scene.width)
    }
}
