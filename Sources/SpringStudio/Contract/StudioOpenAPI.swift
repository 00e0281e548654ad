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
        /// A request body that is a file of one of these media types (no `request` type), and what it is.
        var upload: (types: [String], description: String)? = nil
        /// A WebSocket (`101 Switching Protocols`): the type of the messages it takes and of those it sends.
        var webSocket: (incoming: any StudioContract.Type, outgoing: [any StudioContract.Type])? = nil
    }

    /// Every operation the server routes (``StudioOperations/all``: the same list drives the router).
    static var endpoints: [Endpoint] { StudioOperations.all.map(\.endpoint) }

    /// Every contract type, each once: the document's components.
    static let types: [any StudioContract.Type] = [
        ErrorAnswer.self, ParamSet.self, MetricRow.self, Verdict.self, PresetAnswer.Axis.self, PresetAnswer.Parameter.self, ObjectiveBody.self,
        FreeParameter.self, SpaceRequest.self, Margins.self, PresetAnswer.self, ReplayRequest.self,
        Frame.self, EngineStartAnswer.self, EngineRun.self, TraceReplayAnswer.self, ReplayAnswer.self, ParamsRequest.self, IntervalAnswer.self, IntervalsAnswer.self,
        SureVerdictAnswer.self, SureAnswer.self, GroupAnswer.self, Evaluation.self, CandidateAnswer.self, RoundAnswer.self,
        ChoiceRequest.self, ChoiceCount.self, MapAxis.self, BestAnswer.self, ExportRequest.self, ExportAnswer.self, CodeRequest.self, CodeAnswer.self,
        RecordingsAnswer.Recording.self, RecordingsAnswer.self, LabelRequest.self, RecordingsMeta.self, ImageAnswer.Image.self, ImageAnswer.self,
        LiveMessage.Pointer.self, LiveMessage.self, LiveFrames.self, LiveDone.self,
    ]

    static let document: JSONValue = {
        let listed = endpoints
        func json(_ schema: Schema) -> JSONValue { .object([("application/json", .object([("schema", schema.json)]))]) }
        func errorAnswers(_ e: Endpoint) -> [(String, JSONValue)] {
            e.errors.map { (String($0), JSONValue.object([("description", .string("one-line JSON error")), ("content", json(.ref(ErrorAnswer.self)))])) }
        }
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
            if let upload = e.upload {
                let binary = JSONValue.object([("schema", .object([("type", .string("string")), ("format", .string("binary"))]))])
                op.append(("requestBody", .object([("required", .bool(true)), ("description", .string(upload.description)),
                                                   ("content", .object(upload.types.map { ($0, binary) }))])))
            }
            let file = e.file.map { JSONValue.object([("description", .string($0.description)),
                                                      ("content", .object([(String($0.type.prefix { $0 != ";" }), .object([("schema", .object([("type", .string("string")), ("format", .string("binary"))]))]))]))]) }
            if let socket = e.webSocket {
                let names = { (types: [any StudioContract.Type]) in types.map { $0.schemaName }.joined(separator: ", ") }
                let refs = { (types: [any StudioContract.Type]) in JSONValue.array(types.map { Schema.ref($0).json }) }
                let upgrade: JSONValue = .object([
                    ("description", .string("Switching Protocols: a WebSocket of JSON text messages, \(names([socket.incoming])) in, \(names(socket.outgoing)) out; a bad message closes it (1008, its reason)")),
                    ("x-websocket-messages", .object([("incoming", refs([socket.incoming])), ("outgoing", refs(socket.outgoing))])),
                ])
                op.append(("responses", .object([("101", upgrade)] + errorAnswers(e))))
                return .object(op)
            }
            let ok: JSONValue = e.answer.map { .object([("description", .string("OK")), ("content", json(.ref($0)))]) }
                ?? file ?? .object([("description", .string("this document")), ("content", json(Schema(json: .object([("type", .string("object"))]))))])
            op.append(("responses", .object([("200", ok)] + errorAnswers(e))))
            return .object(op)
        }
        return .object([
            ("openapi", .string("3.0.3")),
            ("info", .object([("title", .string("springtune studio")), ("version", .string("1")),
                              ("description", .string("The studio's JSON API (docs/Reference.md §10.16). Every call needs the token: Authorization: Bearer TOKEN or ?token=TOKEN. Generated from the contract types of Sources/SpringStudio."))])),
            ("servers", .array([.object([("url", .string("/"))])])),
            ("security", .array([.object([("bearer", .array([]))]), .object([("query", .array([]))])])),
            ("paths", .object(listed.reduce(into: [String]()) { paths, e in if !paths.contains(e.path) { paths.append(e.path) } }.map { path in
                (path, .object(listed.filter { $0.path == path }.map { ($0.method, operation($0)) }))
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
