import Foundation
import Hummingbird
import HummingbirdWebSocket
import NIOCore
import SpringTune

/// One operation of the studio's API: its entry in the OpenAPI document (``StudioOpenAPI/Endpoint``:
/// method, path, id, request and answer types, statuses) and how the server answers it. The
/// router routes exactly ``StudioOperations/all`` (and the page's files), and the document lists
/// exactly them, so a route cannot be in one and not the other (`StudioRouterTests` compares the
/// router's routes with the document).
struct StudioOperation: Sendable {
    /// An HTTP answer, or the live WebSocket (``StudioServer/live(_:path:api:gate:)``).
    enum Handler: Sendable {
        case http(@Sendable (StudioAPI, Request, BasicWebSocketRequestContext) async throws -> Response)
        case webSocket
    }

    var endpoint: StudioOpenAPI.Endpoint
    var handler: Handler

    /// A JSON body decoded into `Body` (400 with its reason, 413 over ``StudioServer/maxBody``),
    /// answered with `answer` off the cooperative pool.
    static func body<Body: Decodable & Sendable & StudioContract, Answer: Encodable & StudioContract>(
        _ method: String, _ path: String, id: String, errors: [Int],
        _ answer: @escaping @Sendable (StudioAPI, Body, BasicWebSocketRequestContext) throws -> Answer
    ) -> StudioOperation {
        StudioOperation(endpoint: .init(method: method, path: path, id: id, request: Body.self, answer: Answer.self, errors: errors), handler: .http { api, request, context in
            let input = try StudioRequest.decode(Body.self, from: try await StudioServer.body(request))
            return StudioServer.json(text: try await StudioServer.blocking { try JSONTextEncoder.encode(try answer(api, input, context)) })
        })
    }

    /// No body; answered with `answer` off the cooperative pool.
    static func answer<Answer: Encodable & StudioContract>(
        _ method: String, _ path: String, id: String, errors: [Int], query: [(name: String, schema: Schema)] = [],
        _ answer: @escaping @Sendable (StudioAPI, Request) throws -> Answer
    ) -> StudioOperation {
        StudioOperation(endpoint: .init(method: method, path: path, id: id, answer: Answer.self, errors: errors, query: query), handler: .http { api, request, _ in
            StudioServer.json(text: try await StudioServer.blocking { try JSONTextEncoder.encode(try answer(api, request)) })
        })
    }

    /// A file: `type` and `name` (the download's file name), the bytes from `bytes`.
    static func file(_ path: String, id: String, errors: [Int], type: String, description: String,
                     name: @escaping @Sendable (StudioAPI) -> String, _ bytes: @escaping @Sendable (StudioAPI) throws -> ByteBuffer) -> StudioOperation {
        StudioOperation(endpoint: .init(method: "get", path: path, id: id, errors: errors, file: (type, description)), handler: .http { api, _, _ in
            let buffer = try await StudioServer.blocking { try bytes(api) }
            return Response(status: .ok, headers: [.contentType: type, .cacheControl: "no-store", .contentDisposition: "attachment; filename=\"\(name(api))\""],
                            body: .init(byteBuffer: buffer))
        })
    }
}

/// The studio's operations, each once (Reference §10.16).
enum StudioOperations {
    static let all: [StudioOperation] = [
        StudioOperation(endpoint: .init(method: "get", path: "/openapi.json", id: "openapi", errors: [401, 403]),
                        handler: .http { _, _, _ in StudioServer.json(text: StudioOpenAPI.text) }),
        .answer("get", "/api/preset", id: "preset", errors: [401, 403]) { api, _ in api.preset() },
        .body("post", "/api/replay", id: "replay", errors: [400, 401, 403, 404, 413]) { api, input, _ in try api.replay(input as ReplayRequest) },
        .body("post", "/api/evaluate", id: "evaluate", errors: [400, 401, 403, 413]) { api, input, _ in try api.evaluate(input as ParamsRequest) },
        .answer("get", "/api/candidates", id: "candidates", errors: [400, 401, 403, 409],
                query: [("k", Schema.integer.with("minimum", .number(2)).with("maximum", .number(6)).with("default", .number(4)))]) { api, request in
            let text = request.uri.queryParameters.get("k") ?? "4"
            guard let k = Int(text) else { throw StudioError.badRequest("k must be an integer from 2 to 6") }
            return try api.candidates(k: k)
        },
        .body("post", "/api/choices", id: "choose", errors: [400, 401, 403, 409, 413]) { api, input, _ in try api.choose(input as ChoiceRequest) },
        .answer("delete", "/api/choices/last", id: "undo", errors: [401, 403, 404]) { api, _ in try api.undo() },
        .answer("get", "/api/best", id: "best", errors: [401, 403, 409]) { api, _ in try api.best() },
        .body("post", "/api/space", id: "space", errors: [400, 401, 403, 413]) { api, input, _ in try api.space(input as SpaceRequest) },
        .answer("get", "/api/objective", id: "objective", errors: [401, 403]) { api, _ in api.objective() },
        .body("put", "/api/objective", id: "setObjective", errors: [400, 401, 403, 413]) { api, input, _ in try api.setObjective(input as ObjectiveBody) },
        .file("/api/session.sqlite", id: "session", errors: [401, 403, 409], type: "application/vnd.sqlite3", description: "a consistent copy of the session",
              name: { "\($0.engine.loaded.preset.name.filter { $0.isLetter || $0.isNumber || "-_.".contains($0) })-session.sqlite" }) {
            ByteBuffer(bytes: try $0.store.snapshot())
        },
        .answer("get", "/api/recordings", id: "recordings", errors: [401, 403]) { api, _ in try api.recordings() },
        .body("post", "/api/recordings/{id}", id: "label", errors: [400, 401, 403, 404, 409, 413]) { api, input, context in
            try api.update(context.parameters.get("id") ?? "", input as LabelRequest)
        },
        .file("/api/recordings.csv", id: "recordingsCSV", errors: [401, 403], type: "text/csv; charset=utf-8",
              description: "the recordings as one trace CSV (docs/Reference.md §3)", name: { _ in "recordings.csv" }) {
            ByteBuffer(string: try $0.recordingsCSV())
        },
        .answer("get", "/api/recordings.meta.json", id: "recordingsMeta", errors: [401, 403]) { api, _ in try api.recordingsMeta() },
        .body("post", "/api/code", id: "code", errors: [400, 401, 403, 413]) { api, input, _ in try api.code(input as CodeRequest) },
        .body("post", "/api/export", id: "export", errors: [400, 401, 403, 409, 413]) { api, input, _ in try api.export(input as ExportRequest) },
        .answer("get", "/api/image", id: "image", errors: [401, 403]) { api, _ in ImageAnswer(try api.store.image()) },
        StudioOperation(endpoint: .init(method: "put", path: "/api/image", id: "setImage", answer: ImageAnswer.self, errors: [400, 401, 403, 413, 415],
                                        query: [("scale", Schema.integer.with("minimum", .number(1)).with("maximum", .number(3)).with("default", .number(1)))],
                                        upload: (["image/png", "image/jpeg"], "a PNG or JPEG of at most 4 MiB and 4096 × 4096 px, checked from its bytes")),
                        handler: .http { api, request, _ in
            let text = request.uri.queryParameters.get("scale") ?? "1"
            guard let scale = Int(text) else { throw StudioError.badRequest("scale must be 1, 2 or 3 (image pixels per pt)") }
            let bytes = try await StudioServer.body(request, limit: StudioImage.maxBytes,
                                                    tooLarge: StudioError(status: 413, "an image is at most 4 MiB"))
            let image = try StudioImage(bytes: bytes, scale: scale)
            return StudioServer.json(text: try await StudioServer.blocking {
                try api.store.setImage(image)
                return try JSONTextEncoder.encode(ImageAnswer(image))
            })
        }),
        .answer("delete", "/api/image", id: "removeImage", errors: [401, 403]) { api, _ in
            try api.store.setImage(nil)
            return ImageAnswer(nil)
        },
        StudioOperation(endpoint: .init(method: "get", path: "/api/image/file", id: "imageFile", errors: [401, 403, 404],
                                        file: ("image/*", "the session's image as it was given (image/png or image/jpeg)")),
                        handler: .http { api, _, _ in
            guard let image = try await StudioServer.blocking({ try api.store.image() }) else { throw StudioError.notFound("this session has no image") }
            return Response(status: .ok, headers: [.contentType: image.type, .cacheControl: "no-store", .xContentTypeOptions: "nosniff"],
                            body: .init(byteBuffer: ByteBuffer(bytes: image.bytes)))
        }),
        StudioOperation(endpoint: .init(method: "get", path: "/api/live", id: "live", errors: [400, 401, 403],
                                        webSocket: (incoming: LiveMessage.self, outgoing: [LiveFrames.self, LiveDone.self])),
                        handler: .webSocket),
    ]
}
