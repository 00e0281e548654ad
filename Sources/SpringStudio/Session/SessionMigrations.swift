import Foundation
import GRDB

extension SessionStore {
    /// The schema, version by version (GRDB records the versions applied in the file). A
    /// migration is never edited once released: a session written by an earlier studio is
    /// brought forward by the versions it lacks, in order.
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
        // A sample's phase by its name (`[t, x, y, "ended", pointer]`), not by its index in
        // `TouchPhase.allCases` (`[t, x, y, 2, pointer]`, v3-v4): a reordered enum would have
        // read every saved gesture with other phases. The order below is the enum's as v3-v4
        // wrote it, fixed here for good; a row that does not read as v4 wrote it is left as it
        // is (it did not read back before either, and is skipped).
        m.registerMigration("v5") { db in
            let v4Phases = ["began", "moved", "ended", "cancelled"]
            for row in try Row.fetchAll(db, sql: "SELECT number, samples FROM recordings") {
                let text: String = row["samples"]
                guard let rows = try? JSONDecoder().decode([[Double]].self, from: Data(text.utf8)) else { continue }
                var samples: [StoredSample] = []
                for r in rows {
                    guard r.count == 5, let i = Int(exactly: r[3]), v4Phases.indices.contains(i), let pointer = Int(exactly: r[4]) else {
                        samples = []
                        break
                    }
                    samples.append(StoredSample(t: r[0], x: r[1], y: r[2], phase: v4Phases[i], pointer: pointer))
                }
                guard !samples.isEmpty || rows.isEmpty else { continue }
                try db.execute(sql: "UPDATE recordings SET samples = ? WHERE number = ?",
                               arguments: [try StoredSample.text(samples), row["number"] as Int])
            }
        }
        // The designer's image for the moving layer (StudioImage): one row, its bytes as uploaded.
        m.registerMigration("v6") { db in
            try db.execute(sql: """
                CREATE TABLE image (id INTEGER PRIMARY KEY CHECK (id = 1), type TEXT NOT NULL, scale INTEGER NOT NULL, bytes BLOB NOT NULL)
                """)
        }
        return m
    }
}
