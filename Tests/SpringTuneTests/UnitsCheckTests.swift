import Foundation
import SpringCore
import SpringLayout
import Testing
@testable import SpringTune
import TraceIO

@Suite struct UnitsCheckTests {
    static let raw = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Data/getevent-raw").path

    func warning(_ traces: [Trace]) -> String? {
        var check = UnitsCheck(scene: Scene())
        traces.forEach { check.consider($0) }
        return check.warning(file: "f.csv")
    }

    func tablet(scale: Double) throws -> [Trace] {
        try TraceImporter.importFile("\(Self.raw)/tablet-single-drag.txt", format: .getevent, mapping: ImportMapping(units: .scale(scale))).traces
    }

    /// The TF201 tablet's drag reaches x = 1455 units: off a 390 pt screen at scale 1, on it at 2.5.
    @Test func deviceUnitsReadAsPoints() throws {
        let w = try #require(warning(try tablet(scale: 1)))
        #expect(w.hasPrefix("warning: f.csv: 78 of 78 samples lie beyond 2× the 390×844 pt screen"))
        #expect(w.contains("--scale") && w.contains("--units-per-mm") && !w.contains("\n"))
        #expect(warning(try tablet(scale: 2.5)) == nil)
    }

    /// Times a thousand times too long (milliseconds read as seconds) and too short.
    @Test func timesInTheWrongUnit() throws {
        let drag = try tablet(scale: 2.5)[0]
        func stretched(_ k: Double) -> Trace {
            var t = drag
            for i in t.samples.indices { t.samples[i].t *= k }
            return t
        }
        #expect(try #require(warning([stretched(1000)])).contains("--time-unit ms"))
        let fast = try #require(warning([stretched(0.001)]))
        #expect(fast.contains("release speeds reach") && fast.contains("--time-unit"))
    }

    /// Half the samples off the screen is not yet a warning (sets place some gestures there).
    @Test func aMinorityOffScreenIsFine() {
        func trace(_ id: String, x: Double) -> Trace {
            Trace(id: id, samples: [TouchSample(t: 0, x: x, y: 100, phase: .began), TouchSample(t: 0.1, x: x, y: 110, phase: .ended)])
        }
        #expect(warning([trace("a", x: 100), trace("b", x: 1000)]) == nil)
        #expect(warning([trace("a", x: 100), trace("b", x: 1000), trace("c", x: -1000)]) != nil)
    }
}

@Suite struct CarriedSidecarTests {
    /// Two imports at different scales filtered into one file: both sources, each mapping, the step.
    @Test func joinsInputsAndAppendsTheStep() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("springtune-carry-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var paths: [String] = []
        for (name, scale) in [("a", 2.0), ("b", 2.5)] {
            let path = "\(dir)/\(name).csv"
            let (traces, summary, _) = try TraceImporter.importFile("\(UnitsCheckTests.raw)/tablet-single-drag.txt", format: .getevent,
                                                                    mapping: ImportMapping(units: .scale(scale)))
            try TraceWriter.write(traces, to: path)
            let meta = ImportMeta(mapping: ImportMapping(units: .scale(scale)), deviceInfo: nil, grouping: .contacts, sources: [summary])
            try JSONEncoder().encode(meta).write(to: URL(fileURLWithPath: ImportMeta.path(for: path)))
            paths.append(path)
        }
        let step = try TraceStep(command: "traces filter", files: paths + ["\(dir)/a.csv"], criteria: ["min-travel 40 pt"], traces: 3, changed: 1)
        let carried = try #require(ImportMeta.carried(by: step))
        #expect(carried.sources.count == 3)
        #expect(carried.mapping == "2 units per pt; 2.5 units per pt; 2 units per pt")
        #expect(carried.scale == nil)
        #expect(carried.steps == [step])
        #expect(step.inputs[0].sha256 == (try SHA256.file(paths[0])))
        let none = try TraceStep(command: "traces label", files: ["\(UnitsCheckTests.raw)/tablet-single-drag.txt"], criteria: [], traces: 1, changed: 1)
        #expect(ImportMeta.carried(by: none) == nil)
    }
}
