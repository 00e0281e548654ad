import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOEmbedded
import SpringTune
import Testing
@testable import SpringStudio

/// The router against the operations list, and the middleware without a socket (a request
/// handed to the router's responder, as Hummingbird's own router tests do): the routes are
/// exactly the OpenAPI document's operations and the page's files, so a route added to the
/// router alone fails here; the token, the Host check, 404, 405 with `Allow`, HEAD and the
/// page's headers behave as Reference §10.16 says.
@Suite struct StudioRouterTests {
    static let port = 4321

    static func router() throws -> (Router<BasicWebSocketRequestContext>, StudioServer.Gate) {
        let loaded = try PresetStore().load("evernote")
        let path = NSTemporaryDirectory() + "router-\(UUID().uuidString)/s.sqlite"
        let api = try StudioAPI(engine: try StudioEngine(loaded: loaded, files: []),
                                store: try SessionStore(path: path, preset: loaded.preset.name, model: loaded.kind.name))
        let gate = StudioServer.Gate(token: "0123456789abcdef0123456789abcdef")
        gate.allow(hosts: ["127.0.0.1", "localhost"], port: port)
        return (StudioServer.router(api: api, gate: gate), gate)
    }

    /// The router's routes that the operations list and the page's files lack, and the other way round.
    static func mismatch(_ router: Router<BasicWebSocketRequestContext>) -> (routedOnly: [String], listedOnly: [String]) {
        let routed = Set(router.routes.map { "\($0.method.rawValue) \($0.path)" }.filter { !$0.hasPrefix("HEAD ") })
        let listed = Set(StudioOperations.all.map { "\($0.endpoint.method.uppercased()) \(RouterPath(stringLiteral: $0.endpoint.path))" }
            + StudioAssets.all.map { "GET \(RouterPath(stringLiteral: $0.path))" })
        return (routed.subtracting(listed).sorted(), listed.subtracting(routed).sorted())
    }

    @Test func routesAreTheOperationsListAndThePageFiles() throws {
        let (router, _) = try Self.router()
        let (routedOnly, listedOnly) = Self.mismatch(router)
        #expect(routedOnly == [], "routed but not in the operations list (add it to StudioOperations.all)")
        #expect(listedOnly == [], "in the operations list but not routed")
        #expect(router.routes.filter { $0.method != .head }.count == StudioOperations.all.count + StudioAssets.all.count)
    }

    /// The comparison sees a route the router has and the list does not.
    @Test func aRouteOnlyInTheRouterIsCaught() throws {
        let (router, _) = try Self.router()
        router.get("/api/extra") { _, _ in "extra" }
        #expect(Self.mismatch(router).routedOnly == ["GET /api/extra"])
    }

    /// The document lists each operation once, by its method under its path, and nothing else.
    @Test func documentListsEveryOperationOnce() throws {
        guard case let .object(paths)? = StudioOpenAPI.document["paths"] else { Issue.record("no paths"); return }
        let documented = paths.flatMap { path, operations -> [String] in
            guard case let .object(methods) = operations else { return [] }
            return methods.map { "\($0.0.uppercased()) \(path)" }
        }
        let listed = StudioOperations.all.map { "\($0.endpoint.method.uppercased()) \($0.endpoint.path)" }
        #expect(documented.sorted() == listed.sorted())
        #expect(Set(StudioOperations.all.map(\.endpoint.id)).count == listed.count, "operation ids are unique")
        #expect(listed.contains("GET /api/live"))
    }

    /// A response's status, headers and body, from the router's responder without a socket.
    struct Answer {
        var status: Int, headers: HTTPFields, body: String
        var error: String? {
            (try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])?["error"] as? String
        }
    }

    /// Collects a response body (one request at a time: written by the one task awaiting it).
    final class Collected { var buffer = ByteBuffer() }
    struct Collect: ResponseBodyWriter {
        let into: Collected
        mutating func write(_ buffer: ByteBuffer) async throws {
            var buffer = buffer
            into.buffer.writeBuffer(&buffer)
        }
        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }

    static func send(_ router: Router<BasicWebSocketRequestContext>, _ method: HTTPRequest.Method, _ path: String,
                     host: String = "127.0.0.1:\(port)", headers extra: HTTPFields = [:], body: String = "", bytes: [UInt8]? = nil) async throws -> Answer {
        let responder = router.buildResponder()
        var fields = extra
        let data = bytes ?? Array(body.utf8)
        if !data.isEmpty { fields[.contentLength] = String(data.count) }
        let request = Request(head: HTTPRequest(method: method, scheme: "http", authority: host, path: path, headerFields: fields),
                              body: RequestBody(buffer: ByteBuffer(bytes: data)))
        let context = BasicWebSocketRequestContext(source: ApplicationRequestContextSource(channel: EmbeddedChannel(), logger: Logger(label: "test")))
        let response = try await responder.respond(to: request, context: context)
        let collected = Collected()
        try await response.body.write(Collect(into: collected))
        return Answer(status: response.status.code, headers: response.headers, body: String(buffer: collected.buffer))
    }

    static let bearer: HTTPFields = [.authorization: "Bearer 0123456789abcdef0123456789abcdef"]

    @Test func tokenIsNeededForTheAPIAndNotForThePage() async throws {
        let (router, _) = try Self.router()
        let without = try await Self.send(router, .get, "/api/preset")
        #expect(without.status == 401)
        #expect(without.error?.isEmpty == false)
        #expect(without.headers[.contentType] == "application/json")
        let wrong = try await Self.send(router, .get, "/api/preset", headers: [.authorization: "Bearer 0123456789abcdef0123456789abcdeX"])
        #expect(wrong.status == 401)
        let bearer = try await Self.send(router, .get, "/api/preset", headers: Self.bearer)
        #expect(bearer.status == 200)
        #expect(bearer.body.hasPrefix(#"{"name":"evernote""#))
        let query = try await Self.send(router, .get, "/api/preset?token=0123456789abcdef0123456789abcdef")
        #expect(query.status == 200)
        let page = try await Self.send(router, .get, "/")
        #expect(page.status == 200)
        #expect(page.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)
        #expect(page.headers[.xContentTypeOptions] == "nosniff")
    }

    /// The engine module (Reference §15) is one of the page's files, served as WebAssembly, and
    /// the page's policy lets it compile the module (and still no other code than its own).
    @Test func theEngineModuleIsServedAsWebAssembly() async throws {
        let (router, _) = try Self.router()
        let module = try await Self.send(router, .get, "/engine.wasm")
        #expect(module.status == 200)
        #expect(module.headers[.contentType] == "application/wasm")
        #expect(module.body.hasPrefix("\0asm"))
        let bytes = try #require(StudioAssets.all.first { $0.path == "/engine.wasm" }?.bytes)
        #expect(bytes.count > 10_000 && bytes.count <= 256 * 1024 && bytes.prefix(4) == [0, 0x61, 0x73, 0x6d])
        let csp = module.headers[.contentSecurityPolicy] ?? ""
        #expect(csp.contains("script-src 'self' 'wasm-unsafe-eval';") && !csp.contains(" 'unsafe-eval'"))
    }

    @Test func hostMustNameThisStudio() async throws {
        let (router, _) = try Self.router()
        for host in ["evil.example:\(Self.port)", "127.0.0.1:\(Self.port + 1)", "localhost"] {
            let answer = try await Self.send(router, .get, "/api/preset", host: host, headers: Self.bearer)
            #expect(answer.status == 403, "Host \(host)")
            #expect(answer.error?.contains("Host") == true)
        }
        let page = try await Self.send(router, .get, "/", host: "evil.example:\(Self.port)")
        #expect(page.status == 403, "the page's files are behind the Host check too")
        let local = try await Self.send(router, .get, "/api/objective", host: "LOCALHOST:\(Self.port)", headers: Self.bearer)
        #expect(local.status == 200, "Host is compared without case")
    }

    @Test func unknownPathIs404AndWrongMethodIs405WithAllow() async throws {
        let (router, _) = try Self.router()
        let missing = try await Self.send(router, .get, "/api/nothing", headers: Self.bearer)
        #expect(missing.status == 404)
        #expect(missing.error != nil)
        let wrong = try await Self.send(router, .delete, "/api/preset", headers: Self.bearer)
        #expect(wrong.status == 405)
        #expect(wrong.headers[.allow] == "GET, HEAD")
        #expect(wrong.error?.contains("allowed: GET, HEAD") == true)
        let objective = try await Self.send(router, .post, "/api/objective", headers: Self.bearer, body: "{}")
        #expect(objective.status == 405)
        #expect(objective.headers[.allow] == "GET, HEAD, PUT")
        let label = try await Self.send(router, .get, "/api/recordings/live-1", headers: Self.bearer)
        #expect(label.headers[.allow] == "POST", "a path parameter matches any one segment")
    }

    @Test func headAnswersWithoutABodyAndErrorsAreOneLineJSON() async throws {
        let (router, _) = try Self.router()
        let head = try await Self.send(router, .head, "/api/objective", headers: Self.bearer)
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        let bad = try await Self.send(router, .post, "/api/evaluate", headers: Self.bearer, body: #"{"params": 3}"#)
        #expect(bad.status == 400)
        #expect(bad.body.hasSuffix("}\n") && bad.body.filter { $0 == "\n" }.count == 1)
        let big = try await Self.send(router, .post, "/api/evaluate", headers: Self.bearer, body: String(repeating: " ", count: StudioServer.maxBody + 1))
        #expect(big.status == 413)
    }
}
