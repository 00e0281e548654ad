import Foundation
import Testing
@testable import SpringLayout
@testable import SpringTune
import TraceIO

/// Which axis matters (Reference §10.15): main-effect shares against closed forms.
@Suite struct ImportanceTests {
    /// A full grid over `x1` × `x2` (first axis slowest) with one column `y = f(x1, x2)`
    /// (nil: undefined, +∞: never settled).
    func grid(_ x1: [Double], _ x2: [Double], _ f: (Double, Double) -> Double?) -> SweepReport {
        var rows: [SweepReport.Row] = []
        for a in x1 {
            for b in x2 { rows.append(.init(configId: rows.count, parameters: [.number(a), .number(b)], values: [.value(1), MetricValue(f(a, b))])) }
        }
        return SweepReport(path: "r.csv", axes: [SweepAxis(name: "x1", values: x1.map(ParamValue.number)), SweepAxis(name: "x2", values: x2.map(ParamValue.number))],
                           specs: [ReportColumns.traces, MetricSpec("y", "pt", .lower, "a test column")], rows: rows)
    }

    func shares(_ report: SweepReport) throws -> Importance.Column { try Importance(report, columns: ["y"]).columns[0] }

    /// y = a(x1) + b(x2): no interaction, so the shares are var(a) : var(b) and sum to 1.
    /// a = 0, 1, 5 (mean 2, variance 14/3); b = 2, −1, 0, 3 (mean 1, variance 5/2).
    @Test func additiveGridSplitsByTheVariances() throws {
        let a: [Double: Double] = [1: 0, 2: 1, 3: 5], b: [Double: Double] = [10: 2, 20: -1, 30: 0, 40: 3]
        let c = try shares(grid([1, 2, 3], [10, 20, 30, 40]) { a[$0]! + b[$1]! })
        let va = 14.0 / 3, vb = 5.0 / 2
        #expect(abs(c.shares[0]! - va / (va + vb)) < 1e-12)   // 28/43
        #expect(abs(c.shares[1]! - vb / (va + vb)) < 1e-12)   // 15/43
        #expect(abs(c.shares[0]! + c.shares[1]! - 1) < 1e-12)
        #expect(c.interactions! < 1e-12)
        #expect(abs(c.variance! - (va + vb)) < 1e-12)
    }

    /// y = x1·x2 over {1, 2, 3}²: each axis's main effect is 2·x (variance 8/3) of a total
    /// E[x²]² − E[x]⁴ = (14/3)² − 16 = 52/9, so 6/13 each and 1/13 interaction.
    @Test func productHasTheKnownInteractionShare() throws {
        let c = try shares(grid([1, 2, 3], [1, 2, 3]) { $0 * $1 })
        #expect(abs(c.shares[0]! - 6.0 / 13) < 1e-12)
        #expect(abs(c.shares[1]! - 6.0 / 13) < 1e-12)
        #expect(abs(c.interactions! - 1.0 / 13) < 1e-12)
    }

    /// A column with one value has zero variance: shares 0, no interactions, and a note.
    @Test func constantColumnGetsZeroShares() throws {
        let report = grid([1, 2, 3], [1, 2]) { _, _ in 0.1 }
        let shares = try Importance(report, columns: ["y"])
        let c = shares.columns[0]
        #expect(c.variance == 0)
        #expect(c.shares == [0, 0])
        #expect(c.interactions == 0)
        #expect(shares.notes(c) == ["the same in every set: shares 0"])
        #expect(shares.headline() == "which axis matters: none, y is the same in every set")
        let chart = try ReportCharts.importance(report, ranking: Ranking(constraints: [], column: "y", maximize: false))
        #expect(chart?.script.contains("\"y (objective) (constant)\" 0") == true)
    }

    /// An axis swept over one value explains nothing: no share, and the table shows "-".
    @Test func axisWithOneValueGetsNoShare() throws {
        let report = grid([1, 2, 3], [7]) { x, _ in x * x }
        let shares = try Importance(report, columns: ["y"])
        #expect(shares.columns[0].shares[1] == nil)
        #expect(shares.columns[0].shares[0] == 1)
        #expect(shares.fixedAxes == ["x2"])
        #expect(shares.header == ["column", "x1", "x2", "interactions"])
        #expect(shares.cells(shares.columns[0]) == ["y", "1.000", "-", "0.000"])
    }

    /// `inf` becomes hi + (hi − lo): cells 1, 2, 3, inf → 1, 2, 3, 5 (mean 11/4, variance 35/16);
    /// x1's means 1.5 and 4 give 25/16 → 5/7, x2's 2 and 3.5 give 9/16 → 9/35; 1/35 interacts.
    @Test func neverSettledTakesAStandIn() throws {
        let cells: [[Double]] = [[1, 2], [3, .infinity]]
        let shares = try Importance(grid([0, 1], [0, 1]) { cells[Int($0)][Int($1)] }, columns: ["y"])
        let c = shares.columns[0]
        #expect(c.infinite == 1 && c.standIn == 5)
        #expect(abs(c.shares[0]! - 5.0 / 7) < 1e-12)
        #expect(abs(c.shares[1]! - 9.0 / 35) < 1e-12)
        #expect(abs(c.interactions! - 1.0 / 35) < 1e-12)
        #expect(shares.notes(c) == ["1 inf as 5"])
    }

    /// An undefined cell leaves its row out (approximate); a column no row defines has no shares.
    @Test func undefinedCellsAreLeftOut() throws {
        let shares = try Importance(grid([1, 2], [1, 2, 3]) { x, y in x == 2 && y == 3 ? nil : x + y }, columns: ["y"])
        let c = shares.columns[0]
        #expect(c.rows == 5)
        #expect(shares.notes(c) == ["undefined in 1 of 6 sets, left out (approximate)"])
        #expect(c.shares.allSatisfy { $0! > 0 } && c.shares.reduce(0) { $0 + $1! } <= 1 + 1e-12)
        #expect(shares.headline()!.hasSuffix(", approximate"))
        let none = try Importance(grid([1, 2], [1, 2]) { _, _ in nil }, columns: ["y"])
        #expect(none.columns[0].shares == [nil, nil] && none.columns[0].interactions == nil)
        #expect(none.notes(none.columns[0]) == ["no set defines it"])
        #expect(none.headline() == nil)
    }

    /// Rows on the diagonal of a 2 × 2 grid: each axis alone explains everything (sum 2), so the
    /// overlapping shares are scaled to sum to 1.
    @Test func overlappingMainEffectsAreScaledToOne() throws {
        var report = grid([0, 1], [0, 1]) { x, _ in x }
        report.rows = [report.rows[0], report.rows[3]]
        let c = try shares(report)
        #expect(c.shares == [0.5, 0.5] && c.rescaled && c.interactions == 0)
    }

    /// The headline names the axis with the largest share; a parameter column is refused (64).
    @Test func headlineAndRefusals() throws {
        let report = grid([1, 2, 3], [1, 2]) { x, y in 10 * x + y }
        #expect(try Importance(report, columns: ["y"]).headline()!.hasPrefix("which axis matters: x1 explains 0.996 of the variance of y (x2 0.004"))
        #expect(Fixture.error { _ = try Importance(report, columns: ["x1"]) }?.code == .usage)
        #expect(Fixture.error { _ = try Importance(report, columns: ["nope"]) }?.code == .usage)
    }

    /// The CSV: a share per axis to 12 digits, empty where there is none; the chart's bars
    /// (shares and interactions) stack to 1.
    @Test func csvAndChart() throws {
        let report = grid([1, 2, 3], [1, 2, 3]) { $0 * $1 }
        let csv = try Importance(report, columns: ["y"]).csv
        #expect(csv == "column,x1,x2,interactions,sets,note\ny,0.461538461538,0.461538461538,0.0769230769231,9,\n")
        let chart = try #require(try ReportCharts.importance(report, ranking: Ranking(constraints: [], column: "y", maximize: false)))
        let bar = chart.data.split(separator: "\n")[0].split(separator: " ").dropFirst().map { Double($0)! }
        #expect(abs(bar.reduce(0, +) - 1) < 1e-12)
        #expect(chart.script.contains("rowstacked") && chart.script.contains("title \"interactions\""))
    }
}
