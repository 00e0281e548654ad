import SpringCore
import TraceIO

/// One value of a report column after the parameters (`traces`, `unsettled`, a rate, an
/// aggregate; Reference §8, §9.2), with the two values that are not numbers kept apart:
///
/// - ``undefined``: no trace defines it (an aggregate over no values, a rate whose denominator
///   is 0). Written as an empty field; in JSON `null`.
/// - ``neverSettled``: +∞, a settle-type aggregate whose traces include one that never
///   settled (Reference §8.3). Written `inf` in `report.csv`; empty in `per-trace.csv`;
///   in a provenance block the string `"inf"`.
/// - ``value(_:)``: a finite number.
///
/// This is the only form of either inside springtune: ranking, compare, charts and export
/// read ``number`` (nil for undefined, +∞ for never settled, so a never-settled set sorts after
/// every settled one and fails every upper bound).
public enum MetricValue: Sendable, Hashable {
    case undefined
    case value(Double)
    case neverSettled

    /// nil or NaN is undefined, +∞ never settled, a finite number itself. −∞ is no metric's
    /// value: it is undefined too.
    public init(_ number: Double?) {
        switch number {
        case let d? where d.isFinite: self = .value(d)
        case let d? where d == .infinity: self = .neverSettled
        default: self = .undefined
        }
    }

    /// The smallest size a report value has (Reference §8): a millionth of the unit (pt, s,
    /// pt/s, a ratio, a rate). Below it a value is the residue of a spring converging (an
    /// overshoot of 1e-13 pt, or a mean of such), never something a person could see, and is 0.
    public static let floor = 1e-6

    /// A measured value as a report keeps it (``init(_:)``, then): to 12 significant digits
    /// (``NumberFormat/typed(_:)``: no digits beyond what the measurement means, and the value
    /// kept is the one written, so a report read back ranks the same), and 0 when its size is
    /// below ``floor``.
    public init(measured number: Double?) {
        self.init(number.map { Swift.abs($0) < Self.floor ? 0 : NumberFormat.typed($0) })
    }

    /// The value as a number: nil when undefined, +∞ when it never settled.
    public var number: Double? {
        switch self {
        case .undefined: nil
        case let .value(d): d
        case .neverSettled: .infinity
        }
    }

    /// The `report.csv` field: empty, the shortest round-trip decimal, or `inf`.
    public var field: CSVField {
        switch self {
        case .undefined: .empty
        case let .value(d): .number(d)
        case .neverSettled: .text("inf")
        }
    }

    /// The `per-trace.csv` field: a trace that never settled has no value there (empty).
    public var perTraceField: CSVField {
        if case let .value(d) = self { .number(d) } else { .empty }
    }

    /// Reads a `report.csv` field: empty, `inf`, or a number; nil for anything else (NaN, −∞,
    /// a word). Only ``SweepReport``'s decoder reads cells.
    init?(cell: String) {
        if cell.isEmpty {
            self = .undefined
            return
        }
        guard let d = NumberFormat.decimal(cell), !d.isNaN, d != -.infinity else { return nil }
        self.init(d)
    }
}
