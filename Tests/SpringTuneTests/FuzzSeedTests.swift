import Foundation
import FuzzTargets
import Testing

/// Every fuzz harness fed every file of its seed corpus (Fuzz/seeds.txt), as a libFuzzer run
/// begins: each must end in results or the library's error, never a trap (a trap ends the test
/// process). This keeps the harnesses compiling and passing on every `swift test`; the long runs
/// from those seeds are `make fuzz`.
struct FuzzSeedTests {
    /// Fuzz/seeds.txt: a harness's name, then shell globs of its seed files.
    static let seeds: [String: [String]] = {
        let text = (try? String(contentsOf: Fixture.repo.appendingPathComponent("Fuzz/seeds.txt"), encoding: .utf8)) ?? ""
        var out: [String: [String]] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let words = line.split(separator: " ").map(String.init)
            if let name = words.first { out[name] = Array(words.dropFirst()) }
        }
        return out
    }()

    /// The files a glob of seeds.txt names: a path, or a folder's files whose names match a
    /// last component with one `*` (all that seeds.txt uses).
    static func files(_ glob: String) -> [URL] {
        let url = Fixture.repo.appendingPathComponent(glob)
        let pattern = url.lastPathComponent
        guard let star = pattern.firstIndex(of: "*") else { return [url] }
        let (prefix, suffix) = (pattern[..<star], pattern[pattern.index(after: star)...])
        let folder = url.deletingLastPathComponent()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(suffix) && $0.count >= pattern.count - 1 }.sorted()
            .map { folder.appendingPathComponent($0) }
    }

    @Test func seedsListEveryHarnessAndNoOther() {
        #expect(Set(Self.seeds.keys) == Set(FuzzHarness.all.map(\.name)))
    }

    @Test(arguments: FuzzHarness.all.map(\.name))
    func everySeedEndsWithoutATrap(_ name: String) throws {
        let harness = try #require(FuzzHarness.named(name))
        let files = (Self.seeds[name] ?? []).flatMap(Self.files)
        #expect(!files.isEmpty, "no seed file for \(name)")
        for file in files {
            let bytes = try #require(FileManager.default.contents(atPath: file.path), "\(file.path) unreadable")
            harness.run([UInt8](bytes))
        }
    }
}
