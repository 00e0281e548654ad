import SpringLayout

/// Parameter sets of `flow-layout` that share a preparation (the scroll motion) differ only in
/// their springs (f, ζ), `boundaryResistance` and `scrollResistance`. ``run(_:_:)`` steps up to
/// ``lanes`` of them together, one SIMD lane each (structure of arrays: row i of every set in
/// one vector), with the metrics accumulated in the same pass. Every lane does the scalar
/// run's operations in the scalar run's order (``FlowLayoutEngine/advance(to:touchY:interval:)``
/// and ``FlowLayout/run(_:timeline:)``), including `max`'s choice between equal values, so
/// each lane's numbers equal that set's own run bit for bit (a test compares them). The batch
/// stops early once every lane would (``FlowLayout/atRest``).
extension FlowLayout {
    public typealias Lanes = SIMD4<Double>
    public static var lanes: Int { Lanes.scalarCount }

    /// Swift's `max(x, y)` lane by lane: y where y ≥ x, else x.
    @inline(__always) static func maximum(_ x: Lanes, _ y: Lanes) -> Lanes { x.replacing(with: y, where: y .>= x) }

    public static func run(_ models: [FlowLayout], _ prep: Prepared) -> [TraceRun] {
        let lanes = Self.lanes
        guard models.count > 1, models.count <= lanes else { return models.map { $0.run(prep, timeline: false) } }
        // Pad with the last set (its lane's results are dropped).
        let sets = models + Array(repeating: models[models.count - 1], count: lanes - models.count)
        let first = sets[0], n = first.itemCount, h = first.itemHeight, pitch = first.itemHeight + first.itemSpacing
        let scene = first.scene, m = first.scrollView.maxOffset
        let clock = prep.clock, r = clock.releaseFrame
        let eps = scene.tolerance, top = -100.0 - h / 2, bottom = scene.height + 100 + h / 2
        func perLane(_ value: (FlowLayout) -> Double) -> Lanes { Lanes(sets.map(value)) }
        let steps = sets.map { SpringStep(spring: $0.spring, dt: 1 / scene.frameRate) }
        let xx = Lanes(steps.map(\.xx)), xv = Lanes(steps.map(\.xv)), vx = Lanes(steps.map(\.vx)), vv = Lanes(steps.map(\.vv))
        let resistance = perLane(\.boundaryResistance), lagResistance = perLane(\.scrollResistance)
        let stretch = resistance .> 0, lag = lagResistance .> 0, carried = stretch .| lag
        let centers = first.restingCenters

        // The per-row state lives in buffers for the run (no copy-on-write checks in the loops).
        func buffer<T>(_ value: T) -> UnsafeMutableBufferPointer<T> {
            let b = UnsafeMutableBufferPointer<T>.allocate(capacity: n)
            b.initialize(repeating: value)
            return b
        }
        var a = buffer(Lanes.zero), aPrevious = buffer(Lanes.zero)
        let p = buffer(Lanes.zero), v = buffer(Lanes.zero), atDecision = buffer(Lanes.zero), peak = buffer(Lanes.zero)
        let counted = buffer(SIMDMask<Lanes.MaskStorage>(repeating: false))
        defer { for b in [a, aPrevious, p, v, atDecision, peak] { b.deallocate() }; counted.deallocate() }

        /// Anchors aᵢ for offset o (SPEC §6.1), lane by lane as ``FlowLayout``'s own.
        func anchors(_ o: Double, into a: UnsafeMutableBufferPointer<Lanes>) {
            if o < 0 {
                let delta = -o, g = Lanes(repeating: delta) / resistance
                for i in 0..<n { a[i] = Lanes(repeating: centers[i]).replacing(with: centers[i] + g * Double(i + 1) - delta, where: stretch) }
            } else if o > m {
                let delta = o - m, g = Lanes(repeating: delta) / resistance
                for i in 0..<n { a[i] = Lanes(repeating: centers[i]).replacing(with: centers[i] - g * Double(n - i) + delta, where: stretch) }
            } else {
                for i in 0..<n { a[i] = Lanes(repeating: centers[i]) }
            }
        }

        var offset = prep.offsets[0]
        anchors(offset, into: a)
        for i in 0..<n { p[i] = a[i] }
        let finalScreen = centers.map { $0 - prep.restOffset }
        var peakStretch = Lanes(repeating: -.infinity), maxLag = Lanes.zero
        var lastOut = [Int?](repeating: nil, count: lanes), lastJiggle = lastOut
        let none = SIMDMask<Lanes.MaskStorage>(repeating: false)

        let last = FrameLoop(clock: clock, scene: scene).run { k in
            let o = prep.offsets[k]
            if k > 0 {
                swap(&a, &aPrevious)
                for i in 0..<n {
                    let x = p[i] - aPrevious[i]
                    p[i] = aPrevious[i] + xx * x + xv * v[i]
                    v[i] = vx * x + vv * v[i]
                }
                anchors(o, into: a)
                let dIn = min(max(o, 0), m) - min(max(offset, 0), m)
                let dPin = (o - offset) - dIn
                if any(carried) {
                    let touch = prep.touchY[k] + o
                    for i in 0..<n {
                        var carry = Lanes.zero.replacing(with: dPin, where: stretch)
                        if any(lag) {
                            let ratio = (touch - p[i]).magnitudeLanes / lagResistance
                            carry = carry.replacing(with: carry + dIn * Lanes(repeating: 1).replacing(with: ratio, where: ratio .< 1), where: lag)
                        }
                        p[i] = p[i].replacing(with: p[i] + carry, where: carried)
                    }
                }
                offset = o
            }
            if k == r {
                for i in 0..<n { atDecision[i] = p[i] - o - finalScreen[i] }
            }
            var anyOut = none, anyJiggle = none, previousVisible = none
            for i in 0..<n {
                let y = p[i] - o
                let visible = (y .>= top) .& (y .<= bottom)
                defer { previousVisible = visible }
                guard any(visible) else { continue }
                let pair = previousVisible .& visible
                if any(pair) { peakStretch = peakStretch.replacing(with: maximum(peakStretch, p[i] - p[i - 1] - pitch), where: pair) }
                let ext = p[i] - a[i]
                guard k >= r else {
                    maxLag = maxLag.replacing(with: maximum(maxLag, ext.magnitudeLanes), where: visible)
                    continue
                }
                let d = y - finalScreen[i]
                counted[i] .|= visible
                let against = d.replacing(with: d.negatedLanes, where: atDecision[i] .> 0)
                peak[i] = peak[i].replacing(with: maximum(peak[i], against), where: visible)
                anyOut .|= visible .& (d.magnitudeLanes .> eps)
                anyJiggle .|= visible .& (ext.magnitudeLanes .> eps)
            }
            guard k >= r else { return .next }
            for lane in 0..<lanes {
                if anyOut[lane] { lastOut[lane] = k }
                if anyJiggle[lane] { lastJiggle[lane] = k }
            }
            if k == r { return .decided }
            if !any(anyOut .| anyJiggle), k >= prep.calmFrom, k & 7 == 0 {
                let rest = (0..<lanes).allSatisfy { lane in
                    let leeway = sets[lane].leeway(prep, at: clock.time(k) - clock.time(r), offset: o)
                    let tracker = OvershootTracker(atDecision: atDecision.map { $0[lane] }, peak: peak.map { $0[lane] }, counted: counted.map { $0[lane] })
                    return sets[lane].atRest(anchors: a.map { $0[lane] }, positions: p.map { $0[lane] }, velocities: v.map { $0[lane] },
                                             offset: o, leeway: leeway, finalScreen: finalScreen,
                                             overshoot: tracker.current(tolerance: eps), peakStretch: peakStretch[lane])
                }
                if rest { return .stop }
            }
            return .next
        }
        return (0..<models.count).map { lane in
            let overshoot = OvershootTracker(atDecision: atDecision.map { $0[lane] }, peak: peak.map { $0[lane] }, counted: counted.map { $0[lane] })
            var settle = SettleTracker(), jiggle = SettleTracker()
            if let k = lastOut[lane] { settle.record(frame: k, outOfBand: true) }
            if let k = lastJiggle[lane] { jiggle.record(frame: k, outOfBand: true) }
            return outcome(overshoot: overshoot, settle: settle, jiggle: jiggle, peakStretch: peakStretch[lane], maxLag: maxLag[lane],
                           clock: clock, lastFrame: last, tolerance: eps)
        }
    }
}

extension SIMD4<Double> {
    /// |x| lane by lane: the sign bit cleared, exactly as `abs` does for one Double (also -0).
    @inline(__always) var magnitudeLanes: Self {
        unsafeBitCast(unsafeBitCast(self, to: SIMD4<UInt64>.self) & SIMD4<UInt64>(repeating: ~(1 << 63)), to: Self.self)
    }

    /// −x lane by lane: the sign bit flipped, exactly as prefix `-` does for one Double (−0 for 0;
    /// the SIMD operator computes 0 − x, which gives +0).
    @inline(__always) var negatedLanes: Self {
        unsafeBitCast(unsafeBitCast(self, to: SIMD4<UInt64>.self) ^ SIMD4<UInt64>(repeating: 1 << 63), to: Self.self)
    }
}
