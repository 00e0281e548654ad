#if hasFeature(Embedded)
// What the WebAssembly module exports (`make wasm`): the engine's functions as numbers in,
// numbers out; the page decodes presets and hands over their values.

/// The displacement (pt) after one exact spring step (``SpringStep``, Reference §2) of τ = `dt`
/// seconds from displacement `x` (pt) and velocity `v` (pt/s), for a spring of natural
/// frequency `frequency` (Hz) and damping ratio `damping`; NaN for a spring out of range.
@_expose(wasm, "springStepX") @_cdecl("springStepX")
public func springStepX(_ frequency: Double, _ damping: Double, _ dt: Double, _ x: Double, _ v: Double) -> Double {
    step(frequency, damping, dt, x, v)?.x ?? .nan
}

/// The velocity (pt/s) after the same step as ``springStepX(_:_:_:_:_:)``; NaN for a spring
/// out of range.
@_expose(wasm, "springStepV") @_cdecl("springStepV")
public func springStepV(_ frequency: Double, _ damping: Double, _ dt: Double, _ x: Double, _ v: Double) -> Double {
    step(frequency, damping, dt, x, v)?.v ?? .nan
}

/// The state after one step, nil for a spring out of range.
func step(_ frequency: Double, _ damping: Double, _ dt: Double, _ x: Double, _ v: Double) -> SpringState? {
    guard let spring = try? SpringParameters(frequency: frequency, damping: damping) else { return nil }
    return SpringStep(spring: spring, dt: dt).apply(SpringState(x: x, v: v))
}
#endif
