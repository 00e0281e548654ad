import Foundation
import SpringCore
import SpringTune

/// Arbitrary bytes as `springtune spring`'s numbers: a form (byte 0) and up to five Doubles (any
/// bit pattern: NaN, ±∞, subnormals, 1e308) for its two parameters, mass, displacement and
/// velocity; the command's own limits on the last two apply. The analysis (overshoot, settle
/// time, every form, JSON and table), the easing curve and the platform forms come out or a
/// SpringError says why, never a trap (`--damping 1e-300` once trapped in settleTime).
func fuzzSpring(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let form = bytes.first else { return }
    var numbers = [Double](repeating: 1, count: 5)
    for i in numbers.indices where 1 + 8 * (i + 1) <= bytes.count {
        var bits: UInt64 = 0
        for k in (0..<8).reversed() { bits = bits << 8 | UInt64(bytes[1 + 8 * i + k]) }   // little-endian
        numbers[i] = Double(bitPattern: bits)
    }
    let (a, b, mass, x, v) = (numbers[0], numbers[1], numbers[2], numbers[3], numbers[4])
    guard x.isFinite, v.isFinite, abs(x) <= 1e9, abs(v) <= 1e9 else { return }   // `spring` refuses these (64)
    let spring: SpringParameters
    do {
        switch form % 5 {
        case 0: spring = try SpringParameters(frequency: a, damping: b)
        case 1: spring = try SpringParameters(stiffness: a, dampingCoefficient: b, mass: mass)
        case 2: spring = try SpringParameters(response: a, dampingRatio: b)
        case 3: spring = try SpringParameters(duration: a, bounce: b)
        default: spring = try SpringParameters(tension: a, friction: b)
        }
    } catch {
        return   // a SpringError: the command's one line, exit 64
    }
    let analysis = SpringAnalysis(spring: spring, mass: form % 5 == 1 ? mass : 1, displacement: x, velocity: v)
    _ = analysis.json.rendered()
    _ = analysis.table
    _ = SpringEasing(spring: spring, band: 0.005)
    _ = SpringMotion(spring: spring, initial: SpringState(x: x, v: v)).firstZeroCrossing()
}
