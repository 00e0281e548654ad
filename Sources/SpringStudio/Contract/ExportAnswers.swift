import Foundation
import SpringCore
import SpringLayout
import SpringTune
import ToolRuntime

// The studio's answers: `POST /api/code` and `POST /api/export`: the chosen set handed off.
// Each a value type encoded by ``JSONTextEncoder``, with its OpenAPI schema next to its fields. Lengths in pt, times in s, speeds in pt/s.

/// `POST /api/code`: the set in the asked form, as `springtune export --format` writes it.
struct CodeAnswer: Encodable, StudioContract {
    var format: String
    var text: String
    static let schemaName = "CodeAnswer"
    static var schema: Schema { .object([(CodingKeys.format, .string), (.text, .string)]) }
}

/// `POST /api/export`: where the preset was written.
struct ExportAnswer: Encodable, StudioContract {
    var path: String
    static let schemaName = "ExportAnswer"
    static var schema: Schema { .object([(CodingKeys.path, .string)]) }
}
