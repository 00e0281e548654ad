import Foundation
import Testing
@testable import SpringLayout
@testable import SpringTune
import ToolRuntime
import TraceIO

enum Fixture {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let store = PresetStore(environment: ["SPRINGTUNE_PRESETS": repo.appendingPathComponent("Presets").path])

    static func tempDir() -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("springtune-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// A small sweep of a bundled preset (charts off: tests must not depend on gnuplot).
    static func sweep(_ preset: String, vary: [String], set: [String: ParamValue] = [:], threads: Int, out: String,
                      shard: (Int, Int)? = nil, perTrace: Bool = false, blockSamples: Int = TraceSource.defaultBlockSamples) throws -> SweepJob.Outcome {
        var job = SweepJob(loaded: try store.load(preset), outputDirectory: out)
        job.vary = try vary.map(SweepGrid.parseVary)
        job.set = set
        job.threads = threads
        job.charts = false
        job.shard = shard
        job.perTrace = perTrace
        job.blockSamples = blockSamples
        return try job.run()
    }
}

@Suite struct SweepTests {
    @Test func identicalBytesForAnyThreadCount() throws {
        let a = Fixture.tempDir(), b = Fixture.tempDir()
        _ = try Fixture.sweep("evernote", vary: ["damping=0.5,0.8,1.1", "frequency=0.7:3:4:log"], threads: 1, out: a, perTrace: true)
        _ = try Fixture.sweep("evernote", vary: ["damping=0.5,0.8,1.1", "frequency=0.7:3:4:log"], threads: 2, out: b, perTrace: true)
        let ra = try Data(contentsOf: URL(fileURLWithPath: "\(a)/report.csv")), rb = try Data(contentsOf: URL(fileURLWithPath: "\(b)/report.csv"))
        #expect(ra == rb)
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(a)/per-trace.csv")) == Data(contentsOf: URL(fileURLWithPath: "\(b)/per-trace.csv")))
        let table = try SweepReport.read("\(a)/report.csv")
        // The preset's 5 boundaryResistance values × 3 × 4.
        #expect(table.rows.count == 60)
        #expect(table.columns.prefix(6) == ["config_id", "boundaryResistance", "damping", "frequency", "traces", "unsettled"])
    }

    /// Traces streamed in blocks of a few traces (each pass re-reading the files) give
    /// the bytes of traces held in memory, for a list model and a deciding model.
    @Test(arguments: ["evernote", "evernote-transition"]) func streamedTracesGiveTheSameBytes(preset: String) throws {
        let a = Fixture.tempDir(), b = Fixture.tempDir()
        let vary = preset == "evernote" ? ["damping=0.5,1.1", "frequency=1,2"] : ["finishVelocity=0,300"]
        let set: [String: ParamValue] = preset == "evernote" ? [:] : ["completionCurve": .text("spring"), "finishProgress": .number(0.7)]
        _ = try Fixture.sweep(preset, vary: vary, set: set, threads: 2, out: a, perTrace: true)
        let streamed = try Fixture.sweep(preset, vary: vary, set: set, threads: 2, out: b, perTrace: true, blockSamples: 3000)
        #expect(streamed.traces > 10)
        for file in ["report.csv", "per-trace.csv"] {
            #expect(try Data(contentsOf: URL(fileURLWithPath: "\(a)/\(file)")) == Data(contentsOf: URL(fileURLWithPath: "\(b)/\(file)")))
        }
    }

    /// A trace file rewritten after its first read (same size, new time) is refused on the next
    /// pass: its digest would no longer describe what ran.
    @Test func traceFileChangedMidRunIsRefused() throws {
        let src = Fixture.repo.appendingPathComponent("Sources/SpringTune/Resources/Traces/default/galaxy-drags.csv").path
        let path = Fixture.tempDir() + "/t.csv"
        try FileManager.default.copyItem(atPath: src, toPath: path)
        let kind = try #require(ModelKind.all.first { $0.name == "flow-layout" })
        let source = try TraceSource(files: [path], kind: kind, skipInvalid: false, scene: Scene(), blockSamples: 1000)
        #expect(!source.isResident)
        try source.forEachBlock { _ in }
        let later = Date().addingTimeInterval(5)
        try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: path)
        #expect(throws: ToolError.self) { try source.forEachBlock { _ in } }
        #expect(throws: ToolError.self) { try source.checkUnchanged() }
    }

    /// A checkpoint block counts only when it holds exactly its sets, in order; read back on
    /// resume, the blocks give the rows that were saved.
    @Test func shortCheckpointBlockIsRunAgain() throws {
        let target = Fixture.tempDir()
        let schema = SweepReport(path: "r", axes: [SweepAxis(name: "p", values: (0..<200).map(Double.init))],
                                 specs: [ReportColumns.traces, ReportColumns.unsettled], rows: [])
        func rows(_ ids: Range<Int>) -> [SweepReport.Row] {
            ids.map { SweepReport.Row(configId: $0, parameters: [.number(Double($0))], values: [.value(3), $0 % 2 == 0 ? .undefined : .neverSettled]) }
        }
        var checkpoint = try Checkpoint(target: target, key: "k", configs: 200, schema: schema, resume: false)
        let blocks = checkpoint.blocks(of: 0..<200)
        #expect(blocks == [0..<64, 64..<128, 128..<192, 192..<200])
        try checkpoint.save(rows(0..<64), perTrace: "0,a\n")
        try checkpoint.save(rows(64..<100), perTrace: nil)
        try checkpoint.save(rows(129..<193), perTrace: nil)
        #expect(checkpoint.finished(0..<64) == rows(0..<64))
        #expect(checkpoint.finished(64..<128) == nil)
        #expect(checkpoint.finished(128..<192) == nil)
        #expect(checkpoint.finished(192..<200) == nil)
        #expect(try checkpoint.perTrace(of: 0) == Data("0,a\n".utf8))
        // Resumed: the same blocks, decoded from their files.
        let resumed = try Checkpoint(target: target, key: "k", configs: 200, schema: schema, resume: true)
        #expect(resumed.finished(0..<64) == rows(0..<64))
        #expect(resumed.finished(64..<128) == nil)
        // A sweep with other columns does not take them.
        var other = schema
        other.specs = [ReportColumns.traces]
        #expect(try Checkpoint(target: target, key: "k", configs: 200, schema: other, resume: true).finished(0..<64) == nil)
    }

    /// The traces worth animating are picked in one pass as a full scan would pick them.
    @Test func representativeTracesInOnePass() throws {
        var picker = RepresentativeTraces(estimator: .lsq2)
        let traces = try TraceReader().read(path: Fixture.repo.appendingPathComponent("Sources/SpringTune/Resources/Traces/default/galaxy-drags.csv").path).traces
        traces.forEach { picker.consider($0) }
        let stats = traces.map { TraceStats(file: "", trace: $0, estimator: .lsq2) }
        let fastest = stats.indices.max { stats[$0].release.magnitude < stats[$1].release.magnitude }!
        #expect(picker.picks.first?.trace.id == traces[fastest].id)
        #expect(Set(picker.picks.map(\.trace.id)).count == picker.picks.count)
        // A trace leading two kinds leaves the later kind its runner-up: three picks.
        #expect(picker.picks.count == min(3, traces.count))
    }

    @Test func shardsMergeIntoTheSameBytes() throws {
        let whole = Fixture.tempDir()
        _ = try Fixture.sweep("messages", vary: ["scrollResistance=800,1600", "damping=0.6,0.9", "frequency=1,2"], threads: 2, out: whole)
        var parts: [String] = []
        for i in 1...3 {
            let dir = Fixture.tempDir()
            _ = try Fixture.sweep("messages", vary: ["scrollResistance=800,1600", "damping=0.6,0.9", "frequency=1,2"], threads: 1, out: dir, shard: (i, 3))
            parts.append("\(dir)/report.csv")
        }
        let merged = try Export.merge(parts.reversed())
        #expect(merged.csv() == String(decoding: try Data(contentsOf: URL(fileURLWithPath: "\(whole)/report.csv")), as: UTF8.self))
        #expect(merged.meta?.missing == nil && merged.meta?.shard == nil)
        // Shards 1 and 3 of 3 leave a gap: refused, or merged with the gap recorded.
        #expect(throws: ToolError.self) { try Export.merge([parts[0], parts[2]]) }
        let partial = try Export.merge([parts[0], parts[2]], allowPartial: true)
        #expect(partial.meta?.missing == Array(2..<5))
        // A shard of another grid is refused.
        let other = Fixture.tempDir()
        _ = try Fixture.sweep("messages", vary: ["scrollResistance=800,1600", "damping=0.6,0.9", "frequency=1,3"], threads: 1, out: other, shard: (2, 3))
        #expect(throws: ToolError.self) { try Export.merge([parts[0], "\(other)/report.csv", parts[2]]) }
    }

    @Test func compareFlagsADeliberatelyWorseReport() throws {
        let good = Fixture.tempDir(), bad = Fixture.tempDir()
        _ = try Fixture.sweep("evernote", vary: ["damping=0.7,1", "frequency=1,2", "boundaryResistance=10"], threads: 2, out: good)
        // Same grid, but a four times slower bounce back from the edge: everything settles later.
        _ = try Fixture.sweep("evernote", vary: ["damping=0.7,1", "frequency=1,2", "boundaryResistance=10"],
                              set: ["bounceStiffness": .number(6.25)], threads: 2, out: bad)
        let a = try SweepReport.read("\(good)/report.csv"), b = try SweepReport.read("\(bad)/report.csv")
        let worse = try Comparison(a, b, metrics: ["settle_time_p95"], tolerances: [Tolerance(.relative(0.05))])
        #expect(worse.matched == 4)
        #expect(worse.summaries[0].worse == 4)
        let same = try Comparison(a, a, metrics: nil, tolerances: [Tolerance(.relative(0))])
        #expect(same.regressions == 0)
        let better = try Comparison(b, a, metrics: ["settle_time_p95"], tolerances: [Tolerance(.relative(0.05))])
        #expect(better.regressions == 0 && better.summaries[0].better == 4)
    }

    @Test func exportBestSweepsAgain() throws {
        let dir = Fixture.tempDir()
        let outcome = try Fixture.sweep("evernote", vary: ["damping=0.6,0.9,1.2", "frequency=1,2.5", "boundaryResistance=8,16"], threads: 2, out: dir)
        let preset = try Export.preset(report: outcome.report, configId: nil, keepSweep: true)
        let file = "\(dir)/best.json"
        try AtomicFile.write(try JSONCoding.encode(preset), to: file)
        // The file decodes strictly and carries the chosen row.
        let decoded = try Preset.decode(try Data(contentsOf: URL(fileURLWithPath: file)))
        let ranking = try Ranking(objective: decoded.objective)
        let best = try #require(try ranking.rank(outcome.table).first)
        #expect(decoded.provenance?.configId == best.configId)
        #expect(decoded.provenance?.sha256 == (try SHA256.file(outcome.report)))
        #expect(.number(decoded.spring.damping) == best.parameters[1])
        // The meta is one typed document: it decodes back to what the sweep ran.
        let meta = try ReportMeta.read(forReport: outcome.report)
        #expect(meta.preset.name == "evernote" && meta.axes.map(\.name) == ["boundaryResistance", "damping", "frequency"])
        #expect(meta.configs == 12 && meta.configIds == [0, 11] && meta.traces.map(\.traces) == [19, 11])
        // Provenance keeps `inf` (a set whose slowest trace never settles) as the string "inf".
        var withInf = decoded
        withInf.provenance?.metrics["settle_time_max"] = .infinity
        let text = try JSONCoding.encode(withInf)
        #expect(text.contains("\"settle_time_max\" : \"inf\""))
        #expect(try Preset.decode(Data(text.utf8)).provenance?.metrics["settle_time_max"] == .some(.infinity))
        // …and sweeps again.
        var job = SweepJob(loaded: try Fixture.store.load(file), outputDirectory: Fixture.tempDir())
        job.charts = false
        let again = try job.run()
        #expect(again.configs == 12)
        // Its kept axes override the values it states: one note each.
        #expect(again.grid.notes.count == 3 && again.grid.notes.allSatisfy { $0.hasPrefix("the preset sets ") })
        // Its own best set reproduces the exported metrics.
        let row = try #require(again.table.rows.first { $0.configId == best.configId })
        #expect(row == best)
        // Pinned (the default), it sweeps to exactly the set it ships: one row, no parameter columns, the same metrics.
        let pinned = try Export.preset(report: outcome.report, configId: nil)
        #expect(pinned.sweep.isEmpty)
        try AtomicFile.write(try JSONCoding.encode(pinned), to: file)
        var one = SweepJob(loaded: try Fixture.store.load(file), outputDirectory: Fixture.tempDir())
        one.charts = false
        let shipped = try one.run()
        #expect(shipped.configs == 1 && shipped.table.parameterColumns.isEmpty && shipped.grid.notes.isEmpty)
        #expect(shipped.table.rows.map(\.values) == [best.values])
    }

    @Test func badPresetsNameTheKeyPath() throws {
        let text = try String(contentsOf: Fixture.repo.appendingPathComponent("Presets/evernote.json"), encoding: .utf8)
        func error(_ edit: (String) -> String) -> String {
            do { _ = try Preset.decode(Data(edit(text).utf8), models: ModelKind.registry); return "" } catch { return error.description }
        }
        #expect(error { $0.replacingOccurrences(of: "\"damping\": 1 }", with: "\"damping\": -1 }") }.hasPrefix("spring.damping:"))
        #expect(error { $0.replacingOccurrences(of: "\"tail\": 5", with: "\"tail\": 5, \"colour\": 1") }.hasPrefix("scene.colour: unknown key"))
        #expect(error { $0.replacingOccurrences(of: "\"steps\": 15, \"spacing\": \"linear\"", with: "\"steps\": \"15\"") }.hasPrefix("sweep[1].steps"))
        #expect(error { $0.replacingOccurrences(of: "\"frameRate\": 120", with: "\"frameRate\": 0") }.hasPrefix("scene.frameRate:"))
        #expect(error { $0.replacingOccurrences(of: "\"boundaryResistance\": 10,", with: "\"boundaryResistance\": -1,") }
            .hasPrefix("params.boundaryResistance:"))
        #expect(error { $0.replacingOccurrences(of: "\"itemCount\": 30,", with: "\"itemCount\": 30, \"rowColour\": 3,") }
            .hasPrefix("params.rowColour: unknown parameter"))
        #expect(error { $0.replacingOccurrences(of: "\"itemCount\": 30,", with: "\"itemCount\": 30, \"damping\": 3,") }
            .hasPrefix("params.damping: belongs in the spring block"))
        #expect(error { $0.replacingOccurrences(of: "{ \"name\": \"boundaryResistance\"", with: "{ \"name\": \"stiffness\"") }
            .hasPrefix("sweep[0].name:"))
        #expect(error { $0.replacingOccurrences(of: "\"model\": \"flow-layout\"", with: "\"model\": \"carousel\"") }
            .hasPrefix("model: unknown model"))
        // A plain JSONDecoder (what an app uses) sees the same errors.
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Preset.self, from: Data(text.replacingOccurrences(of: "\"gravity\"", with: "\"g\"").replacingOccurrences(of: "\"tail\": 5", with: "\"tail\": -5").utf8))
        }
        #expect(throws: ToolError.self) {
            try SweepGrid.make(preset: try Preset.decode(Data(text.utf8)), kind: ModelKind(type: FlowLayout.self),
                               vary: [SweepAxis(name: "damping", values: [-1])], set: [:])
        }
    }
}

@Suite struct AggregationTests {
    @Test func nearestRankP95() {
        let v = (1...20).map(Double.init)
        let s = Aggregate.summary(v)
        #expect(s.p95 == 19 && s.max == 20 && s.mean == 10.5)
        #expect(Aggregate.summary([3]).p95 == 3)
        #expect(Aggregate.summary(Array(1...21).map(Double.init)).p95 == 20)
        #expect(Aggregate.summary([]).mean == nil)
    }

    /// Reference §8: a never-settled trace is +∞ in `_p95` and `_max`; `_mean` is over the settled ones.
    @Test func unsettledTracesAreInfiniteInP95AndMax() {
        let s = Aggregate.summary([1, 2, .infinity])
        #expect(s.mean == 1.5 && s.p95 == .infinity && s.max == .infinity)
        let all = Aggregate.summary([.infinity])
        #expect(all.mean == nil && all.p95 == .infinity)
        #expect(Aggregate.summary((1...40).map(Double.init) + [.infinity]).p95 == 39)
    }

    @Test func decisionRates() {
        let labels = DecisionLabels(positive: .dismiss, negative: .keep)
        let d = DecisionRates(decisions: [.dismiss, .keep, .dismiss, .keep, .dismiss, .keep],
                              intents: [.dismiss, .dismiss, .keep, .keep, nil, .create], labels: labels)
        #expect(d.accuracy == 0.5 && d.falseRate == 0.5 && d.missedRate == 0.5)   // `create` is not this model's label
    }

    @Test func sha256KnownVectors() {
        #expect(SHA256.hex(Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(Data(String(repeating: "a", count: 1000).utf8)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
        // FIPS 180-2 appendix B.2 and B.3, the second fed in uneven pieces and from a file in chunks.
        #expect(SHA256.hex(Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        var hasher = SHA256.Hasher()
        var left = 1_000_000, piece = 1
        while left > 0 { let n = min(piece, left); hasher.update(repeatElement(UInt8(ascii: "a"), count: n)); left -= n; piece = piece * 3 + 1 }
        let million = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        #expect(hasher.finalize() == million)
        let path = Fixture.tempDir() + "/a.bin"
        try? Data(repeating: UInt8(ascii: "a"), count: 1_000_000).write(to: URL(fileURLWithPath: path))
        #expect((try? SHA256.file(path)) == million)
    }

    @Test func constraintsAndParetoFront() throws {
        let t = try Fixture.report(["config_id", "p", "traces", "a", "b"],
                                   [["0", "1", "3", "1", "5"], ["1", "2", "3", "2", "2"], ["2", "3", "3", "3", "3"], ["3", "4", "3", "", "1"]])
        let r = Ranking(constraints: [try Constraint(parsing: "b<=4")], column: "a", maximize: false)
        #expect(try r.rank(t).map(\.configId) == [1, 2, 3])
        #expect(try Ranking.paretoFront(t, rows: t.rows, columns: ["a", "b"]).map(\.configId) == [0, 1])
        #expect(throws: ToolError.self) { try Constraint(parsing: "a ~ 3") }
    }
}

/// `compare` reads directions from the metric specs (Reference §8), never from column names.
@Suite struct CompareDirectionTests {
    func table(_ accuracy: String, _ falseRate: String, _ stretch: String) throws -> SweepReport {
        try Fixture.report(["config_id", "flickVelocity", "traces", "dismiss_accuracy", "false_dismiss_rate", "peak_stretch_pt_p95"],
                           [["0", "800", "10", accuracy, falseRate, stretch]])
    }

    @Test func higherAccuracyIsBetterAndHigherFalseRateIsWorse() throws {
        let a = try table("0.8", "0.1", "20")
        let better = try Comparison(a, try table("0.9", "0.1", "20"), metrics: nil, tolerances: [Tolerance(.relative(0.01))])
        #expect(better.regressions == 0)
        #expect(better.summaries.first { $0.metric == "dismiss_accuracy" }?.better == 1)
        let worse = try Comparison(a, try table("0.8", "0.2", "20"), metrics: nil, tolerances: [Tolerance(.relative(0.01))])
        #expect(worse.regressions == 1)
        #expect(worse.summaries.first { $0.metric == "false_dismiss_rate" }?.worse == 1)
        // A column with no better side is reported as changed, never as a regression.
        let stretched = try Comparison(a, try table("0.8", "0.1", "5"), metrics: nil, tolerances: [Tolerance(.relative(0.01))])
        #expect(stretched.regressions == 0 && stretched.csv.contains("peak_stretch_pt_p95,20,5,-15,-0.75,changed"))
    }

    @Test func neverSettlingIsWorse() {
        #expect(Comparison.verdict(a: 1.2, b: .infinity, better: .lower, margin: 0.012) == .worse)
        #expect(Comparison.verdict(a: .infinity, b: 1.2, better: .lower, margin: 0.012) == .better)
        #expect(Comparison.verdict(a: .infinity, b: .infinity, better: .lower, margin: 0.012) == .same)
        #expect(Comparison.verdict(a: 1, b: 1.005, better: .lower, margin: 0.01) == .same)
    }

    @Test func everyModelsColumnsHaveSpecs() throws {
        for kind in ModelKind.all {
            for column in SweepReport(path: "", kind: kind, axes: []).columns.dropFirst() {
                #expect(ReportColumns.spec(column) != nil, "\(kind.name): \(column)")
            }
        }
        #expect(ReportColumns.spec("dismiss_accuracy")?.better == .higher)
        #expect(ReportColumns.spec("create_accuracy")?.better == .higher)
        #expect(ReportColumns.spec("missed_create_rate")?.better == .lower)
        #expect(ReportColumns.spec("settle_time_p95")?.unit == "s")
        #expect(ReportColumns.spec("peak_stretch_pt_max")?.better == MetricSpec.Better.none)
    }
}
