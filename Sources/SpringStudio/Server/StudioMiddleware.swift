import Foundation
import Hummingbird
import HummingbirdWebSocket
import ToolRuntime

extension StudioServer {
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
    /// have: from the operations list and the page's files, what the router routes.
    static func allowedMethods(_ path: String) -> [String]? {
        let routes = StudioOperations.all.map { ($0.endpoint.method.uppercased(), $0.endpoint.path) }
            + StudioAssets.all.map { ("GET", $0.path) }
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
