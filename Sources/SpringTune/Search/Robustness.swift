import Foundation
import SpringCore
import SpringLayout

/// The search's choice off knife edges (Reference §13). A set is robust when every one of its
/// 2·d neighbours at ±δ along each free numeric parameter (δ = 2 % of the box's width, in log
/// space on a log range; clamped to the parameter's domain) still meets every constraint and is
/// on every target. The candidates are checked best first; the first robust one is chosen. Its
/// margins: along each free numeric parameter, the others fixed, the nearest value at which a
/// constraint or target breaks, scanned at 2.5 % of the width out to 25 % each way and then
/// bisected to 0.1 %. Every check is an evaluation of its own, numbered after the search's.
struct Robustness {
    let evaluator: SearchEvaluator
    let verdict: RowVerdict
    /// Check rows made so far, in order.
    private(set) var checks: [SweepReport.Row] = []
    /// The next check's number.
    private var next: Int

    /// δ as a share of the box's width.
    static let neighbourStep = 0.02
    /// The margin scan's step and reach, and the resolution bisection stops at (shares of the width).
    static let scanStep = 0.025, reach = 0.25, resolution = 0.001

    init(evaluator: SearchEvaluator, verdict: RowVerdict, firstCheck: Int) {
        self.evaluator = evaluator; self.verdict = verdict; next = firstCheck
    }

    /// The free numeric dimensions (index, dimension, domain range).
    private var numeric: [(Int, SearchBox.Dimension, (min: Double, max: Double, log: Bool))] {
        evaluator.box.dimensions.enumerated().compactMap { i, d in
            guard case .numbers = d.extent, let spec = evaluator.kind.parameters.first(where: { $0.name == d.name }),
                  let domain = spec.domain?.range else { return nil }
            return (i, d, domain)
        }
    }

    /// `row` with dimension `i` moved by `share` of its width (in log space on a log range),
    /// clamped to the parameter's domain; nil when that leaves it where it was.
    private func moved(_ row: [ParamValue], _ i: Int, by share: Double) -> [ParamValue]? {
        guard case let .numbers(lo, hi, isLog) = evaluator.box.dimensions[i].extent, let v = row[i].number,
              let domain = numeric.first(where: { $0.0 == i })?.2 else { return nil }
        let x = isLog ? v * Foundation.exp(share * Foundation.log(hi / lo)) : v + share * (hi - lo)
        let y = NumberFormat.typed(min(domain.max, max(domain.min, x)))
        guard y != v else { return nil }
        var out = row
        out[i] = .number(y)
        return out
    }

    private mutating func evaluate(_ sets: [[ParamValue]]) throws -> [SweepReport.Row] {
        let rows = try evaluator.rows(sets, first: next)
        next += rows.count
        checks += rows
        return rows
    }

    /// Whether every ±δ neighbour of `row` stays feasible; the first break found otherwise.
    mutating func isRobust(_ row: SweepReport.Row) throws -> (robust: Bool, breaks: String?) {
        var sets: [[ParamValue]] = [], moves: [String] = []
        for (i, d, _) in numeric {
            for sign in [-1.0, 1.0] {
                if let s = moved(row.parameters, i, by: sign * Self.neighbourStep) {
                    sets.append(s)
                    moves.append("\(d.name) \(sign < 0 ? "−" : "+")2 %")
                }
            }
        }
        for (k, r) in try evaluate(sets).enumerated() where !verdict.feasible(r) {
            return (false, "\(verdict.broken(r) ?? "a constraint") breaks at \(moves[k])")
        }
        return (true, nil)
    }

    /// The margins of `row` along each free numeric parameter.
    mutating func margins(_ row: SweepReport.Row) throws -> [SearchMeta.Margin] {
        struct Probe { var i: Int; var sign: Double; var good: Double; var bad: Double?; var broken: String? }
        var probes: [Probe] = []
        for (i, _, _) in numeric { for sign in [-1.0, 1.0] { probes.append(Probe(i: i, sign: sign, good: 0)) } }
        // The scan: every step of every probe at once.
        let steps = Int((Self.reach / Self.scanStep).rounded())
        var sets: [[ParamValue]] = [], owner: [(Int, Double)] = []
        for (p, probe) in probes.enumerated() {
            for k in 1...steps {
                let share = Double(k) * Self.scanStep
                guard let s = moved(row.parameters, probe.i, by: probe.sign * share) else { break }
                if let last = sets.last, owner.last?.0 == p, last == s { break }   // clamped at the domain's end
                sets.append(s); owner.append((p, share))
            }
        }
        for (r, (p, share)) in zip(try evaluate(sets), owner) {
            guard probes[p].bad == nil else { continue }
            if verdict.feasible(r) { probes[p].good = share } else { probes[p].bad = share; probes[p].broken = verdict.broken(r) }
        }
        // Bisection between the last feasible and the first broken step, all probes together.
        while true {
            let open = probes.indices.filter { p in probes[p].bad.map { $0 - probes[p].good > Self.resolution } ?? false }
            guard !open.isEmpty else { break }
            var bisect: [[ParamValue]] = [], at: [(Int, Double)] = []
            for p in open {
                let mid = (probes[p].good + probes[p].bad!) / 2
                guard let s = moved(row.parameters, probes[p].i, by: probes[p].sign * mid) else { probes[p].bad = probes[p].good; continue }
                bisect.append(s); at.append((p, mid))
            }
            for (r, (p, mid)) in zip(try evaluate(bisect), at) {
                if verdict.feasible(r) { probes[p].good = mid } else { probes[p].bad = mid; probes[p].broken = verdict.broken(r) }
            }
        }
        return numeric.map { i, d, _ in
            let v = row.parameters[i].number!
            func distance(_ sign: Double) -> (Double, String)? {
                guard let probe = probes.first(where: { $0.i == i && $0.sign == sign }), let bad = probe.bad,
                      let s = moved(row.parameters, i, by: sign * bad), let w = s[i].number else { return nil }
                return (abs(w - v), "\(probe.broken ?? "a constraint") \(sign < 0 ? "below" : "above") \(NumberFormat.short(w))")
            }
            let down = distance(-1), up = distance(1)
            let nearer = [down, up].compactMap { $0 }.min { $0.0 < $1.0 }
            return SearchMeta.Margin(name: d.name, unit: d.unit, value: v, down: down?.0, up: up?.0, breaks: nearer?.1)
        }
    }
}
