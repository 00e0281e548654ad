import Foundation
import SpringLayout
import ToolRuntime
import TraceIO

/// Finds presets and bundled trace sets.
///
/// springtune's data is two folders, the bundled presets and the bundled trace sets, found in
/// this order:
/// - `SPRINGTUNE_PRESETS` (presets) and `SPRINGTUNE_TRACES` (trace sets), when set;
/// - beside the executable's real location (`/proc/self/exe` resolved, not `argv[0]`): an
///   install, `PREFIX/bin/springtune` → `PREFIX/share/springtune/presets` and `…/traces`, or the
///   checkout it was built in, walking up from `.build/…/springtune` to `Presets/` and
///   `Sources/SpringTune/Resources/Traces/`;
/// - for trace sets only, beside a `SPRINGTUNE_PRESETS` folder laid out either way;
/// - the current directory's `Presets/` (and `Sources/SpringTune/Resources/Traces/`).
///
/// When neither is found, `names()` and `load(_:)` throw one line with exit 69 (unavailable).
/// `--preset` also takes a path to any preset file. A preset's `traces` entries are paths
/// relative to the bundled trace folder or, for an exported preset, absolute or relative to
/// the preset file.
public struct PresetStore: Sendable {
    public var presetsDirectory: URL?

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        if let dir = environment["SPRINGTUNE_PRESETS"], !dir.isEmpty {
            presetsDirectory = URL(fileURLWithPath: dir)
            return
        }
        let candidates = DataFolders.layouts().map(\.presets) + [DataFolders.currentDirectory.presets]
        presetsDirectory = candidates.first(where: DataFolders.holdsPresets)
    }

    /// Bundled trace folder (where `traces` entries such as `default/aosp-flings.csv` live).
    /// When none is found, the folder an install would have (which does not exist); `load(_:)`
    /// then refuses presets that need it.
    public static var tracesDirectory: URL {
        DataFolders.traces ?? DataFolders.expectedTraces
    }

    /// Names of the bundled presets. Throws (exit 69) when no presets folder was found or it
    /// holds no preset, so a listing is never silently empty.
    public func names() throws -> [String] {
        guard let dir = presetsDirectory else { throw Self.noPresets }
        let files = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        let names = files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
        guard !names.isEmpty else {
            throw ToolError(.unavailable, "\(dir.path): no presets (*.json) in this folder (SPRINGTUNE_PRESETS names the bundled presets' folder)")
        }
        return names
    }

    /// A loaded preset and the file it came from.
    public struct Loaded: Sendable {
        public var preset: Preset
        public var path: String
        public var kind: ModelKind

        public init(preset: Preset, path: String, kind: ModelKind) {
            self.preset = preset; self.path = path; self.kind = kind
        }
    }

    /// Loads a preset by bundled name or by path.
    public func load(_ nameOrPath: String) throws -> Loaded {
        let path: String
        if nameOrPath.hasSuffix(".json") || nameOrPath.contains("/") {
            path = nameOrPath
        } else {
            guard let dir = presetsDirectory else { throw Self.noPresets }
            path = dir.appendingPathComponent(nameOrPath + ".json").path
            guard FileManager.default.fileExists(atPath: path) else {
                let known = (try? names()) ?? []
                throw ToolError(.usage, "unknown preset '\(nameOrPath)'\(NameSuggestion.hint(nameOrPath, among: known)) (bundled: \(known.isEmpty ? "none" : known.joined(separator: ", ")))")
            }
        }
        let loaded = try Self.decode(try InputFile.contents(path), path: path)
        try Self.checkBundledTraces(loaded)
        return loaded
    }

    /// A preset file's bytes read as `load` reads them: the JSON, the model, its parameters and
    /// the objective's names (65 with `path` and the key path). `export` runs what it wrote
    /// through it, so it never writes a preset this reader refuses.
    public static func decode(_ data: Data, path: String) throws -> Loaded {
        do {
            let preset = try Preset.decode(data, models: ModelKind.registry, reportColumns: ModelKind.reportColumnsByModel)
            let kind = try ModelKind(name: preset.model)
            _ = try ParameterValues.resolve(kind.values(of: preset), specs: kind.parameters)
            return Loaded(preset: preset, path: path, kind: kind)
        } catch let error as PresetError {
            throw ToolError(.dataError, "\(path): \(error.description)")
        } catch let error as ToolError {
            throw ToolError(error.code, "\(path): model: \(error.message)")
        }
    }

    /// Resolves a preset's trace entries to files.
    public static func traceFiles(for loaded: Loaded) -> [String] {
        let presetDir = URL(fileURLWithPath: loaded.path).deletingLastPathComponent()
        return loaded.preset.traces.map { entry in
            if entry.hasPrefix("/") { return entry }
            let bundled = tracesDirectory.appendingPathComponent(entry)
            if FileManager.default.fileExists(atPath: bundled.path) { return bundled.path }
            return presetDir.appendingPathComponent(entry).path
        }
    }

    /// Without a bundled trace folder, a relative entry that is not beside the preset either
    /// can only have meant a bundled set: one line, exit 69, instead of a missing-file error
    /// that would send the user looking for a path they never wrote.
    static func checkBundledTraces(_ loaded: Loaded) throws {
        guard DataFolders.traces == nil else { return }
        let presetDir = URL(fileURLWithPath: loaded.path).deletingLastPathComponent()
        for entry in loaded.preset.traces where !entry.hasPrefix("/") {
            if FileManager.default.fileExists(atPath: presetDir.appendingPathComponent(entry).path) { continue }
            throw ToolError(.unavailable, "\(loaded.path): bundled trace set '\(entry)' not found: no trace folder at \(DataFolders.expectedTraces.path) or in a checkout above the executable (reinstall with `make install`, or set SPRINGTUNE_TRACES)")
        }
    }

    static var noPresets: ToolError {
        ToolError(.unavailable, "no bundled presets: no folder at \(DataFolders.expectedPresets.path), in a checkout above the executable or in ./Presets (reinstall with `make install`, set SPRINGTUNE_PRESETS, or pass a preset file)")
    }
}

/// Where the data folders can be, given the executable's real location.
enum DataFolders {
    /// The folder holding the running executable, symbolic links resolved: the kernel's
    /// `/proc/self/exe` on Linux (argv[0] may be a bare name found on PATH, or a link).
    static let executableDirectory: URL? = {
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"), target.hasPrefix("/") {
            return URL(fileURLWithPath: target).deletingLastPathComponent()
        }
        return Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent()
    }()

    /// Candidate (presets, traces) folder pairs beside the executable, best first: an install's
    /// `../share/springtune`, then a checkout up to six levels above (`.build/<triple>/release`).
    static func layouts() -> [(presets: URL, traces: URL)] {
        guard var dir = executableDirectory else { return [] }
        let share = dir.deletingLastPathComponent().appendingPathComponent("share/springtune")
        var pairs = [(share.appendingPathComponent("presets"), share.appendingPathComponent("traces"))]
        for _ in 0..<6 {
            pairs.append(checkout(dir))
            dir = dir.deletingLastPathComponent()
        }
        return pairs
    }

    static func checkout(_ root: URL) -> (presets: URL, traces: URL) {
        (root.appendingPathComponent("Presets"), root.appendingPathComponent("Sources/SpringTune/Resources/Traces"))
    }

    static var currentDirectory: (presets: URL, traces: URL) {
        checkout(URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
    }

    static var expectedPresets: URL { layouts().first?.presets ?? URL(fileURLWithPath: "/usr/local/share/springtune/presets") }
    static var expectedTraces: URL { layouts().first?.traces ?? URL(fileURLWithPath: "/usr/local/share/springtune/traces") }

    static func holdsPresets(_ dir: URL) -> Bool {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return files.contains { $0.hasSuffix(".json") }
    }

    static func isDirectory(_ url: URL) -> Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir) && isDir.boolValue
    }

    /// The bundled trace folder, looked up once per process.
    static let traces: URL? = {
        let env = ProcessInfo.processInfo.environment
        if let dir = env["SPRINGTUNE_TRACES"], !dir.isEmpty { return URL(fileURLWithPath: dir) }
        var candidates: [URL] = []
        if let presets = env["SPRINGTUNE_PRESETS"], !presets.isEmpty {
            let parent = URL(fileURLWithPath: presets).deletingLastPathComponent()
            candidates += [parent.appendingPathComponent("traces"), checkout(parent).traces]
        }
        candidates += layouts().map(\.traces) + [currentDirectory.traces]
        return candidates.first(where: isDirectory)
    }()
}
