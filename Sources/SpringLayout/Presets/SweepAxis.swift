import Foundation
import SpringCore

/// One sweep axis: explicit values (numbers, or words for a word parameter such as
/// `completionCurve`), or `from`/`to`/`steps` with linear or log spacing.
public struct SweepAxis: Sendable, Codable, Equatable {
    /// The parameter the axis varies.
    public var name: String
    /// The values it takes, in order.
    public var values: [ParamValue]
    /// The range form, kept to write the axis back as it was given.
    public var range: Range?

    /// An axis given as `from`/`to`/`steps` and its spacing.
    public struct Range: Sendable, Codable, Equatable {
        /// The first value.
        public var from: Double
        /// The last value.
        public var to: Double
        /// The number of values (1…``SweepAxis/maxSteps``).
        public var steps: Int
        /// True for log spacing (geometric), false for linear.
        public var log: Bool
    }

    /// An axis over explicit values.
    public init(name: String, values: [ParamValue]) {
        self.name = name
        self.values = values
    }

    /// An axis over explicit numbers.
    public init(name: String, values: [Double]) { self.init(name: name, values: values.map(ParamValue.number)) }

    /// The values as numbers, when every one is a number.
    public var numbers: [Double]? {
        let n = values.compactMap(\.number)
        return n.count == values.count ? n : nil
    }

    /// Most values one axis may have.
    public static let maxSteps = 10_000

    /// An axis of `steps` values from `from` to `to`: linear, vᵢ = from + (to − from)·i/(steps − 1), or log, vᵢ = from·(to/from)^(i/(steps − 1)); inner values to 12 significant digits, the ends exact.
    ///
    /// - Throws: ``PresetError`` when steps is out of 1…``maxSteps``, an end is not finite, or log spacing has an end ≤ 0.
    public init(name: String, from: Double, to: Double, steps: Int, log: Bool) throws(PresetError) {
        guard steps >= 1, steps <= Self.maxSteps else { throw PresetError(path: "\(name).steps", message: "\(steps) is out of range 1…\(Self.maxSteps)") }
        guard from.isFinite, to.isFinite else { throw PresetError(path: name, message: "from and to must be finite") }
        if log && !(from > 0 && to > 0) { throw PresetError(path: name, message: "log spacing needs from > 0 and to > 0") }
        self.name = name
        range = Range(from: from, to: to, steps: steps, log: log)
        values = (0..<steps).map { i in
            guard steps > 1 else { return .number(from) }
            let u = Double(i) / Double(steps - 1)
            if i == steps - 1 { return .number(to) }
            return .number(NumberFormat.typed(log ? from * Foundation.pow(to / from, u) : from + (to - from) * u))
        }
    }

    enum Key: String, CodingKey { case name, values, from, to, steps, spacing }

    /// Decodes `name` with `values`, or with `from`/`to`/`steps` and `spacing` (`linear` or `log`), strictly.
    public init(from decoder: any Decoder) throws {
        let c = try StrictContainer(decoder, keys: ["name", "values", "from", "to", "steps", "spacing"])
        let name = try c.decode(String.self, "name")
        if let values = try c.decodeIfPresent([ParamValue].self, "values") {
            guard !values.isEmpty else { throw c.fail("values", "must not be empty") }
            guard values.count <= Self.maxSteps else { throw c.fail("values", "\(values.count) values; at most \(Self.maxSteps)") }
            self.init(name: name, values: values)
            return
        }
        let spacing = try c.decodeIfPresent(String.self, "spacing") ?? "linear"
        guard spacing == "linear" || spacing == "log" else { throw c.fail("spacing", "'\(spacing)' is not linear or log") }
        do {
            try self.init(name: name, from: c.decode(Double.self, "from"), to: c.decode(Double.self, "to"),
                          steps: c.decode(Int.self, "steps"), log: spacing == "log")
        } catch let error as PresetError {
            throw c.fail("steps", error.message)
        }
    }

    /// Encodes the axis as it was given: its range, or its values.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(name, forKey: .name)
        if let range {
            try c.encode(range.from, forKey: .from)
            try c.encode(range.to, forKey: .to)
            try c.encode(range.steps, forKey: .steps)
            try c.encode(range.log ? "log" : "linear", forKey: .spacing)
        } else {
            try c.encode(values, forKey: .values)
        }
    }
}
