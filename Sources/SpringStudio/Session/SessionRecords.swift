import Foundation
import GRDB
import SpringCore

// The session's rows (the schema of ``SessionStore/migrator``), one record type per table.

/// `session`: what the session is of (`preset`, `model`, `created`).
struct SessionValue: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "session"
    var key: String, value: String
}

/// `shown`: a parameter set shown, when (ISO 8601).
struct ShownRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "shown"
    var id: Int64?
    var at: String, params: String
    init(at: String, params: String) { self.at = at; self.params = params }
}

/// `rounds`: a round of candidates, when it was proposed, the trace it is watched on and from when (s).
struct RoundRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "rounds"
    var number: Int
    var at: String, trace: String
    var start: Double
}

/// `candidates`: a set of a round, at its place (`slot`) in the round.
struct CandidateRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "candidates"
    var id: Int64?
    var round: Int, slot: Int
    var params: String
    init(round: Int, slot: Int, params: String) { self.round = round; self.slot = slot; self.params = params }
}

/// `choices`: the answer to a round: `worst` or `best` with its candidate, or `same`.
struct ChoiceRecord: Codable, FetchableRecord, PersistableRecord {
    /// The `kind` column (its CHECK constraint lists the same words).
    enum Kind: String, Codable { case worst, best, same }

    static let databaseTableName = "choices"
    var round: Int
    var at: String, kind: Kind
    var candidate: Int?

    init(round: Int, at: String, answer: SessionStore.Answer) {
        self.round = round; self.at = at
        switch answer {
        case let .worst(id): kind = .worst; candidate = id
        case let .best(id): kind = .best; candidate = id
        case .same: kind = .same; candidate = nil
        }
    }

    var answer: SessionStore.Answer {
        switch kind {
        case .worst: .worst(candidate ?? -1)
        case .best: .best(candidate ?? -1)
        case .same: .same
        }
    }
}

/// `recordings`: a live gesture (Reference §10.16, live touch): `live-N`'s N, when, its label,
/// the page's phone (pt) and device pixel ratio, the set it was felt with (``ParamSet`` JSON),
/// its samples (``StoredSample`` JSON) and whether it joins the studio's traces.
struct RecordingRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "recordings"
    var number: Int
    var at: String
    var intent: String?
    var width: Double, height: Double, dpr: Double
    var params: String, samples: String
    var used: Bool
}

/// A recorded sample as the `recordings` table keeps it since v5: `[t, x, y, "phase", pointer]`
/// (s, pt, pt, the phase's name, the pointer id), one JSON array per sample.
struct StoredSample: Codable, Equatable {
    var t: Double, x: Double, y: Double
    var phase: String
    var pointer: Int

    init(t: Double, x: Double, y: Double, phase: String, pointer: Int) {
        self.t = t; self.x = x; self.y = y; self.phase = phase; self.pointer = pointer
    }

    init(_ sample: TouchSample) {
        self.init(t: sample.t, x: sample.x, y: sample.y, phase: sample.phase.rawValue, pointer: sample.pointer)
    }

    init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        t = try c.decode(Double.self); x = try c.decode(Double.self); y = try c.decode(Double.self)
        phase = try c.decode(String.self); pointer = try c.decode(Int.self)
        guard c.isAtEnd else { throw DecodingError.dataCorruptedError(in: c, debugDescription: "a sample has five fields") }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.unkeyedContainer()
        try c.encode(t); try c.encode(x); try c.encode(y); try c.encode(phase); try c.encode(pointer)
    }

    /// The touch sample, nil for a phase this build does not know.
    var sample: TouchSample? {
        TouchPhase(rawValue: phase).map { TouchSample(t: t, x: x, y: y, phase: $0, pointer: pointer) }
    }

    /// A gesture's samples as the column's text.
    static func text(_ samples: [StoredSample]) throws -> String {
        String(decoding: try JSONEncoder().encode(samples), as: UTF8.self)
    }
}
