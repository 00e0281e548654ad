/// Drives a ``ScrollView``'s displayed offset from a touch (Reference §5): rubber-banded while the
/// finger is down, then the exact release motion.
public struct ScrollDriver: Sendable {
    /// The scroll view whose offset the driver moves.
    public let view: ScrollView
    /// The un-rubber-banded initial offset raw₀ (pt).
    public let rawStart: Double
    /// The finger's screen y at touch-down, y₀ (pt).
    public let touchDownY: Double
    /// The release motion, from the lift on; nil while the finger is down.
    public private(set) var release: ScrollRelease?

    /// A driver for `view` displayed at `offset` (pt) when the finger touched down at screen y `touchDownY` (pt).
    public init(view: ScrollView, offset: Double, touchDownY: Double) {
        self.view = view
        rawStart = view.raw(displayed: offset)
        self.touchDownY = TouchInput.clamp(touchDownY)
    }

    /// Displayed offset while the finger is at screen y: R(raw₀ − (y − y₀)) past an edge.
    /// The finger's y is clamped to ±``TouchInput/coordinateLimit`` as in every engine.
    public func offset(touchY y: Double) -> Double { view.displayed(raw: rawStart - (TouchInput.clamp(y) - touchDownY)) }

    /// Lift-off at screen y with the finger's release velocity (pt/s, y down): the content
    /// moves at u = −vy from the offset the finger left it at.
    public mutating func lift(touchY y: Double, velocityY: Double) {
        release = view.release(offset: offset(touchY: y), velocity: -velocityY)
    }

    /// Displayed offset τ seconds after lift-off.
    public func offset(afterRelease tau: Double) -> Double { release?.state(at: tau).offset ?? rawStart }

    /// Where the release motion comes to rest (nil before lift-off).
    public var restOffset: Double? { release?.restOffset }
}
