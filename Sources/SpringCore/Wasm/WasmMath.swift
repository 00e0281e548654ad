#if hasFeature(Embedded)
// The WebAssembly build (Embedded Swift, `make wasm`) has no libm: the functions the spring's
// closed forms use are imported from the page (module "math": JavaScript's Math.exp, Math.cos…,
// which agree with the C library's to within an ulp or two). The native build takes them from
// Foundation, as before. Public, so that SpringLayout's engines take them from here too.

/// e^x, from the page.
@_extern(wasm, module: "math", name: "exp") @_extern(c) public func exp(_ x: Double) -> Double
/// cos x (x in radians), from the page.
@_extern(wasm, module: "math", name: "cos") @_extern(c) public func cos(_ x: Double) -> Double
/// sin x (x in radians), from the page.
@_extern(wasm, module: "math", name: "sin") @_extern(c) public func sin(_ x: Double) -> Double
/// cosh x, from the page.
@_extern(wasm, module: "math", name: "cosh") @_extern(c) public func cosh(_ x: Double) -> Double
/// sinh x, from the page.
@_extern(wasm, module: "math", name: "sinh") @_extern(c) public func sinh(_ x: Double) -> Double
/// ln x, from the page.
@_extern(wasm, module: "math", name: "log") @_extern(c) public func log(_ x: Double) -> Double
/// atan2(y, x) (radians), from the page.
@_extern(wasm, module: "math", name: "atan2") @_extern(c) public func atan2(_ y: Double, _ x: Double) -> Double
/// atanh x, from the page.
@_extern(wasm, module: "math", name: "atanh") @_extern(c) public func atanh(_ x: Double) -> Double
/// acos x (radians), from the page.
@_extern(wasm, module: "math", name: "acos") @_extern(c) public func acos(_ x: Double) -> Double
#endif
