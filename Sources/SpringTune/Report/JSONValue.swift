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

    private func write(to out: inout String, indent: String) {
        switch self {
        case .null: out += "null"
        case let .bool(b): out += b ? "true" : "false"
        case let .number(d): out += d.isFinite ? NumberFormat.cell(d) : "null"
        case let .string(s): out += Self.quote(s)
        case let .array(items):
            if items.isEmpty { out += "[]"; return }
            let inner = indent + "  "
            out += "[\n"
            for (i, v) in items.enumerated() {
                out += inner
                v.write(to: &out, indent: inner)
                out += i + 1 < items.count ? ",\n" : "\n"
            }
            out += indent + "]"
        case let .object(pairs):
            if pairs.isEmpty { out += "{}"; return }
            let inner = indent + "  "
            out += "{\n"
            for (i, (k, v)) in pairs.enumerated() {
                out += inner + Self.quote(k) + ": "
                v.write(to: &out, indent: inner)
                out += i + 1 < pairs.count ? ",\n" : "\n"
            }
            out += indent + "}"
        }
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
        writeCompact(to: &out)
        return out
    }

    /// Appends the one-line form to `out`.
    public func writeCompact(to out: inout String) {
        switch self {
        case .null: out += "null"
        case let .bool(b): out += b ? "true" : "false"
        case let .number(d): out += d.isFinite ? NumberFormat.cell(d) : "null"
        case let .string(s): out += Self.quote(s)
        case let .array(items):
            out += "["
            for (i, v) in items.enumerated() {
                if i > 0 { out += "," }
                v.writeCompact(to: &out)
            }
            out += "]"
        case let .object(pairs):
            out += "{"
            for (i, (k, v)) in pairs.enumerated() {
                if i > 0 { out += "," }
                out += Self.quote(k) + ":"
                v.writeCompact(to: &out)
            }
            out += "}"
        }
    }
}
