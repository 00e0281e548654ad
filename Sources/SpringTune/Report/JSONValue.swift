import SpringCore
import TraceIO

/// A JSON document with ordered keys, printed deterministically (same value, same bytes):
/// the JSON lines of `replay --json` and `spring --json` (a spring analysis). Presets and
/// `report.meta.json` go through Foundation's `JSONEncoder` instead.
public indirect enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    /// An optional number: `null` when absent or not finite.
    public static func number(_ d: Double?) -> JSONValue {
        guard let d, d.isFinite else { return .null }
        return .number(d)
    }

    /// Pretty-printed text with two-space indentation and a trailing newline.
    public func rendered() -> String {
        var out = ""
        write(to: &out, indent: "")
        return out + "\n"
    }

    /// Writes the document: pretty with `indent` (two spaces a level), on one line when nil.
    private func write(to out: inout String, indent: String?) {
        switch self {
        case .null: out += "null"
        case let .bool(b): out += b ? "true" : "false"
        case let .number(d): out += d.isFinite ? NumberFormat.cell(d) : "null"
        case let .string(s): out += Self.quote(s)
        case let .array(items):
            writeList(items.map { (nil, $0) }, open: "[", close: "]", to: &out, indent: indent)
        case let .object(pairs):
            writeList(pairs.map { ($0.0, $0.1) }, open: "{", close: "}", to: &out, indent: indent)
        }
    }

    private func writeList(_ entries: [(String?, JSONValue)], open: String, close: String, to out: inout String, indent: String?) {
        if entries.isEmpty { out += open + close; return }
        let inner = indent.map { $0 + "  " }
        out += open + (inner == nil ? "" : "\n")
        for (i, (key, v)) in entries.enumerated() {
            out += inner ?? ""
            if let key { out += Self.quote(key) + (inner == nil ? ":" : ": ") }
            v.write(to: &out, indent: inner)
            out += i + 1 < entries.count ? (inner == nil ? "," : ",\n") : (inner == nil ? "" : "\n")
        }
        out += (indent ?? "") + close
    }

    static func quote(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }
}

extension JSONValue {
    /// The document on one line with no spaces (the studio's API answers).
    public func compact() -> String {
        var out = ""
        write(to: &out, indent: nil)
        return out
    }
}
