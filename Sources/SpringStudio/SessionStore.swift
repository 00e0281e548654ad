import Foundation
import GRDB
import SpringLayout
import SpringTune
import ToolRuntime

/// A studio session on disk: one SQLite database (through GRDB, in WAL mode) with every
/// parameter set shown, every round of candidates and every answer, with timestamps
/// (Reference §10.16). A second studio on the same file is refused (exit 73): the file is held
/// with an exclusive `flock` for the life of the process.
public final class SessionStore: Sendable {
    /// A round of candidates: its number, the trace they were watched on, and the sets.
    public struct Round: Sendable, Equatable {
        public var number: Int
        public var trace: String
        public var candidates: [Candidate]
    }

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
        var config = Configuration()
        config.journalMode = .wal
        config.busyMode = .timeout(2)
        do {
            db = try DatabaseQueue(path: path, configuration: config)
            try Self.migrator.migrate(db)
            try db.write { db in
                try db.execute(sql: "INSERT OR IGNORE INTO session (key, value) VALUES ('preset', ?), ('model', ?), ('created', ?)",
                               arguments: [preset, model, Self.now()])
            }
            let owner = try db.read { try String.fetchOne($0, sql: "SELECT value FROM session WHERE key = 'preset'") }
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
        return m
    }

    static func now() -> String { ISO8601DateFormatter().string(from: Date()) }

    /// Records that `params` was shown (a replay the page asked for).
    public func recordShown(_ params: [String: ParamValue]) throws {
        try db.write { try $0.execute(sql: "INSERT INTO shown (at, params) VALUES (?, ?)", arguments: [Self.now(), Self.encode(params)]) }
    }

    /// Parameter sets shown so far.
    public func shownCount() throws -> Int { try db.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM shown") ?? 0 } }

    /// The round still waiting for an answer (the latest round without one), if any.
    public func openRound() throws -> Round? {
        try db.read { db in
            guard let n = try Int.fetchOne(db, sql: "SELECT number FROM rounds WHERE number NOT IN (SELECT round FROM choices) ORDER BY number DESC LIMIT 1") else { return nil }
            return try Self.round(db, n)
        }
    }

    /// Stores a new round of `sets` watched on `trace` and returns it (numbered after the last).
    public func addRound(trace: String, sets: [[String: ParamValue]]) throws -> Round {
        try db.write { db in
            let n = (try Int.fetchOne(db, sql: "SELECT MAX(number) FROM rounds") ?? 0) + 1
            try db.execute(sql: "INSERT INTO rounds (number, at, trace) VALUES (?, ?, ?)", arguments: [n, Self.now(), trace])
            for (slot, set) in sets.enumerated() {
                try db.execute(sql: "INSERT INTO candidates (round, slot, params) VALUES (?, ?, ?)", arguments: [n, slot, Self.encode(set)])
            }
            return try Self.round(db, n)
        }
    }

    /// Records the answer to round `number` (it must be the open round, and a named candidate
    /// one of its own) and returns the number of answers so far.
    public func answer(round number: Int, _ answer: Answer) throws -> Int {
        try db.write { db in
            guard let open = try Int.fetchOne(db, sql: "SELECT number FROM rounds WHERE number NOT IN (SELECT round FROM choices) ORDER BY number DESC LIMIT 1"),
                  open == number else {
                throw StudioError.conflict("round \(number) is not the open round; GET /api/candidates gives it")
            }
            let round = try Self.round(db, number)
            var candidate: Int?, kind = "same"
            switch answer {
            case let .worst(id): candidate = id; kind = "worst"
            case let .best(id): candidate = id; kind = "best"
            case .same: break
            }
            if let candidate, !round.candidates.contains(where: { $0.id == candidate }) {
                throw StudioError.badRequest("candidate \(candidate) is not in round \(number)")
            }
            try db.execute(sql: "INSERT INTO choices (round, at, kind, candidate) VALUES (?, ?, ?, ?)", arguments: [number, Self.now(), kind, candidate])
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM choices") ?? 0
        }
    }

    /// Undoes the last answer: its round is open again and rounds proposed after it (not yet
    /// answered) are dropped. Returns the number of answers left (404 when there is none).
    public func undoLast() throws -> Int {
        try db.write { db in
            guard let last = try Int.fetchOne(db, sql: "SELECT MAX(round) FROM choices") else {
                throw StudioError.notFound("no choice to undo")
            }
            try db.execute(sql: "DELETE FROM choices WHERE round = ?", arguments: [last])
            try db.execute(sql: "DELETE FROM candidates WHERE round > ?", arguments: [last])
            try db.execute(sql: "DELETE FROM rounds WHERE number > ?", arguments: [last])
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM choices") ?? 0
        }
    }

    /// Every answered round, in order.
    public func choices() throws -> [Choice] {
        try db.read { db in
            try Row.fetchAll(db, sql: "SELECT round, kind, candidate FROM choices ORDER BY round").map { row in
                let kind: String = row["kind"], id: Int? = row["candidate"]
                let answer: Answer = kind == "worst" ? .worst(id ?? -1) : kind == "best" ? .best(id ?? -1) : .same
                return Choice(round: try Self.round(db, row["round"]), answer: answer)
            }
        }
    }

    private static func round(_ db: Database, _ n: Int) throws -> Round {
        let trace = try String.fetchOne(db, sql: "SELECT trace FROM rounds WHERE number = ?", arguments: [n]) ?? ""
        let candidates = try Row.fetchAll(db, sql: "SELECT id, params FROM candidates WHERE round = ? ORDER BY slot", arguments: [n]).map { row in
            Candidate(id: row["id"], params: decode(row["params"]))
        }
        return Round(number: n, trace: trace, candidates: candidates)
    }

    /// A parameter set as stored: JSON with sorted keys.
    static func encode(_ params: [String: ParamValue]) -> String {
        JSONValue.object(params.keys.sorted().map { k in
            switch params[k]! {
            case let .number(d): (k, .number(d))
            case let .text(s): (k, .string(s))
            }
        }).compact()
    }

    static func decode(_ text: String) -> [String: ParamValue] {
        guard let input = try? JSONInput.parse(Array(text.utf8)), case let .object(fields) = input else { return [:] }
        var out: [String: ParamValue] = [:]
        for (k, v) in fields {
            switch v {
            case let .number(d): out[k] = .number(d)
            case let .string(s): out[k] = .text(s)
            default: break
            }
        }
        return out
    }
}
