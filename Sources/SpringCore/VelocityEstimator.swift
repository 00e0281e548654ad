import Foundation

/// A 2-D velocity in pt/s.
public struct Velocity: Hashable, Sendable {
    /// Horizontal component dx/dt, in pt/s (positive to the right).
    public var x: Double
    /// Vertical component dy/dt, in pt/s (positive downward, screen coordinates).
    public var y: Double
    /// A velocity from its components, in pt/s.
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    /// No motion: (0, 0) pt/s.
    public static let zero = Velocity(x: 0, y: 0)
    /// Speed √(x² + y²), in pt/s.
    public var magnitude: Double { (x * x + y * y).squareRoot() }
}

/// Release-velocity estimators (Reference §4). Every estimator reads the `began`/`moved` samples
/// only; the lift row gives the lift-off time. A lift-off more than 40 ms after the last
/// position sample means the finger had stopped: velocity 0.
public enum VelocityEstimator: String, Sendable, Codable, CaseIterable {
    /// Unweighted least-squares quadratic fit, derivative at the latest sample (default).
    case lsq2
    /// Android's impulse strategy (kinetic-energy based).
    case impulse
    /// 0.6·v₋₂ + 0.35·v₋₁ + 0.05·v₀ over the last three sample pairs (oldest first).
    case ios
    /// Slope of the last two samples with distinct times.
    case last

    /// Largest number of samples in the window.
    public static let windowCount = 20
    /// Oldest sample age in the window, relative to the latest (s).
    public static let horizon = 0.100
    /// Largest gap between consecutive window samples, and between the last sample and lift-off (s).
    public static let maxGap = 0.040

    /// Release velocity of a whole trace.
    public func releaseVelocity(of trace: Trace) -> Velocity {
        releaseVelocity(positions: trace.positionSamples, liftOff: trace.samples.last.flatMap { $0.phase.isLift ? $0.t : nil })
    }

    /// Release velocity from position samples (oldest first) and an optional lift-off time.
    public func releaseVelocity(positions: ArraySlice<TouchSample>, liftOff: Double?) -> Velocity {
        guard let latest = positions.last else { return .zero }
        if let liftOff, liftOff - latest.t > Self.maxGap { return .zero }
        let window = Self.window(positions)
        switch self {
        case .lsq2: return Velocity(x: Self.lsq2(window, \.x), y: Self.lsq2(window, \.y))
        case .impulse: return Velocity(x: Self.impulse(window, \.x), y: Self.impulse(window, \.y))
        case .ios: return Self.ios(window)
        case .last: return Self.lastPair(window)
        }
    }

    /// The samples walking back from the latest while fewer than 20 are taken, the sample is at
    /// most 100 ms older than the latest, and the gap to the next newer one is at most 40 ms.
    public static func window(_ s: ArraySlice<TouchSample>) -> ArraySlice<TouchSample> {
        guard let latest = s.last else { return s }
        var start = s.endIndex - 1
        while start > s.startIndex, s.endIndex - start < windowCount {
            let older = s[start - 1]
            guard latest.t - older.t <= horizon + 1e-12, s[start].t - older.t <= maxGap + 1e-12 else { break }
            start -= 1
        }
        return s[start...]
    }

    /// d/dt at the latest sample of the least-squares quadratic through (t, value).
    static func lsq2(_ w: ArraySlice<TouchSample>, _ value: KeyPath<TouchSample, Double>) -> Double {
        guard let latest = w.last, w.count >= 2 else { return 0 }
        if w.count == 2 {
            let first = w[w.startIndex], dt = latest.t - first.t
            return dt > 0 ? (latest[keyPath: value] - first[keyPath: value]) / dt : 0
        }
        // Normal equations in τ = t − t_latest for value ≈ b₀ + b₁τ + b₂τ².
        var s = [Double](repeating: 0, count: 5), r = [0.0, 0.0, 0.0]
        for p in w {
            let tau = p.t - latest.t, v = p[keyPath: value]
            var power = 1.0
            for k in 0..<5 {
                s[k] += power
                if k < 3 { r[k] += power * v }
                power *= tau
            }
        }
        let m = [[s[0], s[1], s[2]], [s[1], s[2], s[3]], [s[2], s[3], s[4]]]
        if let b = solve3(m, r) { return b[1] }
        // Fewer than three distinct times: fall back to the linear fit.
        let det = s[0] * s[2] - s[1] * s[1]
        return det > 1e-18 * s[0] * s[2] ? (s[0] * r[1] - s[1] * r[0]) / det : 0
    }

    /// Solves a 3×3 system by Gaussian elimination with partial pivoting; nil when singular.
    static func solve3(_ a: [[Double]], _ b: [Double]) -> [Double]? {
        var m = a, r = b
        let scale = a.joined().map(abs).max() ?? 0
        for col in 0..<3 {
            let pivot = (col..<3).max { abs(m[$0][col]) < abs(m[$1][col]) }!
            guard abs(m[pivot][col]) > 1e-13 * scale else { return nil }
            m.swapAt(col, pivot); r.swapAt(col, pivot)
            for row in (col + 1)..<3 {
                let f = m[row][col] / m[col][col]
                for k in col..<3 { m[row][k] -= f * m[col][k] }
                r[row] -= f * r[col]
            }
        }
        var x = [0.0, 0.0, 0.0]
        for row in stride(from: 2, through: 0, by: -1) {
            var acc = r[row]
            for k in (row + 1)..<3 { acc -= m[row][k] * x[k] }
            x[row] = acc / m[row][row]
        }
        return x
    }

    /// Android's `calculateImpulseVelocity` on one axis (samples oldest first).
    static func impulse(_ w: ArraySlice<TouchSample>, _ value: KeyPath<TouchSample, Double>) -> Double {
        let p = Array(w)
        let n = p.count
        guard n >= 2 else { return 0 }
        if n == 2 {
            let dt = p[1].t - p[0].t
            return dt == 0 ? 0 : (p[1][keyPath: value] - p[0][keyPath: value]) / dt
        }
        func velocity(fromWork work: Double) -> Double { (work < 0 ? -1 : 1) * abs(work).squareRoot() * 2.0.squareRoot() }
        var work = 0.0
        for i in 1..<n {
            let dt = p[i].t - p[i - 1].t
            if dt == 0 { continue }
            let vPrev = velocity(fromWork: work)
            let vCurr = (p[i][keyPath: value] - p[i - 1][keyPath: value]) / dt
            work += (vCurr - vPrev) * abs(vCurr)
            if i == 1 { work *= 0.5 }
        }
        return velocity(fromWork: work)
    }

    /// Samples of the window with distinct times (the latest of equal stamps kept).
    static func distinctTimes(_ w: ArraySlice<TouchSample>) -> [TouchSample] {
        var out: [TouchSample] = []
        for p in w {
            if let last = out.last, last.t == p.t { out[out.count - 1] = p } else { out.append(p) }
        }
        return out
    }

    static func pairVelocity(_ a: TouchSample, _ b: TouchSample) -> Velocity {
        let dt = b.t - a.t
        return Velocity(x: (b.x - a.x) / dt, y: (b.y - a.y) / dt)
    }

    static func lastPair(_ w: ArraySlice<TouchSample>) -> Velocity {
        let d = distinctTimes(w)
        guard d.count >= 2 else { return .zero }
        return pairVelocity(d[d.count - 2], d[d.count - 1])
    }

    /// With fewer than four distinct samples in the window, falls back to ``last``.
    static func ios(_ w: ArraySlice<TouchSample>) -> Velocity {
        let d = distinctTimes(w)
        guard d.count >= 4 else { return lastPair(w) }
        let n = d.count
        let v2 = pairVelocity(d[n - 4], d[n - 3]), v1 = pairVelocity(d[n - 3], d[n - 2]), v0 = pairVelocity(d[n - 2], d[n - 1])
        return Velocity(x: 0.6 * v2.x + 0.35 * v1.x + 0.05 * v0.x, y: 0.6 * v2.y + 0.35 * v1.y + 0.05 * v0.y)
    }
}
