import SpringCore
import SpringLayout

/// Parameter sets of `flow-layout` that share a preparation (the scroll motion) differ only in
/// their springs (f, ζ), `boundaryResistance` and `scrollResistance`. ``run(_:_:)`` steps up to
/// ``lanes`` of them together, one SIMD lane each (structure of arrays: row i of every set in
/// one vector), with the metrics accumulated in the same pass over the rows. Every lane does the
/// scalar run's operations in the scalar run's order (``FlowLayoutEngine/advance(to:touchY:interval:)``
/// and ``FlowLayout/run(_:timeline:)``), including `max`'s choice between equal values, so
/// each lane's numbers equal that set's own run bit for bit (a test compares them). The batch
/// stops early once every lane would (``FlowLayout/atRest``).
extension FlowLayout {
    public typealias Lanes = SIMD4<Double>
    public static var lanes: Int { Lanes.scalarCount }

    /// The spring's frequency f (Hz): sets of one frequency that differ in damping or
    /// resistance tend to reach the early exit together. On the bench grid (64 sets × 30
    /// traces) this order took 5 % fewer instructions than config order (groups of one damping
    /// and four frequencies) and 12 % fewer than grouping by decay rate ζω.
    public var laneAffinity: Double { spring.frequency }

    public static func run(_ models: [FlowLayout], _ prep: Prepared) -> [TraceRun] {
        guard !models.isEmpty, models.count <= lanes else { return models.map { $0.run(prep, timeline: false) } }
        // Pad with the last set (its lane's results are dropped). A lone set runs padded too: a
        // group of four lanes costs less than half the scalar run (`FlowLayout/run(_:timeline:)`).
        var batch = LaneBatch(models + Array(repeating: models[models.count - 1], count: lanes - models.count), prep)
        defer { batch.deallocate() }
        let clock = prep.clock, r = clock.releaseFrame
        // The last frame each lane was out of band / jiggling (−1: none).
        var lastOut = SIMD4<Int64>(repeating: -1), lastJiggle = lastOut
        // When to ask again whether the run may stop: every 8th frame, spaced out to every
        // 64th while the answer keeps being no (when it asks changes no number, only the work).
        var nextCheck = 0, refusals = 0

        let last = FrameLoop(clock: clock, scene: batch.scene).run { k in
            let o = prep.offsets[k]
            let band = batch.frame(k, offset: o, touchY: prep.touchY[k], releaseFrame: r)
            guard k >= r else { return .next }
            lastOut.replace(with: Int64(k), where: band.out)
            lastJiggle.replace(with: Int64(k), where: band.jiggle)
            if k == r { return .decided }
            // In the calm phase: may the run stop (every lane in band first), and every 32nd
            // frame: may rows at the ends retire, may the gaps stop being measured.
            let ask = k >= nextCheck && !any(band.out .| band.jiggle)
            if k >= prep.calmFrom, k & 7 == 0, ask || k & 31 == 0 {
                let reach = batch.sets[0].scrollReach(prep, at: clock.time(k) - clock.time(r), offset: o)
                let leeways = batch.sets.map { $0.leeway(reach) }
                if k & 31 == 0 {
                    batch.retire(leeways, offset: o)
                    if !batch.stretchSettled { batch.stretchSettled = batch.stretchStays(leeways, offset: o) }
                }
                if ask {
                    if batch.atRest(leeways, offset: o) { return .stop }
                    refusals += 1
                    nextCheck = k + 8 << min(3, refusals / 4)
                }
            }
            return .next
        }
        return (0..<models.count).map { lane in
            var settle = SettleTracker(), jiggle = SettleTracker()
            if lastOut[lane] >= 0 { settle.record(frame: Int(lastOut[lane]), outOfBand: true) }
            if lastJiggle[lane] >= 0 { jiggle.record(frame: Int(lastJiggle[lane]), outOfBand: true) }
            return outcome(overshoot: batch.overshoot(lane), settle: settle, jiggle: jiggle, peakStretch: batch.peakStretch[lane],
                           maxLag: batch.maxLag[lane], clock: clock, lastFrame: last, tolerance: batch.scene.tolerance)
        }
    }
}

/// Four `flow-layout` runs of one trace in SIMD lanes: per row i, pᵢ, vᵢ and aᵢ of every lane
/// in one vector each, and the per-row metric state (dᵢ(t_r)'s sign, the overshoot peak,
/// whether the row counted). One call of ``frame(_:offset:touchY:releaseFrame:)`` walks the
/// rows once: spring step, anchor, carry, metrics.
struct LaneBatch {
    typealias Lanes = FlowLayout.Lanes
    typealias Mask = SIMDMask<Lanes.MaskStorage>

    /// Row i of every lane, one vector per quantity, kept together so that the row loop walks
    /// one pointer.
    struct Row {
        /// pᵢ, vᵢ, aᵢ.
        var p: Lanes, v: Lanes, a: Lanes
        /// dᵢ(t_r); the factor −1 where dᵢ(t_r) > 0, else +1 (against = factor × dᵢ, exactly
        /// the scalar run's `atDecision > 0 ? -d : d`); the overshoot peak; and the least
        /// max(top − y, y − bottom) over the frames from the release on in which some lane
        /// counts the row (the row counted in a lane when its lane's value is ≤ 0).
        var atDecision: Lanes, against: Lanes, peak: Lanes, countedOutside: Lanes
        /// cᵢ, the final screen y cᵢ − rest offset, and the stretch shares' numerators i + 1
        /// (past the top) and n − i (past the bottom), the same in every lane.
        let center: Lanes, final: Lanes, above: Lanes, below: Lanes
    }

    let sets: [FlowLayout]
    let scene: Scene
    let n: Int
    /// Max offset M, row pitch h + s, the counted band [top, bottom] of screen y (the viewport
    /// grown by 100 pt, for a row's centre), ε.
    let maxOffset: Double, pitch: Double, top: Double, bottom: Double, eps: Double
    /// Every lane's exact step over 1/F (``SpringStep``).
    let xx: Lanes, xv: Lanes, vx: Lanes, vv: Lanes
    let resistance: Lanes, lagResistance: Lanes
    let stretch: Mask, lag: Mask
    let anyStretch: Bool, anyLag: Bool
    /// Every row's ``Row``, row i at index i.
    let rowState: UnsafeMutableBufferPointer<Row>
    /// The final screen y of each row (for ``FlowLayout/atRest``).
    let finalScreen: UnsafeMutableBufferPointer<Double>
    var offset: Double
    var peakStretch = Lanes(repeating: -.infinity), maxLag = Lanes.zero
    /// The rows still stepped: those outside can never again meet the counted band (``retire(_:offset:)``).
    var active: Range<Int>
    /// Whether no later frame can raise any lane's peak stretch (``stretchStays(_:offset:)``):
    /// the row loop then leaves the neighbour gaps alone.
    var stretchSettled = false

    init(_ sets: [FlowLayout], _ prep: FlowLayout.Prepared) {
        let first = sets[0]
        self.sets = sets
        scene = first.scene
        n = first.itemCount
        maxOffset = first.scrollView.maxOffset
        pitch = first.itemHeight + first.itemSpacing
        (top, bottom) = first.countedBand
        eps = scene.tolerance
        func perLane(_ value: (FlowLayout) -> Double) -> Lanes { Lanes(sets.map(value)) }
        let steps = sets.map { SpringStep(spring: $0.spring, dt: 1 / first.scene.frameRate) }
        xx = Lanes(steps.map(\.xx)); xv = Lanes(steps.map(\.xv)); vx = Lanes(steps.map(\.vx)); vv = Lanes(steps.map(\.vv))
        resistance = perLane(\.boundaryResistance)
        lagResistance = perLane(\.scrollResistance)
        stretch = resistance .> 0
        lag = lagResistance .> 0
        anyStretch = any(stretch)
        anyLag = any(lag)
        let n = n
        finalScreen = .allocate(capacity: n)
        rowState = .allocate(capacity: n)
        for i in 0..<n {
            finalScreen[i] = first.restingCenters[i] - prep.restOffset
            (rowState.baseAddress! + i).initialize(to: Row(
                p: .zero, v: .zero, a: .zero, atDecision: .zero, against: .zero, peak: .zero, countedOutside: Lanes(repeating: .infinity),
                center: Lanes(repeating: first.restingCenters[i]), final: Lanes(repeating: finalScreen[i]),
                above: Lanes(repeating: Double(i + 1)), below: Lanes(repeating: Double(n - i))))
        }
        offset = prep.offsets[0]
        active = 0..<n
        // Frame 0: every row at rest at its anchor.
        let anchor: (Row) -> Lanes
        switch edge(offset) {
        case .none: anchor = { $0.center }
        case let .top(shift): anchor = { PastTop.anchor($0, shift)! }
        case let .bottom(shift): anchor = { PastBottom.anchor($0, shift)! }
        }
        for i in 0..<n {
            rowState[i].a = anchor(rowState[i])
            rowState[i].p = rowState[i].a
        }
    }

    func deallocate() {
        rowState.deallocate()
        finalScreen.deallocate()
    }

    /// Frame k (Reference §7.1's order for k ≥ 1: springs step toward the previous anchors, the
    /// offset moves to o, anchors follow, the scroll carries the rows), then its metrics
    /// (Reference §8). Returns, per lane, whether a counted row is out of band (|dᵢ| > ε) or jiggling
    /// (|pᵢ − aᵢ| > ε) in this frame (meaningful from the release frame on).
    @inline(__always)
    mutating func frame(_ k: Int, offset o: Double, touchY: Double, releaseFrame r: Int) -> (out: Mask, jiggle: Mask) {
        let m = maxOffset
        let dIn = min(max(o, 0), m) - min(max(offset, 0), m)
        let dPin = (o - offset) - dIn
        let motion = Motion(pinned: Lanes.zero.replacing(with: dPin, where: stretch), dIn: dIn, touch: Lanes(repeating: touchY + o),
                            lag: lag, lagResistance: lagResistance)
        let carry = (anyStretch && dPin != 0) || (anyLag && dIn != 0)
        // One copy of the row loop per kind of frame, so no per-row test asks which it is.
        let band: (out: Lanes, jiggle: Lanes)
        if k == 0 {
            band = k == r ? rows(o, motion, ReleaseAtFirstFrame.self, Resting.self, NoCarry.self) : rows(o, motion, FirstFrame.self, Resting.self, NoCarry.self)
        } else if k > r {
            band = stretchSettled ? stepping(o, motion, StretchSettled.self, carry: carry) : stepping(o, motion, AfterRelease.self, carry: carry)
        } else {
            band = k == r ? stepping(o, motion, Release.self, carry: carry) : stepping(o, motion, Touching.self, carry: carry)
        }
        offset = o
        return (band.out .> eps, band.jiggle .> eps)
    }

    /// Frame k ≥ 1: picks the anchor and carry rules of this frame (`carry`: whether any lane's
    /// rows move by a non-zero carry), so that no per-row test asks which they are.
    @inline(__always)
    mutating func stepping<Kind: FrameKind>(_ o: Double, _ motion: Motion, _ kind: Kind.Type, carry: Bool) -> (out: Lanes, jiggle: Lanes) {
        // `offset` is still the previous frame's: were the anchors already resting?
        switch edge(o) {
        case .none where resting(offset): return carried(o, motion, kind, Resting.self, carry: carry, shift: .zero)
        case .none: return carried(o, motion, kind, Returning.self, carry: carry, shift: .zero)
        case let .top(shift): return carried(o, motion, kind, PastTop.self, carry: carry, shift: shift)
        case let .bottom(shift): return carried(o, motion, kind, PastBottom.self, carry: carry, shift: shift)
        }
    }

    @inline(__always)
    mutating func carried<Kind: FrameKind, Anchors: AnchorRule>(_ o: Double, _ motion: Motion, _ kind: Kind.Type, _ anchors: Anchors.Type,
                                                               carry: Bool, shift: Shift) -> (out: Lanes, jiggle: Lanes) {
        if !carry { return rows(o, motion, kind, anchors, NoCarry.self, shift: shift) }
        if anyLag { return rows(o, motion, kind, anchors, PinnedAndLag.self, shift: shift) }
        // Without lag a carry is Δ_pin ≠ 0, in every lane when every lane stretches.
        return all(stretch) ? rows(o, motion, kind, anchors, PinnedEverywhere.self, shift: shift) : rows(o, motion, kind, anchors, Pinned.self, shift: shift)
    }

    /// One pass over the rows: step, anchor (by `Anchors`), carry (by `Carry`) when `step`,
    /// dᵢ(t_r) when `decision`, metrics (`measuring`: from the release frame on; neighbour
    /// gaps when `gaps`). Masks are formed only from one
    /// comparison each, and what a frame reports is accumulated as values (exact equivalents of
    /// the scalar run's booleans): a row counts when max(top − y, y − bottom) ≤ 0 (y ≥ top and
    /// y ≤ bottom, as differences of doubles keep their sign), a neighbour pair when the larger
    /// of the two is ≤ 0; the frame is out of band when the largest |dᵢ| over counted rows
    /// (0 for none) is > ε, and likewise for jiggle. Returns those two largest values.
    @inline(__always)
    mutating func rows<Kind: FrameKind, Anchors: AnchorRule, Carry: CarryRule>(
        _ o: Double, _ motion: Motion, _: Kind.Type, _: Anchors.Type, _: Carry.Type, shift: Shift = .zero
    ) -> (out: Lanes, jiggle: Lanes) {
        let step = Kind.step, measuring = Kind.measuring, decision = Kind.decision
        // Everything the loop reads, in locals: the stores through the row pointer would
        // otherwise make it reload them from `self` for every row.
        let (xx, xv, vx, vv, top, bottom, pitch) = (xx, xv, vx, vv, top, bottom, pitch)
        var peakStretch = peakStretch, maxLag = maxLag
        defer { (self.peakStretch, self.maxLag) = (peakStretch, maxLag) }
        var out = Lanes.zero, jiggle = Lanes.zero
        var previousOutside = Lanes(repeating: .infinity), previous = Lanes.zero
        guard let base = rowState.baseAddress else { return (out, jiggle) }
        var row = base + active.lowerBound
        let end = base + active.upperBound
        while row < end {
            defer { row += 1 }
            var pi = row.pointee.p, ai = row.pointee.a
            if step {
                let x = pi - ai, vi = row.pointee.v
                pi = ai + xx * x + xv * vi
                row.pointee.v = vx * x + vv * vi
                if let moved = Anchors.anchor(row.pointee, shift) {
                    ai = moved
                    row.pointee.a = ai
                }
                pi = Carry.carried(pi, motion)
                row.pointee.p = pi
            }
            if decision {
                row.pointee.atDecision = pi - o - row.pointee.final
                row.pointee.against = Lanes(repeating: 1).replacing(with: Lanes(repeating: -1), where: row.pointee.atDecision .> 0)
            }
            // Metrics: rows whose screen y lies in the counted band.
            let y = pi - o
            let outside = Self.larger(top - y, y - bottom)
            let visible = outside .<= 0
            defer { previousOutside = outside; previous = pi }
            guard any(visible) else { continue }
            // (A NaN position cannot slip through: `larger` keeps the other value, but then the
            // gap below is NaN and `maximum` never keeps a NaN.)
            if Kind.gaps {
                let pair = Self.larger(previousOutside, outside) .<= 0
                peakStretch = peakStretch.replacing(with: Self.maximum(peakStretch, pi - previous - pitch), where: pair)
            }
            let ext = pi - ai
            // |x| where the row counts, else 0: the sign bit and the lanes that do not count cleared
            // (a mask lane is all ones or all zeros, so its bits serve as the bit mask).
            let magnitude = Self.magnitudeBits & unsafeBitCast(visible, to: SIMD4<UInt64>.self)
            guard measuring else {
                maxLag = Self.maximum(maxLag, ext.keeping(magnitude))
                continue
            }
            let d = y - row.pointee.final
            row.pointee.countedOutside = Self.smaller(row.pointee.countedOutside, outside)
            row.pointee.peak = row.pointee.peak.replacing(with: Self.maximum(row.pointee.peak, row.pointee.against * d), where: visible)
            out = Self.larger(out, d.keeping(magnitude))
            jiggle = Self.larger(jiggle, ext.keeping(magnitude))
        }
        return (out, jiggle)
    }

    /// Every bit but the sign bit.
    @inline(__always) static var magnitudeBits: SIMD4<UInt64> { SIMD4(repeating: ~(1 << 63)) }

    /// Swift's `max(x, y)` lane by lane: y where y ≥ x, else x (which of two equal values,
    /// e.g. ±0, matters for the bits reported).
    @inline(__always) static func maximum(_ x: Lanes, _ y: Lanes) -> Lanes { x.replacing(with: y, where: y .>= x) }
    /// The larger and smaller of two values lane by lane, for values compared with a bound only
    /// (one compare and one blend; the standard library's `pointwiseMax` is not inlined).
    @inline(__always) static func larger(_ x: Lanes, _ y: Lanes) -> Lanes { x.replacing(with: y, where: y .> x) }
    @inline(__always) static func smaller(_ x: Lanes, _ y: Lanes) -> Lanes { x.replacing(with: y, where: y .< x) }
}
