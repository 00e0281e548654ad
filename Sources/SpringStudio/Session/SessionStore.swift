import Foundation
import GRDB
import SpringCore
import SpringLayout
import SpringTune
import ToolRuntime

/// A studio session on disk: one SQLite database (through GRDB, in WAL mode) with every
/// parameter set shown, every round of candidates and every answer, with timestamps
/// (Reference §10.16). A second studio on the same file is refused (exit 73): the file is held
/// with an exclusive `flock` for the life of the process.
public final class SessionStore: Sendable {
    /// A round of candidates: its number, the trace they were watched on from `start` (s from
    /// its first sample), and the sets.
    public struct Round: Sendable, Equatable {
        public var number: Int
        public var trace: String
        public var start: Double
        public var candidates: [Candidate]
    }

    /// The designer's settings a session keeps (the `session` table's keys): the free set
    /// (`POST /api/space`'s list) and the objective (`PUT /api/objective`'s object), as JSON.
    public enum Key: String, Sendable { case free, objective }

    /// A candidate of a round: its id (unique in the session) and its parameter set.
    public struct Candidate: Sendable, Equatable {
        public var id: Int
        public var params: [String: ParamValue]
    }

    /// An answer to a round: the worst, the best, or no difference seen.
    public enum Answer: Sendable, Equatable {
        case worst(Int), best(Int), same
    }

    /// A round with its answer.
    public struct Choice: Sendable, Equatable {
        public var round: Round
        public var answer: Answer
    }

    public let path: String
    private let db: DatabaseQueue
    private let lock: Int32

    /// Opens (or creates) the session at `path` for `preset`: creates its folder, takes the
    /// lock, migrates the schema. A session of another preset is refused (exit 65).
    public init(path: String, preset: String, model: String) throws {
        self.path = path
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
                throw ToolError(.cantCreate, "\(folder): cannot create the session folder")
            }
        }
        var st = stat()
        if lstat(path, &st) == 0 && (st.st_mode & S_IFMT) != S_IFREG {
            throw ToolError(.dataError, "\(path): not a regular file; a session is a SQLite database file")
        }
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { throw ToolError(.cantCreate, "\(path): cannot open the session file (\(String(cString: strerror(errno))))") }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            throw ToolError(.cantCreate, "\(path): another studio has this session open; stop it or give another --session")
        }
        lock = fd
        do {
            try Self.refuseForeign(path)
        } catch {
            close(fd)
            throw error
        }
        var config = Configuration()
        config.journalMode = .wal
        config.busyMode = .timeout(2)
        do {
            db = try DatabaseQueue(path: path, configuration: config)
            try Self.migrator.migrate(db)
            try db.write { db in
                for (key, value) in [("preset", preset), ("model", model), ("created", Self.now())] {
                    try SessionValue(key: key, value: value).insert(db, onConflict: .ignore)
                }
            }
            let owner = try db.read { try SessionValue.fetchOne($0, key: "preset")?.value }
            if owner != preset {
                throw ToolError(.dataError, "\(path): a session of preset '\(owner?.prefix(80) ?? "")', not '\(preset)'; give another --session")
            }
        } catch let error as ToolError {
            close(fd)
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT {
            close(fd)
            throw ToolError(.dataError, "\(path): not a springtune session (SQLite: \(error.message ?? "not a database"))")
        } catch {
            close(fd)
            throw ToolError(.dataError, "\(path): cannot use this session: \(error)")
        }
    }

    deinit { close(lock) }

    /// The preset a session file is of, read without changing or locking it (65 when it is not a session).
    public static func presetName(of path: String) throws -> String {
        try refuseForeign(path)
        var config = Configuration()
        config.readonly = true
        do {
            let db = try DatabaseQueue(path: path, configuration: config)
            defer { try? db.close() }
            if let name = try db.read({ try SessionValue.fetchOne($0, key: "preset")?.value }) { return name }
        } catch {}
        throw ToolError(.dataError, "\(path): not a springtune session (no preset recorded)")
    }

    /// Refuses (65, leaving it as it is) a database that holds tables but no springtune session:
    /// another application's file, which migrating would change. Read only, before the session
    /// is opened for writing (which switches it to write-ahead logging).
    static func refuseForeign(_ path: String) throws {
        var st = stat()
        guard stat(path, &st) == 0, st.st_size > 0 else { return }
        var config = Configuration()
        config.readonly = true
        let tables: [String]
        do {
            let db = try DatabaseQueue(path: path, configuration: config)
            defer { try? db.close() }
            tables = try db.read { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") }
        } catch let error as DatabaseError {
            throw ToolError(.dataError, "\(path): not a springtune session (SQLite: \(error.message ?? "not a database"))")
        }
        guard tables.isEmpty || tables.contains("session") && tables.contains("grdb_migrations") else {
            throw ToolError(.dataError, "\(path): a SQLite database of another application (tables: \(tables.prefix(5).joined(separator: ", "))), not a springtune session; it is left unchanged: give another --session")
        }
    }

    /// Closes the database at a clean stop: SQLite copies the write-ahead log into the session
    /// file and removes `-wal` and `-shm`, so the one file holds the whole session (a copy of it
    /// alone is complete). Waits for a write in progress; later calls fail, the process is ending.
    public func closeForStop() {
        try? db.close()
    }

    /// The schema, version by version (GRDB records the versions applied in the file).
    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE session (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                CREATE TABLE shown (id INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL, params TEXT NOT NULL);
                CREATE TABLE rounds (number INTEGER PRIMARY KEY, at TEXT NOT NULL, trace TEXT NOT NULL);
                CREATE TABLE candidates (id INTEGER PRIMARY KEY AUTOINCREMENT,
                    round INTEGER NOT NULL REFERENCES rounds(number) ON DELETE CASCADE,
                    slot INTEGER NOT NULL, params TEXT NOT NULL);
                CREATE TABLE choices (round INTEGER PRIMARY KEY REFERENCES rounds(number) ON DELETE CASCADE,
                    at TEXT NOT NULL, kind TEXT NOT NULL CHECK (kind IN ('worst', 'best', 'same')),
                    candidate INTEGER REFERENCES candidates(id));
                """)
        }
        // Where the page starts a round's trace (s from its first sample).
        m.registerMigration("v2") { db in
            try db.execute(sql: "ALTER TABLE rounds ADD COLUMN start REAL NOT NULL DEFAULT 0")
        }
        // Live gestures (Reference §10.16, live touch): `live-N`, the page's screen (pt) and device pixel ratio,
        // the parameter set it was felt with, its label, and its samples.
        m.registerMigration("v3") { db in
            try db.execute(sql: """
                CREATE TABLE recordings (number INTEGER PRIMARY KEY, at TEXT NOT NULL, intent TEXT,
                    width REAL NOT NULL, height REAL NOT NULL, dpr REAL NOT NULL, params TEXT NOT NULL, samples TEXT NOT NULL)
                """)
        }
        // Whether a recording joins the studio's traces (replay, rounds, evaluate).
        m.registerMigration("v4") { db in
            try db.execute(sql: "ALTER TABLE recordings ADD COLUMN used INTEGER NOT NULL DEFAULT 0")
        }
        return m
    }

    static func now() -> String { ISO8601DateFormatter().string(from: Date()) }

    /// The designer's setting `key`, as stored (nil: never set, the preset's).
    public func value(_ key: Key) throws -> String? {
        try db.read { try SessionValue.fetchOne($0, key: key.rawValue)?.value }
    }

    /// Stores the setting `key` and drops the open round (proposed under the previous setting):
    /// the next `GET /api/candidates` proposes under this one.
    public func set(_ key: Key, _ text: String) throws {
        try db.write { db in
            try SessionValue(key: key.rawValue, value: text).save(db)
            try Self.dropOpenRound(db)
        }
    }

    /// A consistent copy of the whole session as one SQLite file's bytes (`VACUUM INTO` a
    /// temporary file beside it, read, removed): what `GET /api/session.sqlite` sends and
    /// `studio --session` resumes.
    public func snapshot() throws -> [UInt8] {
        let copy = (path as NSString).deletingLastPathComponent.appending("/.springtune-copy-\(getpid())-\(UUID().uuidString).sqlite")
        defer { unlink(copy) }
        try db.writeWithoutTransaction { try $0.execute(sql: "VACUUM INTO ?", arguments: [copy]) }
        guard let data = FileManager.default.contents(atPath: copy) else { throw StudioError.conflict("cannot read the session's copy") }
        return [UInt8](data)
    }

    /// Records that `params` was shown (a replay the page asked for).
    public func recordShown(_ params: [String: ParamValue]) throws {
        try db.write { try ShownRecord(at: Self.now(), params: Self.encode(params)).insert($0) }
    }

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
        let rows = samples.map { [$0.t, $0.x, $0.y, Double(TouchPhase.allCases.firstIndex(of: $0.phase)!), Double($0.pointer)] }
        let text = String(decoding: try JSONEncoder().encode(rows), as: UTF8.self)
        return try db.write { db in
            let n = (try Int.fetchOne(db, sql: "SELECT max(number) FROM recordings") ?? 0) + 1
            try db.execute(sql: "INSERT INTO recordings (number, at, width, height, dpr, params, samples) VALUES (?, ?, ?, ?, ?, ?, ?)",
                           arguments: [n, Self.now(), screen[0], screen[1], dpr, Self.encode(params), text])
            return "live-\(n)"
        }
    }

    /// Every recording, in order (a stored row that does not read back is skipped).
    public func recordings() throws -> [Recording] {
        try db.read { db in
            try Row.fetchAll(db, sql: "SELECT number, intent, used, width, height, dpr, params, samples FROM recordings ORDER BY number").compactMap(Self.recording)
        }
    }

    /// Labels the recording `id` with `intent` and adds it to the studio's traces or takes it out
    /// (`used`); nil leaves either as it is. A change of the traces drops the open round, as a
    /// change of the levers does. 404 for an unknown id.
    public func update(recording id: String, intent: TraceIntent?, used: Bool?) throws {
        guard let n = Self.recordingNumber(id) else { throw StudioError.notFound("no recording '\(id.prefix(80))' in this session") }
        try db.write { db in
            guard let was = try Row.fetchOne(db, sql: "SELECT used FROM recordings WHERE number = ?", arguments: [n]) else {
                throw StudioError.notFound("no recording '\(id.prefix(80))' in this session")
            }
            if let intent { try db.execute(sql: "UPDATE recordings SET intent = ? WHERE number = ?", arguments: [intent.rawValue, n]) }
            if let used { try db.execute(sql: "UPDATE recordings SET used = ? WHERE number = ?", arguments: [used, n]) }
            let wasUsed: Bool = was["used"]
            if (used ?? wasUsed) != wasUsed || (wasUsed && intent != nil) { try Self.dropOpenRound(db) }
        }
    }

    /// N of `live-N`, nil for any other name.
    static func recordingNumber(_ id: String) -> Int? {
        guard id.hasPrefix("live-"), let n = Int(id.dropFirst(5)), n > 0, "live-\(n)" == id else { return nil }
        return n
    }

    static func recording(_ row: Row) -> Recording? {
        let number: Int = row["number"], samplesText: String = row["samples"], paramsText: String = row["params"]
        guard let rows = try? JSONDecoder().decode([[Double]].self, from: Data(samplesText.utf8)),
              case let params = decode(paramsText) else { return nil }
        var samples: [TouchSample] = []
        for r in rows {
            guard r.count == 5, let phase = Int(exactly: r[3]).flatMap({ TouchPhase.allCases.indices.contains($0) ? TouchPhase.allCases[$0] : nil }),
                  let pointer = Int(exactly: r[4]) else { return nil }
            samples.append(TouchSample(t: r[0], x: r[1], y: r[2], phase: phase, pointer: pointer))
        }
        let id = "live-\(number)"
        let intent = (row["intent"] as String?).flatMap(TraceIntent.init(rawValue:))
        let dpr: Double = row["dpr"]
        return Recording(id: id, intent: intent, used: row["used"], screen: [row["width"], row["height"]], dpr: dpr, params: params,
                         trace: Trace(id: id, intent: intent, group: group(dpr: dpr), samples: samples))
    }

    /// The group of a recording (Reference §14.1: who made it): the device it was made on, as
    /// far as the session knows it. The page tells the studio one thing about its device, the
    /// display's device pixel ratio (its `screen` is the preset's phone on every device), so a
    /// session's recordings at one ratio are one group: `studio dpr 2`.
    static func group(dpr: Double) -> String { "studio dpr \(NumberFormat.short(dpr))" }

    /// Parameter sets shown so far.
    public func shownCount() throws -> Int { try db.read { try ShownRecord.fetchCount($0) } }

    /// Deletes the open round and its candidates (they were proposed under a setting that changed).
    static func dropOpenRound(_ db: Database) throws {
        guard let open = try openRound(db) else { return }
        try CandidateRecord.filter(Column("round") == open.number).deleteAll(db)
        try open.delete(db)
    }

    /// The round still waiting for an answer (the latest round without one), if any.
    public func openRound() throws -> Round? {
        try db.read { db in try Self.openRound(db).map { try Self.round(db, $0.number) } }
    }

    /// Stores a new round of `sets` watched on `trace` from `start` and returns it (numbered after the last).
    public func addRound(trace: String, start: Double, sets: [[String: ParamValue]]) throws -> Round {
        try db.write { db in
            let n = (try Int.fetchOne(db, RoundRecord.select(max(Column("number")))) ?? 0) + 1
            try RoundRecord(number: n, at: Self.now(), trace: trace, start: start).insert(db)
            for (slot, set) in sets.enumerated() {
                try CandidateRecord(round: n, slot: slot, params: Self.encode(set)).insert(db)
            }
            return try Self.round(db, n)
        }
    }

    /// Records the answer to round `number` (it must be the open round, and a named candidate
    /// one of its own) and returns the number of answers so far.
    public func answer(round number: Int, _ answer: Answer) throws -> Int {
        try db.write { db in
            guard try Self.openRound(db)?.number == number else {
                throw StudioError.conflict("round \(number) is not the open round; GET /api/candidates gives it")
            }
            let record = ChoiceRecord(round: number, at: Self.now(), answer: answer)
            if let candidate = record.candidate, try !Self.round(db, number).candidates.contains(where: { $0.id == candidate }) {
                throw StudioError.badRequest("candidate \(candidate) is not in round \(number)")
            }
            try record.insert(db)
            return try ChoiceRecord.fetchCount(db)
        }
    }

    /// Undoes the last answer: its round is open again and rounds proposed after it (not yet
    /// answered) are dropped. Returns the number of answers left (404 when there is none).
    public func undoLast() throws -> Int {
        try db.write { db in
            guard let last = try Int.fetchOne(db, ChoiceRecord.select(max(Column("round")))) else {
                throw StudioError.notFound("no choice to undo")
            }
            try ChoiceRecord.deleteOne(db, key: last)
            try CandidateRecord.filter(Column("round") > last).deleteAll(db)
            try RoundRecord.filter(Column("number") > last).deleteAll(db)
            return try ChoiceRecord.fetchCount(db)
        }
    }

    /// Every answered round, in order.
    public func choices() throws -> [Choice] {
        try db.read { db in
            try ChoiceRecord.order(Column("round")).fetchAll(db).map { Choice(round: try Self.round(db, $0.round), answer: $0.answer) }
        }
    }

    /// The latest round without an answer.
    private static func openRound(_ db: Database) throws -> RoundRecord? {
        try RoundRecord.filter(!ChoiceRecord.select(Column("round")).contains(Column("number"))).order(Column("number").desc).fetchOne(db)
    }

    private static func round(_ db: Database, _ n: Int) throws -> Round {
        let record = try RoundRecord.fetchOne(db, key: n)
        let candidates = try CandidateRecord.filter(Column("round") == n).order(Column("slot")).fetchAll(db).map { c in
            Candidate(id: Int(c.id ?? 0), params: decode(c.params))
        }
        return Round(number: n, trace: record?.trace ?? "", start: record?.start ?? 0, candidates: candidates)
    }

    /// A parameter set as stored: JSON with sorted keys (``ParamSet``).
    static func encode(_ params: [String: ParamValue]) throws -> String { try JSONTextEncoder.encode(ParamSet(params)) }

    static func decode(_ text: String) -> [String: ParamValue] {
        (try? JSONDecoder().decode(ParamSet.self, from: Data(text.utf8)))?.values ?? [:]
    }
}

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
    static let databaseTableName = "choices"
    var round: Int
    var at: String, kind: String
    var candidate: Int?

    init(round: Int, at: String, answer: SessionStore.Answer) {
        self.round = round; self.at = at
        switch answer {
        case let .worst(id): kind = "worst"; candidate = id
        case let .best(id): kind = "best"; candidate = id
        case .same: kind = "same"; candidate = nil
        }
    }

    var answer: SessionStore.Answer {
        switch kind {
        case "worst": .worst(candidate ?? -1)
        case "best": .best(candidate ?? -1)
        default: .same
        }
    }
}
