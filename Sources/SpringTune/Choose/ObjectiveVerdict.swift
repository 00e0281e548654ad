import SpringCore
import TraceIO

/// The gate of `compare --fail-on-regression` (Reference §10.3): A's chosen set (the best under
/// the objective by ``Ranking``; with `worstOver`, every row of its group) is found in B by its
/// parameter values and judged there on ``judgedColumns(_:in:_:)``:
///
/// 1. every constraint it met in A must hold in B;
/// 2. no judged column may be worse in B by more than its ``Tolerance`` margin (a value in A
///    and none in B is worse).
///
/// It fails closed: when the chosen set is missing from B, when A has no chosen set, or when no
/// judged column has a value on both sides, ``undecidable`` says why (exit 65). Other sets that
/// got worse are reported (``worstSets``), never judged.
public struct ObjectiveVerdict: Sendable {
    public var ranking: Ranking
    /// A's chosen row and its match in B (nil when B has no set with those parameters).
    public var chosenA: SweepReport.Row?
    public var chosenInB: SweepReport.Row?
    public var bestB: SweepReport.Row?
    /// The columns judged, in order.
    public var judged: [String]
    /// Pairs (row, column) with a value on both sides, or a value in A only.
    public var compared: Int
    /// One line per regression (the metric, A's and B's values, the tolerance); empty when none.
    public var reasons: [String]
    /// Why the gate cannot judge B (it then fails closed); nil when it can.
    public var undecidable: String?
    /// Up to three matched sets that lost most on the objective column: (A row, B row, B − A).
    public var worstSets: [(SweepReport.Row, SweepReport.Row, Double)]
    /// The paired bootstrap of the chosen set's per-trace metrics (Reference §14), when both
    /// reports could be run again; with it, a worsening is a regression only when its 95 %
    /// interval excludes 0 plus the tolerance.
    public var noise: PairedGate?
    /// Worsenings that the noise explains: one line each; they pass.
    public var insideNoise: [String] = []

    public var isRegression: Bool { !reasons.isEmpty }

    /// The columns the gate judges, present in both reports, each once in this order: the
    /// objective column, the target and constraint columns, the tiebreak columns, then `overshoot_pt_p95`
    /// and `settle_time_p95` (what a team shipping a spring watches, whatever the objective).
    public static func judgedColumns(_ ranking: Ranking, in a: SweepReport, _ b: SweepReport) -> [String] {
        var seen = Set<String>()
        let wanted = ranking.keyColumns + ["overshoot_pt_p95", "settle_time_p95"]
        return wanted.filter { a.metricColumns.contains($0) && b.metricColumns.contains($0) && seen.insert($0).inserted }
    }

    /// Which side of `column` is better for the gate: the objective's direction for its column,
    /// else the metric's, else its constraints' when they agree (`<=`, `<`: lower; `>=`, `>`:
    /// higher; a band such as evernote's `peak_stretch_pt_p95` between 18 and 27.5 has none: its
    /// constraints judge it), else lower for a tiebreak column (as ``Ranking`` orders it); `none`
    /// (never worse) otherwise.
    public static func direction(_ column: String, _ ranking: Ranking) -> MetricSpec.Better {
        if column == ranking.column { return ranking.maximize ? .higher : .lower }
        let better = Comparison.better(column)
        if better != .none { return better }
        let bounds = ranking.constraints.filter { $0.column == column }.map { c -> MetricSpec.Better in
            switch c.op {
            case .le, .lt: .lower
            case .ge, .gt: .higher
            case .eq: .none
            }
        }
        if let first = bounds.first { return bounds.allSatisfy { $0 == first } ? first : .none }
        return ranking.tiebreak.contains(column) ? .lower : .none
    }

    public init(_ a: SweepReport, _ b: SweepReport, comparison: Comparison, ranking: Ranking, tolerances: [Tolerance] = [],
                noise: ((SweepReport.Row, SweepReport.Row, [String]) -> PairedGate?)? = nil) throws {
        self.ranking = ranking
        let ca = try a.index(of: ranking.column), cb = try b.index(of: ranking.column)
        let chosen = try ranking.ranked(a).first
        chosenA = chosen?.row
        bestB = try ranking.rank(b).first
        judged = Self.judgedColumns(ranking, in: a, b)
        compared = 0
        reasons = []
        undecidable = nil
        worstSets = []
        let matches = chosen?.rows.map { row in (row, comparison.joined.first { $0.0 == row }?.1) } ?? []
        chosenInB = matches.first { $0.0 == chosen?.row }?.1
        if chosen == nil {
            undecidable = "no set of \(a.path) meets the objective (\(ranking.summary)): there is no chosen set to judge"
        } else if let missing = matches.first(where: { $0.1 == nil })?.0 {
            let values = zip(a.parameterColumns, missing.parameters).map { "\($0)=\($1)" }.joined(separator: ", ")
            undecidable = "A's chosen set (config \(missing.configId): \(values)) is not in \(b.path): no row has the same parameter values"
        } else {
            if let noise, let ra = chosen?.row, let rb = chosenInB { self.noise = noise(ra, rb, judged) }
            for case let (ra, rb?) in matches { try judge(ra, rb, a, b, tolerances) }
            undecidable = compared == 0 ? "no judged metric (\(judged.joined(separator: ", "))) of A's chosen set has a value in both reports: nothing to compare" : nil
        }
        let sign = ranking.maximize ? -1.0 : 1.0
        worstSets = comparison.joined.compactMap { ra, rb -> (SweepReport.Row, SweepReport.Row, Double)? in
            guard let va = a.number(ra, ca), let vb = b.number(rb, cb), va != vb else { return nil }
            let delta = vb - va
            return sign * delta > 0 ? (ra, rb, delta) : nil
        }.sorted { sign * $0.2 > sign * $1.2 }.prefix(3).map { $0 }
    }

    /// Judges one row of the chosen set (`ra` in A, `rb` in B): its constraints and targets (on
    /// target in A, off in B: one line), then each judged column.
    mutating func judge(_ ra: SweepReport.Row, _ rb: SweepReport.Row, _ a: SweepReport, _ b: SweepReport, _ tolerances: [Tolerance]) throws {
        let id = "config \(ra.configId)"
        var broken = Set<String>()   // columns with a broken constraint: one line each
        for c in ranking.constraints {
            let va = a.number(ra, try a.index(of: c.column)), vb = b.number(rb, try b.index(of: c.column))
            if c.holds(va) && !c.holds(vb) && broken.insert(c.column).inserted {
                let line = "\(c.column) of the chosen set (\(id)): \(vb.map(NumberFormat.cell) ?? "empty") in B no longer meets \(c) (\(va.map(NumberFormat.cell) ?? "empty") in A)"
                let side: MetricSpec.Better = switch c.op { case .le, .lt: .lower; case .ge, .gt: .higher; case .eq: .none }
                if ra.configId == chosenA?.configId, let noise, noise.outsideNoise(c.column, better: side, margin: 0) == false {
                    insideNoise.append("\(line), inside the noise (\(noise.text(c.column)))")
                } else {
                    reasons.append(line)
                }
            }
        }
        for t in ranking.targets {
            let va = a.number(ra, try a.index(of: t.column)), vb = b.number(rb, try b.index(of: t.column))
            let on = { (v: Double?) in t.deviation(v).map { $0 <= 1 } ?? false }
            if on(va) && !on(vb) && broken.insert(t.column).inserted {
                reasons.append("\(t.column) of the chosen set (\(id)): \(vb.map(NumberFormat.cell) ?? "empty") in B is off target \(t) (\(va.map(NumberFormat.cell) ?? "empty") in A)")
            }
        }
        for column in judged {
            guard let va = a.number(ra, try a.index(of: column)) else { continue }
            compared += 1
            if broken.contains(column) { continue }
            let unit = ReportColumns.spec(column).map { $0.unit == "1" ? "" : " \($0.unit)" } ?? ""
            guard let vb = b.number(rb, try b.index(of: column)) else {
                reasons.append("\(column) of the chosen set (\(id)): \(NumberFormat.cell(va))\(unit) in A, empty in B")
                continue
            }
            let (margin, tolerance) = Comparison.margin(column, value: va, row: ra, of: a, tolerances: tolerances)
            let better = Self.direction(column, ranking)
            guard Comparison.verdict(a: va, b: vb, better: better, margin: margin) == .worse else { continue }
            let delta = vb - va
            let allowed = if case .absolute = tolerance.kind { "" } else { " = \(NumberFormat.significant(margin, 4))\(unit)" }
            let line = "\(column) of the chosen set (\(id)): \(NumberFormat.cell(va)) → \(NumberFormat.cell(vb))\(unit) "
                + "(\(delta >= 0 ? "+" : "")\(NumberFormat.significant(delta, 4))\(unit)), beyond the tolerance \(tolerance)\(allowed)"
            if ra.configId == chosenA?.configId, let noise, noise.outsideNoise(column, better: better, margin: margin) == false {
                insideNoise.append("\(line), but inside the noise (\(noise.text(column)))")
            } else {
                reasons.append(line)
            }
        }
    }
}
