import Foundation
import SpringCore
import ToolRuntime

/// Importers from other real recording formats into traces (Reference §3). Positions are divided by
/// `scale` (source units per point); times become seconds from each trace's `began`.
public enum TraceImporter {
    public enum Format: String, CaseIterable, Sendable {
        /// Android `getevent -lt` dumps (multitouch protocol A or B).
        case getevent
        /// evemu recordings (`E: sec.usec type code value`).
        case evemu
        /// Per-event touch CSVs: `trace_id`, `t_seconds`, `x`, `y`, `phase` (down/move/up).
        case csv

        /// What a file of this format must hold, for the error when it holds none.
        var expected: String {
            switch self {
            case .getevent: "getevent -lt lines ('[ seconds] EV_ABS ABS_MT_POSITION_X 0000012c')"
            case .evemu: "evemu event lines ('E: seconds type code value')"
            case .csv: "rows under a trace_id,t_seconds,x,y,phase header"
            }
        }
    }

    /// What an import read besides the traces, for the sidecar `OUT.csv.meta.json`.
    public struct Summary: Sendable, Codable, Equatable {
        public var file: String
        public var sha256: String
        public var format: String
        /// Finger contacts found, and those written.
        public var contacts: Int
        public var kept: Int
        /// Contacts left out, by reason.
        public var dropped: [String: Int]
        /// Contacts still down at the end of the recording, closed with a `cancelled` row.
        public var closedCancelled: Int
        public var traces: Int
        /// The device ranges used, when any.
        public var ranges: AxisRanges?

        enum CodingKeys: String, CodingKey {
            case file, sha256, format, contacts, kept, dropped, closedCancelled = "closed_cancelled", traces, ranges
        }
    }

    /// Imports one file: parses contacts (device units, the recording's clock), maps them to
    /// points (``ImportMapping``), closes contacts that never lift with `cancelled`, and groups
    /// them into traces. Each trace's group (Reference §14: who made it) is `groupColumn`'s value
    /// for a csv import that names one, else the source file's name without its extension. A
    /// file with no record of the format fails (65) and nothing is written.
    public static func importFile(_ path: String, format: Format, mapping: ImportMapping,
                                  grouping: ContactGrouping = .contacts, groupColumn: String? = nil) throws -> (traces: [Trace], summary: Summary, report: TraceFileReport) {
        try mapping.validate()
        guard format == .csv || mapping.timeUnit == .s else {
            throw ToolError(.usage, "--time-unit applies to csv imports only: \(format.rawValue) times are seconds")
        }
        let stem = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        var report = TraceFileReport()
        var contacts: [[TouchSample]], ids: [String]?, groups: [String?] = []
        var mapping = mapping
        switch format {
        case .getevent, .evemu:
            let declared: AxisRanges?
            (contacts, declared) = try evdev(path, format: format)
            if format == .evemu, mapping.ranges == nil { mapping.ranges = declared }
        case .csv:
            (ids, contacts, groups, report) = try touchCSV(path, timeUnit: mapping.timeUnit, groupColumn: groupColumn)
        }
        guard !contacts.isEmpty else {
            if let first = report.skipped.first {
                throw ToolError(.dataError, "\(path): every contact was dropped (\(report.skipped.count)); first, '\(first.trace.prefix(60))': \(first.reason.prefix(160))")
            }
            throw ToolError(.dataError, "\(path): no \(format.rawValue) records: expected \(format.expected)")
        }
        var closed = 0
        for i in contacts.indices where !(contacts[i].last?.phase.isLift ?? true) {
            let last = contacts[i][contacts[i].count - 1]
            contacts[i].append(TouchSample(t: last.t, x: last.x, y: last.y, phase: .cancelled))
            closed += 1
        }
        let mapped = try mapping.apply(contacts)
        var traces: [Trace]
        if let ids, grouping == .contacts {
            traces = zip(ids, mapped).map { Trace(id: $0, samples: $1) }
            for i in traces.indices where i < groups.count { traces[i].group = groups[i] }
        } else {
            traces = grouping.traces(mapped, stem: stem)
        }
        for i in traces.indices {
            if traces[i].group == nil { traces[i].group = TraceReader.groupWord(stem) }
            for j in traces[i].samples.indices { traces[i].samples[j].t = microseconds(traces[i].samples[j].t) }
        }
        // Never write what `traces validate` refuses: such a trace is dropped with its reason.
        // Counts by reason, at most Echo.listLimit of them (then "other"): a file of a million
        // distinct bad phases must not make a sidecar of a million keys.
        var dropped: [String: Int] = [:]
        func count(_ reason: String) {
            let key = Echo.cut(reason)
            dropped[dropped[key] != nil || dropped.count < Echo.listLimit ? key : "other", default: 0] += 1
        }
        for s in report.skipped { count(s.reason.components(separatedBy: ": ").last ?? s.reason) }
        let unreadable = report.skipped.count
        var droppedContacts = 0
        traces.removeAll { trace in
            guard let broken = TraceRules.problem(trace) else { return false }
            droppedContacts += max(1, trace.pointers.count)
            report.skip(trace.id, reason: "\(path): trace '\(trace.id.prefix(60))': \(broken.detail)")
            count(broken.rule)
            return true
        }
        guard !traces.isEmpty else {
            throw ToolError(.dataError, "\(path): every contact was dropped; first: \(report.skipped.first?.reason.prefix(200) ?? "")")
        }
        report.traces = traces.count
        let summary = Summary(file: path, sha256: try SHA256.file(path), format: format.rawValue, contacts: contacts.count + unreadable,
                              kept: contacts.count - droppedContacts, dropped: dropped, closedCancelled: closed, traces: traces.count, ranges: mapping.ranges)
        return (traces, summary, report)
    }

    /// Finger contacts of an evdev recording in device units, in touch-down order, read line by line,
    /// and the axis ranges its header declares (evemu `A:` lines); an event time that goes
    /// backwards is an error at its line.
    private static func evdev(_ path: String, format: Format) throws -> (contacts: [[TouchSample]], ranges: AxisRanges?) {
        let parse = format == .getevent ? parseGeteventLine : parseEvemuLine
        var tracker = EvdevContacts(scale: 1)
        var header = AxisRanges.Reader()
        var lastTime = -Double.infinity
        try LineReader.forEachLine(path: path) { line, number in
            guard let event = parse(line) else {
                if format == .evemu { header.consume(line) }
                return
            }
            guard event.time >= lastTime else {
                throw ToolError.data(path, line: number, column: 1, "event time goes backwards (\(event.time) < \(lastTime))")
            }
            lastTime = event.time
            do { try tracker.handle(event) } catch {
                throw ToolError.data(path, line: number, column: 1, "more than \(EvdevContacts.maxDown) fingers down at once or a slot beyond \(EvdevContacts.maxDown - 1): not a touch recording")
            }
        }
        return (tracker.finish(), header.ranges)
    }

    /// A time in seconds rounded to the microsecond, the resolution of evdev's clock, so that a
    /// difference of two readings is written as recorded (0.3 s, not 0.30000000000000004 s).
    static func microseconds(_ t: Double) -> Double { (t * 1_000_000).rounded() / 1_000_000 }

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
        guard words.count >= 5, words[0] == "E:", let time = NumberFormat.decimal(words[1]),
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

    /// Per-event touch CSVs (`trace_id,…,t_seconds,x,y,phase`), device units as given, times
    /// in seconds (divided by `timeUnit`'s units per second). Contacts with non-touch phases
    /// (`pointer_down`, `wheel`, …) or non-numeric values are left out and listed.
    /// With `groupColumn`, each contact's value of that column (constant within it, at most
    /// ``TraceReader/maxGroupBytes``) is its group; a missing column is a usage error.
    private static func touchCSV(_ path: String, timeUnit: TimeUnit, groupColumn: String?) throws -> (ids: [String], contacts: [[TouchSample]], groups: [String?], report: TraceFileReport) {
        var header: CSVHeader?
        var ids: [String] = [], contacts: [[TouchSample]] = [], groups: [String?] = []
        var report = TraceFileReport()
        var bad = Set<String>()
        try CSVReader(path: path).forEachRecord { r in
            guard let columns = header else {
                let read = try CSVHeader(r, file: path)
                for name in ["trace_id", "t_seconds", "x", "y", "phase"] { _ = try read.require(name, "missing column '\(name)': expected \(Format.csv.expected)") }
                if let groupColumn, read[groupColumn] == nil {
                    throw ToolError(.usage, "\(path): no column '\(groupColumn.prefix(60))' for --group-column (columns: \(read.names.joined(separator: ", ").prefix(300)))")
                }
                header = read
                return
            }
            func field(_ name: String) -> String { columns[name].flatMap { $0 < r.fields.count ? r.fields[$0] : nil } ?? "" }
            let id = field("trace_id")
            let group = groupColumn.map { field($0).trimmingCharacters(in: .whitespaces) }
            if ids.last != id { ids.append(id); contacts.append([]); groups.append(group.flatMap { $0.isEmpty ? nil : $0 }) }
            guard !bad.contains(id) else { return }
            if let group, group != (groups.last! ?? "") || group.utf8.count > TraceReader.maxGroupBytes || group.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
                bad.insert(id)
                report.skip(id, reason: "\(path):\(r.position(columns[groupColumn!]!).line): \(groupColumn!) changes within the contact, is longer than \(TraceReader.maxGroupBytes) bytes or holds control characters")
                return
            }
            guard let phase = TouchPhase(name: field("phase")) else {
                bad.insert(id)
                report.skip(id, reason: "\(path):\(r.position(columns["phase"]!).line): phase '\(field("phase").prefix(40))' is not a touch phase")
                return
            }
            guard let t = NumberFormat.decimal(field("t_seconds")), let x = NumberFormat.decimal(field("x")), let y = NumberFormat.decimal(field("y")), t.isFinite, x.isFinite, y.isFinite else {
                bad.insert(id)
                report.skip(id, reason: "\(path):\(r.position(0).line): non-numeric t_seconds, x or y")
                return
            }
            contacts[contacts.count - 1].append(TouchSample(t: t / timeUnit.perSecond, x: x, y: y, phase: phase))
        }
        for (id, samples) in zip(ids, contacts) where !bad.contains(id) {
            if let problem = contactProblem(samples) {
                bad.insert(id)
                report.skip(id, reason: "\(path): \(problem)")
            }
        }
        let keep = ids.indices.filter { !bad.contains(ids[$0]) }
        return (keep.map { ids[$0] }, keep.map { contacts[$0] }, keep.map { groups[$0] }, report)
    }

    /// Why a contact's rows cannot be one touch (a trace must begin, move, and lift once, in
    /// time order), or nil. A contact that never lifts is fine: it is closed `cancelled`.
    static func contactProblem(_ s: [TouchSample]) -> String? {
        guard s.first?.phase == .began else { return "contact does not start with a down row" }
        for (i, sample) in s.enumerated().dropFirst() {
            if sample.phase == .began { return "contact has a second down row" }
            if s[i - 1].phase.isLift { return "contact has rows after its up row" }
            if sample.t < s[i - 1].t { return "contact's time goes backwards" }
        }
        return nil
    }
}
