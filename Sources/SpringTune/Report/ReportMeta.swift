import Foundation
import SpringCore
import SpringLayout
import ToolRuntime
import TraceIO

/// `report.meta.json`, the sidecar of a sweep's `report.csv` (Reference §9): written by `sweep`,
/// read back by `export`. It carries the whole preset document the sweep ran, so an export
/// never depends on the original preset file still being where it was.
public struct ReportMeta: Codable, Sendable {
    /// One trace file of the sweep.
    public struct TraceFile: Codable, Sendable, Equatable {
        public var file: String
        public var sha256: String
        /// Traces read from it.
        public var traces: Int
        /// `trace: reason` for the traces dropped by `--skip-invalid`: the first
        /// ``Echo/listLimit``, each cut to ``Echo/limit`` characters, then "… and N more".
        public var skipped: [String]?
        /// The file's import sidecar (`FILE.meta.json` from `traces import`), when it has one.
        public var imported: ImportMeta?
    }

    public var tool = "springtune"
    public var version = SpringTuneVersion.current
    /// The preset file or bundled name the sweep was started with (for the record only).
    public var presetFile: String
    /// The preset document as the sweep read it.
    public var preset: Preset
    /// Values every parameter set shares (the preset's with `--set` applied), swept names excluded.
    public var values: [String: ParamValue]
    /// The swept axes with their values in grid order, always as explicit lists
    /// (``SweepAxis/listed``): `name` and `values`.
    public var axes: [SweepAxis]
    /// Parameter sets in the whole grid.
    public var configs: Int
    /// `I/N` when the sweep ran one shard.
    public var shard: String?
    /// First and last config id of this report.
    public var configIds: [Int]
    public var traces: [TraceFile]
    public var frameRate: Double
    public var estimator: VelocityEstimator
    public var scene: Scene
    public var threads: Int
    /// Seconds the sweep took, end to end.
    public var wallTime: Double
    /// Chart images written (file names in the report's folder).
    public var charts: [String]
    /// Why charts were not drawn, when they were not.
    public var chartsSkipped: String?
    /// Config ids a partial merge (`merge --allow-partial`) lacks.
    public var missing: [Int]?
    /// For a search's report (Reference §13): how it ran and what it chose. Its rows are then a
    /// list in evaluation order (`config_id` is the evaluation), not a grid.
    public var search: SearchMeta?

    enum CodingKeys: String, CodingKey {
        case tool, version, presetFile = "preset_file", preset, values, axes, configs, shard, configIds = "config_ids", traces
        case frameRate = "frame_rate", estimator, scene, threads, wallTime = "wall_time", charts, chartsSkipped = "charts_skipped", missing, search
    }

    /// The sidecar of a report: `DIR/report.csv` → `DIR/report.meta.json`.
    public static func path(forReport report: String) -> String {
        URL(fileURLWithPath: report).deletingPathExtension().appendingPathExtension("meta.json").path
    }

    /// Reads the sidecar of `report` (exit 66 when missing, 65 when it does not decode).
    public static func read(forReport report: String) throws -> ReportMeta {
        let file = path(forReport: report)
        guard FileManager.default.fileExists(atPath: file) else {
            throw ToolError(.noInput, "\(file): missing sidecar (export needs the report's meta.json)")
        }
        let data = try InputFile.contents(file)
        do {
            return try JSONDecoder().decode(ReportMeta.self, from: data)
        } catch let error as DecodingError {
            throw ToolError(.dataError, "\(file): \(PresetError(error).description)")
        } catch {
            throw ToolError(.dataError, "\(file): not valid JSON")
        }
    }

    /// The document's bytes: sorted keys, two-space indentation, so the same meta gives the same bytes.
    public func encoded() throws -> String { try JSONCoding.encode(self) }
}

/// springtune's one way to write JSON documents with `Codable`: sorted keys (deterministic
/// bytes), pretty-printed, slashes unescaped, a trailing newline.
public enum JSONCoding {
    public static func encode<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
        } catch {
            throw ToolError(.software, "cannot encode JSON: \(error)")
        }
    }
}

extension SweepAxis {
    /// The axis as its list of values, without the range it may have been given as (how the
    /// sidecar and the checkpoint key write it).
    public var listed: SweepAxis { SweepAxis(name: name, values: values) }
}
