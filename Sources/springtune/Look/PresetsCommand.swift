import ArgumentParser
import Foundation
import SpringCore
import SpringLayout
import SpringTune
import TraceIO

struct PresetsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "presets", abstract: "List and show the bundled presets.",
                                                    subcommands: [List.self, Show.self])

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Bundled presets with their model.")
        func run() throws {
            try reportingErrors {
                let store = PresetStore()
                let rows = try store.names().map { name -> [String] in
                    let l = try store.load(name)
                    return [name, l.preset.model, "\(SweepGrid.size(l.preset.sweep).map(String.init) ?? "too many") sets", Self.short(l.preset.description)]
                }
                print(TextTable(header: ["preset", "model", "grid", "description"], rows: rows).rendered, terminator: "")
            }
        }

        /// A description cut to at most 70 characters at a word, with "…" when cut.
        static func short(_ text: String) -> String {
            guard text.count > 70 else { return text }
            let cut = text.prefix(69)
            let word = cut.lastIndex(of: " ").map { cut[..<$0] } ?? cut
            return word.trimmingCharacters(in: CharacterSet(charactersIn: " ,;:")) + "…"
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "A preset's parameters with units, domains, axes, search box and objective.",
            discussion: "`swept` marks the parameters the preset's sweep varies; `search` those its search box spans (a domain's `log`: searched in log space; `layout`: freed only by name, not by --free all).")
        @Argument(help: "Preset name or file.") var name: String
        func run() throws {
            try reportingErrors {
                let l = try PresetStore().load(name)
                print("\(l.preset.name) (\(l.preset.model)) — \(l.path)\n\(l.preset.description)\n")
                let values = l.kind.values(of: l.preset)
                let swept = Set(l.preset.sweep.map(\.name)), box = SearchBox.presetDimensions(l)
                print(TextTable(header: ["parameter", "value", "unit", "domain", "swept", "search", "meaning"], rows: l.kind.parameters.map { spec in
                    let domain = spec.domain.map { $0.description + ($0.tuning ? "" : " layout") } ?? ""
                    let searched = box.first { $0.name == spec.name }?.description ?? ""
                    return [spec.name, (values[spec.name] ?? spec.defaultValue).description, spec.unit, domain,
                            swept.contains(spec.name) ? "yes" : "", searched, spec.summary]
                }).rendered)
                for axis in l.preset.sweep {
                    print("sweep \(axis.name): \(axis.values.map { $0.number.map { NumberFormat.significant($0, 4) } ?? $0.description }.joined(separator: ", "))")
                }
                let ranking = try Ranking(objective: l.preset.objective)
                print("objective: \(ranking.summary)")
                print("traces: \(PresetStore.traceFiles(for: l).joined(separator: ", "))")
            }
        }
    }
}
