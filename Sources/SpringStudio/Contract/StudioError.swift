/// A request the studio refuses: its HTTP status and one line for the `{"error": …}` body
/// (Reference §10.16 and §11: every error is a 4xx with a one-line JSON error, never a 5xx).
public struct StudioError: Error, Sendable, Equatable {
    /// 400, 401, 403, 404, 405, 409 or 413.
    public var status: Int
    public var message: String

    public init(status: Int, _ message: String) {
        self.status = status
        // One line, at most 300 characters: the message may quote what the client sent.
        let flat = message.map { $0.isNewline || $0 == "\t" ? " " : $0 }
        self.message = flat.count > 300 ? String(flat.prefix(299)) + "…" : String(flat)
    }

    public static func badRequest(_ m: String) -> StudioError { StudioError(status: 400, m) }
    public static func notFound(_ m: String) -> StudioError { StudioError(status: 404, m) }
    public static func conflict(_ m: String) -> StudioError { StudioError(status: 409, m) }
    public static let unauthorized = StudioError(status: 401, "missing or wrong token: use the studio line's ?token=… or Authorization: Bearer TOKEN")
    public static let tooLarge = StudioError(status: 413, "request body over 1 MiB")
}
