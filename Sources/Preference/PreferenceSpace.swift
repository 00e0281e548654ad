#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A parameter's value as the preference model sees it: a number or a word.
public enum AxisValue: Hashable, Sendable, CustomStringConvertible {
    case number(Double)
    case word(String)

    public var description: String {
        switch self {
        case let .number(x): "\(x)"
        case let .word(w): w
        }
    }
}

/// One axis of the space a designer's taste is learned over.
public struct PreferenceAxis: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// A number from `min` to `max`; with `log`, scaled in log space (needs 0 < min).
        case numeric(min: Double, max: Double, log: Bool)
        /// One of a few words, one coordinate per word (one-hot).
        case words([String])
    }

    public var name: String
    public var kind: Kind

    public static func numeric(_ name: String, min: Double, max: Double, log: Bool = false) -> Self {
        Self(name: name, kind: .numeric(min: min, max: max, log: log))
    }

    public static func words(_ name: String, _ words: [String]) -> Self { Self(name: name, kind: .words(words)) }

    /// Coordinates the axis takes in the unit box: 1 for a number, one per word.
    public var width: Int {
        switch kind {
        case .numeric: 1
        case let .words(words): words.count
        }
    }
}

/// Why a space or a parameter set was refused.
public struct PreferenceError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// The unit box [0, 1]^d the model works in, and the map from a parameter set to it and back.
///
/// A numeric axis is one coordinate, u = (x − min)/(max − min), or on a log axis
/// u = (ln x − ln min)/(ln max − ln min); an axis with min = max maps to 0.5. A word axis of W
/// words is W coordinates, 1 for its word and 0 for the others. Decoding clamps a number to the
/// box and snaps a word axis to the word with the largest coordinate (the first on a tie).
public struct PreferenceSpace: Hashable, Sendable {
    public let axes: [PreferenceAxis]
    /// Coordinates in the unit box (the sum of the axes' widths).
    public let dimension: Int
    /// Each axis's first coordinate.
    public let offsets: [Int]

    public init(axes: [PreferenceAxis]) throws(PreferenceError) {
        var offsets: [Int] = [], d = 0, names = Set<String>()
        for axis in axes {
            guard names.insert(axis.name).inserted else { throw PreferenceError("axis '\(axis.name)' appears twice") }
            switch axis.kind {
            case let .numeric(lo, hi, isLog):
                guard lo.isFinite, hi.isFinite, lo <= hi else { throw PreferenceError("axis '\(axis.name)': needs finite min ≤ max") }
                if isLog && !(lo > 0) { throw PreferenceError("axis '\(axis.name)': a log axis needs min > 0") }
            case let .words(words):
                guard !words.isEmpty, Set(words).count == words.count else { throw PreferenceError("axis '\(axis.name)': needs distinct words") }
            }
            offsets.append(d)
            d += axis.width
        }
        guard d > 0 else { throw PreferenceError("a preference space needs at least one axis") }
        self.axes = axes
        self.offsets = offsets
        dimension = d
    }

    /// The unit-box vector of a parameter set that gives every axis a value.
    public func encode(_ values: [String: AxisValue]) throws(PreferenceError) -> [Double] {
        var x = [Double](repeating: 0, count: dimension)
        for (axis, offset) in zip(axes, offsets) {
            guard let value = values[axis.name] else { throw PreferenceError("no value for axis '\(axis.name)'") }
            switch (axis.kind, value) {
            case let (.numeric(lo, hi, isLog), .number(v)):
                guard v.isFinite, !isLog || v > 0 else { throw PreferenceError("axis '\(axis.name)': \(v) is not a usable number") }
                x[offset] = hi == lo ? 0.5 : isLog ? (log(v) - log(lo)) / (log(hi) - log(lo)) : (v - lo) / (hi - lo)
            case let (.words(words), .word(w)):
                guard let i = words.firstIndex(of: w) else { throw PreferenceError("axis '\(axis.name)': '\(w)' is not one of \(words.joined(separator: ", "))") }
                x[offset + i] = 1
            default:
                throw PreferenceError("axis '\(axis.name)': \(value) is of the wrong kind")
            }
        }
        return x
    }

    /// The parameter set of a unit-box vector (numbers clamped to the box, words snapped).
    public func decode(_ x: [Double]) -> [String: AxisValue] {
        precondition(x.count == dimension)
        var out: [String: AxisValue] = [:]
        for (axis, offset) in zip(axes, offsets) {
            switch axis.kind {
            case let .numeric(lo, hi, isLog):
                let u = min(1, max(0, x[offset]))
                let v = isLog ? exp(log(lo) + u * (log(hi) - log(lo))) : lo + u * (hi - lo)
                out[axis.name] = .number(u == 1 ? hi : u == 0 ? lo : v)
            case let .words(words):
                out[axis.name] = .word(words[Self.argmax(x, offset, words.count)])
            }
        }
        return out
    }

    /// The nearest point a parameter set can be: numbers clamped to [0, 1], each word axis
    /// one-hot on its largest coordinate.
    public func snap(_ x: [Double]) -> [Double] {
        precondition(x.count == dimension)
        var y = x
        for (axis, offset) in zip(axes, offsets) {
            switch axis.kind {
            case .numeric:
                y[offset] = min(1, max(0, x[offset].isNaN ? 0.5 : x[offset]))
            case let .words(words):
                let k = Self.argmax(x, offset, words.count)
                for i in 0..<words.count { y[offset + i] = i == k ? 1 : 0 }
            }
        }
        return y
    }

    private static func argmax(_ x: [Double], _ offset: Int, _ count: Int) -> Int {
        var best = 0
        for i in 1..<max(1, count) where x[offset + i] > x[offset + best] { best = i }
        return best
    }
}
