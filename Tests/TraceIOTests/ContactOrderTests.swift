import Foundation
import SpringCore
import Testing
import ToolRuntime
@testable import TraceIO

@Suite struct ContactOrderTests {
    /// A `getevent -lt` dump: each report's time and its `ABS_MT_*` events (name, hex value),
    /// closed by `SYN_REPORT`.
    static func dump(_ reports: [(t: String, events: [(String, String)])]) -> String {
        reports.flatMap { r in r.events.map { "[ \(r.t)] EV_ABS ABS_MT_\($0.0) \($0.1)" } + ["[ \(r.t)] EV_SYN SYN_REPORT 0"] }
            .joined(separator: "\n")
    }

    /// tablet-two-finger-drag.txt (protocol A): tracking ids 0 at (43, 440) and 1 at (44, 605)
    /// touch down in the same report; id 1 lifts first (213131.817312 s, id 0 at 213131.826997 s),
    /// so MonkeyHelper's split, in lift order, calls id 1 c000. In touch-down order, ties by
    /// tracking id, id 0 is c000.
    @Test func touchDownOrderTiesByTrackingID() throws {
        let got = try TraceImporter.importFile(TestData.path("getevent-raw/tablet-two-finger-drag.txt"), format: .getevent,
                                               mapping: ImportMapping(units: .scale(1))).traces
        #expect(got.map(\.id) == ["tablet-two-finger-drag-c000", "tablet-two-finger-drag-c001"])
        #expect(got.map { [$0.samples[0].x, $0.samples[0].y] } == [[43, 440], [44, 605]])
        let reference = try #require(try GeteventImporterTests.reference()["tablet-two-finger-drag"])
        #expect(reference.map { [$0.samples[0].x, $0.samples[0].y] } == [[44, 605], [43, 440]])
    }

    /// Protocol B: slot 1 touches down before slot 0 and lifts after it; the earlier touch is c000.
    @Test func touchDownOrderNotLiftOrder() throws {
        let text = Self.dump([
            ("1.000000", [("SLOT", "1"), ("TRACKING_ID", "7"), ("POSITION_X", "a"), ("POSITION_Y", "a")]),
            ("1.100000", [("SLOT", "0"), ("TRACKING_ID", "8"), ("POSITION_X", "14"), ("POSITION_Y", "14")]),
            ("1.200000", [("TRACKING_ID", "ffffffff")]),
            ("1.300000", [("SLOT", "1"), ("TRACKING_ID", "ffffffff")]),
        ])
        let path = try TestData.temp(text, name: "b.txt")
        let got = try TraceImporter.importFile(path, format: .getevent, mapping: ImportMapping(units: .scale(1))).traces
        #expect(got.map { $0.samples[0].x } == [10, 20])
        #expect(got.map(\.id) == ["b-c000", "b-c001"])
    }
}

@Suite struct ImportedTimeTests {
    @Test func roundedToTheMicrosecond() {
        #expect(1411.748191 - 1411.448191 != 0.3)
        #expect(TraceImporter.microseconds(1411.748191 - 1411.448191) == 0.3)
        #expect(TraceImporter.microseconds(0.0000014) == 0.000001)
        #expect(TraceImporter.microseconds(-0.0000026) == -0.000003)
    }

    /// Rows of a getevent dump 0.3 s apart on a clock near 1411 s: the difference is not 0.3 in
    /// binary floating point, the imported time is.
    @Test func importedTimesAreWholeMicroseconds() throws {
        let text = ContactOrderTests.dump([
            ("1411.448191", [("TRACKING_ID", "1"), ("POSITION_X", "64"), ("POSITION_Y", "c8")]),
            ("1411.748191", [("POSITION_Y", "d2")]),
            ("1411.848192", [("TRACKING_ID", "ffffffff")]),
        ])
        let path = try TestData.temp(text, name: "noise.txt")
        let trace = try #require(try TraceImporter.importFile(path, format: .getevent, mapping: ImportMapping(units: .scale(1))).traces.first)
        #expect(trace.samples.map(\.t) == [0, 0.3, 0.400001])
        #expect(TraceWriter.csv([trace]).contains("noise-c000,0.3,100,210,moved"))
    }

    /// A csv import's times in milliseconds (`--time-unit ms`) become seconds, rounded the same way.
    @Test func csvTimesInMilliseconds() throws {
        let text = "trace_id,t_seconds,x,y,phase\na,0,0,0,down\na,16.071,0,10,move\na,300.000001,0,20,up\n"
        let path = try TestData.temp(text)
        let trace = try #require(try TraceImporter.importFile(path, format: .csv, mapping: ImportMapping(units: .scale(1), timeUnit: .ms)).traces.first)
        #expect(trace.samples.map(\.t) == [0, 0.016071, 0.3])
        #expect(throws: ToolError.self) {
            try TraceImporter.importFile(TestData.path("getevent-raw/phone-single-touch.txt"), format: .getevent,
                                         mapping: ImportMapping(units: .scale(1), timeUnit: .ms))
        }
    }
}
