import Foundation
import GRDB
import SpringCore
import SpringTune
import Testing
@testable import SpringStudio

/// A session written by the studio before the recordings became a GRDB record
/// (`Tests/Data/sessions/recordings-v4.sqlite`, schema v4, each sample's phase stored as its
/// index in `TouchPhase.allCases`; written by `make-fixture.py` with the binary of c0a2995)
/// resumes with the same recordings: migration v5 stores the phases by name, and the API gives
/// the recordings and their CSV exactly as that binary gave them (`recordings-v4.json`).
@Suite struct SessionFixtureTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../Data/sessions").standardized.path

    static func copy() throws -> String {
        let target = NSTemporaryDirectory() + "fixture-\(UUID().uuidString)/s.sqlite"
        try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: folder + "/recordings-v4.sqlite", toPath: target)
        return target
    }

    static func expected() throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/recordings-v4.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func oldSessionResumesWithTheSameRecordings() throws {
        let path = try Self.copy()
        let store = try SessionStore(path: path, preset: "clear-pinch", model: "pinch-fold")
        let recordings = try store.recordings()
        #expect(recordings.map(\.id) == ["live-1", "live-2"])
        #expect(recordings.map(\.used) == [true, false])
        #expect(recordings.map(\.intent) == [.create, nil])
        #expect(recordings[0].trace.samples.count == 62 && recordings[1].trace.samples.count == 25)
        #expect(recordings[1].trace.samples.last?.phase == .cancelled && recordings[0].trace.samples.last?.phase == .ended)

        let api = try StudioAPI(engine: try StudioEngine(loaded: try PresetStore().load("clear-pinch"), files: []), store: store)
        let expected = try Self.expected()
        #expect(try api.recordingsCSV() == expected["csv"] as? String, "recordings.csv byte for byte as the previous binary wrote it")
        let answer = try JSONSerialization.jsonObject(with: Data(try JSONTextEncoder.encode(try api.recordings()).utf8)) as? NSDictionary
        #expect(answer == expected["recordings"] as? NSDictionary, "GET /api/recordings as the previous binary answered it")
    }

    /// After v5 the column holds phase names; the v4 numbers are gone.
    @Test func migrationStoresPhasesByName() throws {
        let path = try Self.copy()
        let store = try SessionStore(path: path, preset: "clear-pinch", model: "pinch-fold")
        let texts = try store.db.read { try String.fetchAll($0, sql: "SELECT samples FROM recordings ORDER BY number") }
        #expect(texts.count == 2)
        #expect(texts[0].hasPrefix(#"[[10,195,400,"began",0]"#))
        #expect(texts[1].hasSuffix(#""cancelled",0]]"#))
        let applied = try store.db.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier") }
        #expect(applied == ["v1", "v2", "v3", "v4", "v5", "v6"])
        // A new recording is stored the same way and reads back.
        let id = try store.addRecording(samples: [TouchSample(t: 0, x: 1, y: 2, phase: .began, pointer: 0), TouchSample(t: 0.1, x: 1, y: 3, phase: .ended, pointer: 0)],
                                        screen: [390, 844], dpr: 2, params: [:])
        #expect(id == "live-3")
        #expect(try store.recordings().last?.trace.samples.map(\.phase) == [.began, .ended])
    }

    /// An edited session's rows the live socket could not have written are skipped, not
    /// replayed, and left in the file as they are: bad JSON, an unknown phase, a coordinate of
    /// 1e308 pt, a screen of -5 pt, a ratio of 0, samples out of time order.
    @Test func editedRecordingsAreSkippedAndLeftAsTheyAre() throws {
        let path = try Self.copy()
        let store = try SessionStore(path: path, preset: "clear-pinch", model: "pinch-fold")
        let rows = [#"not json"#, #"[[0,1,2,"sideways",0]]"#, #"[[0,1e308,2,"began",0],[1,1,2,"ended",0]]"#,
                    #"[[1,1,2,"began",0],[0,1,2,"ended",0]]"#, #"[[0,1,2,"began",0],[1,1,2,"ended",0]]"#, #"[[0,1,2,"began",0],[1,1,2,"ended",0]]"#]
        let screens: [(Double, Double, Double)] = [(390, 844, 2), (390, 844, 2), (390, 844, 2), (390, 844, 2), (1e308, -5, 2), (390, 844, 0)]
        try store.db.write { db in
            for (k, (samples, s)) in zip(rows, screens).enumerated() {
                try db.execute(sql: "INSERT INTO recordings (number, at, width, height, dpr, params, samples, used) VALUES (?, 'x', ?, ?, ?, '{}', ?, 1)",
                               arguments: [10 + k, s.0, s.1, s.2, samples])
            }
        }
        #expect(try store.recordings().map(\.id) == ["live-1", "live-2"])
        let kept = try store.db.read { try String.fetchAll($0, sql: "SELECT samples FROM recordings WHERE number >= 10 ORDER BY number") }
        #expect(kept == rows)
    }
}
