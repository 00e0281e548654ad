import Foundation
import SpringCore

/// What a good parameter set is (Reference §9.1): `constraints` such as `overshoot_pt_p95 <= 4`
/// (hard limits), `targets` such as `peak_stretch_pt_p95 = 22.7 ± 5` (the size of an effect the
/// designer chose), one report column to minimise or maximise, an ordered `tiebreak` list of
/// columns for sets equal on it (to a relative 1e-9; default: the constraint columns), `robust`
/// (judge each set by its worst over its grid neighbours), and optionally `worstOver`: swept
/// axes (e.g. `frameRate`) the choice must hold over, judged by the worst case.
public struct Objective: Sendable, Codable, Equatable {
    /// Hard limits `METRIC OP VALUE` (`<=`, `<`, `>=`, `>`, `==`), as written, e.g. `overshoot_pt_p95 <= 4`.
    public var constraints: [String]
    /// `METRIC = VALUE ± TOL` (or `+-`), as written; see ``Target``.
    public var targets: [String]
    /// The report column to minimise (or nil: see `maximize`).
    public var minimize: String?
    /// The report column to maximise (or nil: see `minimize`).
    public var maximize: String?
    /// Columns that order sets equal on the objective (to a relative 1e-9), in order; nil: the constraint columns.
    public var tiebreak: [String]?
    /// Swept axes (e.g. `frameRate`) the choice must hold over, judged by the worst case; nil: none.
    public var worstOver: [String]?
    /// Rank each eligible set by its worst objective value over itself and its grid neighbours.
    public var robust: Bool
    /// Sure constraints (Reference §14): when set (0.5-0.99), a constraint is met when its
    /// one-sided bound at this confidence, from the cluster bootstrap over groups, meets the
    /// limit; nil: constraints are judged on the measured value.
    public var confidence: Double?

    /// The confidences an objective may ask for.
    public static let confidenceRange = 0.5...0.99

    /// An objective from its parts, as a preset file gives them.
    public init(constraints: [String] = [], targets: [String] = [], minimize: String? = nil, maximize: String? = nil,
                tiebreak: [String]? = nil, worstOver: [String]? = nil, robust: Bool = false, confidence: Double? = nil) {
        self.constraints = constraints; self.targets = targets; self.minimize = minimize; self.maximize = maximize
        self.tiebreak = tiebreak; self.worstOver = worstOver; self.robust = robust; self.confidence = confidence
    }

    enum Key: String, CodingKey { case constraints, targets, minimize, maximize, tiebreak, worstOver, robust, confidence }

    /// Decodes strictly: an unknown key or a wrong type fails with the key's path.
    public init(from decoder: any Decoder) throws {
        let c = try StrictContainer(decoder, keys: Set(Self.keysInOrder))
        constraints = try c.decodeIfPresent([String].self, "constraints") ?? []
        targets = try c.decodeIfPresent([String].self, "targets") ?? []
        minimize = try c.decodeIfPresent(String.self, "minimize")
        maximize = try c.decodeIfPresent(String.self, "maximize")
        tiebreak = try c.decodeIfPresent([String].self, "tiebreak")
        worstOver = try c.decodeIfPresent([String].self, "worstOver")
        robust = try c.decodeIfPresent(Bool.self, "robust") ?? false
        confidence = try c.decodeIfPresent(Double.self, "confidence")
        if let confidence, !Self.confidenceRange.contains(confidence) {
            throw c.fail("confidence", "\(confidence) is outside 0.5-0.99 (a confidence such as 0.9)")
        }
        if minimize != nil && maximize != nil { throw c.fail("maximize", "give minimize or maximize, not both") }
        for (i, text) in constraints.enumerated() where Self.constraintColumn(text) == nil {
            throw DecodingError.dataCorrupted(.init(codingPath: c.container.codingPath + [AnyKey("constraints"), AnyIndex(i)],
                                                   debugDescription: "'\(text)': expected METRIC OP VALUE (OP one of \(Self.operators.joined(separator: " ")))"))
        }
        for (i, text) in targets.enumerated() {
            do { _ = try Target(parsing: text) } catch {
                throw DecodingError.dataCorrupted(.init(codingPath: c.container.codingPath + [AnyKey("targets"), AnyIndex(i)], debugDescription: error.message))
            }
        }
    }

    static let keysInOrder = ["constraints", "targets", "minimize", "maximize", "tiebreak", "worstOver", "robust", "confidence"]

    /// Writes the keys the objective uses: `targets` when there are some, `robust` when true.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(constraints, forKey: .constraints)
        if !targets.isEmpty { try c.encode(targets, forKey: .targets) }
        try c.encodeIfPresent(minimize, forKey: .minimize)
        try c.encodeIfPresent(maximize, forKey: .maximize)
        try c.encodeIfPresent(tiebreak, forKey: .tiebreak)
        try c.encodeIfPresent(worstOver, forKey: .worstOver)
        if robust { try c.encode(robust, forKey: .robust) }
        try c.encodeIfPresent(confidence, forKey: .confidence)
    }

    /// The comparison operators of a constraint, longest first (so `<=` is found before `<`).
    public static let operators = ["<=", ">=", "==", "<", ">"]

    /// The metric, operator and value of `METRIC OP VALUE` (spaces optional, VALUE finite), or nil.
    public static func parseConstraint(_ text: String) -> (column: String, op: String, value: Double)? {
        for op in operators {
            guard let range = text.range(of: op) else { continue }
            let column = text[..<range.lowerBound].trimmingCharacters(in: .whitespaces)
            let rhs = text[range.upperBound...].trimmingCharacters(in: .whitespaces)
            guard !column.isEmpty, let value = NumberFormat.decimal(rhs), value.isFinite, !column.contains(where: { "<>=".contains($0) }) else { return nil }
            return (column, op, value)
        }
        return nil
    }

    static func constraintColumn(_ text: String) -> String? { parseConstraint(text)?.column }

    /// Every metric the objective names, with its key path (`objective.targets[0]`), in file order.
    public var namedMetrics: [(path: [any CodingKey], name: String)] {
        var out: [(path: [any CodingKey], name: String)] = []
        for (i, t) in constraints.enumerated() { if let m = Self.constraintColumn(t) { out.append(([AnyKey("constraints"), AnyIndex(i)], m)) } }
        for (i, t) in targets.enumerated() { if let m = try? Target(parsing: t) { out.append(([AnyKey("targets"), AnyIndex(i)], m.column)) } }
        if let minimize { out.append(([AnyKey("minimize")], minimize)) }
        if let maximize { out.append(([AnyKey("maximize")], maximize)) }
        for (i, m) in (tiebreak ?? []).enumerated() { out.append(([AnyKey("tiebreak"), AnyIndex(i)], m)) }
        return out
    }

    /// The first metric the objective names that is not among `columns` (its key path under
    /// the objective and the problem), or nil.
    public func unknownMetric(in columns: [String]) -> (path: [any CodingKey], message: String)? {
        let known = Set(columns)
        guard let bad = namedMetrics.first(where: { !known.contains($0.name) }) else { return nil }
        return (bad.path, "'\(bad.name)' is not a report column of this model")
    }
}

/// A target (Reference §9.1): `METRIC = VALUE ± TOL` (ASCII `+-` accepted). A set's deviation
/// from it is |m − VALUE| / TOL; the set is on target when the deviation is ≤ 1.
public struct Target: Sendable, Equatable, CustomStringConvertible {
    /// The report column the target is on.
    public var column: String
    /// The value the designer chose, in the metric's unit.
    public var value: Double
    /// The half-width of the band, > 0, in the metric's unit.
    public var tolerance: Double

    /// A target `column = value ± tolerance` (tolerance > 0, in the metric's unit).
    public init(column: String, value: Double, tolerance: Double) {
        self.column = column; self.value = value; self.tolerance = tolerance
    }

    /// Parses `METRIC = VALUE ± TOL` or `METRIC=VALUE+-TOL` (spaces optional).
    public init(parsing text: String) throws(PresetError) {
        let syntax = PresetError(path: "", message: "'\(text)': expected METRIC = VALUE ± TOL (or +-), TOL > 0")
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw syntax }
        let column = parts[0].trimmingCharacters(in: .whitespaces)
        let rhs = String(parts[1])
        guard let pm = rhs.range(of: "±") ?? rhs.range(of: "+-"), !column.isEmpty, !column.contains(where: { "<>!".contains($0) }),
              let value = NumberFormat.decimal(rhs[..<pm.lowerBound].trimmingCharacters(in: .whitespaces)),
              let tolerance = NumberFormat.decimal(rhs[pm.upperBound...].trimmingCharacters(in: .whitespaces)),
              value.isFinite, tolerance.isFinite, tolerance > 0 else { throw syntax }
        self.init(column: column, value: value, tolerance: tolerance)
    }

    /// |m − value| / tolerance; nil for an empty value.
    public func deviation(_ m: Double?) -> Double? { m.map { abs($0 - value) / tolerance } }

    /// `METRIC = VALUE ± TOL`, numbers in ``/SpringCore/NumberFormat/short(_:)``.
    public var description: String { "\(column) = \(NumberFormat.short(value)) ± \(NumberFormat.short(tolerance))" }
}
