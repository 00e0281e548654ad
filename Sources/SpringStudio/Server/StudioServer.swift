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

    /// The router: the page's files, then the token check, then every operation of
    /// ``StudioOperations/all`` (the list the OpenAPI document is made of). `HEAD` is answered
    /// wherever `GET` is, without the body (RFC 9110 §9.3.2), by the router itself
    /// (`.autoGenerateHeadEndpoints`).
    public static func router(api: StudioAPI, gate: Gate) -> Router<BasicWebSocketRequestContext> {
        let router = Router(context: BasicWebSocketRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: ErrorsAsJSON())
        router.add(middleware: HostCheck(gate: gate))
        for asset in StudioAssets.all {
            router.get(RouterPath(stringLiteral: asset.path)) { _, _ in
                var headers = HTTPFields()
                headers[.contentType] = asset.type
                headers[.cacheControl] = "no-store"
                headers[.contentSecurityPolicy] = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; frame-ancestors 'none'"
                headers[.xContentTypeOptions] = "nosniff"
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: asset.bytes)))
            }
        }
        router.add(middleware: TokenCheck(gate: gate))
        for operation in StudioOperations.all {
            let e = operation.endpoint
            switch operation.handler {
            case let .http(respond):
                router.on(RouterPath(stringLiteral: e.path), method: HTTPRequest.Method(rawValue: e.method.uppercased())!) { request, context in
                    try await respond(api, request, context)
                }
            case .webSocket:
                live(router, path: e.path, api: api, gate: gate)
            }
        }
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

    /// The request body's bytes (`tooLarge`, 413, over `limit` bytes: ``maxBody`` for JSON).
    static func body(_ request: Request, limit: Int = maxBody, tooLarge: StudioError = .tooLarge) async throws -> [UInt8] {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit { throw tooLarge }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: limit)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw tooLarge
        } catch is NIOTooManyBytesError {
            // A chunked body has no Content-Length: it is refused while it is read.
            throw tooLarge
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
}
