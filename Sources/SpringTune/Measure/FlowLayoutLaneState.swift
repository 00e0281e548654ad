import SpringLayout

/// What ``LaneBatch`` reads from its lanes between frames: each lane's overshoot, the rows
/// that can be retired, and whether every lane would stop (Reference §6).
extension LaneBatch {
    /// Lane `lane`'s overshoot tracker.
    func overshoot(_ lane: Int) -> OvershootTracker {
        OvershootTracker(atDecision: rowState.map { $0.atDecision[lane] }, peak: rowState.map { $0.peak[lane] },
                         counted: rowState.map { $0.countedOutside[lane] <= 0 })
    }

    /// Stops stepping the rows at either end that can never again meet the counted band in any
    /// lane (``FlowLayout/staysOutside(_:)``, in the calm phase): nothing they do can change a
    /// metric (their overshoot and counted state stay as they are), and no other row depends
    /// on them. Rows are checked from the ends inwards.
    mutating func retire(_ leeways: [FlowLayout.Leeway], offset o: Double) {
        func outside(_ i: Int) -> Bool {
            sets.indices.allSatisfy { lane in
                sets[lane].staysOutside(sets[lane].calmRow(i, anchor: rowState[i].a[lane], position: rowState[i].p[lane], velocity: rowState[i].v[lane],
                                                          offset: o, leeway: leeways[lane]))
            }
        }
        var rows = active
        while !rows.isEmpty, outside(rows.lowerBound) { rows = (rows.lowerBound + 1)..<rows.upperBound }
        while !rows.isEmpty, outside(rows.upperBound - 1) { rows = rows.lowerBound..<(rows.upperBound - 1) }
        active = rows
    }

    /// True when no later frame can raise any lane's peak stretch (``FlowLayout/stretchStays``).
    func stretchStays(_ leeways: [FlowLayout.Leeway], offset o: Double) -> Bool {
        sets.indices.allSatisfy { lane in
            sets[lane].stretchStays(rows: active, row: { (rowState[$0].a[lane], rowState[$0].p[lane], rowState[$0].v[lane]) }, offset: o,
                                    leeway: leeways[lane], peakStretch: peakStretch[lane])
        }
    }

    /// True when every lane would stop here (``FlowLayout/atRest``), read from the lanes in place.
    func atRest(_ leeways: [FlowLayout.Leeway], offset o: Double) -> Bool {
        let final = UnsafeBufferPointer(finalScreen)
        return sets.indices.allSatisfy { lane in
            let pt = OvershootTracker.overshoot(items: n, tolerance: eps, atDecision: { rowState[$0].atDecision[lane] }, peak: { rowState[$0].peak[lane] },
                                                counted: { rowState[$0].countedOutside[lane] <= 0 })
            return sets[lane].atRest(rows: active, row: { (rowState[$0].a[lane], rowState[$0].p[lane], rowState[$0].v[lane], rowState[$0].atDecision[lane]) }, offset: o,
                                     leeway: leeways[lane], finalScreen: final,
                                     overshoot: pt, peakStretch: peakStretch[lane])
        }
    }
}

extension SIMD4<Double> {
    /// |x| lane by lane: the sign bit cleared, exactly as `abs` does for one Double (also -0).
    @inline(__always) var magnitudeLanes: Self { keeping(LaneBatch.magnitudeBits) }

    /// The bits of each lane that `bits` keeps, the others cleared.
    @inline(__always) func keeping(_ bits: SIMD4<UInt64>) -> Self { unsafeBitCast(unsafeBitCast(self, to: SIMD4<UInt64>.self) & bits, to: Self.self) }
}
