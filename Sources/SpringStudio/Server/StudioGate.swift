import Foundation
import Hummingbird

extension StudioServer {
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
}
