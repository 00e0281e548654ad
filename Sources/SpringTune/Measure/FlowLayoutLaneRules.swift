import SpringLayout

/// The frame rules of ``LaneBatch``: where the anchors go, what the scroll carries, and which
/// parts of the row loop a frame runs, each a type so that the loop is compiled once per rule.
extension LaneBatch {
    /// Where offset o leaves the anchors (Reference §7.1): past the top or the bottom edge by δ
    /// (with g = δ / `boundaryResistance` per lane), or where they rest.
    enum Edge {
        case none
        case top(Shift)
        case bottom(Shift)
    }

    /// An edge's overscroll δ (pt) and the gap g = δ / `boundaryResistance` in the stretch
    /// lanes; both 0 in the others, where cᵢ ± 0·k ∓ 0 leaves the anchor at exactly cᵢ.
    struct Shift {
        var delta: Lanes, g: Lanes
        /// For the rules that do not read it.
        static var zero: Shift { Shift(delta: .zero, g: .zero) }
    }

    /// Whether offset o leaves every anchor at its resting cᵢ (in bounds, or nothing stretches).
    /// (`resting`, `edge` and `shift` run once per frame inside the mutating frame step: inlined,
    /// with no nested function capturing `self`, so that no frame copies the whole batch.)
    @inline(__always) func resting(_ o: Double) -> Bool { !anyStretch || !(o < 0 || o > maxOffset) }

    @inline(__always) func edge(_ o: Double) -> Edge {
        guard !resting(o) else { return .none }
        return o < 0 ? .top(shift(-o)) : .bottom(shift(o - maxOffset))
    }

    /// The stretch lanes' δ and g for an overscroll δ.
    @inline(__always) func shift(_ delta: Double) -> Shift {
        Shift(delta: Lanes.zero.replacing(with: delta, where: stretch),
              g: Lanes.zero.replacing(with: Lanes(repeating: delta) / resistance, where: stretch))
    }

    /// How a frame sets the anchors (a type, so that the row loop is compiled once per rule):
    /// aᵢ lane by lane in ``FlowLayout``'s own operation order, or nil when every aᵢ already
    /// holds its value.
    protocol AnchorRule { static func anchor(_ row: Row, _ shift: Shift) -> Lanes? }
    /// In bounds now and in the previous frame: the anchors already rest at cᵢ.
    enum Resting: AnchorRule { @inline(__always) static func anchor(_: Row, _: Shift) -> Lanes? { nil } }
    /// In bounds now, not in the previous frame: aᵢ = cᵢ.
    enum Returning: AnchorRule { @inline(__always) static func anchor(_ row: Row, _: Shift) -> Lanes? { row.center } }
    /// Past the top: cᵢ + g·(i+1) − δ.
    enum PastTop: AnchorRule {
        @inline(__always) static func anchor(_ row: Row, _ s: Shift) -> Lanes? { row.center + s.g * row.above - s.delta }
    }
    /// Past the bottom: cᵢ − g·(n−i) + δ.
    enum PastBottom: AnchorRule {
        @inline(__always) static func anchor(_ row: Row, _ s: Shift) -> Lanes? { row.center - s.g * row.below + s.delta }
    }

    /// What the scroll carries the rows by in a frame (a type, like ``AnchorRule``); a row
    /// moves only where the carry is non-zero, as in the scalar engine.
    protocol CarryRule { static func carried(_ p: Lanes, _ motion: Motion) -> Lanes }
    /// Nothing moves (no lane has a non-zero Δ_pin with stretch or Δ_in with lag).
    enum NoCarry: CarryRule { @inline(__always) static func carried(_ p: Lanes, _: Motion) -> Lanes { p } }
    /// Δ_pin ≠ 0 in every lane (all stretch, none with lag).
    enum PinnedEverywhere: CarryRule {
        @inline(__always) static func carried(_ p: Lanes, _ m: Motion) -> Lanes { p + m.pinned }
    }
    /// Δ_pin in the stretch lanes, no lane with lag.
    enum Pinned: CarryRule {
        @inline(__always) static func carried(_ p: Lanes, _ m: Motion) -> Lanes { p.replacing(with: p + m.pinned, where: m.pinned .!= 0) }
    }
    /// Δ_pin in the stretch lanes plus Δ_in·min(1, |touch − pᵢ| / `scrollResistance`) in the lag lanes.
    enum PinnedAndLag: CarryRule {
        @inline(__always) static func carried(_ p: Lanes, _ m: Motion) -> Lanes {
            let ratio = (m.touch - p).magnitudeLanes / m.lagResistance
            let c = m.pinned.replacing(with: m.pinned + m.dIn * Lanes(repeating: 1).replacing(with: ratio, where: ratio .< 1), where: m.lag)
            return p.replacing(with: p + c, where: c .!= 0)
        }
    }

    /// What the scroll does to the rows in one frame.
    struct Motion {
        /// Δ_pin in the stretch lanes, else 0; Δ_in; the finger's content y.
        var pinned: Lanes, dIn: Double, touch: Lanes
        /// The lanes with scroll lag, and their `scrollResistance`.
        var lag: Mask, lagResistance: Lanes
    }

    /// Which parts of ``rows(_:_:_:_:_:shift:)`` a frame runs (a type, so that the loop is compiled
    /// once per kind with no per-row test): the spring step (every frame but frame 0), the
    /// release metrics (from the release frame on), dᵢ(t_r) (at the release frame), the
    /// neighbour gaps for the peak stretch (until no later frame can raise it).
    protocol FrameKind {
        static var step: Bool { get }; static var measuring: Bool { get }; static var decision: Bool { get }; static var gaps: Bool { get }
    }
    enum FirstFrame: FrameKind { static let step = false, measuring = false, decision = false, gaps = true }
    enum Touching: FrameKind { static let step = true, measuring = false, decision = false, gaps = true }
    enum Release: FrameKind { static let step = true, measuring = true, decision = true, gaps = true }
    enum ReleaseAtFirstFrame: FrameKind { static let step = false, measuring = true, decision = true, gaps = true }
    enum AfterRelease: FrameKind { static let step = true, measuring = true, decision = false, gaps = true }
    enum StretchSettled: FrameKind { static let step = true, measuring = true, decision = false, gaps = false }
}
