#if hasFeature(Embedded)
import SpringCore

// What the WebAssembly module exports for the page (`make wasm`, Reference §15): one engine at
// a time, driven as an app drives it (``TouchEngine``). The page starts an engine with the
// scene's and the model's numbers (``EngineNumbers``: the page decodes no preset), adds each
// touch sample as it arrives and asks for a frame at each display time. Numbers pass through
// the exchange area, a block of Float64 values at ``exchangeArea(_:)`` that grows as needed.

/// The engine the page drives, whichever model it runs: its four operations as closures over
/// the engine (Embedded Swift has no existentials of protocols with associated types).
struct PageEngine {
    /// Adds the next touch sample.
    let add: (TouchSample) -> Void
    /// The frame's numbers (``EngineFrame/values``) at time t (s).
    let frame: (Double) -> [Double]
    /// The engine of a new gesture that grabs the motion at time t (s).
    let interrupted: (Double) -> PageEngine
    /// The outcome so far, nil before the model decides.
    let decision: () -> TraceIntent?

    /// The page's handle on `engine`.
    init<E: TouchEngine>(_ engine: E) {
        let box = EngineBox(engine)
        add = { box.engine.add($0) }
        frame = { box.engine.frame(at: $0).values }
        interrupted = { PageEngine(box.engine.interrupted(at: $0)) }
        decision = { box.engine.decision }
    }

    /// An engine at rest of the model at index `kind` of the models the module holds, in the
    /// order of springtune's model list (flow-layout, flick-dismiss, card-dismiss,
    /// pull-to-create, pinch-fold, percent-transition, bottom-sheet), of `numbers` in `scene`;
    /// nil for a kind out of range or numbers that make no model.
    init?(kind: Int, numbers: [Double], scene: Scene) {
        func start<E: TouchEngine>(_: E.Type) -> PageEngine? where E.Model: EngineNumbers {
            E.Model(numbers: numbers, scene: scene).map { PageEngine(E(model: $0)) }
        }
        let engine: PageEngine? = switch kind {
        case 0: start(FlowLayoutTouchEngine.self)
        case 1: start(FlickDismissEngine.self)
        case 2: start(CardDismissEngine.self)
        case 3: start(PullToCreateEngine.self)
        case 4: start(PinchFoldEngine.self)
        case 5: start(PercentTransitionEngine.self)
        case 6: start(BottomSheetEngine.self)
        default: nil
        }
        guard let engine else { return nil }
        self = engine
    }
}

/// An engine the closures of ``PageEngine`` share and change.
final class EngineBox<E: TouchEngine> {
    var engine: E
    init(_ engine: E) { self.engine = engine }
}

/// The engine the page drives, nil before a start.
nonisolated(unsafe) var pageEngine: PageEngine?
/// The exchange area and how many values it holds.
nonisolated(unsafe) var exchange: (values: UnsafeMutablePointer<Double>, capacity: Int)?
/// The most values the exchange area holds (8 MiB): a frame of 10,000 rows is 30,001.
let exchangeLimit = 1 << 20
/// The most numbers a model takes (flow-layout's 13, with room to grow).
let modelNumbersLimit = 64

/// The exchange area's address in the module's memory, holding at least `capacity` Float64
/// values (64 at least; an area too small is replaced by one at least twice as large, so read
/// the address again after a call that may have grown it: ``engineFrame(_:)``); 0 for a
/// negative capacity or one past 2²⁰ values. A replaced area is never freed: a page that
/// writes to an address it kept then writes to memory nothing else uses (the areas together
/// stay under twice the largest).
@_expose(wasm, "exchangeArea") @_cdecl("exchangeArea")
public func exchangeArea(_ capacity: Int32) -> UnsafeMutablePointer<Double>? {
    guard capacity >= 0, Int(capacity) <= exchangeLimit else { return nil }
    let wanted = max(64, Int(capacity))
    if let exchange, exchange.capacity >= wanted { return exchange.values }
    let size = min(exchangeLimit, max(wanted, 2 * (exchange?.capacity ?? 0)))
    let area = UnsafeMutablePointer<Double>.allocate(capacity: size)
    area.initialize(repeating: 0, count: size)
    exchange = (area, size)
    return area
}

/// Starts an engine at rest of the model at index `kind` (``PageEngine/init(kind:numbers:scene:)``)
/// with the numbers in the exchange area: the scene's six (``Scene/numbers``: width, height,
/// frame rate, tolerance, tail, estimator), then the model's `count` (``EngineNumbers/numbers``).
/// Returns 0, or 1 when they make no engine (none then) or `count` is past 64.
@_expose(wasm, "startEngine") @_cdecl("startEngine")
public func startEngine(_ kind: Int32, _ count: Int32) -> Int32 {
    pageEngine = nil
    guard count >= 0, Int(count) <= modelNumbersLimit, let area = exchangeArea(6 + count) else { return 1 }
    let numbers = Array(UnsafeBufferPointer(start: area, count: 6 + Int(count)))
    guard let scene = Scene(numbers: Array(numbers[0..<6])),
          let engine = PageEngine(kind: Int(kind), numbers: Array(numbers[6...]), scene: scene) else { return 1 }
    pageEngine = engine
    return 0
}

/// Gives the engine the next touch sample: time `t` (s), position (`x`, `y`) (pt), the phase
/// at index `phase` of ``TouchPhase/allCases`` (began, moved, ended, cancelled) and the finger
/// `pointer` (0…15). Returns 0, or 1 without an engine or for a phase or finger out of range.
@_expose(wasm, "engineAdd") @_cdecl("engineAdd")
public func engineAdd(_ t: Double, _ x: Double, _ y: Double, _ phase: Int32, _ pointer: Int32) -> Int32 {
    let phases = TouchPhase.allCases
    guard let engine = pageEngine, phase >= 0, Int(phase) < phases.count, (0...15).contains(pointer) else { return 1 }
    engine.add(TouchSample(t: t, x: x, y: y, phase: phases[Int(phase)], pointer: Int(pointer)))
    return 0
}

/// The frame at time `t` (s): its numbers (``EngineFrame/values``: what is shown, then targets
/// and velocities) written to the exchange area, grown to hold them; returns how many (0
/// without an engine).
@_expose(wasm, "engineFrame") @_cdecl("engineFrame")
public func engineFrame(_ t: Double) -> Int32 {
    guard let values = pageEngine?.frame(t), values.count <= exchangeLimit, let area = exchangeArea(Int32(values.count)) else { return 0 }
    for i in values.indices { area[i] = values[i] }
    return Int32(values.count)
}

/// The model's outcome: the index in ``TraceIntent/allCases`` (dismiss, keep, create, cancel),
/// −1 before the model decides or without an engine.
@_expose(wasm, "engineDecision") @_cdecl("engineDecision")
public func engineDecision() -> Int32 {
    guard let d = pageEngine?.decision(), let i = TraceIntent.allCases.firstIndex(of: d) else { return -1 }
    return Int32(i)
}

/// A new gesture grabs the motion where the engine shows it at time `t` (s)
/// (``TouchEngine/interrupted(at:)``); nothing without an engine.
@_expose(wasm, "engineGrab") @_cdecl("engineGrab")
public func engineGrab(_ t: Double) {
    pageEngine = pageEngine?.interrupted(t)
}
#endif
