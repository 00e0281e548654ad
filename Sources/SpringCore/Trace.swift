/// The phase of a touch sample (Reference §3).
public enum TouchPhase: String, Sendable, CaseIterable {
    /// The finger touched down: the first row of a pointer.
    case began
    /// The finger moved (or stayed) while down.
    case moved
    /// The finger lifted: the pointer's last row.
    case ended
    /// The system cancelled the touch (an incoming call, a competing gesture): the pointer's last row.
    case cancelled

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
public enum TraceIntent: String, Sendable, CaseIterable {
    /// The user meant to dismiss the item (flick, card, fold).
    case dismiss
    /// The user meant to keep the item where it was: a dismiss gesture that should snap back.
    case keep
    /// The user meant to create an item (pull to create).
    case create
    /// The user started a gesture and meant to abandon it.
    case cancel
}

/// One touch sample: time in seconds, position in points (screen coordinates, y down), and the
/// finger it belongs to within its trace (`pointer`, 0 for a one-finger trace).
public struct TouchSample: Hashable, Sendable {
    /// Time, in seconds (on the recording's clock; only differences matter).
    public var t: Double
    /// Horizontal position, in points (screen coordinates, x to the right).
    public var x: Double
    /// Vertical position, in points (screen coordinates, y down).
    public var y: Double
    /// Where the sample is in its pointer's touch: down, moving or lifted.
    public var phase: TouchPhase
    /// Which finger of the trace the sample belongs to (0, 1, …; 0 for a one-finger trace).
    public var pointer: Int

    /// A sample at time `t` (s) and position (`x`, `y`) (pt) of finger `pointer`.
    public init(t: Double, x: Double, y: Double, phase: TouchPhase, pointer: Int = 0) {
        self.t = t; self.x = x; self.y = y; self.phase = phase; self.pointer = pointer
    }
}

/// One touch from touch-down to lift-off (`began`, then only `moved`, then `ended`/`cancelled`),
/// or, with several pointers, one gesture: each pointer follows that rule and their rows
/// interleave in time order (Reference §3).
public struct Trace: Hashable, Sendable {
    /// The trace's name, unique within its file (the CSV's `trace` column).
    public var id: String
    /// What the user meant, when the trace is labelled; nil when it is not.
    public var intent: TraceIntent?
    /// Who made it (Reference §14): the person or device, the CSV's `group` column; nil when
    /// the file does not say (the trace is then a group of its own).
    public var group: String?
    /// The samples in time order, with every pointer's rows interleaved.
    public var samples: [TouchSample]

    /// A trace named `id` with its samples in time order and, optionally, its label and group.
    public init(id: String, intent: TraceIntent? = nil, group: String? = nil, samples: [TouchSample]) {
        self.id = id; self.intent = intent; self.group = group; self.samples = samples
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
        Trace(id: id, intent: intent, group: group, samples: samples.filter { $0.pointer == p })
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

#if !hasFeature(Embedded)
// Codable in extensions, so that the WebAssembly build (Embedded Swift, which has no Codable)
// compiles the same declarations.
extension TouchPhase: Codable {}
extension TraceIntent: Codable {}
#endif
