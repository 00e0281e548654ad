import Foundation
import GRDB
import SpringCore
import SpringLayout
import SpringTune
import TraceIO

extension SessionStore {
    /// A live gesture kept in the session (Reference §10.16, live touch).
    public struct Recording: Sendable {
        /// `live-N`.
        public var id: String
        public var intent: TraceIntent?
        /// Whether it is one of the studio's traces (replayed, measured and watched in rounds as
        /// the trace files' are).
        public var used: Bool
        /// The page's phone (pt) and the display's device pixel ratio.
        public var screen: [Double], dpr: Double
        /// The parameter set the gesture was felt with.
        public var params: [String: ParamValue]
        public var trace: Trace
    }

    /// Keeps a finished live gesture as `live-N` (N one more than the last) and returns its id.
    public func addRecording(samples: [TouchSample], screen: [Double], dpr: Double, params: [String: ParamValue]) throws -> String {
        let text = try StoredSample.text(samples.map(StoredSample.init))
        return try db.write { db in
            let n = (try Int.fetchOne(db, RecordingRecord.select(max(Column("number")))) ?? 0) + 1
            try RecordingRecord(number: n, at: Self.now(), intent: nil, width: screen[0], height: screen[1], dpr: dpr,
                                params: Self.encode(params), samples: text, used: false).insert(db)
            return "live-\(n)"
        }
    }

    /// Every recording, in order (a stored row that does not read back is skipped).
    public func recordings() throws -> [Recording] {
        try db.read { db in try RecordingRecord.order(Column("number")).fetchAll(db).compactMap(Self.recording) }
    }

    /// Labels the recording `id` with `intent` and adds it to the studio's traces or takes it out
    /// (`used`); nil leaves either as it is. A change of the traces drops the open round, as a
    /// change of the levers does. 404 for an unknown id.
    public func update(recording id: String, intent: TraceIntent?, used: Bool?) throws {
        let missing = StudioError.notFound("no recording '\(id.prefix(80))' in this session")
        guard let n = Self.recordingNumber(id) else { throw missing }
        try db.write { db in
            guard var record = try RecordingRecord.fetchOne(db, key: n) else { throw missing }
            let wasUsed = record.used
            if let intent { record.intent = intent.rawValue }
            if let used { record.used = used }
            try record.update(db)
            if record.used != wasUsed || (wasUsed && intent != nil) { try Self.dropOpenRound(db) }
        }
    }

    /// N of `live-N`, nil for any other name.
    static func recordingNumber(_ id: String) -> Int? {
        guard id.hasPrefix("live-"), let n = Int(id.dropFirst(5)), n > 0, "live-\(n)" == id else { return nil }
        return n
    }

    /// A stored row as a recording; nil (skipped, the file left as it is) for a row the live
    /// socket could not have written: samples that do not read back (a phase this build does not
    /// know), a coordinate beyond ±``TouchInput/coordinateLimit`` pt, a trace that breaks the
    /// reader's rules (``TraceRules``), a screen outside 1 … ``ParameterSpec/maxLength`` pt or a
    /// device pixel ratio outside 0.1 … 16. A session file is input like any other: an edited one
    /// must not put such a gesture among the studio's traces.
    static func recording(_ record: RecordingRecord) -> Recording? {
        guard let stored = try? JSONDecoder().decode([StoredSample].self, from: Data(record.samples.utf8)),
              [record.width, record.height].allSatisfy({ $0 >= 1 && $0 <= ParameterSpec.maxLength }), record.dpr >= 0.1 && record.dpr <= 16 else { return nil }
        var samples: [TouchSample] = []
        for s in stored {
            guard let sample = s.sample, abs(sample.x) <= TouchInput.coordinateLimit, abs(sample.y) <= TouchInput.coordinateLimit else { return nil }
            samples.append(sample)
        }
        let id = "live-\(record.number)"
        let intent = record.intent.flatMap(TraceIntent.init(rawValue:))
        let trace = Trace(id: id, intent: intent, group: group(dpr: record.dpr), samples: samples)
        guard TraceRules.problem(trace) == nil else { return nil }
        return Recording(id: id, intent: intent, used: record.used, screen: [record.width, record.height], dpr: record.dpr,
                         params: decode(record.params), trace: trace)
    }

    /// The group of a recording (Reference §14.1: who made it): the device it was made on, as
    /// far as the session knows it. The page tells the studio one thing about its device, the
    /// display's device pixel ratio (its `screen` is the preset's phone on every device), so a
    /// session's recordings at one ratio are one group: `studio dpr 2`.
    static func group(dpr: Double) -> String { "studio dpr \(NumberFormat.short(dpr))" }
}
