import Foundation
import SpringLayout
import ToolRuntime
import TraceIO
import Testing
@testable import SpringTune

/// Parameter domains (Reference §8.3) and the search's box and runs (§13).
@Suite struct SearchTests {
    /// Every parameter of every model in the registry has a domain; its ends (or words) are
    /// values the engine accepts; a log range starts above 0. Scene values have none.
    @Test func everyModelParameterHasADomainTheEngineAccepts() {
        for kind in ModelKind.all {
            for spec in kind.parameters {
                guard let domain = spec.domain else { Issue.record("\(kind.name).\(spec.name) has no domain"); continue }
                switch domain.values {
                case let .range(lo, hi, isLog):
                    #expect(lo < hi, "\(kind.name).\(spec.name)")
                    #expect(!isLog || lo > 0, "\(kind.name).\(spec.name)")
                    #expect(spec.check(.number(lo)) == nil && spec.check(.number(hi)) == nil, "\(kind.name).\(spec.name)")
                case let .words(words):
                    #expect(words.allSatisfy { spec.check(.text($0)) == nil }, "\(kind.name).\(spec.name)")
                }
            }
        }
        #expect(Scene.sweepable.allSatisfy { $0.domain == nil })
    }

    /// The box: the preset's sweep ranges by default; `--free NAME` spans its domain, `=FROM:TO` a
    /// range, `all` every tuning parameter; `--set` removes a dimension; bad names and ranges are 64.
    @Test func boxFromPresetAndFreeOptions() throws {
        let loaded = try PresetStore().load("tweetbot")
        let box = try SearchBox(loaded)
        #expect(box.dimensions.map(\.name) == ["distanceThreshold", "flickVelocity", "maxFlickAngle", "snapDamping"])
        let freed = try SearchBox(loaded, free: [.parameter("snapFrequency", range: nil)], set: ["maxFlickAngle": .number(45)])
        #expect(freed.dimensions.map(\.name) == ["distanceThreshold", "flickVelocity", "snapDamping", "snapFrequency"])
        #expect(freed.dimensions.last?.extent == .numbers(min: 0.2, max: 20, log: true))
        #expect(freed.base["maxFlickAngle"] == .number(45))
        let all = try SearchBox(loaded, free: [.all])
        #expect(!all.dimensions.contains { $0.name == "cardWidth" })
        #expect(all.dimensions.contains { $0.name == "velocityScale" })
        for bad in ["nope", "frameRate", "snapFrequency=0.01:3"] {
            #expect(throws: ToolError.self) { try SearchBox(loaded, free: [try SearchBox.Free(parsing: bad)]) }
        }
        // A unit point's row reads back to the same point.
        let x = [0.25, 0.5, 0.75, 0.1]
        let back = try #require(box.point(box.row(x)))
        #expect(zip(back, x).allSatisfy { abs($0 - $1) < 1e-9 })
    }

    /// A preset's `search` box is read strictly: a range outside the domain is refused with its path.
    @Test func presetSearchBoxIsChecked() throws {
        let path = try #require(PresetStore().presetsDirectory).appendingPathComponent("tweetbot.json").path
        var json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! [String: Any]
        json["search"] = [["name": "snapFrequency", "from": 1, "to": 6]]
        let ok = try Preset.decode(JSONSerialization.data(withJSONObject: json), models: ModelKind.registry)
        #expect(ok.search == [SearchRange(name: "snapFrequency", from: 1, to: 6)])
        json["search"] = [["name": "snapFrequency", "from": 1, "to": 60]]
        #expect(throws: PresetError.self) { try Preset.decode(JSONSerialization.data(withJSONObject: json), models: ModelKind.registry) }
    }

    /// The same search with 1 and 2 threads gives the same rows; the rows' values are the
    /// sweep's for the same sets (one measurement); the chosen set is feasible.
    @Test func searchIsDeterministicAndMeasuresAsASweep() throws {
        let loaded = try PresetStore().load("clear")
        var reports: [SweepReport] = []
        for threads in [1, 2] {
            let out = FileManager.default.temporaryDirectory.appendingPathComponent("search-test-\(threads)-\(UUID())").path
            defer { try? FileManager.default.removeItem(atPath: out) }
            var job = SearchJob(loaded: loaded, outputDirectory: out)
            job.budget = 16; job.seed = 2; job.threads = threads; job.charts = false
            let o = try job.run()
            #expect(o.table.rows.count == 16)
            reports.append(o.table)
        }
        #expect(reports[0].csv() == reports[1].csv())
        let row = reports[0].rows[9]
        var grid = try SweepGrid.make(preset: loaded.preset, kind: loaded.kind, vary: [], set: reports[0].values(of: row))
        grid.notes = []
        let traces = try TraceSource(files: PresetStore.traceFiles(for: loaded), kind: loaded.kind, skipInvalid: false, scene: loaded.preset.scene)
        let swept = try SweepRunner(kind: loaded.kind, scene: loaded.preset.scene, sets: grid, threads: 1).run(traces)
        #expect(SweepReport.Row(swept[0], kind: loaded.kind).values == Array(row.values.dropLast()))
    }
}
