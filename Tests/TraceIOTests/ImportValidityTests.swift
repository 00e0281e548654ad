import Foundation
import SpringCore
import Testing
import ToolRuntime
@testable import TraceIO

/// Issue 27 item 11: every trace an importer returns is one `traces validate` accepts, over the
/// importers' fuzz corpus, the real recordings and hostile numbers.
@Suite struct ImportValidityTests {
    /// Imports `path` in every format and grouping; each result is written and read back.
    func importsValidate(_ path: String) throws {
        for format in TraceImporter.Format.allCases {
            for grouping in ContactGrouping.allCases {
                let traces: [Trace]
                do {
                    traces = try TraceImporter.importFile(path, format: format, mapping: ImportMapping(units: .scale(1)), grouping: grouping).traces
                } catch is ToolError { continue }
                for t in traces { #expect(TraceRules.problem(t) == nil, "\(path) \(format) \(grouping): \(t.id)") }
                let out = FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID().uuidString).csv").path
                defer { try? FileManager.default.removeItem(atPath: out) }
                try TraceWriter.write(traces, to: out)
                #expect(throws: Never.self, "\(path) \(format) \(grouping)") { _ = try TraceReader().read(path: out) }
            }
        }
    }

    static let corpus: [String] = {
        let root = TestData.root.deletingLastPathComponent().deletingLastPathComponent()
        let fuzz = root.appendingPathComponent("Fuzz/corpus").path
        var files = ((try? FileManager.default.contentsOfDirectory(atPath: fuzz)) ?? []).map { "\(fuzz)/\($0)" }
        for dir in ["getevent-raw", "monkeyhelper-getevent"] {
            files += ((try? FileManager.default.contentsOfDirectory(atPath: TestData.path(dir))) ?? []).filter { !$0.hasPrefix(".") }.map { TestData.path("\(dir)/\($0)") }
        }
        return files.sorted()
    }()

    @Test func corpusAndRecordingsImportValid() throws {
        #expect(Self.corpus.count >= 10)
        for path in Self.corpus { try importsValidate(path) }
    }

    /// The probe's reproducers: getevent 0x80000000, evemu 2^63, times 1e300 and −1e12.
    @Test(arguments: [
        "[ 1.000000] EV_ABS ABS_MT_TRACKING_ID 00000001\n[ 1.000000] EV_ABS ABS_MT_POSITION_X 80000000\n[ 1.000000] EV_ABS ABS_MT_POSITION_Y 00000010\n[ 1.000000] EV_SYN SYN_REPORT 00000000\n[ 1.100000] EV_ABS ABS_MT_TRACKING_ID ffffffff\n[ 1.100000] EV_SYN SYN_REPORT 00000000\n",
        "E: 1.000000 0003 0039 1\nE: 1.000000 0003 0035 9223372036854775807\nE: 1.000000 0003 0036 10\nE: 1.000000 0000 0000 0\nE: 1.100000 0003 0039 -1\nE: 1.100000 0000 0000 0\n",
        "E: 1e300 0003 0039 1\nE: 1e300 0003 0035 10\nE: 1e300 0003 0036 10\nE: 1e300 0000 0000 0\nE: 1e300 0003 0039 -1\nE: 1e300 0000 0000 0\n",
        "trace_id,t_seconds,x,y,phase\na,-1e12,1,1,down\na,1,1,1,up\n",
        "trace_id,t_seconds,x,y,phase\na,1e300,1,1,down\na,1e300,1,1,up\n",
    ])
    func hostileNumbersNeverImportInvalid(text: String) throws {
        try importsValidate(try TestData.temp(text, name: "hostile.txt"))
    }
}

/// Issue 27 item 14: an evemu recording of many contacts stays linear.
@Suite struct EvdevBoundsTests {
    /// `n` contacts of one sample each: lifted at once (slot 0 reused), or each left down in a
    /// slot of its own (what made every report repeat every contact).
    static func recording(_ n: Int, ownSlots: Bool) -> String {
        var out = "", t = 1.0
        for i in 0..<n {
            let ts = String(format: "%.6f", t)
            out += (ownSlots ? "E: \(ts) 0003 002f \(i)\n" : "") + "E: \(ts) 0003 0039 \(i)\nE: \(ts) 0003 0035 \(i % 1000)\nE: \(ts) 0003 0036 \(i % 700)\nE: \(ts) 0000 0000 0000\n"
            t += 0.00001
            if !ownSlots { out += "E: \(String(format: "%.6f", t)) 0003 0039 -1\nE: \(String(format: "%.6f", t)) 0000 0000 0000\n"; t += 0.00001 }
        }
        return out
    }

    /// Linear in what it returns, not in wall time (a timed test fails on a loaded machine): no
    /// report repeats a contact that is already lifted, so 30,000 one-sample contacts give
    /// 30,000 traces of at most a down and an up sample each, every one at its own time.
    @Test func manyOneSampleContactsImportInLinearSize() throws {
        let path = try TestData.temp(Self.recording(30_000, ownSlots: false), name: "many.evemu")
        let traces = try TraceImporter.importFile(path, format: .evemu, mapping: ImportMapping(units: .scale(1))).traces
        #expect(traces.count == 30_000)
        #expect(traces.allSatisfy { (1...2).contains($0.samples.count) })
        #expect(traces.reduce(0) { $0 + $1.samples.count } <= 60_000)
    }

    @Test func slotsBeyondTheFingerLimitAreRefused() throws {
        let path = try TestData.temp(Self.recording(100, ownSlots: true), name: "slots.evemu")
        do { _ = try TraceImporter.importFile(path, format: .evemu, mapping: ImportMapping(units: .scale(1))); Issue.record("imported") } catch let e as ToolError {
            #expect(e.code == .dataError && e.message.contains("more than 64 fingers down at once"))
        }
    }
}
