import SpringTune

/// The OpenAPI 3 document of the studio's API (`GET /openapi.json`, Reference §10.16), built
/// from the contract types' own schemas: a field exists in one place, its type. The contract
/// test checks each type's encoded samples against the schema it declares.
enum StudioOpenAPI {
    /// An operation: its method, path and id, its request body's type, its answer's type (nil:
    /// this document), the 4xx statuses it may answer, and its query parameters.
    struct Endpoint: Sendable {
        var method: String, path: String, id: String
        var request: (any StudioContract.Type)?
        var answer: (any StudioContract.Type)?
        var errors: [Int]
        var query: [(name: String, schema: Schema)] = []
        /// The media type and description of a file answer (no `answer` type).
        var file: (type: String, description: String)? = nil
    }

    /// Every operation the server routes (StudioServer.router).
    static let endpoints: [Endpoint] = [
        Endpoint(method: "get", path: "/openapi.json", id: "openapi", answer: nil, errors: [401, 403]),
        Endpoint(method: "get", path: "/api/preset", id: "preset", answer: PresetAnswer.self, errors: [401, 403]),
        Endpoint(method: "post", path: "/api/replay", id: "replay", request: ReplayRequest.self, answer: ReplayAnswer.self, errors: [400, 401, 403, 404, 413]),
        Endpoint(method: "post", path: "/api/evaluate", id: "evaluate", request: ParamsRequest.self, answer: Evaluation.self, errors: [400, 401, 403, 413]),
        Endpoint(method: "get", path: "/api/candidates", id: "candidates", answer: RoundAnswer.self, errors: [400, 401, 403, 409],
                 query: [("k", Schema.integer.with("minimum", .number(2)).with("maximum", .number(6)).with("default", .number(4)))]),
        Endpoint(method: "post", path: "/api/choices", id: "choose", request: ChoiceRequest.self, answer: ChoiceCount.self, errors: [400, 401, 403, 409, 413]),
        Endpoint(method: "delete", path: "/api/choices/last", id: "undo", answer: ChoiceCount.self, errors: [401, 403, 404]),
        Endpoint(method: "get", path: "/api/best", id: "best", answer: BestAnswer.self, errors: [401, 403, 409]),
        Endpoint(method: "post", path: "/api/space", id: "space", request: SpaceRequest.self, answer: PresetAnswer.self, errors: [400, 401, 403, 413]),
        Endpoint(method: "get", path: "/api/objective", id: "objective", answer: ObjectiveBody.self, errors: [401, 403]),
        Endpoint(method: "put", path: "/api/objective", id: "setObjective", request: ObjectiveBody.self, answer: ObjectiveBody.self, errors: [400, 401, 403, 413]),
        Endpoint(method: "get", path: "/api/session.sqlite", id: "session", answer: nil, errors: [401, 403, 409], file: ("application/vnd.sqlite3", "a consistent copy of the session")),
        Endpoint(method: "get", path: "/api/recordings", id: "recordings", answer: RecordingsAnswer.self, errors: [401, 403]),
        Endpoint(method: "post", path: "/api/recordings/{id}", id: "label", request: LabelRequest.self, answer: RecordingsAnswer.self,
                 errors: [400, 401, 403, 404, 409, 413]),
        Endpoint(method: "get", path: "/api/recordings.csv", id: "recordingsCSV", answer: nil, errors: [401, 403],
                 file: ("text/csv", "the recordings as one trace CSV (docs/Reference.md §3)")),
        Endpoint(method: "get", path: "/api/recordings.meta.json", id: "recordingsMeta", answer: RecordingsMeta.self, errors: [401, 403]),
        Endpoint(method: "post", path: "/api/code", id: "code", request: CodeRequest.self, answer: CodeAnswer.self, errors: [400, 401, 403, 413]),
        Endpoint(method: "post", path: "/api/export", id: "export", request: ExportRequest.self, answer: ExportAnswer.self, errors: [400, 401, 403, 409, 413]),
    ]

    /// Every contract type, each once: the document's components.
    static let types: [any StudioContract.Type] = [
        ErrorAnswer.self, ParamSet.self, MetricRow.self, Verdict.self, PresetAnswer.Axis.self, PresetAnswer.Parameter.self, ObjectiveBody.self,
        FreeParameter.self, SpaceRequest.self, Margins.self, PresetAnswer.self, ReplayRequest.self,
        Frame.self, TraceReplayAnswer.self, ReplayAnswer.self, ParamsRequest.self, IntervalAnswer.self, IntervalsAnswer.self,
        SureVerdictAnswer.self, SureAnswer.self, GroupAnswer.self, Evaluation.self, CandidateAnswer.self, RoundAnswer.self,
        ChoiceRequest.self, ChoiceCount.self, MapAxis.self, BestAnswer.self, ExportRequest.self, ExportAnswer.self, CodeRequest.self, CodeAnswer.self,
        RecordingsAnswer.Recording.self, RecordingsAnswer.self, LabelRequest.self, RecordingsMeta.self,
    ]

    static let document: JSONValue = {
        func json(_ schema: Schema) -> JSONValue { .object([("application/json", .object([("schema", schema.json)]))]) }
        func operation(_ e: Endpoint) -> JSONValue {
            var op: [(String, JSONValue)] = [("operationId", .string(e.id))]
            if !e.query.isEmpty {
                op.append(("parameters", .array(e.query.map { q in
                    .object([("name", .string(q.name)), ("in", .string("query")), ("required", .bool(false)), ("schema", q.schema.json)])
                })))
            }
            if e.path.contains("{id}") {
                op.append(("parameters", .array([.object([("name", .string("id")), ("in", .string("path")), ("required", .bool(true)),
                                                          ("schema", Schema.string.json)])])))
            }
            if let request = e.request { op.append(("requestBody", .object([("required", .bool(true)), ("content", json(.ref(request)))]))) }
            let file = e.file.map { JSONValue.object([("description", .string($0.description)),
                                                      ("content", .object([($0.type, .object([("schema", .object([("type", .string("string")), ("format", .string("binary"))]))]))]))]) }
            let ok: JSONValue = e.answer.map { .object([("description", .string("OK")), ("content", json(.ref($0)))]) }
                ?? file ?? .object([("description", .string("this document")), ("content", json(Schema(json: .object([("type", .string("object"))]))))])
            let errors = e.errors.map { (String($0), JSONValue.object([("description", .string("one-line JSON error")), ("content", json(.ref(ErrorAnswer.self)))])) }
            op.append(("responses", .object([("200", ok)] + errors)))
            return .object(op)
        }
        return .object([
            ("openapi", .string("3.0.3")),
            ("info", .object([("title", .string("springtune studio")), ("version", .string("1")),
                              ("description", .string("The studio's JSON API (docs/Reference.md §10.16). Every call needs the token: Authorization: Bearer TOKEN or ?token=TOKEN. Generated from the contract types of Sources/SpringStudio."))])),
            ("servers", .array([.object([("url", .string("/"))])])),
            ("security", .array([.object([("bearer", .array([]))]), .object([("query", .array([]))])])),
            ("paths", .object(endpoints.reduce(into: [String]()) { paths, e in if !paths.contains(e.path) { paths.append(e.path) } }.map { path in
                (path, .object(endpoints.filter { $0.path == path }.map { ($0.method, operation($0)) }))
            })),
            ("components", .object([
                ("securitySchemes", .object([("bearer", .object([("type", .string("http")), ("scheme", .string("bearer"))])),
                                             ("query", .object([("type", .string("apiKey")), ("in", .string("query")), ("name", .string("token"))]))])),
                ("schemas", .object(types.map { ($0.schemaName, $0.schema.json) })),
            ])),
        ])
    }()

    /// The document on one line, as served.
    static let text = document.compact()
}
