/// The one rule for showing a piece of input (a name, an id, a cell, a path, a list of
/// them) in a message, a warning or a sidecar (Reference §11): control characters become
/// spaces and at most ``limit`` characters are kept, then "…", so no input, however long or
/// odd, floods a terminal or grows a file (a 10 MB trace id was echoed whole).
public enum Echo {
    /// Characters kept of one piece.
    public static let limit = 300
    /// Names kept of a list of them (skipped traces in a sweep's meta, unknown columns).
    public static let listLimit = 20

    /// `text` on one line, cut to ``limit`` characters.
    public static func cut(_ text: some StringProtocol) -> String {
        let flat = String(String.UnicodeScalarView(text.unicodeScalars.lazy.prefix(limit + 1).map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 }))
        return flat.unicodeScalars.count > limit ? String(String.UnicodeScalarView(flat.unicodeScalars.prefix(limit))) + "…" : flat
    }

    /// The first ``listLimit`` of `items`, each cut, and "… and N more" when some are left out.
    public static func list(_ items: [String]) -> [String] {
        items.prefix(listLimit).map(cut) + (items.count > listLimit ? ["… and \(items.count - listLimit) more"] : [])
    }
}
