import SpringLayout

/// `flow-layout`'s measurement (SPEC §6.1, §7). Rows count in a frame's metrics when their
/// screen rectangle meets the viewport grown by 100 pt.
extension FlowLayout: MeasuredModel {
    public static let metrics: [MetricSpec] = [.overshootPt, .overshootRatio, .settleTime, .jiggleTime, .peakStretchPt, .maxLagPt]

    /// The scroll view's offset and the finger's screen y at every frame of a trace: they do
    /// not depend on the springs, so every parameter set with the same scroll parameters
    /// shares them.
    public struct Prepared: Sendable {
        public var clock: FrameClock
        public var offsets: [Double]
        public var touchY: [Double]
        public var restOffset: Double
    }

    /// What the scroll motion depends on.
    public struct PreparationKey: Hashable, Sendable {
        var scene: Scene
        var itemCount: Int
        var itemHeight: Double, itemSpacing: Double
        var scrollView: ScrollView
        var initialOffset: InitialOffset
    }

    public var preparationKey: PreparationKey {
        PreparationKey(scene: scene, itemCount: itemCount, itemHeight: itemHeight, itemSpacing: itemSpacing, scrollView: scrollView, initialOffset: initialOffset)
    }

    public func prepare(_ trace: Trace) -> Prepared {
        let clock = FrameClock(trace: trace, scene: scene)
        let inputs = clock.inputs(trace)
        let s = trace.samples
        var driver = ScrollDriver(view: scrollView, offset: initialOffset(for: trace), touchDownY: s[0].y)
        var offsets = [Double](), touch = [Double]()
        offsets.reserveCapacity(clock.lastFrame + 1)
        touch.reserveCapacity(clock.lastFrame + 1)
        for k in 0...clock.releaseFrame {
            let y = s[inputs[k]].y
            offsets.append(driver.offset(touchY: y))
            touch.append(y)
        }
        let liftY = touch[clock.releaseFrame]
        driver.lift(touchY: liftY, velocityY: scene.estimator.releaseVelocity(of: trace).y)
        let tr = clock.time(clock.releaseFrame)
        for k in (clock.releaseFrame + 1)..<(clock.lastFrame + 1) {
            offsets.append(driver.offset(afterRelease: clock.time(k) - tr))
            touch.append(liftY)
        }
        return Prepared(clock: clock, offsets: offsets, touchY: touch, restOffset: driver.restOffset ?? offsets[clock.releaseFrame])
    }

    /// dᵢ = screen y − final screen y (cᵢ minus the scroll view's rest offset); the spring
    /// extension pᵢ − aᵢ for `jiggle_time` and `max_lag_pt`.
    public func run(_ prep: Prepared, timeline: Bool) -> TraceRun {
        let n = itemCount, h = itemHeight, pitch = itemHeight + itemSpacing
        let clock = prep.clock, r = clock.releaseFrame
        let eps = scene.tolerance, top = -100.0 - h / 2, bottom = scene.height + 100 + h / 2
        var engine = FlowLayoutEngine(layout: self, offset: prep.offsets[0])
        let finalScreen = restingCenters.map { $0 - prep.restOffset }
        var overshoot = OvershootTracker(items: n)
        var settle = SettleTracker(), jiggle = SettleTracker()
        var peakStretch = -Double.infinity, maxLag = 0.0
        var rows: [TimelineRow] = []

        let last = FrameLoop(clock: clock, scene: scene).run { k in
            let o = prep.offsets[k]
            if k > 0 { engine.advance(to: o, touchY: prep.touchY[k]) }
            var anyOut = false, anyJiggle = false
            engine.positions.withUnsafeBufferPointer { p in
                engine.anchors.withUnsafeBufferPointer { a in
                    if k == r {
                        for i in 0..<n { overshoot.start(item: i, displacement: p[i] - o - finalScreen[i]) }
                    }
                    var previousVisible = false
                    for i in 0..<n {
                        let y = p[i] - o
                        let visible = y >= top && y <= bottom
                        defer { previousVisible = visible }
                        guard visible else { continue }
                        if previousVisible { peakStretch = max(peakStretch, p[i] - p[i - 1] - pitch) }
                        let ext = p[i] - a[i]
                        if timeline {
                            rows.append(TimelineRow(t: clock.time(k) - clock.t0, item: i, y: y, anchor: a[i] - o, velocity: engine.velocities[i]))
                        }
                        guard k >= r else {
                            maxLag = max(maxLag, abs(ext))
                            continue
                        }
                        let d = y - finalScreen[i]
                        overshoot.observe(item: i, displacement: d)
                        anyOut = anyOut || abs(d) > eps
                        anyJiggle = anyJiggle || abs(ext) > eps
                    }
                }
            }
            guard k >= r else { return .next }
            settle.record(frame: k, outOfBand: anyOut)
            jiggle.record(frame: k, outOfBand: anyJiggle)
            return k == r ? .decided : .next
        }
        let (overshootPt, overshootRatio) = overshoot.result(tolerance: eps)
        let settleTime = settle.time(from: r, lastFrame: last, frameRate: clock.frameRate)
        var metrics = TraceMetrics()
        metrics[.overshootPt] = overshootPt
        metrics[.overshootRatio] = overshootRatio
        metrics[.settleTime] = settleTime
        metrics[.jiggleTime] = jiggle.time(from: r, lastFrame: last, frameRate: clock.frameRate)
        metrics[.peakStretchPt] = peakStretch.isFinite ? peakStretch : nil
        metrics[.maxLagPt] = maxLag
        return TraceRun(metrics: metrics, unsettled: settleTime.isInfinite, timeline: rows)
    }
}
