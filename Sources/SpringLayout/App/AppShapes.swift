import Foundation
import SpringCore
#if canImport(SwiftUI)
import SwiftUI
#endif
#if canImport(UIKit)
import UIKit
#endif

// The engines in an app's own types (Reference §7.9). CGPoint, CGSize and CGRect come from
// Foundation on every platform (CoreGraphics on Apple's, swift-corelibs-foundation elsewhere), so
// these conversions compile and are tested everywhere; the SwiftUI and UIKit spring bridges at
// the end exist only where those frameworks do.

extension CGPoint {
    /// The point of a position or a velocity the engines give (pt, or pt/s).
    public init(_ v: SIMD2<Double>) { self.init(x: CGFloat(v.x), y: CGFloat(v.y)) }
}

extension SIMD2 where Scalar == Double {
    /// The engines' vector of a point or a gesture velocity (`UIPanGestureRecognizer.velocity(in:)`).
    public init(_ p: CGPoint) { self.init(Double(p.x), Double(p.y)) }
}

extension CGRect {
    /// The rectangle of a card frame as given, a negative size kept as it is (pt).
    public init(_ r: Rect) { self.init(x: CGFloat(r.x), y: CGFloat(r.y), width: CGFloat(r.width), height: CGFloat(r.height)) }
}

extension FrameVelocity {
    /// How fast the frame's origin moves (pt/s).
    public var origin: CGPoint { CGPoint(x: CGFloat(x), y: CGFloat(y)) }
    /// How fast the frame's size changes (pt/s; negative while it shrinks, never standardised).
    public var size: CGSize { CGSize(width: CGFloat(width), height: CGFloat(height)) }
}

extension TouchSample {
    /// A sample at `location` (pt, in the view the engine lays out) at time t (s), e.g.
    /// `TouchSample(t: touch.timestamp, location: touch.location(in: view), phase: .moved)`.
    public init(t: Double, location: CGPoint, phase: TouchPhase, pointer: Int = 0) {
        self.init(t: t, x: Double(location.x), y: Double(location.y), phase: phase, pointer: pointer)
    }
}

extension Preset {
    /// Every spring the preset sets for `model` by name (`spring`, `snap`, `bounce`; unit mass),
    /// from its resolved parameters: what an app hands to UIKit or SwiftUI. Throws the preset's
    /// first problem with its key path, as building the model would.
    public func springs<M: InteractionModel>(for model: M.Type) throws(PresetError) -> [String: SpringParameters] {
        try check(as: model)
        let values = try ParameterValues.resolve(M.values(from: self), specs: M.parameters)
        var out: [String: SpringParameters] = [:]
        for group in M.springGroups { out[group.name] = try group.spring(values) }
        return out
    }
}

extension SpringParameters {
    /// The initial velocity UIKit's `UISpringTimingParameters` and SwiftUI's
    /// `interpolatingSpring` take: the velocity over the distance the animation covers,
    /// v / (target − position) (1/s), so a hand-off keeps the finger's speed; 0 when the
    /// distance is 0.
    public static func relativeVelocity(_ velocity: Double, from position: Double, to target: Double) -> Double {
        target == position ? 0 : velocity / (target - position)
    }
}

#if canImport(SwiftUI)
extension SpringParameters {
    /// SwiftUI's spring of the same motion: response 1/f (s) and damping ratio ζ.
    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
    public var swiftUI: SwiftUI.Spring { SwiftUI.Spring(response: response, dampingRatio: damping) }
}
#endif

#if canImport(UIKit) && !os(watchOS)
extension SpringParameters {
    /// UIKit's timing parameters of the same motion: mass 1, stiffness (2πf)², damping 2ζ·2πf,
    /// starting at `initialVelocity` (``relativeVelocity(_:from:to:)`` per axis).
    public func timingParameters(initialVelocity: CGVector = .zero) -> UISpringTimingParameters {
        UISpringTimingParameters(mass: 1, stiffness: CGFloat(stiffness()), damping: CGFloat(dampingCoefficient()), initialVelocity: initialVelocity)
    }
}
#endif
