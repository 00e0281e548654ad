#if !hasFeature(Embedded)
import Foundation
#endif

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
public enum VelocityEstimator: String, Sendable, CaseIterable {
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
        case .lsq2: return Self.lsq2(window)
        case .impulse: return Velocity(x: Self.impulse(window) { $0.x }, y: Self.impulse(window) { $0.y })
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

    /// d/dt at the latest sample of the least-squares quadratics through (t, x) and (t, y).
    ///
    /// Normal equations in τ = t − t_latest for value ≈ b₀ + b₁τ + b₂τ², solved by Gaussian
    /// elimination with partial pivoting; the answer is b₁ per axis. Both axes share the matrix
    /// of Σ τᵏ. Written without arrays, key paths or allocation (an engine asks for the
    /// finger's velocity every frame the finger is down), with the operations in the order
    /// the bytes of every report were first produced with.
    static func lsq2(_ w: ArraySlice<TouchSample>) -> Velocity {
        guard let latest = w.last, w.count >= 2 else { return .zero }
        if w.count == 2 {
            let first = w[w.startIndex], dt = latest.t - first.t
            return dt > 0 ? Velocity(x: (latest.x - first.x) / dt, y: (latest.y - first.y) / dt) : .zero
        }
        var s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0
        var rx = SIMD3<Double>.zero, ry = SIMD3<Double>.zero
        for p in w {
            let tau = p.t - latest.t
            let p1 = 1.0 * tau, p2 = p1 * tau, p3 = p2 * tau, p4 = p3 * tau
            s0 += 1; s1 += p1; s2 += p2; s3 += p3; s4 += p4
            rx += SIMD3(1.0 * p.x, p1 * p.x, p2 * p.x)
            ry += SIMD3(1.0 * p.y, p1 * p.y, p2 * p.y)
        }
        var m = Matrix3(SIMD3(s0, s1, s2), SIMD3(s1, s2, s3), SIMD3(s2, s3, s4))
        if m.solve(&rx, &ry) { return Velocity(x: rx[1], y: ry[1]) }
        // Fewer than three distinct times: fall back to the linear fit.
        let det = s0 * s2 - s1 * s1
        guard det > 1e-18 * s0 * s2 else { return .zero }
        return Velocity(x: (s0 * rx[1] - s1 * rx[0]) / det, y: (s0 * ry[1] - s1 * ry[0]) / det)
    }

    /// A 3×3 matrix by rows, solved in place for two right-hand sides.
    struct Matrix3 {
        var rows: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)
        init(_ a: SIMD3<Double>, _ b: SIMD3<Double>, _ c: SIMD3<Double>) { rows = (a, b, c) }

        subscript(i: Int) -> SIMD3<Double> {
            get { i == 0 ? rows.0 : i == 1 ? rows.1 : rows.2 }
            set { if i == 0 { rows.0 = newValue } else if i == 1 { rows.1 = newValue } else { rows.2 = newValue } }
        }

        /// Gaussian elimination with partial pivoting (the first of equal pivots), then back
        /// substitution: `u` and `v` become the solutions of m·x = u and m·x = v. False (both
        /// left unsolved) when a pivot is below 1e-13 of the largest entry: singular.
        mutating func solve(_ u: inout SIMD3<Double>, _ v: inout SIMD3<Double>) -> Bool {
            let largest = pointwiseMax(pointwiseMax(rows.0, -rows.0), pointwiseMax(pointwiseMax(rows.1, -rows.1), pointwiseMax(rows.2, -rows.2)))
            let scale = largest.max()
            var (a, b) = (u, v)
            for col in 0..<3 {
                var pivot = col
                for i in (col + 1)..<3 where abs(self[pivot][col]) < abs(self[i][col]) { pivot = i }
                guard abs(self[pivot][col]) > 1e-13 * scale else { return false }
                if pivot != col {
                    (self[col], self[pivot]) = (self[pivot], self[col])
                    (a[col], a[pivot]) = (a[pivot], a[col])
                    (b[col], b[pivot]) = (b[pivot], b[col])
                }
                for row in (col + 1)..<3 {
                    let f = self[row][col] / self[col][col]
                    self[row] -= f * self[col]
                    a[row] -= f * a[col]
                    b[row] -= f * b[col]
                }
            }
            for row in stride(from: 2, through: 0, by: -1) {
                var accA = a[row], accB = b[row]
                for k in (row + 1)..<3 {
                    accA -= self[row][k] * a[k]
                    accB -= self[row][k] * b[k]
                }
                a[row] = accA / self[row][row]
                b[row] = accB / self[row][row]
            }
            (u, v) = (a, b)
            return true
        }
    }

    /// Android's `calculateImpulseVelocity` on one axis (samples oldest first).
    static func impulse(_ w: ArraySlice<TouchSample>, _ value: (TouchSample) -> Double) -> Double {
        let p = Array(w)
        let n = p.count
        guard n >= 2 else { return 0 }
        if n == 2 {
            let dt = p[1].t - p[0].t
            return dt == 0 ? 0 : (value(p[1]) - value(p[0])) / dt
        }
        func velocity(fromWork work: Double) -> Double { (work < 0 ? -1 : 1) * abs(work).squareRoot() * 2.0.squareRoot() }
        var work = 0.0
        for i in 1..<n {
            let dt = p[i].t - p[i - 1].t
            if dt == 0 { continue }
            let vPrev = velocity(fromWork: work)
            let vCurr = (value(p[i]) - value(p[i - 1])) / dt
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

#if !hasFeature(Embedded)
/// By its raw value; in an extension, as the WebAssembly build has no Codable.
extension VelocityEstimator: Codable {}
#endif
