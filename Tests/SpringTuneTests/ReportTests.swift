import Foundation
import Testing
@testable import SpringLayout
@testable import SpringTune
import ToolRuntime
import TraceIO

extension Fixture {
    /// A report file with `header` and `rows` (cells as written), read back by the decoder.
    static func report(_ header: [String], _ rows: [[String]]) throws -> SweepReport {
        let path = tempDir() + "/report.csv"
        var w = CSVWriter()
        w.header(header)
        for r in rows { w.row(r.map(CSVField.text)) }
        try AtomicFile.write(w.text, to: path)
        return try SweepReport.read(path)
    }

    /// The error `body` throws (nil when it throws none).
    static func error(_ body: () throws -> Void) -> ToolError? {
        do { try body() } catch let error as ToolError { return error } catch { return nil }
        return nil
    }
}

/// The typed report and its one decoder (Reference §9.2): what is written reads back to the
/// same rows and the same bytes, and a bad cell is named by file, line and column.
@Suite struct ReportTests {
    /// Rows with every kind of cell: numbers that need all their digits, −0, tiny and huge
    /// numbers, undefined, never settled, and a word with a comma (quoted in the file).
    static let report = SweepReport(
        path: "r", axes: [SweepAxis(name: "damping", values: [0.1, 1.0 / 3]), SweepAxis(name: "curve", values: [.text("a,b"), .text("spring")])],
        specs: [ReportColumns.traces, ReportColumns.unsettled, ReportColumns.spec("settle_time_p95")!, ReportColumns.spec("overshoot_pt_mean")!],
        rows: [
            .init(configId: 0, parameters: [.number(0.1), .text("a,b")], values: [.value(30), .value(0), .value(1e-7), .value(-0.0)]),
            .init(configId: 1, parameters: [.number(0.1), .text("spring")], values: [.value(30), .value(2), .neverSettled, .undefined]),
            .init(configId: 3, parameters: [.number(1.0 / 3), .text("spring")], values: [.value(30), .value(30), .value(1e20), .value(.leastNonzeroMagnitude)]),
        ])

    /// A measured value as the report keeps it (Reference §8's noise floor): 12 significant
    /// digits, residue below 1e-6 as 0, both signs; what a file says is read as written.
    @Test func measuredValuesHaveNoNoise() {
        #expect(MetricValue(measured: 4.547473508864641e-13) == .value(0))
        #expect(MetricValue(measured: -9.9e-7) == .value(0))
        #expect(MetricValue(measured: 1e-6) == .value(1e-6))
        #expect(MetricValue(measured: 0.19999999999999998) == .value(0.2))
        #expect(MetricValue(measured: 0.840277777777778).field.encoded == "0.840277777778")
        #expect(MetricValue(measured: .infinity) == .neverSettled && MetricValue(measured: nil) == .undefined)
        #expect(MetricValue(cell: "4.5e-13") == .value(4.5e-13))
    }

    @Test func writtenReportReadsBackToTheSameRowsAndBytes() throws {
        let path = Fixture.tempDir() + "/report.csv"
        let text = Self.report.csv()
        #expect(text.contains("\"a,b\"") && text.contains(",inf,\n") && text.contains("1,0.1,spring,30,2,inf,\n"))
        try AtomicFile.write(text, to: path)
        let read = try SweepReport.read(path)
        #expect(read.csv() == text)
        #expect(read.columns == Self.report.columns)
        #expect(read.rows.map(\.values) == Self.report.rows.map(\.values))
        #expect(read.rows[1].values[2] == .neverSettled && read.rows[1].values[3] == .undefined)
        #expect(read.rows.map(\.parameters) == Self.report.rows.map(\.parameters))
        #expect(read.axes.map(\.values) == [[.number(0.1), .number(1.0 / 3)], [.text("a,b"), .text("spring")]])
        // Through the decoder again: still the same bytes.
        try AtomicFile.write(read.csv(), to: path)
        #expect(try SweepReport.read(path).csv() == text)
    }

    /// A sweep's report read with its sidecar: the parameters come from the sidecar's axes and
    /// the config ids, and writing it again gives the file's bytes.
    @Test func sweepReportReadsBackWithItsSidecar() throws {
        let outcome = try Fixture.sweep("evernote", vary: ["damping=0.6,0.9,1.2", "frequency=1,2.5", "boundaryResistance=8,16"],
                                        threads: 2, out: Fixture.tempDir())
        let read = try SweepReport.read(outcome.report, sidecar: .required)
        #expect(read.meta?.configs == 12 && read.rows == outcome.table.rows)
        #expect(read.csv() == (try String(contentsOfFile: outcome.report, encoding: .utf8)))
        #expect(read.values(of: read.rows[5])["frequency"] == .number(2.5) && read.values(of: read.rows[5])["damping"] == .number(1.2))
        // A cell that disagrees with the sidecar's axes is refused at that cell.
        var lines = try String(contentsOfFile: outcome.report, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[3] = lines[3].replacingOccurrences(of: "2,8,0.9,1,", with: "2,8,0.9,7,")
        try lines.joined(separator: "\n").write(toFile: outcome.report, atomically: true, encoding: .utf8)
        let e = Fixture.error { _ = try SweepReport.read(outcome.report) }
        #expect(e?.code == .dataError && e?.message.hasSuffix(":4:4: parameter frequency: '7' is not config 2's value in the sidecar's axes (1)") == true,
                "\(String(describing: e))")
    }

    @Test func badCellsAreNamedByFileLineAndColumn() throws {
        func message(_ text: String) throws -> String? {
            let path = Fixture.tempDir() + "/bad.csv"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return Fixture.error { _ = try SweepReport.read(path) }.map { $0.code == .dataError ? String($0.message.dropFirst(path.count)) : "exit \($0.code)" }
        }
        let h = "config_id,damping,traces,settle_time_p95\n"
        #expect(try message(h + "0,0.5,3,1\n1,0.6,3,fast\n") == ":3:4: settle_time_p95: 'fast' is not a number, inf or empty")
        #expect(try message(h + "0,0.5,3,-inf\n") == ":2:4: settle_time_p95: '-inf' is not a number, inf or empty")
        #expect(try message(h + "0,nan,3,1\n") == ":2:2: parameter damping: 'nan' is not a finite number or a word")
        #expect(try message(h + "x,0.5,3,1\n") == ":2:1: config_id 'x' is not an integer >= 0")
        #expect(try message(h + "0,0.5,3\n") == ":2:1: row has 3 fields, header has 4")
        #expect(try message("damping,traces\n") == ":1:1: not a springtune report (first column must be config_id)")
        #expect(try message("config_id,damping\n") == ":1:1: not a springtune report (no traces column after the parameters)")
        #expect(try message("config_id,traces,a,a\n") == ":1:20: duplicate column 'a'")
        // A hand-written cell reads as its number; `inf` and an empty cell keep their meaning.
        let t = try Fixture.report(["config_id", "damping", "traces", "settle_time_p95"], [["7", "0.50", "3", "inf"], ["8", "auto", "3", ""]])
        #expect(t.rows.map(\.parameters) == [[.number(0.5)], [.text("auto")]])
        #expect(t.rows.map(\.values) == [[.value(3), .neverSettled], [.value(3), .undefined]])
        #expect(t.csv() == "config_id,damping,traces,settle_time_p95\n7,0.5,3,inf\n8,auto,3,\n")
    }

    @Test func metricValueHasOneUndefinedAndOneNeverSettled() {
        #expect(MetricValue(nil) == .undefined && MetricValue(.nan) == .undefined && MetricValue(-.infinity) == .undefined)
        #expect(MetricValue(.infinity) == .neverSettled && MetricValue.neverSettled.number == .infinity)
        #expect(MetricValue(2.5).number == 2.5 && MetricValue.undefined.number == nil)
        #expect(MetricValue.neverSettled.field.encoded == "inf" && MetricValue.undefined.field.encoded == "")
        #expect(MetricValue.neverSettled.perTraceField.encoded == "")
        #expect(MetricValue(cell: "inf") == .neverSettled && MetricValue(cell: "") == .undefined && MetricValue(cell: "nan") == nil)
    }

    /// Every CSV header is read by one parser: a name given twice is an error at its second
    /// place, a missing one an error at the header, columns found by name.
    @Test func oneHeaderParser() throws {
        func header(_ text: String, trimming: Bool = true) throws -> CSVHeader {
            let path = Fixture.tempDir() + "/h.csv"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            var record: CSVRecord?
            try CSVReader(path: path).forEachRecord { if record == nil { record = $0 } }
            return try CSVHeader(record!, file: "h.csv", trimming: trimming)
        }
        let h = try header("trace, t ,x,extra\n")
        #expect(h["t"] == 1 && h["y"] == nil && h.unknown(besides: ["trace", "t", "x"]) == ["extra"])
        #expect(Fixture.error { _ = try h.require("y", "missing column 'y'") }?.message == "h.csv:1:1: missing column 'y'")
        #expect(Fixture.error { _ = try header("trace,t,x,t\n") }?.message == "h.csv:1:11: duplicate column 't'")
        // The trace reader and the sample reader use it.
        let traces = Fixture.tempDir() + "/t.csv"
        try "trace,t,x,y,phase,x\n".write(toFile: traces, atomically: true, encoding: .utf8)
        #expect(Fixture.error { _ = try TraceReader().read(path: traces) }?.message == "\(traces):1:19: duplicate column 'x'")
        #expect(Fixture.error { _ = try SampleColumns(path: traces, columns: [.init("t", limit: 1)]) }?.message == "\(traces):1:19: duplicate column 'x'")
    }
}

@Test func jsonValuePrettyAndCompact() {
    let v = JSONValue.object([("a", .array([.number(1), .null, .string("x\"")])), ("b", .object([])), ("c", .bool(true))])
    #expect(v.compact() == #"{"a":[1,null,"x\""],"b":{},"c":true}"#)
    #expect(v.rendered() == "{\n  \"a\": [\n    1,\n    null,\n    \"x\\\"\"\n  ],\n  \"b\": {},\n  \"c\": true\n}\n")
}
