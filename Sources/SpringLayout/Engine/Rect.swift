/// A rectangle in screen points.
public struct Rect: Hashable, Sendable {
    /// Left edge x (pt).
    public var x: Double
    /// Top edge y (pt, y down).
    public var y: Double
    /// Width (pt).
    public var width: Double
    /// Height (pt).
    public var height: Double
    /// A rectangle from its top-left corner (`x`, `y`) and size, all in pt.
    public init(x: Double, y: Double, width: Double, height: Double) { self.x = x; self.y = y; self.width = width; self.height = height }

    /// Left, right, top and bottom edges.
    public var edges: [Double] { [x, x + width, y, y + height] }

    /// Component-wise interpolation: a + (b − a)·u.
    public static func lerp(_ a: Rect, _ b: Rect, _ u: Double) -> Rect {
        Rect(x: a.x + (b.x - a.x) * u, y: a.y + (b.y - a.y) * u, width: a.width + (b.width - a.width) * u, height: a.height + (b.height - a.height) * u)
    }
}

/// How fast a frame changes (pt/s): its origin's and its size's rates, each signed. Not a
/// ``Rect``: a rectangle with a negative height is standardised when converted (a CGRect's
/// height would change sign), a rate must not be.
public struct FrameVelocity: Hashable, Sendable {
    /// The origin's horizontal rate (pt/s).
    public var x: Double
    /// The origin's vertical rate (pt/s).
    public var y: Double
    /// The width's rate (pt/s).
    public var width: Double
    /// The height's rate (pt/s; negative while the frame shrinks).
    public var height: Double

    /// A frame velocity from its four rates (pt/s).
    public init(x: Double, y: Double, width: Double, height: Double) { self.x = x; self.y = y; self.width = width; self.height = height }

    /// Not moving.
    public static let zero = FrameVelocity(x: 0, y: 0, width: 0, height: 0)

    /// The rates of the left, right, top and bottom edges (pt/s), in the order of ``Rect/edges``.
    public var edges: [Double] { [x, x + width, y, y + height] }

    /// The rate of a frame moving from `a` to `b` at du/dt = `rate` (per s).
    static func along(_ a: Rect, _ b: Rect, rate: Double) -> FrameVelocity {
        FrameVelocity(x: rate * (b.x - a.x), y: rate * (b.y - a.y), width: rate * (b.width - a.width), height: rate * (b.height - a.height))
    }
}
