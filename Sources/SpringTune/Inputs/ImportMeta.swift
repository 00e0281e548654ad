import Foundation
import TraceIO

/// `OUT.csv.meta.json`, the sidecar `traces import` writes beside its CSV: where the traces
/// came from and how device units became points. `traces filter` and `traces label` carry it on
/// to their output with a ``TraceStep`` appended; `sweep` copies it into its own meta for every
/// trace file that has one, since the scale changes which preset wins.
public struct ImportMeta: Codable, Sendable, Equatable {
    public var tool = "springtune"
    public var version = SpringTuneVersion.current
    /// `units per pt`, `units per mm`, or a screen mapping, as words; when inputs imported with
    /// different mappings were joined (``carried(by:)``), each input's, separated by `; `.
    public var mapping: String
    public var scale: Double?
    public var unitsPerMM: Double?
    public var screen: [Double]?
    /// Clockwise degrees (the first input's, when joined inputs differ: see ``mapping``).
    public var rotation: Int
    public var deviceInfo: String?
    public var grouping: String
    /// The unit of a csv import's time column, when it was not seconds.
    public var timeUnit: TimeUnit?
    public var sources: [TraceImporter.Summary]
    /// What later commands did to the traces, oldest first.
    public var steps: [TraceStep]?

    enum CodingKeys: String, CodingKey {
        case tool, version, mapping, scale, unitsPerMM = "units_per_mm", screen, rotation, deviceInfo = "device_info", grouping,
             timeUnit = "time_unit", sources, steps
    }

    public init(mapping: ImportMapping, deviceInfo: String?, grouping: ContactGrouping, sources: [TraceImporter.Summary]) {
        self.mapping = mapping.units.description
        switch mapping.units {
        case let .scale(s): scale = s
        case let .unitsPerMM(r): unitsPerMM = r
        case let .screen(w, h): screen = [w, h]
        }
        rotation = mapping.rotation
        self.deviceInfo = deviceInfo
        self.grouping = grouping.rawValue
        timeUnit = mapping.timeUnit == .s ? nil : mapping.timeUnit
        self.sources = sources
    }

    /// The sidecar of a trace CSV.
    public static func path(for csv: String) -> String { csv + ".meta.json" }

    /// The sidecar of `csv`, when there is a readable one.
    public static func read(for csv: String) -> ImportMeta? {
        (try? InputFile.contents(path(for: csv))).flatMap { try? JSONDecoder().decode(ImportMeta.self, from: $0) }
    }

    /// The sidecar of a file `step` wrote from `step.inputs`: their sidecars joined (sources and
    /// earlier steps in input order) with `step` appended. Where the inputs' mappings differ,
    /// ``mapping`` lists each input's in input order (with its rotation when those differ too)
    /// and the numbers they disagree on are left out. Nil when no input has a sidecar.
    public static func carried(by step: TraceStep) -> ImportMeta? {
        let metas = step.inputs.compactMap { read(for: $0.file) }
        guard var joined = metas.first else { return nil }
        for m in metas.dropFirst() {
            if m.scale != joined.scale { joined.scale = nil }
            if m.unitsPerMM != joined.unitsPerMM { joined.unitsPerMM = nil }
            if m.screen != joined.screen { joined.screen = nil }
            if m.deviceInfo != joined.deviceInfo { joined.deviceInfo = nil }
            if m.timeUnit != joined.timeUnit { joined.timeUnit = nil }
            joined.sources += m.sources
            joined.steps = (joined.steps ?? []) + (m.steps ?? [])
        }
        let rotated = Set(metas.map(\.rotation)).count > 1
        let words = metas.map { rotated ? "\($0.mapping), rotated \($0.rotation)°" : $0.mapping }
        if Set(words).count > 1 { joined.mapping = words.joined(separator: "; ") }
        joined.tool = "springtune"
        joined.version = SpringTuneVersion.current
        joined.steps = (joined.steps ?? []) + [step]
        return joined
    }
}

/// A command that rewrote imported traces (`traces filter`, `traces label`), as recorded in
/// the sidecar it carries on.
public struct TraceStep: Codable, Sendable, Equatable {
    /// A trace CSV the step read.
    public struct Input: Codable, Sendable, Equatable {
        public var file: String
        public var sha256: String
    }

    /// `traces filter` or `traces label`.
    public var command: String
    public var inputs: [Input]
    /// What the step did, one entry per option or rule, e.g. `min-travel 40 pt`.
    public var criteria: [String]
    /// Traces read, and traces kept (filter) or labelled (label).
    public var traces: Int
    public var changed: Int

    /// A step over `files` (hashed now, as they were read).
    public init(command: String, files: [String], criteria: [String], traces: Int, changed: Int) throws {
        self.command = command
        inputs = try files.map { Input(file: $0, sha256: try SHA256.file($0)) }
        self.criteria = criteria
        self.traces = traces
        self.changed = changed
    }
}
