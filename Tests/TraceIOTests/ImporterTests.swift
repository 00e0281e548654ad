import Foundation
import SpringCore
import Testing
import ToolRuntime
@testable import TraceIO

@Suite struct GeteventImporterTests {
    /// The per-contact CSVs of MonkeyHelper, keyed by source file stem.
    static func reference() throws -> [String: [Trace]] {
        let imported = try TraceImporter.importFile(TestData.path("monkeyhelper-getevent/traces.csv"), format: .csv, mapping: ImportMapping(units: .scale(1)))
        var byFile: [String: [Trace]] = [:]
        for t in imported.traces {
            let stem = String(t.id[..<t.id.range(of: "-c", options: .backwards)!.lowerBound])
            byFile[stem, default: []].append(t)
        }
        return byFile
    }

    static let files = try! FileManager.default.contentsOfDirectory(atPath: TestData.path("getevent-raw")).sorted()

    /// Each contact's first `t_raw_s` in MonkeyHelper's CSV (the recording's clock), by trace id.
    static func referenceStarts() throws -> [String: Double] {
        let text = try String(contentsOfFile: TestData.path("monkeyhelper-getevent/traces.csv"), encoding: .utf8)
        var starts: [String: Double] = [:]
        for line in text.split(whereSeparator: \.isNewline).dropFirst() {
            let f = line.split(separator: ",", omittingEmptySubsequences: false)
            if starts[String(f[0])] == nil { starts[String(f[0])] = Double(f[5]) }
        }
        return starts
    }

    /// The same contacts and samples as MonkeyHelper's split, which numbers contacts in lift
    /// order: the importer numbers them in touch-down order, so each imported contact is matched
    /// to a reference one by its samples, and the matched reference starts must not go back.
    @Test(arguments: files)
    func sameContactsAndSamplesAsMonkeyHelper(file: String) throws {
        let stem = String(file.dropLast(4))
        var want = try #require(try Self.reference()[stem])
        let starts = try Self.referenceStarts()
        let got = try TraceImporter.importFile(TestData.path("getevent-raw/\(file)"), format: .getevent, mapping: ImportMapping(units: .scale(1))).traces
        #expect(got.map(\.id) == want.indices.map { ContactGrouping.name(stem, "c", $0) })
        for i in want.indices {
            // A contact still down when the recording stops has no lift row in the reference;
            // the importer closes it `cancelled` at the last report.
            if let last = want[i].samples.last, !last.phase.isLift { want[i].samples.append(TouchSample(t: last.t, x: last.x, y: last.y, phase: .cancelled)) }
        }
        var matchedStarts: [Double] = []
        for g in got {
            let match = want.firstIndex { w in
                w.samples.count == g.samples.count && zip(g.samples, w.samples).allSatisfy { a, b in
                    abs(a.t - b.t) < 2e-6 && a.x == b.x && a.y == b.y && a.phase == b.phase
                }
            }
            let i = try #require(match, "\(g.id) matches no reference contact")
            matchedStarts.append(try #require(starts[want.remove(at: i).id]))
        }
        #expect(matchedStarts == matchedStarts.sorted(), "\(file): contacts in touch-down order")
    }

    @Test func importedTracesValidate() throws {
        let got = try TraceImporter.importFile(TestData.path("getevent-raw/tablet-two-finger-drag.txt"), format: .getevent, mapping: ImportMapping(units: .scale(2)))
        let path = try TestData.temp(TraceWriter.csv(got.traces))
        let back = try TraceReader().read(path: path)
        #expect(back.traces == got.traces)
        #expect(got.traces.count >= 2)
    }

    @Test func evemuProtocolB() throws {
        let text = """
        # EVEMU 1.3
        E: 0.000001 0003 002f 0
        E: 0.000001 0003 0039 12
        E: 0.000001 0003 0035 100
        E: 0.000001 0003 0036 200
        E: 0.000001 0000 0000 0000
        E: 0.010000 0003 0036 220
        E: 0.010000 0000 0000 0000
        E: 0.020000 0003 0039 -1
        E: 0.020000 0000 0000 0000
        """
        let path = try TestData.temp(text, name: "pad.events")
        let traces = try TraceImporter.importFile(path, format: .evemu, mapping: ImportMapping(units: .scale(10))).traces
        #expect(traces.count == 1)
        #expect(traces[0].id == "pad-c000")
        #expect(traces[0].samples.map(\.phase) == [.began, .moved, .ended])
        #expect(traces[0].samples.map(\.y) == [20, 22, 22])
        #expect(abs(traces[0].samples[2].t - 0.019999) < 1e-12)
    }
}

@Suite struct TraceValidationTests {
    static let header = "trace,t,x,y,phase\n"

    func error(_ body: String) throws -> ToolError {
        let path = try TestData.temp(body)
        do {
            _ = try TraceReader().read(path: path)
        } catch let e as ToolError {
            #expect(e.message.hasPrefix(path + ":"), "names the file: \(e.message)")
            return e
        }
        Issue.record("no error for \(body)")
        return ToolError(.software, "")
    }

    @Test func nanAtLine3() throws {
        let e = try error(Self.header + "a,0,1,2,began\na,0.01,nan,2,moved\na,0.02,1,2,ended\n")
        #expect(e.code == .dataError)
        #expect(e.message.contains(":3:8:"), "\(e.message)")
    }

    @Test func timeGoingBackwards() throws {
        let e = try error(Self.header + "a,0,1,2,began\na,0.01,1,2,moved\na,0.005,1,2,ended\n")
        #expect(e.code == .dataError && e.message.contains(":4:3:"), "\(e.message)")
    }

    @Test func unterminatedQuote() throws {
        let e = try error(Self.header + "a,0,1,2,began\n\"a,0.01,1,2,ended\n")
        #expect(e.code == .dataError && e.message.contains(":3:1: unterminated quote"), "\(e.message)")
    }

    @Test func missingColumn() throws {
        let e = try error("trace,t,x,phase\na,0,1,began\n")
        #expect(e.code == .dataError && e.message.contains(":1:1: missing required column 'y'"), "\(e.message)")
    }

    @Test func notStartingWithBegan() throws {
        let e = try error(Self.header + "a,0,1,2,moved\na,0.01,1,2,ended\n")
        #expect(e.code == .dataError && e.message.contains(":2:9:") && e.message.contains("not began"), "\(e.message)")
    }

    @Test func badUTF8() throws {
        let path = try TestData.temp("")
        try Data(Array((Self.header + "a,0,1,2,began\n").utf8) + [0x61, 0xFF, 0x2C]).write(to: URL(fileURLWithPath: path))
        #expect(throws: ToolError.data(path, line: 3, column: 2, "invalid UTF-8 byte 0xff")) { try TraceReader().read(path: path) }
    }

    @Test func missingLiftRow() throws {
        let e = try error(Self.header + "a,0,1,2,began\na,0.01,1,2,moved\nb,0,1,2,began\nb,1,1,2,ended\n")
        #expect(e.message.contains(":4:1:") && e.message.contains("'a'"), "\(e.message)")
    }

    @Test func nonContiguousTrace() throws {
        let e = try error(Self.header + "a,0,1,2,began\na,1,1,2,ended\nb,0,1,2,began\nb,1,1,2,ended\na,2,1,2,began\na,3,1,2,ended\n")
        #expect(e.message.contains(":6:1:"), "\(e.message)")
    }

    @Test func skipInvalidDropsBadTracesAndSaysWhy() throws {
        let path = try TestData.temp(Self.header + "a,0,1,2,began\na,0.01,inf,2,moved\na,0.02,1,2,ended\nb,0,1,2,began\nb,0.5,1,2,up\nc,0,1,2,moved\nc,1,1,2,ended\n")
        let (traces, report) = try TraceReader(skipInvalid: true).read(path: path)
        #expect(traces.map(\.id) == ["b"])
        #expect(report.skipped.map(\.trace) == ["a", "c"])
        #expect(report.skipped[0].reason.contains("not finite"))
    }

    @Test func quotedFieldsAliasesAndUnknownColumns() throws {
        let path = try TestData.temp("trace,t,x,y,phase,pressure,intent\r\n\"a,1\",0,1,2,down,3,keep\r\n\"a,1\",0.5,1,2,up,3,keep\r\n")
        let (traces, report) = try TraceReader().read(path: path)
        #expect(traces == [Trace(id: "a,1", intent: .keep, samples: [TouchSample(t: 0, x: 1, y: 2, phase: .began), TouchSample(t: 0.5, x: 1, y: 2, phase: .ended)])])
        #expect(report.unknownColumns == ["pressure"])
        // And it round-trips through the writer.
        let again = try TraceReader().read(path: try TestData.temp(TraceWriter.csv(traces))).traces
        #expect(again == traces)
    }

    @Test func streamsLargeFilesAcrossChunkBoundaries() throws {
        var text = Self.header
        for i in 0..<4000 {
            text += "trace-\(i),0,1,2,began\n"
            for k in 1..<20 { text += "trace-\(i),\(Double(k) * 0.008),\(k),\(2 * k),moved\n" }
            text += "trace-\(i),0.2,1,2,ended\n"
        }
        #expect(text.utf8.count > 1 << 21)
        var count = 0
        try TraceReader().forEachTrace(path: try TestData.temp(text)) { t in
            #expect(t.samples.count == 21)
            count += 1
        }
        #expect(count == 4000)
    }
}

/// Device units to points (`--units-per-mm`, `--screen`, `--rotate`).
@Suite struct ImportMappingTests {
    let drag: [[TouchSample]] = [[TouchSample(t: 0, x: 1000, y: 500, phase: .began), TouchSample(t: 0.1, x: 1000, y: 1500, phase: .moved),
                                  TouchSample(t: 0.2, x: 1000, y: 1500, phase: .ended)]]

    @Test func rangesFromGeteventLpAndEvemuHeaders() {
        let lp = """
        add device 1: /dev/input/event2
          name:     "touchscreen"
          events:
            ABS (0003): ABS_MT_SLOT           : value 0, min 0, max 9, fuzz 0, flat 0, resolution 0
                        ABS_MT_POSITION_X     : value 0, min 0, max 1279, fuzz 0, flat 0, resolution 0
                        ABS_MT_POSITION_Y     : value 0, min 0, max 799, fuzz 0, flat 0, resolution 0
        """
        #expect(AxisRanges.parse(lp) == AxisRanges(xMin: 0, xMax: 1279, yMin: 0, yMax: 799))
        let evemu = "N: Pad\nA: 00 0 4095 0 0 0\nA: 01 0 2047 0 0 0\nA: 35 100 3100 0 0 12\nA: 36 0 2000 0 0 12\n"
        #expect(AxisRanges.parse(evemu) == AxisRanges(xMin: 100, xMax: 3100, yMin: 0, yMax: 2000))
        #expect(AxisRanges.parse("no ranges here") == nil)
    }

    @Test func screenMappingAndRotation() throws {
        let ranges = AxisRanges(xMin: 0, xMax: 2000, yMin: 0, yMax: 4000)
        let screen = try ImportMapping(units: .screen(width: 390, height: 844), ranges: ranges).apply(drag)[0]
        #expect(screen[0].x == 1000.0 / 2000 * 390 && screen[0].y == 500.0 / 4000 * 844)
        // A landscape panel turned 90° clockwise onto the same screen: down becomes left.
        let turned = try ImportMapping(units: .screen(width: 390, height: 844), rotation: 90, ranges: ranges).apply(drag)[0]
        #expect(turned[1].y == turned[0].y && turned[1].x < turned[0].x)
        #expect(abs((turned[0].x - turned[1].x) - 1000.0 / 4000 * 390) < 1e-12)
        // Every rotation keeps a drag's length in points.
        for r in [0, 90, 180, 270] {
            let s = try ImportMapping(units: .scale(2), rotation: r, ranges: ranges).apply(drag)[0]
            #expect(abs(hypot(s[1].x - s[0].x, s[1].y - s[0].y) - 500) < 1e-12, "rotation \(r)")
        }
        #expect(throws: ToolError.self) { try ImportMapping(units: .screen(width: 390, height: 844)).apply(drag) }
        #expect(throws: ToolError.self) { try ImportMapping(units: .scale(1), rotation: 45).validate() }
    }
}

/// The line reader the importers stream through, and the streaming trace writer.
@Suite struct StreamingTests {
    /// 3 MB of numbered lines of varying length: every line comes back whole and numbered,
    /// across the 1 MB chunk boundaries, with and without a final newline.
    @Test(arguments: [true, false]) func linesAcrossChunks(finalNewline: Bool) throws {
        var text = "", expected: [String] = []
        var i = 0
        while text.utf8.count < 3 << 20 {
            let line = "\(i) " + String(repeating: "x", count: (i * 7919) % 3000)
            expected.append(line)
            text += line + "\n"
            i += 1
        }
        if !finalNewline { text.removeLast() }
        let path = try TestData.temp(text, name: "lines.txt")
        var got: [String] = [], numbers: [Int] = []
        try LineReader.forEachLine(path: path) { line, n in got.append(String(line)); numbers.append(n) }
        #expect(got == expected)
        #expect(numbers == Array(1...expected.count))
    }

    @Test func overlongLineIsAnErrorAtItsLine() throws {
        let path = try TestData.temp("a\nb\n" + String(repeating: "y", count: LineReader.maxLineBytes + 10) + "\nc\n", name: "long.txt")
        do {
            try LineReader.forEachLine(path: path) { _, _ in }
            Issue.record("no error")
        } catch let error as ToolError {
            #expect(error.code == .dataError && error.message.contains("long.txt:3:1:"))
        }
    }

    /// The streaming writer gives the bytes of the in-memory text, past one 1 MB chunk.
    @Test func streamedTraceFileEqualsTheText() throws {
        var traces: [Trace] = []
        for n in 0..<400 {
            var samples: [TouchSample] = []
            for k in 0..<100 {
                let phase: TouchPhase = k == 0 ? .began : (k == 99 ? .ended : .moved)
                let x = Double(n) + Double(k) / 7
                samples.append(TouchSample(t: Double(k) / 120, x: x, y: Double(k) * 1.5, phase: phase))
            }
            traces.append(Trace(id: "t\(n)", intent: n % 3 == 0 ? .keep : nil, samples: samples))
        }
        let path = try TestData.temp("", name: "out.csv")
        try TraceWriter.write(traces, to: path)
        let text = TraceWriter.csv(traces)
        #expect(text.utf8.count > 1 << 20)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(text.utf8))
    }
}
