import SpringCore
import ToolRuntime
import TraceIO

/// How much a metric may move before `compare` calls it a change (Reference §10.3): one
/// `--tolerance` value.
///
/// - `relative` (`2%`, or a bare fraction `0.02` as before): margin = fraction × |A|.
/// - `absolute` with a unit (`0.01s`, `0.5pt`): margin = the amount, for metrics in that unit
///   (``MetricSpec/unit``) only.
/// - `frames` (`1frame`, `2frames`): margin = n / F seconds, F the frame rate the set ran at
///   (its `frameRate` value, else the sidecar's), for metrics in seconds only.
///
/// A metric takes the first absolute or frames tolerance given for its unit, else the relative
/// one given (the last, when several), else ``defaultRelative``.
public struct Tolerance: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case relative(Double)
        case absolute(Double, unit: String)
        case frames(Double)
    }

    public var kind: Kind

    public init(_ kind: Kind) { self.kind = kind }

    /// 1 %: what a metric with no tolerance of its own gets.
    public static let defaultRelative = Tolerance(.relative(0.01))

    /// Parses `2%`, `0.02`, `0.01s`, `0.5pt`, `1frame`, `2frames` (a space before the unit is
    /// allowed). A unit must be one of the report columns' units (``ReportColumns/units``);
    /// anything else, a negative or non-finite amount, or a relative one above 100 is a usage
    /// error (exit 64) naming what is accepted.
    public init(parsing text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        // The amount is the longest prefix that reads as a number; the unit is the rest.
        var numberEnd = trimmed.endIndex
        while numberEnd > trimmed.startIndex, Double(trimmed[..<numberEnd]) == nil { numberEnd = trimmed.index(before: numberEnd) }
        let unit = trimmed[numberEnd...].trimmingCharacters(in: .whitespaces)
        let units = ReportColumns.units.filter { $0 != "1" }.sorted()
        let usage = "--tolerance \(text): expected a fraction (0.02), a percentage (2%), an amount with a unit (\(units.map { "0.5\($0)" }.joined(separator: ", "))) or frames (1frame)"
        guard let amount = Double(trimmed[..<numberEnd]), amount.isFinite else { throw ToolError(.usage, usage) }
        guard amount >= 0 else { throw ToolError(.usage, "--tolerance \(text): must not be negative") }
        switch unit {
        case "": kind = .relative(amount)
        case "%": kind = .relative(amount / 100)
        case "frame", "frames": kind = .frames(amount)
        case let u where units.contains(u): kind = .absolute(amount, unit: u)
        default: throw ToolError(.usage, usage)
        }
        if case let .relative(f) = kind, f > 100 { throw ToolError(.usage, "--tolerance \(text): a relative tolerance must be at most 100 (10000%)") }
    }

    /// `2%`, `0.01 s`, `1 frame`.
    public var description: String {
        switch kind {
        case let .relative(f): "\(NumberFormat.significant(f * 100, 6))%"
        case let .absolute(v, unit): "\(NumberFormat.significant(v, 6)) \(unit)"
        case let .frames(n): "\(NumberFormat.significant(n, 6)) frame\(n == 1 ? "" : "s")"
        }
    }

    /// True when it needs a frame rate to mean a margin.
    public var isFrames: Bool { if case .frames = kind { true } else { false } }

    /// The tolerance a metric in `unit` takes from `given` (see the type's rules).
    public static func applicable(_ given: [Tolerance], unit: String) -> Tolerance {
        given.first { t in
            switch t.kind {
            case let .absolute(_, u): u == unit
            case .frames: unit == "s"
            case .relative: false
            }
        } ?? given.last { if case .relative = $0.kind { true } else { false } } ?? defaultRelative
    }

    /// The tolerances in force, for one line: `1 frame, 1% otherwise`.
    public static func summary(_ given: [Tolerance]) -> String {
        let relative = given.last { if case .relative = $0.kind { true } else { false } }
        let other = given.filter { if case .relative = $0.kind { false } else { true } }
        return other.isEmpty ? (relative ?? defaultRelative).description
            : other.map(\.description).joined(separator: ", ") + ", \((relative ?? defaultRelative).description) otherwise"
    }

    /// The margin a change from `a` must exceed, in the metric's unit: fraction × |A|, the
    /// amount, or n / `frameRate` (nil rate: no frame to count, so 0). Finite `a` only; a change
    /// to or from ±∞ always exceeds it.
    public func margin(a: Double, frameRate: Double?) -> Double {
        switch kind {
        case let .relative(f): f * abs(a)
        case let .absolute(v, _): v
        case let .frames(n): frameRate.map { n / $0 } ?? 0
        }
    }
}
