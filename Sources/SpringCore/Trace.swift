/// The phase of a touch sample (SPEC §3).
public enum TouchPhase: String, Sendable, Codable, CaseIterable {
    case began, moved, ended, cancelled

    /// Parses a phase name or its alias (`down`, `move`, `up`).
    public init?(name: String) {
        switch name {
        case "began", "down": self = .began
        case "moved", "move": self = .moved
        case "ended", "up": self = .ended
        case "cancelled": self = .cancelled
        default: return nil
        }
    }

    /// True for `ended` and `cancelled`, the rows that close a trace.
    public var isLift: Bool { self == .ended || self == .cancelled }
}

/// What the user meant by a trace, when it is labelled (SPEC §3).
public enum TraceIntent: String, Sendable, Codable, CaseIterable {
    case dismiss, keep, create, cancel
}

/// One touch sample: time in seconds, position in points (screen coordinates, y down).
public struct TouchSample: Hashable, Sendable {
    public var t: Double
    public var x: Double
    public var y: Double
    public var phase: TouchPhase

    public init(t: Double, x: Double, y: Double, phase: TouchPhase) {
        self.t = t; self.x = x; self.y = y; self.phase = phase
    }
}

/// One touch from touch-down to lift-off: `began`, then only `moved`, then `ended`/`cancelled`.
public struct Trace: Hashable, Sendable {
    public var id: String
    public var intent: TraceIntent?
    public var samples: [TouchSample]

    public init(id: String, intent: TraceIntent? = nil, samples: [TouchSample]) {
        self.id = id; self.intent = intent; self.samples = samples
    }

    /// Lift-off time (the last row's time).
    public var liftOffTime: Double { samples.last?.t ?? 0 }
    /// The `began` and `moved` samples: the ones that carry a position (SPEC §4).
    public var positionSamples: ArraySlice<TouchSample> {
        samples.last?.phase.isLift == true ? samples.dropLast() : samples[...]
    }
}
