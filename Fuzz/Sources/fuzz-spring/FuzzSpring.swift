import Foundation
import SpringCore
import SpringTune

/// Arbitrary bytes as `springtune spring`'s numbers: a form (byte 0) and up to five Doubles (any
/// bit pattern: NaN, ±∞, subnormals, 1e308) for its two parameters, mass, displacement and
/// velocity; the command's own limits on the last two apply. The analysis (overshoot, settle
/// time, every form, JSON and table), the easing curve and the platform forms come out or a
/// SpringError says why, never a trap (issue 27: `--damping 1e-300` trapped in settleTime).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSpring(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1 else { return 0 }
    var numbers = [Double](repeating: 1, count: 5)
    for i in numbers.indices where 1 + 8 * (i + 1) <= size {
        var bits: UInt64 = 0
        memcpy(&bits, data + 1 + 8 * i, 8)
        numbers[i] = Double(bitPattern: bits)
    }
    let (a, b, mass, x, v) = (numbers[0], numbers[1], numbers[2], numbers[3], numbers[4])
    guard x.isFinite, v.isFinite, abs(x) <= 1e9, abs(v) <= 1e9 else { return 0 }   // `spring` refuses these (64)
    let spring: SpringParameters
    do {
        switch data[0] % 5 {
        case 0: spring = try SpringParameters(frequency: a, damping: b)
        case 1: spring = try SpringParameters(stiffness: a, dampingCoefficient: b, mass: mass)
        case 2: spring = try SpringParameters(response: a, dampingRatio: b)
        case 3: spring = try SpringParameters(duration: a, bounce: b)
        default: spring = try SpringParameters(tension: a, friction: b)
        }
    } catch {
        return 0   // a SpringError: the command's one line, exit 64
    }
    let analysis = SpringAnalysis(spring: spring, mass: data[0] % 5 == 1 ? mass : 1, displacement: x, velocity: v)
    _ = analysis.json.rendered()
    _ = analysis.table
    _ = SpringEasing(spring: spring, band: 0.005)
    _ = SpringMotion(spring: spring, initial: SpringState(x: x, v: v)).firstZeroCrossing()
    return 0
}
