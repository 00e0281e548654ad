import Foundation

/// Paths to the real recordings copied into `Tests/Data` (see NOTICE).
enum TestData {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Data")

    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// A temporary file holding `text`, removed by the caller.
    static func temp(_ text: String, name: String = "t.csv") throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("springtune-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }
}
