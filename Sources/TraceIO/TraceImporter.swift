import Foundation
import SpringCore

/// Importers from other real recording formats into traces (SPEC §3). Positions are divided by
/// `scale` (source units per point); times become seconds from each trace's `began`.
public enum TraceImporter {
    public enum Format: String, CaseIterable, Sendable {
        /// Android `getevent -lt` dumps (multitouch protocol A or B).
        case getevent
        /// evemu recordings (`E: sec.usec type code value`).
        case evemu
        /// The CSVs of `../shared/data`: `trace_id`, `t_seconds`, `x`, `y`, `phase` (down/move/up).
        case csv
    }

    /// Imports one file. Traces that cannot be represented (for example a CSV trace with
    /// `pointer_down` rows) are left out and listed in the report's `skipped`.
    public static func importFile(_ path: String, format: Format, scale: Double,
                                  grouping: ContactGrouping = .contacts) throws -> (traces: [Trace], report: TraceFileReport) {
        guard scale.isFinite, scale > 0 else { throw ToolError(.usage, "--scale must be a finite number > 0, got \(scale)") }
        let stem = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        switch format {
        case .getevent: return try evdev(path, stem: stem, scale: scale, grouping: grouping, parse: parseGeteventLine)
        case .evemu: return try evdev(path, stem: stem, scale: scale, grouping: grouping, parse: parseEvemuLine)
        case .csv:
            let (traces, report) = try sharedCSV(path, scale: scale)
            guard grouping == .gestures else { return (traces, report) }
            let grouped = grouping.traces(traces.map(\.samples), stem: stem)
            var out = report
            out.traces = grouped.count
            return (grouped, out)
        }
    }

    private static func evdev(_ path: String, stem: String, scale: Double, grouping: ContactGrouping,
                              parse: (Substring) -> EvdevEvent?) throws -> (traces: [Trace], report: TraceFileReport) {
        guard let data = FileManager.default.contents(atPath: path) else { throw ToolError(.noInput, "\(path): cannot open") }
        var tracker = EvdevContacts(scale: scale)
        var lastTime = -Double.infinity
        for (n, line) in String(decoding: data, as: UTF8.self).split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            guard let event = parse(line) else { continue }
            guard event.time >= lastTime else {
                throw ToolError.data(path, line: n + 1, column: 1, "event time goes backwards (\(event.time) < \(lastTime))")
            }
            lastTime = event.time
            tracker.handle(event)
        }
        let traces = grouping.traces(tracker.finish(), stem: stem)
        var report = TraceFileReport()
        report.traces = traces.count
        return (traces, report)
    }

    /// `[   1411.748191] EV_ABS       ABS_MT_POSITION_X    00000273`, optionally with a
    /// `/dev/input/eventN:` device field after the time. Other lines are ignored.
    static func parseGeteventLine(_ line: Substring) -> EvdevEvent? {
        guard let open = line.firstIndex(of: "["), let close = line.firstIndex(of: "]"), open < close,
              let time = Double(line[line.index(after: open)..<close].trimmingCharacters(in: .whitespaces)) else { return nil }
        var words = line[line.index(after: close)...].split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
        if words.first?.hasPrefix("/dev/") == true { words.removeFirst() }
        guard words.count >= 3 else { return nil }
        let value = Int(UInt32(words[2], radix: 16).map { Int32(bitPattern: $0) } ?? 0)
        return evdevEvent(time: time, type: String(words[0]), code: String(words[1]), value: value)
    }

    /// `E: 0.000001 0003 0039 0000` (type and code in hex, value in decimal).
    static func parseEvemuLine(_ line: Substring) -> EvdevEvent? {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
        guard words.count >= 5, words[0] == "E:", let time = Double(words[1]),
              let type = Int(words[2], radix: 16), let code = Int(words[3], radix: 16), let value = Int(words[4]) else { return nil }
        let names: [Int: String] = [0x00: "EV_SYN", 0x03: "EV_ABS"]
        let codes: [Int: [Int: String]] = [
            0x00: [0: "SYN_REPORT", 2: "SYN_MT_REPORT"],
            0x03: [0x2f: "ABS_MT_SLOT", 0x35: "ABS_MT_POSITION_X", 0x36: "ABS_MT_POSITION_Y", 0x39: "ABS_MT_TRACKING_ID"],
        ]
        guard let typeName = names[type], let codeName = codes[type]?[code] else { return nil }
        return evdevEvent(time: time, type: typeName, code: codeName, value: value)
    }

    private static func evdevEvent(time: Double, type: String, code: String, value: Int) -> EvdevEvent? {
        let kind: EvdevEvent.Kind
        switch (type, code) {
        case ("EV_SYN", "SYN_REPORT"): kind = .report
        case ("EV_SYN", "SYN_MT_REPORT"): kind = .mtReport
        case ("EV_ABS", "ABS_MT_SLOT"): kind = .slot(value)
        case ("EV_ABS", "ABS_MT_POSITION_X"): kind = .positionX(value)
        case ("EV_ABS", "ABS_MT_POSITION_Y"): kind = .positionY(value)
        case ("EV_ABS", "ABS_MT_TRACKING_ID"): kind = .trackingID(value)
        default: return nil
        }
        return EvdevEvent(time: time, kind: kind)
    }

    /// The shared-data CSV layout: `trace_id,...,t_seconds,x,y,phase`.
    private static func sharedCSV(_ path: String, scale: Double) throws -> (traces: [Trace], report: TraceFileReport) {
        var columns: [String: Int] = [:]
        var traces: [Trace] = []
        var report = TraceFileReport()
        var bad = Set<String>()
        try CSVReader(path: path).forEachRecord { r in
            if columns.isEmpty {
                for (i, name) in r.fields.enumerated() { columns[name] = i }
                for name in ["trace_id", "t_seconds", "x", "y", "phase"] where columns[name] == nil {
                    throw ToolError.data(path, line: 1, column: 1, "missing column '\(name)' (expected the ../shared/data CSV layout)")
                }
                return
            }
            func field(_ name: String) -> String { columns[name].flatMap { $0 < r.fields.count ? r.fields[$0] : nil } ?? "" }
            let id = field("trace_id")
            if traces.last?.id != id { traces.append(Trace(id: id, samples: [])) }
            guard !bad.contains(id) else { return }
            guard let phase = TouchPhase(name: field("phase")) else {
                bad.insert(id)
                report.skip(id, reason: "\(path):\(r.position(columns["phase"]!).line): phase '\(field("phase"))' is not a touch phase")
                return
            }
            guard let t = Double(field("t_seconds")), let x = Double(field("x")), let y = Double(field("y")), t.isFinite, x.isFinite, y.isFinite else {
                bad.insert(id)
                report.skip(id, reason: "\(path):\(r.position(0).line): non-numeric t_seconds, x or y")
                return
            }
            traces[traces.count - 1].samples.append(TouchSample(t: t, x: x / scale, y: y / scale, phase: phase))
        }
        traces.removeAll { bad.contains($0.id) }
        report.traces = traces.count
        return (traces, report)
    }
}
