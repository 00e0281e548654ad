import Foundation
import Hummingbird
import HummingbirdWebSocket
import NIOCore
import ToolRuntime

extension StudioServer {
    /// Largest live message (bytes): a sample is about 100.
    public static let maxLiveMessage = 64 << 10

    /// `GET /api/live` (Reference §10.16, live touch): behind the Host and token checks like every API path, and
    /// refused for an `Origin` other than the page's own (403). A refused upgrade gets the
    /// WebSocket library's own answer, 400 with no body (`HTTP1WebSocketUpgradeChannel` writes it
    /// for every refusal); the same request without `Upgrade` gets the 401 or 403 with its reason,
    /// and a plain GET from the page's origin 400.
    /// Each socket runs its own ``LiveChannel``: a bad message closes that socket with its reason.
    static func live(_ router: Router<BasicWebSocketRequestContext>, path: String, api: StudioAPI, gate: Gate) {
        router.ws(RouterPath(stringLiteral: path), shouldUpgrade: { request, _ in
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
}
