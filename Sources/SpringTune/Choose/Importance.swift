import SpringCore
import SpringLayout
import ToolRuntime
import TraceIO

/// Which swept axis matters (Reference §10.15): each axis's share of the variance of a report
/// column over the grid, by a main-effects decomposition (the first-order terms of a functional
/// ANOVA, as fANOVA computes them). For a column y over the N rows that define it, with mean ȳ,
/// and an axis k whose values v split those rows into groups of n_v rows with mean m_v (the
/// axis's marginal means):
///
///     V   = (1/N) Σ_rows (y − ȳ)²              total variance (the column's unit squared)
///     V_k = Σ_v (n_v / N) (m_v − ȳ)²           variance of the axis's marginal means
///     S_k = V_k / V                            the axis's share (1: a unitless fraction)
///     interactions = 1 − Σ_k S_k               what no axis explains alone
///
/// On a full grid every n_v is N over the axis's number of values, the V_k are orthogonal terms
/// of the decomposition and Σ_k S_k ≤ 1 exactly: y = a(x₁) + b(x₂) gives S₁ = var(a)/(var(a) +
/// var(b)) and no interactions. Over a partial grid (a shard, `merge --allow-partial`) or rows
/// left out because the column is undefined there, the marginal means are over the rows present
/// and the shares are approximate; if they then sum to more than 1 they are scaled to sum to 1.
///
/// Rules: an undefined cell leaves its row out of that column; `inf` (never settled) becomes the
/// finite stand-in hi + (hi − lo), hi and lo the column's largest and smallest finite values (a
/// never-settled set counts one finite range worse than the worst settled set; 2·hi − lo); an
/// axis taking one value among the rows used gets no share (nil); a column with one value
/// throughout (zero variance) gets shares 0 and interactions 0. Shares are invariant under
/// y → a·y + b, so the column's unit does not matter.
public struct Importance: Sendable {
    /// The decomposition of one column.
    public struct Column: Sendable {
        public var name: String
        /// S_k in ``Importance/axes`` order; nil for an axis taking one value among the rows used,
        /// and for every axis when no row defines the column.
        public var shares: [Double?]
        /// Rows decomposed: those where the column is defined.
        public var rows: Int
        /// V over those rows (the column's unit squared; +∞ for cells near ±1e308); nil when no
        /// row defines the column.
        public var variance: Double?
        /// `inf` cells, and the finite stand-in they took (nil when every defined cell is `inf`).
        public var infinite: Int
        public var standIn: Double?
        /// True when the main effects of unbalanced rows summed to more than 1 and were scaled to 1.
        public var rescaled: Bool

        /// 1 − Σ_k S_k; nil when no row defines the column.
        public var interactions: Double? {
            variance.map { $0 == 0 ? 0 : max(0, 1 - shares.reduce(0) { $0 + ($1 ?? 0) }) }
        }

        /// The axis with the largest share and that share (the first of equal ones); nil when no
        /// axis has a share.
        public var top: (axis: Int, share: Double)? {
            shares.indices.compactMap { k in shares[k].map { (axis: k, share: $0) } }.max { $0.share < $1.share }
        }
    }

    /// Every swept axis of the report, in column order.
    public var axes: [String]
    public var columns: [Column]
    /// The objective column, when one is marked.
    public var objective: String?
    /// Rows of the report, and sets in the whole grid (the sidecar's `configs`).
    public var rows: Int
    public var gridSize: Int

    /// The report holds only part of its grid: shares are approximate.
    public var isPartial: Bool { rows < gridSize }

    /// The decomposition of `names` (metric columns) over `report`'s rows; exit 64 for a column
    /// the report lacks or one that is not a metric column.
    public init(_ report: SweepReport, columns names: [String], objective: String? = nil) throws {
        axes = report.axes.map(\.name)
        rows = report.rows.count
        gridSize = max(report.meta?.configs ?? rows, rows)
        self.objective = objective
        // Each row's value of each axis as an index into the values it takes, in order of
        // appearance; a search's numbers (every row its own value) as their rank's bin.
        let listed = report.meta?.search != nil
        let levels: [[Int]] = report.axes.indices.map { k in
            let values = report.rows.map { $0.parameters[k] }
            if listed, let bins = Self.rankBins(values) { return bins }
            var index: [ParamValue: Int] = [:]
            return report.rows.map { row in
                let v = row.parameters[k]
                if let i = index[v] { return i }
                index[v] = index.count
                return index.count - 1
            }
        }
        columns = try names.map { name in
            let c = try report.index(of: name)
            guard case .metric = c else {
                throw ToolError(.usage, "\(report.path): '\(name)' is a parameter column, not a column to explain (give a metric column)")
            }
            return Self.decompose(name, report.rows.map { report.number($0, c) }, levels: levels)
        }
    }

    /// Bins of a search's rows (Reference §10.17): a report of continuous values has no grid, and
    /// every row alone would "explain" everything, so each numeric parameter is cut into
    /// ``searchBins`` groups of equal count by rank (ties by row order); nil for words.
    static func rankBins(_ values: [ParamValue]) -> [Int]? {
        let numbers = values.compactMap(\.number)
        guard numbers.count == values.count, !numbers.isEmpty else { return nil }
        let order = numbers.indices.sorted { numbers[$0] != numbers[$1] ? numbers[$0] < numbers[$1] : $0 < $1 }
        var bins = [Int](repeating: 0, count: numbers.count)
        for (rank, i) in order.enumerated() { bins[i] = rank * searchBins / numbers.count }
        return bins
    }

    /// Groups per parameter in a search's decomposition.
    public static let searchBins = 5

    /// The key columns of `ranking` (``Ranking/keyColumns``: the objective, its targets',
    /// constraints' and tiebreak columns) that
    /// the report has and some row defines: what the sweep page shows.
    public init(_ report: SweepReport, keyOf ranking: Ranking) throws {
        let names = ranking.keyColumns.filter { name in
            guard case let .metric(i)? = report.column(name) else { return false }
            return report.rows.contains { $0.values[i] != .undefined }
        }
        try self.init(report, columns: names, objective: ranking.column)
    }

    /// One column's decomposition from its cells (nil: undefined, +∞: never settled) and each
    /// row's level index on every axis.
    static func decompose(_ name: String, _ cells: [Double?], levels: [[Int]]) -> Column {
        let used = cells.indices.filter { cells[$0] != nil }
        let finite = used.map { cells[$0]! }.filter(\.isFinite)
        let infinite = used.count - finite.count
        var standIn: Double?
        if infinite > 0, let lo = finite.min(), let hi = finite.max() { standIn = hi + (hi > lo ? hi - lo : 1) }
        // The shares are computed on the column rescaled to its finite range, u = (y − lo)/(hi − lo)
        // (they do not change; cells near ±1e308 made V infinite and the shares NaN), halves
        // first so hi − lo never overflows; the stand-in hi + (hi − lo) is then 2 (1 above a
        // constant finite value).
        let lo = finite.min() ?? 0, half = ((finite.max() ?? 0) / 2 - lo / 2)
        let y = used.map { r -> Double in
            let v = cells[r]!
            if !v.isFinite { return finite.isEmpty ? 0 : half > 0 ? 2 : 1 }
            return half > 0 ? (v / 2 - lo / 2) / half : 0
        }
        var column = Column(name: name, shares: levels.map { _ in nil }, rows: y.count, variance: nil, infinite: infinite, standIn: standIn, rescaled: false)
        guard !y.isEmpty else { return column }
        let n = Double(y.count), mean = y.reduce(0, +) / n
        let constant = y.min() == y.max()
        let total = constant ? 0 : y.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / n
        column.variance = half > 0 ? total * (2 * half) * (2 * half) : total
        column.shares = levels.map { level -> Double? in
            let count = level.max().map { $0 + 1 } ?? 0
            var sums = [Double](repeating: 0, count: count), counts = [Int](repeating: 0, count: count)
            for (j, r) in used.enumerated() {
                sums[level[r]] += y[j]
                counts[level[r]] += 1
            }
            guard counts.filter({ $0 > 0 }).count >= 2 else { return nil }
            guard total > 0 else { return 0 }
            let between = counts.indices.filter { counts[$0] > 0 }.reduce(0.0) { acc, v in
                let m = sums[v] / Double(counts[v])
                return acc + Double(counts[v]) * (m - mean) * (m - mean)
            } / n
            return between / total
        }
        let sum = column.shares.reduce(0) { $0 + ($1 ?? 0) }
        if sum > 1 {
            column.shares = column.shares.map { $0.map { $0 / sum } }
            column.rescaled = sum > 1 + 1e-9
        }
        return column
    }

    /// What a column's numbers rest on, in words (empty when nothing needs saying).
    public func notes(_ c: Column) -> [String] {
        guard let variance = c.variance else { return ["no set defines it"] }
        var out: [String] = []
        if c.rows < rows { out.append("undefined in \(rows - c.rows) of \(rows) sets, left out (approximate)") }
        if c.infinite > 0 { out.append("\(c.infinite) inf" + (c.standIn.map { " as \(NumberFormat.short($0))" } ?? "")) }
        if variance == 0 { out.append("the same in every set: shares 0") }
        if c.rescaled { out.append("overlapping main effects of unbalanced rows scaled to sum 1") }
        return out
    }

    /// A column's name, marked when it is the objective.
    public func label(_ c: Column) -> String { c.name == objective ? "\(c.name) (objective)" : c.name }

    /// The table's header and rows: a column's shares and interactions to 3 decimals ("-" for an
    /// axis with one value, empty when no set defines the column), then its notes (the `note`
    /// column only when some column has one).
    public var header: [String] { ["column"] + axes + ["interactions"] + (hasNotes ? ["note"] : []) }
    public func cells(_ c: Column) -> [String] {
        let share = { (s: Double?) in s.map { NumberFormat.fixed($0, 3) } ?? (c.variance == nil ? "" : "-") }
        return [label(c)] + c.shares.map(share) + [c.interactions.map { NumberFormat.fixed($0, 3) } ?? ""]
            + (hasNotes ? [notes(c).joined(separator: "; ")] : [])
    }
    private var hasNotes: Bool { columns.contains { !notes($0).isEmpty } }

    /// The first line of the table: what was decomposed, over how much of the grid.
    public var summary: String {
        "Share of each column's variance that each swept axis explains alone, over \(rows) parameter sets (main effects; interactions: the rest)"
            + (isPartial ? "; approximate: the report holds \(rows) of the grid's \(gridSize) sets (marginal means over the sets present)" : "")
    }

    /// Axes taking one value in the report: they get no share.
    public var fixedAxes: [String] {
        axes.indices.filter { k in columns.allSatisfy { $0.shares[k] == nil } }.map { axes[$0] }
    }

    /// `--format csv`: `column`, one share per axis (empty for no share), `interactions`, `sets`
    /// (rows decomposed), `note`; numbers to 12 significant digits with the report's 1e-6 floor.
    public var csv: String {
        var w = CSVWriter()
        w.header(["column"] + axes + ["interactions", "sets", "note"])
        for c in columns {
            w.row([.text(c.name)] + c.shares.map(Self.field) + [Self.field(c.interactions), .integer(c.rows), .text(notes(c).joined(separator: "; "))])
        }
        return w.text
    }

    private static func field(_ share: Double?) -> CSVField { share.map { MetricValue(measured: $0).field } ?? .empty }

    /// The line `sweep` prints after its best-sets table: the axis with the largest share of
    /// `column` (the first column decomposed when nil); nil when no axis varies or no set defines it.
    public func headline(_ column: String? = nil) -> String? {
        guard let c = columns.first(where: { $0.name == column ?? $0.name }), let variance = c.variance, let top = c.top else { return nil }
        guard variance > 0 else { return "which axis matters: none, \(c.name) is the same in every set" }
        let next = c.shares.indices.filter { $0 != top.axis }.compactMap { k in c.shares[k].map { "\(axes[k]) \(NumberFormat.fixed($0, 3))" } }
        return "which axis matters: \(axes[top.axis]) explains \(NumberFormat.fixed(top.share, 3)) of the variance of \(c.name)"
            + (next.isEmpty ? "" : " (\(next.joined(separator: ", ")), interactions \(NumberFormat.fixed(c.interactions ?? 0, 3)))")
            + (isPartial || c.rows < rows ? ", approximate" : "")
    }
}
