import SpringLayout

/// `bottom-sheet` (Reference §7.10): a kept sheet's spring is measured on top − detent (pt); a
/// closing one has only an `exit_time` (its overshoot is below the screen, unseen). Timeline
/// item 0: the sheet's top edge.
extension BottomSheet: DecisionMeasured {
    public static let metrics: [MetricSpec] = [.overshootPt, .overshootRatio, .settleTime, .exitTime]

    public func read(_ engine: inout BottomSheetEngine, at t: Double, drawn: Bool) -> DecisionReading {
        let frame = engine.frame(at: t)
        var reading = DecisionReading(items: drawn ? [(frame.top, frame.target, frame.velocity)] : [])
        switch engine.decision {
        case .keep?: reading.spring = (frame.top - frame.target, abs(frame.top - frame.target))
        case .dismiss?: reading.gone = frame.top >= scene.height - scene.tolerance
        default: break
        }
        return reading
    }

    public func metrics(_ o: DecisionOutcome, engine: BottomSheetEngine) -> TraceMetrics {
        o.decision == .dismiss ? TraceMetrics([(.exitTime, o.goneAfter)]) : TraceMetrics(springMetrics(o))
    }

    /// The page behind (grey rows 60 pt apart), and the sheet from its top edge to the screen's
    /// bottom with its grabber.
    public func picture(_ rows: [TimelineRow]) -> [Animation.Shape] {
        let top = rows.first { $0.item == 0 }?.y ?? startTop
        let page = (0..<min(Animation.Shape.maxListRows, Int(scene.height / 60) + 1)).map {
            Animation.Shape.row(y: Double($0) * 60, height: 60, screenWidth: scene.width, color: 0xc7c7cc)
        }
        return page + [.rect(0, top, scene.width, scene.height - top, 0x3a3a3c), .rect(scene.width / 2 - 18, top + 6, 36, 5, 0x8e8e93)]
    }
}
