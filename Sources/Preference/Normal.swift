#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The standard normal distribution's functions, accurate in the far tails the probit
/// likelihood reaches (z down to −1e3 and beyond).
public enum Normal {
    /// φ(z) = e^{−z²/2} / √(2π).
    public static func density(_ z: Double) -> Double { exp(-0.5 * z * z) / (2 * Double.pi).squareRoot() }

    /// Φ(z) = ½ erfc(−z/√2).
    public static func cdf(_ z: Double) -> Double { 0.5 * erfc(-z / 2.0.squareRoot()) }

    /// The asymptotic series 1 − 1/z² + 3/z⁴ − 15/z⁶ of Φ(z)·(−z)/φ(z) for z ≤ −30 (relative error below 105/z⁸ ≈ 2e-10).
    private static func tailSeries(_ z: Double) -> Double {
        let r = 1 / (z * z)
        return 1 - r + 3 * r * r - 15 * r * r * r
    }

    /// log Φ(z), from erfc while Φ(z) is well above the smallest double, from the tail series
    /// log φ(z) − log(−z) + log(1 − 1/z² + 3/z⁴ − 15/z⁶) below z = −30 (Φ(−30) ≈ 5e-198).
    public static func logCDF(_ z: Double) -> Double {
        if z > -30 { return log(cdf(z)) }
        return -0.5 * z * z - 0.5 * log(2 * Double.pi) - log(-z) + log(tailSeries(z))
    }

    /// The inverse Mills ratio λ(z) = φ(z)/Φ(z) = d log Φ/dz; −z / (1 − 1/z² + 3/z⁴ − 15/z⁶) below −30.
    public static func millsRatio(_ z: Double) -> Double {
        if z > -30 { return density(z) / cdf(z) }
        return -z / tailSeries(z)
    }

    /// Φ⁻¹(p) for 0 < p < 1: Acklam's rational approximation (relative error below 1.2e-9)
    /// with one Halley step on erfc, giving full double precision.
    public static func quantile(_ p: Double) -> Double {
        precondition(p > 0 && p < 1, "quantile needs 0 < p < 1")
        let a = [-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02, 1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00]
        let b = [-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02, 6.680131188771972e+01, -1.328068155288572e+01]
        let c = [-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00, -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00]
        let d = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00]
        let low = 0.02425
        var x: Double
        if p < low {
            let q = (-2 * log(p)).squareRoot()
            x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
        } else if p <= 1 - low {
            let q = p - 0.5, r = q * q
            x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
        } else {
            let q = (-2 * log(1 - p)).squareRoot()
            x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
        }
        let e = cdf(x) - p
        let u = e * (2 * Double.pi).squareRoot() * exp(0.5 * x * x)
        x -= u / (1 + 0.5 * x * u)
        return x
    }
}
