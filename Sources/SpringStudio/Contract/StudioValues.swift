import Foundation
import SpringCore
import SpringLayout
import SpringTune
import ToolRuntime

// The studio's answers: values every answer uses (Reference §10.16): a parameter set, a metrics row and the one-line error.
// Each a value type encoded by ``JSONTextEncoder``, with its OpenAPI schema next to its fields. Lengths in pt, times in s, speeds in pt/s.

/// A parameter set, `{"NAME": number-or-word}` with the names sorted (answers and sessions).
struct ParamSet: Codable, Equatable, StudioContract {
    var values: [String: ParamValue]

    init(_ values: [String: ParamValue]) { self.values = values }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: NameKey.self)
        for name in values.keys.sorted() { try c.encode(values[name]!, forKey: NameKey(name)) }
    }

    /// Any names (checked against the axes by ``StudioRequest/checked(_:axes:)``); each value a
    /// number or a word (400 otherwise).
    init(from decoder: any Decoder) throws {
        guard let c = try? decoder.container(keyedBy: NameKey.self) else { throw StudioError.badRequest("params must be a JSON object") }
        var values: [String: ParamValue] = [:]
        for key in c.allKeys {
            guard let value = try? c.decode(ParamValue.self, forKey: key) else {
                throw StudioError.badRequest("params.\(key.stringValue.prefix(80)) must be a number or a word")
            }
            values[key.stringValue] = value
        }
        self.values = values
    }

    static let schemaName = "Params"
    static let value = Schema.oneOf([.number, .string])
    static var schema: Schema { .map(value).described("axis name to number or word; names not given keep the preset's value") }
}

/// A coding key of any name.
struct NameKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init(stringValue: String) { self.init(stringValue) }
    init?(intValue _: Int) { nil }
}

/// A report row (or a trace's metrics) by column, in column order: a number, `"inf"` (never
/// settles) or null (undefined), in the metric's unit.
struct MetricRow: Encodable, StudioContract {
    var columns: [(name: String, value: MetricValue)]

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: NameKey.self)
        for (name, value) in columns { try c.encode(MetricNumber(value), forKey: NameKey(name)) }
    }

    static let schemaName = "Metrics"
    static var schema: Schema { .map(MetricNumber.schema) }
}

/// Every refusal: `{"error": one line}` with a 4xx status.
struct ErrorAnswer: Encodable, StudioContract {
    var error: String
    static let schemaName = "Error"
    static var schema: Schema { .object([(CodingKeys.error, .string)], closed: true) }
}
