import Foundation
import SpringCore
import SpringLayout
import SpringTune
import ToolRuntime

// The studio's answers: the live recordings (`/api/recordings`, `/api/recordings/{id}`, `/api/recordings.meta.json`).
// Each a value type encoded by ``JSONTextEncoder``, with its OpenAPI schema next to its fields. Lengths in pt, times in s, speeds in pt/s.

/// `GET /api/recordings`, and the answer to labelling one: every live gesture kept in the session.
struct RecordingsAnswer: Encodable, StudioContract {
    struct Recording: Encodable, StudioContract {
        /// `live-N`.
        var id: String
        /// `fling`, `drag`, `pinch` or `edge pull`, as the studio's traces are listed.
        var kind: String
        var intent: String?
        /// Whether it is one of the studio's traces.
        var used: Bool
        /// Touch-down to the last lift (s).
        var duration: Double
        /// The page's phone (pt) and the display's device pixel ratio.
        var screen: [Double], dpr: Double
        var params: ParamSet

        static let schemaName = "Recording"
        static var schema: Schema {
            .object([(CodingKeys.id, .string), (.kind, .string), (.intent, Schema.string.nullable), (.used, .boolean), (.duration, .number),
                     (.screen, .array(.number, min: 2, max: 2)), (.dpr, .number), (.params, .ref(ParamSet.self))])
        }
    }

    var recordings: [Recording]
    static let schemaName = "Recordings"
    static var schema: Schema { .object([(CodingKeys.recordings, .array(.ref(Recording.self)))]) }
}

/// `POST /api/recordings/ID` `{intent}`: one of the model's intents.
struct LabelRequest: Decodable, StudioContract {
    /// One of the model's intents (`dismiss`, `keep`, …).
    var intent: TraceIntent?
    /// Whether the recording joins the studio's traces (replay, rounds, evaluate).
    var used: Bool?

    enum CodingKeys: String, CodingKey, CaseIterable { case intent, used }

    init(intent: TraceIntent? = nil, used: Bool? = nil) { self.intent = intent; self.used = used }

    init(from decoder: any Decoder) throws {
        let c = try StudioRequest.fields(decoder, CodingKeys.self)
        let words = TraceIntent.allCases.map(\.rawValue).joined(separator: ", ")
        if let word = try c.field(String.self, .intent, "intent must be one of \(words)") {
            guard let intent = TraceIntent(rawValue: word) else { throw StudioError.badRequest("intent must be one of \(words)") }
            self.intent = intent
        }
        used = try c.field(Bool.self, .used, "used must be true or false")
        guard intent != nil || used != nil else { throw StudioError.badRequest("give intent, used or both") }
    }

    static let schemaName = "Label"
    static var schema: Schema {
        .object([(CodingKeys.intent, .string(oneOf: TraceIntent.allCases.map(\.rawValue))), (.used, .boolean)], optional: [.intent, .used], closed: true)
            .with("minProperties", .number(1))
    }
}

/// `GET /api/recordings.meta.json`: the sidecar of `recordings.csv` (Reference §10.16, live touch).
struct RecordingsMeta: Encodable, StudioContract {
    var source = "studio"
    /// The session file, the preset and its model.
    var session: String, preset: String, model: String
    var recordings: [RecordingsAnswer.Recording]

    enum CodingKeys: CodingKey { case source, session, preset, model, recordings }
    static let schemaName = "RecordingsMeta"
    static var schema: Schema {
        .object([(CodingKeys.source, .string(oneOf: ["studio"])), (.session, .string), (.preset, .string), (.model, .string),
                 (.recordings, .array(.ref(RecordingsAnswer.Recording.self)))])
    }
}

/// `GET`, `PUT` and `DELETE /api/image`: the session's image for the moving layer (``StudioImage``), or null.
struct ImageAnswer: Encodable, StudioContract {
    struct Image: Encodable, StudioContract {
        /// `image/png` or `image/jpeg`; the size (px), image pixels per pt, and the file's size (bytes).
        var type: String, width: Int, height: Int, scale: Int, bytes: Int
        static let schemaName = "Image"
        static var schema: Schema {
            .object([(CodingKeys.type, .string(oneOf: ["image/png", "image/jpeg"])), (.width, .integer), (.height, .integer),
                     (.scale, Schema.integer.with("minimum", .number(1)).with("maximum", .number(3))), (.bytes, .integer)])
        }
    }
    var image: Image?

    init(_ image: StudioImage?) {
        self.image = image.map { Image(type: $0.type, width: $0.width, height: $0.height, scale: $0.scale, bytes: $0.bytes.count) }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(image, forKey: .image)  // null when there is none
    }
    enum CodingKeys: CodingKey { case image }
    static let schemaName = "ImageAnswer"
    static var schema: Schema { .object([(CodingKeys.image, Schema.nullable(Image.self))]) }
}
