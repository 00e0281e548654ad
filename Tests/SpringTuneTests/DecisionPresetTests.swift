import Foundation
import SpringCore
import Testing
@testable import SpringLayout
@testable import SpringTune
import TraceIO

@Suite struct DecisionPresetTests {
    /// Every bundled preset of a model that decides.
    static let decidingPresets = ((try? Fixture.store.names()) ?? []).filter { (try? Fixture.store.load($0).kind.decisionLabels.isEmpty) == false }

    /// Every registered model has a bundled preset (so the preset suites cover it), and every
    /// bundled preset loads.
    @Test func everyModelHasABundledPreset() throws {
        let models = try Fixture.store.names().map { try Fixture.store.load($0).kind.name }
        #expect(Set(models) == Set(ModelKind.names))
        #expect(Set(Self.decidingPresets.map { try! Fixture.store.load($0).kind.name }) == Set(ModelKind.all.filter { !$0.decisionLabels.isEmpty }.map(\.name)))
    }

    @Test(arguments: decidingPresets)
    func defaultGridDiscriminates(preset: String) throws {
        let dir = Fixture.tempDir()
        let loaded = try Fixture.store.load(preset)
        var job = SweepJob(loaded: loaded, outputDirectory: dir)
        job.charts = false
        job.perTrace = true
        let outcome = try job.run()
        #expect((50...5000).contains(outcome.configs))
        #expect(outcome.traces >= 30)
        let table = outcome.table
        // The preset's decision is the one whose accuracy column is filled (pinch-fold has two).
        let word = try #require(loaded.kind.decisionLabels.map(\.word).first { word in
            guard let i = try? table.index(of: "\(word)_accuracy") else { return false }
            return table.rows.allSatisfy { table.number($0, i) != nil }
        })
        let accuracy = try table.index(of: "\(word)_accuracy")
        let values = table.rows.map { table.number($0, accuracy)! }
        #expect(values.allSatisfy { (0...1).contains($0) })
        #expect(Set(values).count > 1, "accuracy varies across the grid")
        for column in ["false_\(word)_rate", "missed_\(word)_rate"] {
            let i = try table.index(of: column)
            #expect(table.rows.allSatisfy { (0...1).contains(table.number($0, i)!) })
        }
        // Both labels are present in the bundled set, and per-trace rows carry intent and decision.
        let perTrace = try String(contentsOfFile: "\(dir)/per-trace.csv", encoding: .utf8)
        let header = perTrace.prefix { $0 != "\n" }
        #expect(header.contains(",trace,intent,decision,"))
        let intents = Set(perTrace.split(separator: "\n").dropFirst().prefix(outcome.traces).map { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { String($0[table.parameterColumns.count + 2]) })
        #expect(intents.count == 2)
    }

    @Test func replaySummaryHasDecisionAndDecisionTime() throws {
        let loaded = try Fixture.store.load("appstore")
        let trace = try TraceReader().read(path: PresetStore.traceFiles(for: loaded)[0]).traces[0]
        let outcome = try Replay.run(loaded, set: [:], trace: trace)
        let text = outcome.summary.rendered()
        #expect(text.contains("\"decision\": \"dismiss\"") || text.contains("\"decision\": \"keep\""))
        #expect(text.contains("\"decision_time\": "))
        #expect(outcome.timeline.hasPrefix("t,item,y,anchor,velocity\n"))
    }

    /// A one-finger model reads the pointer that began first and says so once per file.
    @Test func oneFingerModelsUseTheFirstPointerAndSaySo() throws {
        let pinches = PresetStore.traceFiles(for: try Fixture.store.load("clear-pinch"))[0]
        var job = SweepJob(loaded: try Fixture.store.load("clear"), outputDirectory: Fixture.tempDir())
        job.traceFiles = [pinches]
        job.vary = try ["commitFraction=0.75", "frequency=2.5", "damping=0.8"].map(SweepGrid.parseVary)
        job.charts = false
        let outcome = try job.run()
        #expect(outcome.notes.count == 1)
        #expect(outcome.notes[0].contains("of 62 traces have several pointers; pull-to-create uses the pointer that began first"))
        let trace = try TraceReader().read(path: pinches).traces.first { $0.isMultiPointer }!
        #expect(ModelKind(type: PullToCreate.self).input(trace).samples.allSatisfy { $0.pointer == trace.samples[0].pointer })
        #expect(ModelKind(type: PinchFold.self).input(trace) == trace)
    }

    @Test(arguments: ["clear-pinch", "clear-fold", "evernote-transition"])
    func replaySummaryOfTheGestureModels(preset: String) throws {
        let loaded = try Fixture.store.load(preset)
        let traces = try TraceReader().read(path: PresetStore.traceFiles(for: loaded)[0]).traces
        // A trace that moved: a pinch with two pointers, an edge pan that began at the edge.
        let trace = try #require(traces.first { preset == "evernote-transition" ? $0.samples[0].x <= 20 : $0.isMultiPointer })
        let text = try Replay.run(loaded, set: [:], trace: trace).summary.rendered()
        #expect(text.contains("\"decision\": \""))
        if preset == "evernote-transition" { #expect(text.contains("\"velocity_jump\": ")) }
    }
}

@Suite struct SynthesizerTests {
    @Test func sameSeedSameBytes() {
        for kind in Synthesizer.Kind.allCases {
            let a = TraceWriter.csv(Synthesizer(kind: kind, seed: 42).traces(count: 5), synthetic: true)
            #expect(a == TraceWriter.csv(Synthesizer(kind: kind, seed: 42).traces(count: 5), synthetic: true))
            #expect(a != TraceWriter.csv(Synthesizer(kind: kind, seed: 43).traces(count: 5), synthetic: true))
        }
    }

    @Test func minimumJerkProfile() {
        #expect(Synthesizer.minimumJerk(0) == 0 && Synthesizer.minimumJerk(1) == 1 && Synthesizer.minimumJerk(0.5) == 0.5)
    }

    @Test func tracesAreValidLabelledAndOfTheirKind() throws {
        let flicks = Synthesizer(kind: .flick, seed: 1).traces(count: 30)
        let drags = Synthesizer(kind: .drag, seed: 2).traces(count: 30)
        let pulls = Synthesizer(kind: .pull, seed: 3).traces(count: 60)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("s-\(UUID().uuidString).synthetic.csv").path
        try AtomicFile.write(TraceWriter.csv(flicks + drags + pulls, synthetic: true), to: path)
        let (back, report) = try TraceReader().read(path: path)
        #expect(back.count == 120 && report.unknownColumns.isEmpty)
        // Throws are released fast; drags end at rest (lift after a hold: velocity 0).
        #expect(flicks.allSatisfy { $0.intent == .dismiss && VelocityEstimator.lsq2.releaseVelocity(of: $0).magnitude > 500 })
        #expect(drags.allSatisfy { $0.intent == .keep && VelocityEstimator.lsq2.releaseVelocity(of: $0).magnitude < 50 })
        #expect(Set(pulls.map(\.intent)) == [.create, .cancel])
        let rates = flicks.map { Double($0.samples.count - 2) / ($0.samples[$0.samples.count - 2].t) }
        #expect(rates.allSatisfy { $0 > 50 && $0 < 270 })
    }
}
