import Foundation
import SpringCore

/// One parameter of a preset's `search` box (Reference §8.3): `name`, `from`, `to`, and `log`
/// (default: the parameter's domain's scale). The box is what `springtune search` explores
/// when no `--free` says otherwise; each range must lie inside its parameter's domain.
public struct SearchRange: Sendable, Codable, Equatable {
    /// The parameter.
    public var name: String
    /// The range's lower end, in the parameter's unit.
    public var from: Double
    /// The range's upper end (≥ ``from``).
    public var to: Double
    /// True to search in log space (needs from > 0); nil: the domain's scale.
    public var log: Bool?

    /// A range of `name` from `from` to `to`, in log space when `log` says so.
    public init(name: String, from: Double, to: Double, log: Bool? = nil) {
        self.name = name; self.from = from; self.to = to; self.log = log
    }

    /// Decodes strictly: finite ends with from ≤ to, and from > 0 on a log range.
    public init(from decoder: any Decoder) throws {
        let c = try StrictContainer(decoder, keys: ["name", "from", "to", "log"])
        name = try c.decode(String.self, "name")
        from = try c.decode(Double.self, "from")
        to = try c.decode(Double.self, "to")
        log = try c.decodeIfPresent(Bool.self, "log")
        guard from.isFinite, to.isFinite else { throw c.fail("from", "from and to must be finite") }
        guard from <= to else { throw c.fail("to", "\(to) is below from (\(from))") }
        if log == true, !(from > 0) { throw c.fail("log", "a log range needs from > 0") }
    }

    /// Why the range does not fit `spec`'s domain, or nil.
    public func problem(in spec: ParameterSpec) -> String? {
        guard let domain = spec.domain?.range else { return "'\(name)' has no numeric domain to search" }
        guard domain.min <= from, to <= domain.max else {
            return "[\(NumberFormat.cell(from)), \(NumberFormat.cell(to))] is outside \(name)'s domain \(spec.domain!.description) \(spec.unit)"
        }
        if (log ?? domain.log) && !(from > 0) { return "a log range needs from > 0" }
        return nil
    }
}
