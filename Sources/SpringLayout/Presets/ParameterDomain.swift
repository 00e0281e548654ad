import SpringCore

/// Where a model parameter may be searched (Reference §8.3): a range of numbers, linear or
/// logarithmic, or a list of words. Every model parameter declares one beside its spec; scene
/// values (`frameRate`, the screen, `tail`) have none, since they describe the display, not the feel.
///
/// The domain lies inside the values the engine accepts (``ParameterSpec/check``) and is the
/// part of them over which the engine moves finitely and a person can still feel a difference:
/// `springtune search --free NAME` and the studio's levers span it unless a narrower range is
/// given. A preset's own value may lie outside it (it is still accepted); a search box may not.
public struct ParameterDomain: Hashable, Sendable {
    /// The values of the domain.
    public enum Values: Hashable, Sendable {
        /// Numbers from `min` to `max`; with `log`, searched in log space (0 < min).
        case range(min: Double, max: Double, log: Bool)
        /// One of these words.
        case words([String])
    }

    /// The range or the words.
    public var values: Values
    /// True for the parameters that shape the feel (springs, thresholds, resistances), which
    /// `--free all` frees; false for those that describe the app's content (row height, card
    /// frame, the list's length), which are freed only by name.
    public var tuning: Bool

    /// Numbers from `min` to `max`, searched linearly.
    public static func linear(_ min: Double, _ max: Double, tuning: Bool = true) -> Self {
        Self(values: .range(min: min, max: max, log: false), tuning: tuning)
    }

    /// Numbers from `min` to `max` (0 < min), searched in log space.
    public static func log(_ min: Double, _ max: Double, tuning: Bool = true) -> Self {
        precondition(min > 0 && min < max, "a log domain needs 0 < min < max")
        return Self(values: .range(min: min, max: max, log: true), tuning: tuning)
    }

    /// One of `words`.
    public static func words(_ words: [String], tuning: Bool = true) -> Self {
        Self(values: .words(words), tuning: tuning)
    }

    /// The range's ends, nil for words.
    public var range: (min: Double, max: Double, log: Bool)? {
        if case let .range(lo, hi, isLog) = values { (lo, hi, isLog) } else { nil }
    }

    /// `[0.2, 20] log`, `[0, 300]`, or `top | middle | …`, as `presets show` writes it.
    public var description: String {
        switch values {
        case let .range(lo, hi, isLog):
            "[\(NumberFormat.significant(lo, 6)), \(NumberFormat.significant(hi, 6))]\(isLog ? " log" : "")"
        case let .words(words):
            words.joined(separator: " | ")
        }
    }

    /// Whether `value` lies in the domain (a number within the range, or one of the words).
    public func contains(_ value: ParamValue) -> Bool {
        switch (values, value) {
        case let (.range(lo, hi, _), .number(x)): lo <= x && x <= hi
        case let (.words(words), .text(w)): words.contains(w)
        default: false
        }
    }

    /// The spring frequency (Hz) a search spans: 0.2 Hz (a 5 s swing) to 20 Hz (faster than a frame at 60 Hz can show).
    public static let frequency = log(0.2, 20)
    /// The spring damping ratio a search spans: 0.1 (rings for seconds) to 2 (well overdamped).
    public static let damping = linear(0.1, 2)
    /// The spring response (s) a search spans: the inverse of ``frequency``'s range.
    public static let response = log(0.05, 5)
    /// A length on screen that describes content (pt), freed only by name.
    public static let contentLength = log(1, 2000, tuning: false)
}
