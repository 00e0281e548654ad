#if hasFeature(Embedded)
// The WebAssembly build (Embedded Swift, `make wasm`) has no libm: the functions the spring's
// closed forms use are imported from the page (module "math": JavaScript's Math.exp, Math.cos…,
// which agree with the C library's to within an ulp or two). The native build takes them from
// Foundation, as before.

/// e^x, from the page.
@_extern(wasm, module: "math", name: "exp") @_extern(c) func exp(_ x: Double) -> Double
/// cos x (x in radians), from the page.
@_extern(wasm, module: "math", name: "cos") @_extern(c) func cos(_ x: Double) -> Double
/// sin x (x in radians), from the page.
@_extern(wasm, module: "math", name: "sin") @_extern(c) func sin(_ x: Double) -> Double
/// cosh x, from the page.
@_extern(wasm, module: "math", name: "cosh") @_extern(c) func cosh(_ x: Double) -> Double
/// sinh x, from the page.
@_extern(wasm, module: "math", name: "sinh") @_extern(c) func sinh(_ x: Double) -> Double
#endif
