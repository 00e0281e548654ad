#if hasFeature(Embedded)
import SpringCore

// What the WebAssembly module exports for the page (`make wasm`, Reference §15): one engine at
// a time, driven as an app drives it (``TouchEngine``). The page starts an engine with the
// model's numbers (it decodes the preset), adds each touch sample as it arrives and asks for a
// frame at each display time; a frame's numbers (``EngineFrame/values``) and anything longer
// than a few arguments pass through the exchange area, 64 Float64 values at ``exchangeArea()``.

/// The engine the page drives, one case per model compiled in (an enum: Embedded Swift has no
/// existentials of protocols with associated types).
enum PageEngine {
    case flickDismiss(FlickDismissEngine)

    /// The frame at time t (s).
    mutating func frame(at t: Double) -> [Double] {
        switch self {
        case .flickDismiss(var e): defer { self = .flickDismiss(e) }; return e.frame(at: t).values
        }
    }

    /// Adds the next touch sample.
    mutating func add(_ sample: TouchSample) {
        switch self {
        case .flickDismiss(var e): e.add(sample); self = .flickDismiss(e)
        }
    }

    /// The engine of a new gesture that grabs the motion at time t (s).
    func interrupted(at t: Double) -> PageEngine {
        switch self {
        case .flickDismiss(let e): .flickDismiss(e.interrupted(at: t))
        }
    }

    /// The outcome so far, nil before the model decides.
    var decision: TraceIntent? {
        switch self {
        case .flickDismiss(let e): e.decision
        }
    }
}

/// The engine the page drives, nil before a start.
nonisolated(unsafe) var pageEngine: PageEngine?
/// The exchange area: 64 values the page writes before a call and reads after it.
nonisolated(unsafe) var exchange: UnsafeMutablePointer<Double>?

/// The exchange area's address in the module's memory (64 Float64 values).
@_expose(wasm, "exchangeArea") @_cdecl("exchangeArea")
public func exchangeArea() -> UnsafeMutablePointer<Double> {
    if let exchange { return exchange }
    let area = UnsafeMutablePointer<Double>.allocate(capacity: 64)
    area.initialize(repeating: 0, count: 64)
    exchange = area
    return area
}

/// The page's scene: a `width` × `height` pt screen and the release-velocity estimator at
/// index `estimator` of ``VelocityEstimator/allCases`` (lsq2, impulse, ios, last); nil for an
/// index out of range.
func pageScene(width: Double, height: Double, estimator: Int32) -> Scene? {
    let all = VelocityEstimator.allCases
    guard estimator >= 0, Int(estimator) < all.count else { return nil }
    var scene = Scene()
    (scene.width, scene.height, scene.estimator) = (width, height, all[Int(estimator)])
    return scene
}

/// Starts a `flick-dismiss` engine at rest (Reference §7.2) with the numbers of its parameters
/// in the order a preset lists them: `snapFrequency` (Hz), `snapDamping`, `distanceThreshold`
/// (pt), `flickVelocity` (pt/s), `maxFlickAngle` (degrees), `velocityScale`, `gravity`
/// (1000 pt/s²), `cardWidth`, `cardHeight` (pt), read from the exchange area, then the scene.
/// Returns 0, or 1 when the spring or the estimator is out of range (no engine then).
@_expose(wasm, "startFlickDismiss") @_cdecl("startFlickDismiss")
public func startFlickDismiss(_ width: Double, _ height: Double, _ estimator: Int32) -> Int32 {
    let p = exchangeArea()
    pageEngine = nil
    guard let scene = pageScene(width: width, height: height, estimator: estimator),
          let snap = try? SpringParameters(frequency: p[0], damping: p[1]) else { return 1 }
    let model = FlickDismiss(snap: snap, distanceThreshold: p[2], flickVelocity: p[3], maxFlickAngle: p[4],
                             velocityScale: p[5], gravity: p[6], cardSize: SIMD2(p[7], p[8]), scene: scene)
    pageEngine = .flickDismiss(FlickDismissEngine(model: model))
    return 0
}

/// Gives the engine the next touch sample: time `t` (s), position (`x`, `y`) (pt), the phase
/// at index `phase` of ``TouchPhase/allCases`` (began, moved, ended, cancelled) and the finger
/// `pointer` (0…15). Returns 0, or 1 without an engine or for a phase or finger out of range.
@_expose(wasm, "engineAdd") @_cdecl("engineAdd")
public func engineAdd(_ t: Double, _ x: Double, _ y: Double, _ phase: Int32, _ pointer: Int32) -> Int32 {
    let phases = TouchPhase.allCases
    guard pageEngine != nil, phase >= 0, Int(phase) < phases.count, (0...15).contains(pointer) else { return 1 }
    pageEngine?.add(TouchSample(t: t, x: x, y: y, phase: phases[Int(phase)], pointer: Int(pointer)))
    return 0
}

/// The frame at time `t` (s): its numbers (``EngineFrame/values``: what is shown, then targets
/// and velocities) written to the exchange area; returns how many (0 without an engine).
@_expose(wasm, "engineFrame") @_cdecl("engineFrame")
public func engineFrame(_ t: Double) -> Int32 {
    guard let values = pageEngine?.frame(at: t) else { return 0 }
    let area = exchangeArea(), n = min(values.count, 64)
    for i in 0..<n { area[i] = values[i] }
    return Int32(n)
}

/// The model's outcome: the index in ``TraceIntent/allCases`` (dismiss, keep, create, cancel),
/// −1 before the model decides or without an engine.
@_expose(wasm, "engineDecision") @_cdecl("engineDecision")
public func engineDecision() -> Int32 {
    guard let d = pageEngine?.decision, let i = TraceIntent.allCases.firstIndex(of: d) else { return -1 }
    return Int32(i)
}

/// A new gesture grabs the motion where the engine shows it at time `t` (s)
/// (``TouchEngine/interrupted(at:)``); nothing without an engine.
@_expose(wasm, "engineGrab") @_cdecl("engineGrab")
public func engineGrab(_ t: Double) {
    pageEngine = pageEngine?.interrupted(at: t)
}
#endif
