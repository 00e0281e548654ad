import ArgumentParser
import Foundation
import SpringCore
import SpringLayout
import SpringTune
import ToolRuntime
import TraceIO

/// `springtune evaluate`: the search's evaluator as a line protocol, for peers that drive it
/// (bench/optuna_search.py runs Optuna's sampler on the very numbers `search` sees).
struct EvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Measure parameter sets read from stdin, one JSON object per line; write one JSON line per set.",
        discussion: """
        Each input line is {"NAME": VALUE, …} over the preset's values; each output line is \
        {"feasible": true|false, "objective": NUMBER|"inf"|null, "columns": {COLUMN: NUMBER|"inf"|null, …}} \
        (feasible: every constraint met and every target on, under the preset's objective), or {"error": "…"} \
        for a line that is not a valid set. The traces are read once. With --per-group each answer also has \
        "groups": [{"group", "traces", "verdict": "met"|"broken", "broken": [CONSTRAINT, …]}, …] (Reference §14).
        """
    )

    @OptionGroup var presetOptions: PresetOptions
    @Option(help: "Worker threads (default: all cores).") var threads: Int = ProcessInfo.processInfo.activeProcessorCount
    @Flag(name: .customLong("per-group"), help: "Add each group's verdict on the objective's constraints to every answer.") var perGroup = false

    /// Longest input line read (bytes).
    static let maxLine = 64 * 1024

    struct Answer: Encodable {
        var feasible: Bool
        var objective: ReportNumber
        var columns: [String: ReportNumber]
        var groups: [Group]?
    }

    /// One group's verdict (``PerGroup``).
    struct Group: Encodable {
        var group: String
        var traces: Int
        var verdict: String
        var broken: [String]
    }

    func run() throws {
        try reportingErrors {
            let loaded = try presetOptions.load()
            var ranking = try Ranking(objective: loaded.preset.objective)
            ranking.robust = false
            let kind = loaded.kind, base = kind.values(of: loaded.preset)
            let traces = try TraceSource(files: presetOptions.traces.isEmpty ? PresetStore.traceFiles(for: loaded) : presetOptions.traces,
                                         kind: kind, skipInvalid: false, scene: loaded.preset.scene)
            let verdict = RowVerdict(ranking: ranking, specs: kind.reportColumns)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            while let line = readLine(strippingNewline: true) {
                let answer: String
                do {
                    guard line.utf8.count <= Self.maxLine else { throw ToolError(.dataError, "a line over \(Self.maxLine) bytes") }
                    let given = try JSONDecoder().decode([String: ParamValue].self, from: Data(line.utf8))
                    let names = given.keys.sorted()
                    let list = ParameterSetList(names: names, base: base, rows: [names.map { given[$0]! }])
                    guard let result = try SweepRunner(kind: kind, scene: loaded.preset.scene, sets: list, threads: threads, keepPerTrace: perGroup).run(traces).first else {
                        throw ToolError(.software, "no set ran")
                    }
                    let row = SweepReport.Row(result, kind: kind)
                    let groups = perGroup ? PerGroup(MeasuredSet(kind: kind, result: result, tags: traces.tags), ranking: ranking).rows.map {
                        Group(group: $0.group, traces: $0.traces, verdict: $0.broken.isEmpty ? "met" : "broken", broken: $0.broken.map(\.description))
                    } : nil
                    let columns = Dictionary(uniqueKeysWithValues: zip(kind.reportColumns.map(\.name), row.values.map { ReportNumber($0.number) }))
                    answer = String(decoding: try encoder.encode(Answer(feasible: verdict.feasible(row), objective: ReportNumber(verdict.objective(row)), columns: columns, groups: groups)), as: UTF8.self)
                } catch let error as ToolError {
                    answer = String(decoding: try encoder.encode(["error": error.message]), as: UTF8.self)
                } catch {
                    answer = String(decoding: try encoder.encode(["error": "not a JSON object of parameter values"]), as: UTF8.self)
                }
                FileHandle.standardOutput.write(Data((answer + "\n").utf8))
            }
        }
    }
}
