import SpringLayout

/// Where each row of a report sits in its sweep's grid (Reference §9.1): its index on every
/// axis, from the row's values and the report's axes. `Ranking` uses it for `robust` (a set's
/// neighbours: one step up or down on one numeric axis, the same word on word axes) and to
/// resolve a tie at the centre of the tied sets' region.
struct GridPositions {
    /// Per axis: whether its values are numbers (only those have neighbours).
    let numeric: [Bool]
    private var index: [Int: [Int]] = [:]
    private var rowAt: [[Int]: SweepReport.Row] = [:]

    init(_ report: SweepReport) {
        numeric = report.axes.map { $0.numbers != nil }
        // A numeric axis in ascending order (a report read without its sidecar lists values as
        // they first appear), so a step is to the next value up or down.
        let lookup = report.axes.map { axis in
            let ordered = axis.numbers.map { n in zip(n, axis.values).sorted { $0.0 < $1.0 }.map(\.1) } ?? axis.values
            return Dictionary(ordered.enumerated().map { ($1, $0) }) { first, _ in first }
        }
        for row in report.rows {
            guard row.parameters.count == lookup.count else { continue }
            let position = zip(lookup, row.parameters).compactMap { $0[$1] }
            guard position.count == lookup.count else { continue }
            index[row.configId] = position
            rowAt[position] = row
        }
    }

    /// The row's index on every axis, or nil when its values are not the axes'.
    func position(_ row: SweepReport.Row) -> [Int]? { index[row.configId] }

    /// The rows of the report one step away from `row` on one numeric axis (at most 2 per axis).
    func neighbours(of row: SweepReport.Row) -> [SweepReport.Row] {
        guard let p = index[row.configId] else { return [] }
        var out: [SweepReport.Row] = []
        for axis in p.indices where numeric[axis] {
            for step in [-1, 1] {
                var q = p
                q[axis] += step
                if let r = rowAt[q] { out.append(r) }
            }
        }
        return out
    }

    /// Squared distance, in grid steps, from each position to the centre of their bounding box
    /// (the midpoint of the lowest and highest index on each axis); nil entries stay nil.
    static func distancesToCentre(_ positions: [[Int]?]) -> [Double?] {
        let known = positions.compactMap { $0 }
        guard let first = known.first else { return positions.map { _ in nil } }
        let centre = first.indices.map { a in Double(known.map { $0[a] }.min()! + known.map { $0[a] }.max()!) / 2 }
        return positions.map { p in p.map { zip($0, centre).reduce(0) { $0 + (Double($1.0) - $1.1) * (Double($1.0) - $1.1) } } }
    }
}
