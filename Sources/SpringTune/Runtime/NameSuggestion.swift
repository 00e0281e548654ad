/// The closest known name to a mistyped one, for error lines ("did you mean 'damping'?").
public enum NameSuggestion {
    /// " (did you mean 'X'?)" for the known name nearest `name` (case ignored) when it is within
    /// a third of its length in edits (at least 1), else "".
    public static func hint(_ name: String, among known: [String]) -> String {
        let closest = known.map { ($0, distance($0.lowercased(), name.lowercased())) }.min { $0.1 < $1.1 }
        return closest.flatMap { $0.1 <= max(1, $0.0.count / 3) ? " (did you mean '\($0.0)'?)" : nil } ?? ""
    }

    /// Levenshtein distance between two strings (insertions, deletions and substitutions of one character each).
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var row = Array(0...b.count)
        guard !a.isEmpty else { return b.count }
        for i in 1...a.count {
            var previous = row[0]
            row[0] = i
            for j in b.indices.map({ $0 + 1 }) {
                let substitution = previous + (a[i - 1] == b[j - 1] ? 0 : 1)
                previous = row[j]
                row[j] = min(substitution, row[j] + 1, row[j - 1] + 1)
            }
        }
        return row[b.count]
    }
}
