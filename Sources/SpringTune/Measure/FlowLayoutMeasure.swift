import SpringCore
import SpringLayout

/// `flow-layout`'s measurement (Reference §7.1, §7). Rows count in a frame's metrics when their
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
        /// The first frame in the release motion's last phase (a deceleration ending in
        /// bounds, or a bounce that rests at its edge without crossing it), or from which the
        /// offset never changes again: from there ``Leeway`` bounds what the scroll can still do.
        public var calmFrom: Int
        /// The release motion (nil when the offset is static from `calmFrom`).
        public var release: ScrollRelease?
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
        var calmFrom = offsets.count - 1
        while calmFrom > 0 && offsets[calmFrom - 1] == offsets[calmFrom] { calmFrom -= 1 }
        var release: ScrollRelease?
        if let motion = driver.release, let last = motion.phases.last,
           last.kind != .deceleration || (0...scrollView.maxOffset).contains(motion.restOffset) {
            var first = clock.releaseFrame
            while first <= clock.lastFrame && clock.time(first) - tr < last.start { first += 1 }
            if first < calmFrom { calmFrom = first; release = motion }
        }
        return Prepared(clock: clock, offsets: offsets, touchY: touch, restOffset: driver.restOffset ?? offsets[clock.releaseFrame],
                        calmFrom: calmFrom, release: release)
    }

    /// dᵢ = screen y − final screen y (cᵢ minus the scroll view's rest offset); the spring
    /// extension pᵢ − aᵢ for `jiggle_time` and `max_lag_pt`.
    public func run(_ prep: Prepared, timeline: Bool) -> TraceRun {
        let n = itemCount, pitch = itemHeight + itemSpacing
        let clock = prep.clock, r = clock.releaseFrame
        let eps = scene.tolerance, (top, bottom) = countedBand
        var engine = FlowLayoutEngine(layout: self, offset: prep.offsets[0])
        let finalScreen = restingCenters.map { $0 - prep.restOffset }
        var overshoot = OvershootTracker(items: n)
        var settle = SettleTracker(), jiggle = SettleTracker()
        var peakStretch = -Double.infinity, maxLag = 0.0
        var rows: [TimelineRow] = []
        var stoppedAt: Int?

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
            if timeline { rows += self.rows(engine, offset: o, t: clock.time(k) - clock.t0) }
            guard k >= r else { return .next }
            settle.record(frame: k, outOfBand: anyOut)
            jiggle.record(frame: k, outOfBand: anyJiggle)
            if k == r { return .decided }
            // Early exit (Reference §6), never for a timeline: checked every 8 frames once the anchors are static.
            // (A row out of band or jiggling this frame already rules it out.)
            if !timeline, !anyOut, !anyJiggle, k >= prep.calmFrom, k & 7 == 0,
               finalScreen.withUnsafeBufferPointer({ final in
                   let (anchors, positions, velocities) = (engine.anchors, engine.positions, engine.velocities)
                   let current = overshoot.current(tolerance: eps)
                   return atRest(rows: 0..<itemCount, row: { (anchors[$0], positions[$0], velocities[$0], current.atDecision[$0]) }, offset: o,
                                 leeway: leeway(prep, at: clock.time(k) - clock.time(r), offset: o), finalScreen: final,
                                 overshoot: current.pt, peakStretch: peakStretch)
               }) {
                stoppedAt = k
                return .stop
            }
            return .next
        }
        var run = Self.outcome(overshoot: overshoot, settle: settle, jiggle: jiggle, peakStretch: peakStretch, maxLag: maxLag,
                               clock: clock, lastFrame: last, tolerance: eps)
        run.timeline = rows
        run.stoppedAt = stoppedAt
        return run
    }

    /// A run's metrics from its trackers (Reference §8), for the lone and the batched runs alike.
    static func outcome(overshoot: OvershootTracker, settle: SettleTracker, jiggle: SettleTracker, peakStretch: Double, maxLag: Double,
                        clock: FrameClock, lastFrame last: Int, tolerance eps: Double) -> TraceRun {
        let r = clock.releaseFrame
        let (overshootPt, overshootRatio) = overshoot.result(tolerance: eps)
        let settleTime = settle.time(from: r, lastFrame: last, frameRate: clock.frameRate)
        var metrics = TraceMetrics()
        metrics[.overshootPt] = overshootPt
        metrics[.overshootRatio] = overshootRatio
        metrics[.settleTime] = settleTime
        metrics[.jiggleTime] = jiggle.time(from: r, lastFrame: last, frameRate: clock.frameRate)
        metrics[.peakStretchPt] = peakStretch.isFinite ? peakStretch : nil
        metrics[.maxLagPt] = maxLag
        return TraceRun(metrics: metrics, unsettled: settleTime.isInfinite)
    }

    /// The screen y a row's centre must lie in to count in a frame (Reference §7.1: its rectangle
    /// meets the viewport grown by 100 pt above and below).
    var countedBand: (top: Double, bottom: Double) { (-100.0 - itemHeight / 2, scene.height + 100 + itemHeight / 2) }

    /// Row i at a frame of the calm phase (``Prepared/calmFrom``): its screen anchor
    /// y = aᵢ − o, its spring's bound A′ᵢ (amplitude plus what the scroll can still push), how
    /// far the scroll can still move its anchor on screen, and the margin μ = 1e-6 + 1e-9·|aᵢ|
    /// (far above rounding). Its screen position stays within `reach` of y.
    struct CalmRow {
        var y: Double, amplitude: Double, drift: Double, margin: Double
        var reach: Double { amplitude + drift + margin }

        /// Inside the band in every later frame.
        func staysInside(_ band: (top: Double, bottom: Double)) -> Bool { y - reach >= band.top && y + reach <= band.bottom }
        /// Outside the band in every later frame.
        func staysOutside(_ band: (top: Double, bottom: Double)) -> Bool { y + reach < band.top || y - reach > band.bottom }
        /// The most the gap to the row above, `previous`, can exceed `pitch` in a later frame
        /// (with one margin, far above the rounding of the gap itself).
        func gapBound(below previous: CalmRow, pitch: Double) -> Double {
            y - previous.y + drift + previous.drift - pitch + amplitude + previous.amplitude + margin
        }
    }

    func calmRow(_ i: Int, anchor a: Double, position: Double, velocity: Double, offset o: Double, leeway: Leeway) -> CalmRow {
        let x = position - a, w = velocity / spring.omega
        let share = leeway.factor(i, of: itemCount)
        return CalmRow(y: a - o, amplitude: (x * x + w * w).squareRoot() + leeway.push * share, drift: leeway.drift * share,
                       margin: 1e-6 + 1e-9 * abs(a))
    }

    /// True when a row in the calm phase can never again meet the counted band.
    func staysOutside(_ row: CalmRow) -> Bool { row.staysOutside(countedBand) }

    /// What the scroll can still do to row i after a frame of the calm phase
    /// (``Prepared/calmFrom``): its anchor's screen position aᵢ − o moves by at most
    /// `drift`·factor(i), and the scroll pushes its spring (xᵢ) by at most `push`·factor(i) in all.
    struct Leeway {
        var drift = 0.0, push = 0.0
        /// Per-row factor: 1 for every row, or the stretch share (i+1)/r (past the top) or
        /// (n−i)/r (past the bottom) of a bounce with boundary resistance r.
        var share: (top: Bool, resistance: Double)?
        /// In a deceleration (which stays in bounds, so every anchor is at its resting cᵢ) the
        /// scroll term of dᵢ, (aᵢ − o) − (cᵢ − rest) = rest − o, keeps the sign of `side` =
        /// rest − o and shrinks monotonically: its magnitude stays ≥ `floor`, its value at the
        /// run's last frame.
        var closing: (side: Double, floor: Double)?

        func factor(_ i: Int, of n: Int) -> Double {
            guard let share else { return 1 }
            return Double(share.top ? i + 1 : n - i) / share.resistance
        }
    }

    /// What the scroll view can still do after a frame of the calm phase, the same for every
    /// set that shares the preparation (the springs play no part): nothing (the offset is
    /// static); a deceleration `travel` = |rest − o| from its rest, with the scroll term's side
    /// and floor (``Leeway/closing``); or a bounce that rests at its edge, with the bounce
    /// spring's amplitude bound A_b = √(s² + (ṡ/ω_b)²) (s = o − edge), |s|, and whether it is past
    /// the top.
    enum ScrollReach {
        case none
        case deceleration(travel: Double, side: Double, floor: Double)
        case bounce(amplitude: Double, excess: Double, top: Bool)
    }

    func scrollReach(_ prep: Prepared, at tau: Double, offset o: Double) -> ScrollReach {
        guard let release = prep.release, let last = release.phases.last else { return .none }
        switch last.kind {
        case .deceleration:
            return .deceleration(travel: abs(prep.restOffset - o), side: prep.restOffset - o,
                                 floor: abs(prep.restOffset - prep.offsets[prep.offsets.count - 1]))
        case let .bounce(edge):
            let state = release.state(at: tau), s = state.offset - edge, w = state.velocity / scrollView.bounce.omega
            // Past the top when the bounce started above its edge (with no content to scroll,
            // M = 0, both edges are 0: the side is the bounce's, not the edge's).
            let top = last.offset < edge || (last.offset == edge && last.velocity < 0)
            return .bounce(amplitude: (s * s + w * w).squareRoot(), excess: abs(s), top: top)
        }
    }

    /// This set's leeway from what the scroll can still do. In a deceleration the offset moves
    /// monotonically toward its rest: every anchor's screen position moves by at most `travel`,
    /// and scroll lag pushes a row by at most that. In a bounce the overscroll δ stays within
    /// A_b and its total variation within 2·A_b: screen anchors move by at most (A_b + |s|)
    /// times their stretch share, which also pins the rows, pushing each spring by at most
    /// 2·A_b times its share.
    func leeway(_ reach: ScrollReach) -> Leeway {
        switch reach {
        case .none: return Leeway()
        case let .deceleration(travel, side, floor):
            var leeway = Leeway(drift: travel, push: scrollResistance > 0 ? travel : 0)
            leeway.closing = (side, floor)
            return leeway
        case let .bounce(amplitude, excess, top):
            guard boundaryResistance > 0 else { return Leeway(drift: amplitude + excess) }
            return Leeway(drift: amplitude + excess, push: 2 * amplitude, share: (top, boundaryResistance))
        }
    }

    func leeway(_ prep: Prepared, at tau: Double, offset o: Double) -> Leeway { leeway(scrollReach(prep, at: tau, offset: o)) }

    /// True when no later frame can change any metric (Reference §6's early exit), in the calm
    /// phase. A spring's displacement xᵢ = pᵢ − aᵢ never exceeds its amplitude bound
    /// Aᵢ = √(xᵢ² + (vᵢ/ω)²) again (its energy only falls) but for what the scroll pushes, so
    /// |xᵢ| ≤ A′ᵢ = Aᵢ + push; dᵢ = xᵢ + (aᵢ − o − finalᵢ) stays within
    /// Bᵢ = A′ᵢ + |aᵢ − o − finalᵢ| + drift. Stop when, with a margin μ far above rounding, no
    /// row can cross the counted band's edges (the rows that count stay the same; a row that
    /// stays outside matters no more), every row inside has Bᵢ ≤ ε − μ (no settle or jiggle
    /// frame later), every counted row with |dᵢ(t_r)| ≥ ε cannot raise
    /// the overshoot, and every counted neighbour pair's gap stays ≤ the peak stretch − μ.
    /// A row cannot raise the overshoot when Bᵢ ≤ overshoot − μ, or, in a deceleration with
    /// nothing pushing the springs (``Leeway/closing``), when the scroll term rest − o is on the
    /// side of dᵢ(t_r): then −sgn(dᵢ(t_r))·dᵢ ≤ A′ᵢ − floor, so A′ᵢ + μ − floor ≤ overshoot
    /// suffices (a row that approaches its rest from where it started never overshoots, even
    /// when the overshoot so far is 0).
    /// The numbers then equal the full run's bit for bit (a test compares both paths).
    /// `row(i)` gives row i's anchor, position, velocity and dᵢ(t_r) (read, not copied: the
    /// batch asks this of each lane) for the rows in `rows`; the others are known to stay
    /// outside the band (the batch retires them, ``LaneBatch/retire(_:offset:)``).
    @inline(__always)
    func atRest(rows: Range<Int>, row: (Int) -> (anchor: Double, position: Double, velocity: Double, atDecision: Double), offset o: Double, leeway: Leeway,
                finalScreen: UnsafeBufferPointer<Double>, overshoot pt: Double, peakStretch: Double) -> Bool {
        let eps = scene.tolerance, pitch = itemHeight + itemSpacing, band = countedBand
        var previous: CalmRow?
        for i in rows {
            let (a, position, velocity, d0) = row(i)
            let c = calmRow(i, anchor: a, position: position, velocity: velocity, offset: o, leeway: leeway)
            // A row that stays outside the band counts in no later frame, whatever it does.
            guard c.staysInside(band) else {
                guard c.staysOutside(band) else { return false }
                previous = nil
                continue
            }
            let bound = c.amplitude + abs(c.y - finalScreen[i]) + c.drift + c.margin
            guard bound <= eps else { return false }
            if abs(d0) >= eps {
                let closing = leeway.push == 0 ? leeway.closing.flatMap { $0.side * d0 > 0 ? $0.floor : nil } : nil
                if let floor = closing { if c.amplitude + c.margin - floor > pt { return false } }
                else if bound > pt { return false }
            }
            if let p = previous, !(c.gapBound(below: p, pitch: pitch) <= peakStretch) { return false }
            previous = c
        }
        return true
    }

    /// True when no later frame can raise the peak stretch (in the calm phase): for every pair
    /// of neighbours among `rows` that may both count again, the gap bound stays ≤ the peak
    /// stretch (the rule ``atRest`` applies to counted pairs). `row(i)` as for ``atRest``.
    @inline(__always)
    func stretchStays(rows: Range<Int>, row: (Int) -> (anchor: Double, position: Double, velocity: Double), offset o: Double, leeway: Leeway,
                      peakStretch: Double) -> Bool {
        let pitch = itemHeight + itemSpacing, band = countedBand
        var previous: CalmRow?
        for i in rows {
            let (a, position, velocity) = row(i)
            let c = calmRow(i, anchor: a, position: position, velocity: velocity, offset: o, leeway: leeway)
            if c.staysOutside(band) { previous = nil; continue }
            // (Written so that a NaN bound refuses.)
            if let p = previous, !(c.gapBound(below: p, pitch: pitch) <= peakStretch) { return false }
            previous = c
        }
        return true
    }

    /// One frame's timeline rows: each row whose screen y is within ``countedBand``, at screen y
    /// (content position minus the displayed offset `o`), with its anchor and velocity.
    func rows(_ engine: FlowLayoutEngine, offset o: Double, t: Double) -> [TimelineRow] {
        let (top, bottom) = countedBand
        return (0..<itemCount).compactMap { i in
            let y = engine.positions[i] - o
            guard y >= top && y <= bottom else { return nil }
            return TimelineRow(t: t, item: i, y: y, anchor: engine.anchors[i] - o, velocity: engine.velocities[i])
        }
    }

    /// The scroll view and the rows as `prepare` and `run` move them frame by frame while the
    /// finger is down. `initialOffset: auto` (the net drag of the whole trace) is settled on the
    /// samples `received` when the first frame is due, and named in ``LiveStepper/settled``.
    public func liveStepper(received: [TouchSample]) -> any LiveStepper {
        let start = initialOffset(for: Trace(id: "live", samples: received))
        let settled: [String: ParamValue] = if case .auto = initialOffset { ["initialOffset": .number(start)] } else { [:] }
        return FlowLayoutStepper(layout: self, start: start, settled: settled)
    }

    /// Each counted row at its screen y.
    public func picture(_ rows: [TimelineRow]) -> [Animation.Shape] {
        rows.map { .row(y: $0.y - itemHeight / 2, height: itemHeight, screenWidth: scene.width, color: $0.item % 2 == 0 ? 0x4a90d9 : 0x7fb3e6) }
    }
}

/// ``FlowLayout``'s live frames: the scroll driver at the latest sample's y, the rows advanced to its offset.
struct FlowLayoutStepper: LiveStepper {
    let layout: FlowLayout
    /// The scroll view's offset at touch-down (pt).
    let start: Double
    let settled: [String: ParamValue]
    private var latest: TouchSample?
    private var driver: ScrollDriver?
    private var engine: FlowLayoutEngine?

    init(layout: FlowLayout, start: Double, settled: [String: ParamValue]) {
        self.layout = layout
        self.start = start
        self.settled = settled
    }

    mutating func add(_ sample: TouchSample) {
        if driver == nil { driver = ScrollDriver(view: layout.scrollView, offset: start, touchDownY: sample.y) }
        latest = sample
    }

    mutating func picture(at t: Double, t0: Double) -> [Animation.Shape] {
        guard let latest, let driver else { return [] }
        let o = driver.offset(touchY: latest.y)
        if engine == nil { engine = FlowLayoutEngine(layout: layout, offset: o) } else { engine!.advance(to: o, touchY: latest.y) }
        return layout.picture(layout.rows(engine!, offset: o, t: t - t0))
    }
}
