import Foundation
import TraceIO

/// `OUT.csv.meta.json`, the sidecar `traces import` writes beside its CSV: where the traces
/// came from and how device units became points. `sweep` copies it into its own meta for every
/// trace file that has one, since the scale changes which preset wins.
public struct ImportMeta: Codable, Sendable, Equatable {
    public var tool = "springtune"
    public var version = SpringTuneVersion.current
    /// `units per pt`, `units per mm`, or a screen mapping, as words.
    public var mapping: String
    public var scale: Double?
    public var unitsPerMM: Double?
    public var screen: [Double]?
    /// Clockwise degrees.
    public var rotation: Int
    public var deviceInfo: String?
    public var grouping: String
    public var sources: [TraceImporter.Summary]

    enum CodingKeys: String, CodingKey {
        case tool, version, mapping, scale, unitsPerMM = "units_per_mm", screen, rotation, deviceInfo = "device_info", grouping, sources
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
        self.sources = sources
    }

    /// The sidecar of a trace CSV.
    public static func path(for csv: String) -> String { csv + ".meta.json" }

    /// The sidecar of `csv`, when there is a readable one.
    public static func read(for csv: String) -> ImportMeta? {
        FileManager.default.contents(atPath: path(for: csv)).flatMap { try? JSONDecoder().decode(ImportMeta.self, from: $0) }
    }
}
