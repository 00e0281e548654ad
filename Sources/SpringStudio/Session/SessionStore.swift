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
    /// The database (the store's files in this folder reach it; nothing outside the session does).
    let db: DatabaseQueue
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
