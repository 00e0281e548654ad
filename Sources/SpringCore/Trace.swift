/// The phase of a touch sample (Reference §3).
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

/// What the user meant by a trace, when it is labelled (Reference §3).
public enum TraceIntent: String, Sendable, Codable, CaseIterable {
    case dismiss, keep, create, cancel
}

/// One touch sample: time in seconds, position in points (screen coordinates, y down), and the
/// finger it belongs to within its trace (`pointer`, 0 for a one-finger trace).
public struct TouchSample: Hashable, Sendable {
    public var t: Double
    public var x: Double
    public var y: Double
    public var phase: TouchPhase
    public var pointer: Int

    public init(t: Double, x: Double, y: Double, phase: TouchPhase, pointer: Int = 0) {
        self.t = t; self.x = x; self.y = y; self.phase = phase; self.pointer = pointer
    }
}

/// One touch from touch-down to lift-off (`began`, then only `moved`, then `ended`/`cancelled`),
/// or, with several pointers, one gesture: each pointer follows that rule and their rows
/// interleave in time order (Reference §3).
public struct Trace: Hashable, Sendable {
    public var id: String
    public var intent: TraceIntent?
    public var samples: [TouchSample]

    public init(id: String, intent: TraceIntent? = nil, samples: [TouchSample]) {
        self.id = id; self.intent = intent; self.samples = samples
    }

    /// The pointers of the trace in the order they began.
    public var pointers: [Int] {
        var seen = Set<Int>(), out: [Int] = []
        for s in samples where s.phase == .began && seen.insert(s.pointer).inserted { out.append(s.pointer) }
        return out
    }

    /// True when more than one finger takes part.
    public var isMultiPointer: Bool { samples.contains { $0.pointer != samples[0].pointer } }

    /// The rows of one pointer, as a one-finger trace with the same id and intent.
    public func pointer(_ p: Int) -> Trace {
        Trace(id: id, intent: intent, samples: samples.filter { $0.pointer == p })
    }

    /// What a one-finger model sees (Reference §3): the pointer that began first.
    public var firstPointer: Trace {
        guard isMultiPointer, let first = samples.first else { return self }
        return pointer(first.pointer)
    }

    /// Lift-off time (the last row's time).
    public var liftOffTime: Double { samples.last?.t ?? 0 }
    /// The `began` and `moved` samples: the ones that carry a position (Reference §4).
    public var positionSamples: ArraySlice<TouchSample> {
        samples.last?.phase.isLift == true ? samples.dropLast() : samples[...]
    }
}
