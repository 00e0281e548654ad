import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import SpringTune
import ToolRuntime

/// The studio's HTTP side (Reference §10.16) on Hummingbird 2: the page's static files (compiled
/// into the binary: no request path reaches the file system), the JSON API behind the token,
/// the Host check against DNS rebinding, a 1 MiB body limit, and every error as a one-line
/// JSON `{"error": …}` with a 4xx status.
public enum StudioServer {
    /// Largest request body (bytes).
    public static let maxBody = 1 << 20

    /// Who may call: the token, and the `Host` values accepted (`127.0.0.1:PORT`,
    /// `localhost:PORT`, and the `--host` name), set once the port is known.
    public final class Gate: @unchecked Sendable {
        public let token: String
        private let lock = NSLock()
        private var hosts: Set<String> = []

        public init(token: String) { self.token = token }

        /// Accepts `NAME:port` for each name.
        public func allow(hosts names: [String], port: Int) { allow(authorities: names.map { "\($0):\(port)" }) }

        /// Accepts exactly these `Host` values (compared without case).
        public func allow(authorities: [String]) {
            lock.lock(); defer { lock.unlock() }
            hosts = Set(authorities.map { $0.lowercased() })
        }

        func allows(host: String?) -> Bool {
            lock.lock(); defer { lock.unlock() }
            return host.map { hosts.contains($0.lowercased()) } ?? false
        }

        /// True for the page's own origin: `http://` and an accepted `Host` value.
        func allows(origin: String) -> Bool {
            let lower = origin.lowercased()
            return lower.hasPrefix("http://") && allows(host: String(lower.dropFirst(7)))
        }

        /// The token from `Authorization: Bearer T` or `?token=T`, compared in constant time.
        func authorised(_ request: Request) -> Bool {
            var given: String?
            if let header = request.headers[.authorization], header.hasPrefix("Bearer ") { given = String(header.dropFirst(7)) }
            if given == nil { given = request.uri.queryParameters.get("token") }
            guard let given else { return false }
            let a = Array(given.utf8), b = Array(token.utf8)
            var diff = a.count == b.count ? 0 : 1
            for i in 0..<min(a.count, b.count) { diff |= Int(a[i] ^ b[i]) }
            return diff == 0
        }
    }

    /// The router: static files, then the token check, then the API. `HEAD` is answered wherever
    /// `GET` is, without the body (RFC 9110 §9.3.2), by the router itself (`.autoGenerateHeadEndpoints`).
    public static func router(api: StudioAPI, gate: Gate) -> Router<BasicWebSocketRequestContext> {
        let router = Router(context: BasicWebSocketRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: ErrorsAsJSON())
        router.add(middleware: HostCheck(gate: gate))
        for asset in StudioAssets.all {
            router.get(RouterPath(stringLiteral: asset.path)) { _, _ in
                var headers = HTTPFields()
                headers[.contentType] = asset.type
                headers[.cacheControl] = "no-store"
                headers[.contentSecurityPolicy] = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'"
                headers[.xContentTypeOptions] = "nosniff"
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: asset.bytes)))
            }
        }
        router.add(middleware: TokenCheck(gate: gate))
        router.get("/openapi.json") { _, _ in json(text: StudioOpenAPI.text) }
        /// A POST (or PUT) route decoding its JSON body into `Body` and answering with `answer`, off the cooperative pool.
        func post<Body: Decodable & Sendable & StudioContract, Answer: Encodable & StudioContract>(_ path: RouterPath, _: Body.Type, method: HTTPRequest.Method = .post,
                                                                                                 _ answer: @escaping @Sendable (Body) throws -> Answer) {
            router.on(path, method: method) { request, _ in
                let input = try StudioRequest.decode(Body.self, from: try await body(request))
                return json(text: try await blocking { try JSONTextEncoder.encode(try answer(input)) })
            }
        }
        /// A GET or DELETE route answering with `answer`, off the cooperative pool.
        func answer<Answer: Encodable & StudioContract>(_ method: HTTPRequest.Method, _ path: RouterPath, _ answer: @escaping @Sendable (Request) throws -> Answer) {
            router.on(path, method: method) { request, _ in json(text: try await blocking { try JSONTextEncoder.encode(try answer(request)) }) }
        }
        answer(.get, "/api/preset") { _ in api.preset() }
        post("/api/replay", ReplayRequest.self) { try api.replay($0) }
        post("/api/evaluate", ParamsRequest.self) { try api.evaluate($0) }
        answer(.get, "/api/candidates") { request in
            let text = request.uri.queryParameters.get("k") ?? "4"
            guard let k = Int(text) else { throw StudioError.badRequest("k must be an integer from 2 to 6") }
            return try api.candidates(k: k)
        }
        post("/api/choices", ChoiceRequest.self) { try api.choose($0) }
        answer(.delete, "/api/choices/last") { _ in try api.undo() }
        answer(.get, "/api/best") { _ in try api.best() }
        post("/api/space", SpaceRequest.self) { try api.space($0) }
        answer(.get, "/api/objective") { _ in api.objective() }
        post("/api/objective", ObjectiveBody.self, method: .put) { try api.setObjective($0) }
        router.get("/api/session.sqlite") { _, _ in
            let bytes = try await blocking { try api.store.snapshot() }
            return Response(status: .ok, headers: [.contentType: "application/vnd.sqlite3",
                                                   .contentDisposition: "attachment; filename=\"\(api.engine.loaded.preset.name.filter { $0.isLetter || $0.isNumber || "-_.".contains($0) })-session.sqlite\""],
                            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        }
        post("/api/export", ExportRequest.self) { try api.export($0) }
        post("/api/code", CodeRequest.self) { try api.code($0) }
        answer(.get, "/api/recordings") { _ in try api.recordings() }
        router.on("/api/recordings/{id}", method: .post) { request, context in
            let id = context.parameters.get("id") ?? ""
            let input = try StudioRequest.decode(LabelRequest.self, from: try await body(request))
            return json(text: try await blocking { try JSONTextEncoder.encode(try api.update(id, input)) })
        }
        router.get("/api/recordings.csv") { _, _ in
            let text = try await blocking { try api.recordingsCSV() }
            return Response(status: .ok, headers: [.contentType: "text/csv; charset=utf-8", .cacheControl: "no-store",
                                                   .contentDisposition: "attachment; filename=\"recordings.csv\""],
                            body: .init(byteBuffer: ByteBuffer(string: text)))
        }
        answer(.get, "/api/recordings.meta.json") { _ in try api.recordingsMeta() }
        live(router, api: api, gate: gate)
        return router
    }

    /// How long a connection may send nothing before it is closed (a request half sent included).
    static let idle = TimeAmount.seconds(30)

    /// The server: HTTP/1 with the WebSocket upgrade of `/api/live` on the same router, every
    /// connection closed after ``idle`` without a byte from the client (``IdleClosing``; the
    /// upgrade channel's own idle timeout starts only once a request's head has arrived, so a
    /// half-sent head stayed open for good). WebSocket frames up to ``maxBody`` reach the live
    /// handler, which refuses a message over ``maxLiveMessage`` with its reason (a larger frame is
    /// closed by the library, 1009); the server pings every 10 s, so a page's answers keep an
    /// untouched socket open.
    static func server(_ router: Router<BasicWebSocketRequestContext>) -> HTTPServerBuilder {
        let configuration = HTTP1WebSocketUpgradeChannel.Configuration(
            http1: .init(idleTimeout: idle), ws: .init(maxFrameSize: maxBody, autoPing: .enabled(timePeriod: .seconds(10))))
        let webSocket = router.buildResponder()
        return HTTPServerBuilder { responder in
            IdleClosing(base: HTTP1WebSocketUpgradeChannel(responder: responder, webSocketResponder: webSocket, configuration: configuration))
        }
    }

    /// A server channel whose connections close after ``idle`` with nothing read.
    struct IdleClosing<Base: ServerChildChannel>: ServerChildChannel {
        let base: Base

        func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Base.Value> {
            do {
                try channel.pipeline.syncOperations.addHandlers(IdleStateHandler(readTimeout: idle), CloseWhenIdle())
            } catch {
                return channel.eventLoop.makeFailedFuture(error)
            }
            return base.setup(channel: channel, logger: logger)
        }

        func handle(value: Base.Value, logger: Logger) async { await base.handle(value: value, logger: logger) }
    }

    /// Closes the connection on the idle handler's read event; passes everything else on.
    final class CloseWhenIdle: ChannelInboundHandler, Sendable {
        typealias InboundIn = NIOAny
        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if case IdleStateHandler.IdleStateEvent.read? = event as? IdleStateHandler.IdleStateEvent {
                context.close(promise: nil)
            } else {
                context.fireUserInboundEventTriggered(event)
            }
        }
    }

    /// Largest live message (bytes): a sample is about 100.
    public static let maxLiveMessage = 64 << 10

    /// `GET /api/live` (Reference §10.16, live touch): behind the Host and token checks like every API path, and
    /// refused for an `Origin` other than the page's own (403). A refused upgrade gets the
    /// WebSocket library's own answer, 400 with no body (`HTTP1WebSocketUpgradeChannel` writes it
    /// for every refusal); the same request without `Upgrade` gets the 401 or 403 with its reason,
    /// and a plain GET from the page's origin 400.
    /// Each socket runs its own ``LiveChannel``: a bad message closes that socket with its reason.
    static func live(_ router: Router<BasicWebSocketRequestContext>, api: StudioAPI, gate: Gate) {
        router.ws("/api/live", shouldUpgrade: { request, _ in
            guard let origin = request.headers[.origin], gate.allows(origin: origin) else {
                throw StudioError(status: 403, "Origin must be this studio's own page (http://HOST:PORT)")
            }
            guard request.headers[.upgrade]?.lowercased() == "websocket" else {
                throw StudioError.badRequest("/api/live is a WebSocket: connect with an Upgrade: websocket request")
            }
            return .upgrade([:])
        }, onUpgrade: { inbound, outbound, _ in
            var channel = LiveChannel(api: api)
            do {
                for try await message in inbound.messages(maxSize: maxLiveMessage) {
                    guard case let .text(text) = message else {
                        try await outbound.close(.unacceptableData, reason: "live messages are JSON text")
                        return
                    }
                    // The library checks the size of a message in fragments only; one frame is checked here.
                    guard text.utf8.count <= maxLiveMessage else { throw LiveClose(reason: "too large") }
                    let answers: [String]
                    do throws(LiveClose) {
                        answers = try channel.receive(Array(text.utf8))
                    } catch {
                        try await outbound.close(.policyViolation, reason: closeReason(error.reason))
                        return
                    }
                    for answer in answers { try await outbound.write(.text(answer)) }
                }
            } catch {
                try? await outbound.close(.messageTooLarge, reason: "a live message is at most \(maxLiveMessage >> 10) KiB")
            }
        })
    }

    /// A close frame's reason: at most 123 bytes of UTF-8 (RFC 6455, 5.5), cut at a character.
    static func closeReason(_ text: String) -> String {
        var out = ""
        for c in text {
            guard out.utf8.count + String(c).utf8.count <= 123 else { break }
            out.append(c)
        }
        return out
    }

    /// Runs `work` on a thread of its own and waits for it without holding a thread of Swift's
    /// cooperative pool (one per core). The API's handlers block: the round lock, the feasible
    /// pool's first measurement (seconds on a large preset), replays and evaluations that take
    /// milliseconds of CPU; run on the pool, two of them on two cores stalled every other
    /// request, the page's own files included. Not `DispatchQueue.global()`: on Linux the
    /// cooperative pool runs on those same worker threads, so work blocked there starves it
    /// just the same. A local studio has a handful of requests in flight; a thread each costs
    /// tens of microseconds.
    static func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    /// The request body's bytes (413 over ``maxBody``).
    static func body(_ request: Request) async throws -> [UInt8] {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > maxBody { throw StudioError.tooLarge }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maxBody)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw StudioError.tooLarge
        } catch is NIOTooManyBytesError {
            // A chunked body has no Content-Length: it is refused while it is read.
            throw StudioError.tooLarge
        }
        return Array(buffer.readableBytesView)
    }

    /// A one-line JSON answer.
    static func json(text: String, status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.cacheControl] = "no-store"
        headers[.xContentTypeOptions] = "nosniff"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text + "\n")))
    }

    static func failure(_ e: StudioError) throws -> Response {
        json(text: try JSONTextEncoder.encode(ErrorAnswer(error: e.message)), status: HTTPResponse.Status(code: e.status))
    }

    /// Every failure as `{"error": …}` with a 4xx: the studio's own errors as they are, the
    /// server library's (unknown path 404, method 405, …) with their status, a tool error
    /// (bad values for the engines) as 400.
    struct ErrorsAsJSON: RouterMiddleware {
        typealias Context = BasicWebSocketRequestContext
        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
            do {
                return try await next(request, context)
            } catch let e as StudioError {
                return try failure(e)
            } catch let e as HTTPError {
                if e.status == .notFound, let allowed = allowedMethods(request.uri.path), !allowed.contains(request.method.rawValue) {
                    var response = try failure(StudioError(status: 405, "\(request.method.rawValue) is not allowed on \(request.uri.path.prefix(80)); allowed: \(allowed.joined(separator: ", "))"))
                    response.headers[.allow] = allowed.joined(separator: ", ")
                    return response
                }
                let code = (400..<500).contains(e.status.code) ? e.status.code : 400
                return try failure(StudioError(status: code, e.body ?? e.status.reasonPhrase))
            } catch let e as ToolError {
                return try failure(.badRequest(e.message))
            } catch {
                // Nothing of the server's insides in the answer.
                return try failure(.badRequest("the request could not be read"))
            }
        }
    }

    /// The methods routed on `path` (HEAD wherever GET is), nil for a path the studio does not
    /// have: from the OpenAPI list, the page's files and `/api/live`.
    static func allowedMethods(_ path: String) -> [String]? {
        let routes = StudioOpenAPI.endpoints.map { ($0.method.uppercased(), $0.path) }
            + StudioAssets.all.map { ("GET", $0.path) } + [("GET", "/api/live")]
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        let methods = routes.filter { _, route in
            let pattern = route.split(separator: "/", omittingEmptySubsequences: false)
            return pattern.count == parts.count && zip(pattern, parts).allSatisfy { p, q in p == q || (p.hasPrefix("{") && !q.isEmpty) }
        }.map(\.0)
        guard !methods.isEmpty else { return nil }
        return ["GET", "HEAD", "POST", "PUT", "DELETE"].filter { m in methods.contains(m) || (m == "HEAD" && methods.contains("GET")) }
    }

    /// 403 unless `Host` names this studio (a page of another site reaching it through DNS
    /// rebinding sends its own name); 400 for a second `Host`.
    struct HostCheck: RouterMiddleware {
        typealias Context = BasicWebSocketRequestContext
        let gate: Gate
        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
            // The first Host is the request's authority; another one stays among the fields.
            guard !request.headers.contains(where: { $0.name.canonicalName == "host" }) else { throw StudioError.badRequest("a request has one Host header (RFC 9112), not several") }
            guard gate.allows(host: request.head.authority) else {
                throw StudioError(status: 403, "Host must be 127.0.0.1 or localhost with this studio's port")
            }
            return try await next(request, context)
        }
    }

    /// 401 without the token.
    struct TokenCheck: RouterMiddleware {
        typealias Context = BasicWebSocketRequestContext
        let gate: Gate
        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
            guard gate.authorised(request) else { throw StudioError.unauthorized }
            return try await next(request, context)
        }
    }
}
