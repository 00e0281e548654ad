import ArgumentParser
import Foundation
import SpringCore
import SpringLayout
import SpringTune
import ToolRuntime
import TraceIO

extension TracesCommand {
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Convert real recordings (getevent -lt, evemu, shared-data CSV) into trace CSV.")
        @Option(help: "Input format: getevent, evemu or csv.") var format: TraceImporter.Format
        @Argument(help: "Recordings to import.") var files: [String]
        @Option(help: "Source units per point (e.g. 3 for a 3× phone's pixels).", transform: decimal) var scale: Double?
        @Option(name: .customLong("units-per-mm"), help: "Device resolution in units per mm (evemu device lists); 1 pt = 25.4/163 mm.", transform: decimal)
        var unitsPerMM: Double?
        @Option(help: "WxH: map the device's declared axis ranges onto a screen of W×H points (evemu header or --device-info).")
        var screen: String?
        @Option(name: .customLong("device-info"), help: "A `getevent -lp` dump (or evemu header) declaring the device's axis ranges, for --screen.")
        var deviceInfo: String?
        @Option(help: "Clockwise rotation in degrees (0, 90, 180, 270), for landscape devices.") var rotate: Int = 0
        @Option(name: [.short, .customLong("output")], help: "Output trace CSV (its sidecar OUT.csv.meta.json is written beside it).") var output: String
        @Option(name: .customLong("time-unit"), help: "Unit of a csv import's t_seconds column: s, ms or us.") var timeUnit: TimeUnit = .s
        @Option(help: "contacts: one trace per finger contact; gestures: contacts that overlap in time become one multi-pointer trace (was --group, which now names who made a trace).")
        var join: ContactGrouping = .contacts
        @Option(name: .customLong("group-column"), help: "csv imports: the column naming who made each trace (person or device), written as the trace's group; default: the source file's name.")
        var groupColumn: String?

        func validate() throws {
            guard [scale != nil, unitsPerMM != nil, screen != nil].filter({ $0 }).count == 1 else {
                throw ValidationError("give exactly one of --scale, --units-per-mm and --screen")
            }
            if groupColumn != nil && join == .gestures { throw ValidationError("--group-column applies to one trace per contact; with --join gestures a gesture's contacts could name different groups") }
            if groupColumn != nil && format != .csv { throw ValidationError("--group-column applies to csv imports (getevent and evemu traces are grouped by their source file)") }
            if let groupColumn, groupColumn.isEmpty { throw ValidationError("--group-column must not be empty") }
        }

        func mapping() throws -> ImportMapping {
            let units: ImportUnits
            if let scale { units = .scale(scale) } else if let unitsPerMM { units = .unitsPerMM(unitsPerMM) } else {
                let parts = screen!.lowercased().split(separator: "x").map { Double($0) }
                guard parts.count == 2, let w = parts[0], let h = parts[1] else { throw ToolError(.usage, "--screen expects WxH in points, e.g. 390x844") }
                units = .screen(width: w, height: h)
            }
            var ranges: AxisRanges?
            if let deviceInfo {
                var reader = AxisRanges.Reader()
                try LineReader.forEachLine(path: deviceInfo) { line, _ in reader.consume(line) }
                guard let r = reader.ranges else {
                    throw ToolError(.dataError, "\(deviceInfo): no x and y axis ranges (expected getevent -lp lines 'ABS_MT_POSITION_X : value 0, min 0, max 1279' or evemu 'A: 35 0 1279 0 0 0')")
                }
                ranges = r
            }
            return ImportMapping(units: units, rotation: rotate, ranges: ranges, timeUnit: timeUnit)
        }

        func run() throws {
            try reportingErrors {
                let mapping = try mapping()
                // The screen samples should fall on: --screen's, else the default scene's.
                var scene = Scene()
                if case let .screen(w, h) = mapping.units { (scene.width, scene.height) = (w, h) }
                var traces: [Trace] = [], sources: [TraceImporter.Summary] = []
                for file in files {
                    let (imported, summary, report) = try TraceImporter.importFile(file, format: format, mapping: mapping, grouping: join, groupColumn: groupColumn)
                    describe(report, file: file)
                    if summary.closedCancelled > 0 { note("\(file): \(summary.closedCancelled) contacts never lifted; they end cancelled at their last sample") }
                    var units = UnitsCheck(scene: scene)
                    imported.forEach { units.consider($0) }
                    noteUnits(units, file: file)
                    traces += imported
                    sources.append(summary)
                }
                var seen = Set<String>()
                for t in traces where !seen.insert(t.id).inserted {
                    throw ToolError(.dataError, "trace id '\(t.id)' occurs in more than one input; import them separately")
                }
                let meta = ImportMeta(mapping: mapping, deviceInfo: deviceInfo, grouping: join, sources: sources)
                try TraceWriter.write(traces, to: output)
                try AtomicFile.write(try JSONCoding.encode(meta), to: ImportMeta.path(for: output))
                let multi = traces.filter(\.isMultiPointer).count
                print("\(output): \(traces.count) traces\(multi > 0 ? " (\(multi) with several pointers)" : "") (\(mapping.units.description)\(rotate != 0 ? ", rotated \(rotate)°" : ""))")
            }
        }
    }
}
