#if !hasFeature(Embedded)
import Foundation
#endif
import SpringCore

/// The fold of a Clear-style new row (Reference §7.4): a row of height `rowHeight` shown at height
/// h as two halves folded by θ = acos(h / rowHeight), standing out by z = (rowHeight/2)·sin θ.
/// The ratio is clamped to [0, 1], so θ and z are defined (never NaN) for every h.
public struct Fold: Hashable, Sendable {
    /// Fold angle θ in radians (0 = flat, π/2 = closed).
    public var angle: Double
    /// Depth z of the fold (pt).
    public var depth: Double

    /// The fold of a row of `rowHeight` (pt) shown at `height` (pt): the ratio clamped to [0, 1], 0 when rowHeight ≤ 0 or height is NaN.
    public init(height: Double, rowHeight: Double) {
        let ratio = rowHeight > 0 && !height.isNaN ? min(1, max(0, height / rowHeight)) : 0
        angle = acos(ratio)
        depth = rowHeight / 2 * sin(angle)
    }
}

/// A folding row at one frame (pull-to-create and pinch-fold): its height hᵣ, where it heads,
/// its rate of change and its fold.
public struct RowFrame: EngineFrame {
    /// The row's height hᵣ (pt).
    public var height: Double
    /// Where the height heads: hᵣ itself while the finger holds it, then the spring's target (pt).
    public var target: Double
    /// dhᵣ/dt (pt/s).
    public var velocity: Double
    /// The fold at hᵣ.
    public var fold: Fold
    /// The frame of a row of `rowHeight` (pt) at `height`, heading for `target`, changing at `velocity`.
    init(_ height: Double, _ target: Double, _ velocity: Double, rowHeight: Double) {
        (self.height, self.target, self.velocity) = (height, target, velocity)
        fold = Fold(height: height, rowHeight: rowHeight)
    }
    /// The row's height.
    public var shown: [Double] { [height] }
    /// Every number of the frame: what is shown, then targets and velocities.
    public var values: [Double] { [height, target, velocity, fold.angle, fold.depth] }
}

extension RowFrame: FrameRates {
    /// The height hᵣ and dhᵣ/dt.
    var rates: [(value: Double, rate: Double)] { [(height, velocity)] }
}
