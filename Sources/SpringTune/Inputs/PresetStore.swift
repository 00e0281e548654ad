import Foundation
import SpringLayout
import TraceIO

/// Finds presets and bundled trace sets.
///
/// Presets are the JSON files of the checkout's `Presets/` folder, found from
/// `SPRINGTUNE_PRESETS`, else by walking up from the executable (a build inside the checkout),
/// else from the current directory. `--preset` also takes a path to any preset file.
/// A preset's `traces` entries are paths relative to the bundled trace folder (the
/// `SpringTune` resource bundle) or, for an exported preset, absolute or relative to the
/// preset file.
public struct PresetStore: Sendable {
    public var presetsDirectory: URL?

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        if let dir = environment["SPRINGTUNE_PRESETS"] {
            presetsDirectory = URL(fileURLWithPath: dir)
            return
        }
        var candidates: [URL] = []
        var dir = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            candidates.append(dir.appendingPathComponent("Presets"))
            dir = dir.deletingLastPathComponent()
        }
        candidates.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("Presets"))
        presetsDirectory = candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("evernote.json").path) }
    }

    /// Bundled trace folder.
    public static var tracesDirectory: URL {
        Bundle.module.resourceURL!.appendingPathComponent("Traces")
    }

    /// Names of the bundled presets.
    public func names() -> [String] {
        guard let dir = presetsDirectory,
              let files = try? FileManager.default.contentsOfDirectory(atPath: dir.path) else { return [] }
        return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
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
            guard let dir = presetsDirectory else {
                throw ToolError(.noInput, "no Presets folder found (set SPRINGTUNE_PRESETS, or pass a preset file path)")
            }
            path = dir.appendingPathComponent(nameOrPath + ".json").path
            guard FileManager.default.fileExists(atPath: path) else {
                throw ToolError(.usage, "unknown preset '\(nameOrPath)' (bundled: \(names().joined(separator: ", ")))")
            }
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw ToolError(.noInput, "\(path): cannot read preset") }
        do {
            let preset = try Preset.decode(data)
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
}
