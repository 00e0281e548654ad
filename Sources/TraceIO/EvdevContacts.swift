import SpringCore

/// One Linux evdev event, as both `getevent -lt` and evemu record them.
struct EvdevEvent {
    enum Kind {
        case positionX(Int), positionY(Int), trackingID(Int), slot(Int), mtReport, report
    }
    var time: Double
    var kind: Kind
}

/// Turns a stream of multitouch evdev events (protocol A or B) into finger contacts, in the
/// order they touch down (their first sample; at the same time, by slot, tracking id or
/// report index), as recorders number them. Samples are stamped at their `SYN_REPORT`; a contact
/// gets a `moved` row at every later report, and its `ended` row (repeating
/// its last position) at the report where it lifts. A contact still down at the end of the
/// recording ends `cancelled` at the last report. Like MonkeyHelper's reference split, every
/// `SYN_REPORT` gives each finger still down a `moved` row, changed or not. At most
/// ``maxDown`` fingers are down at once and slots are below it (a recording whose 300k contacts
/// all stayed down in their own slots grew every report by 300k rows: 24 GB): beyond that
/// ``handle(_:)`` throws ``TooManyFingers``.
struct EvdevContacts {
    /// Fingers down at once, and the slot numbers: a pointer number of a trace is below it.
    static let maxDown = TraceReader.maxPointer + 1

    /// More than ``maxDown`` fingers down, or a slot number outside 0..<maxDown.
    struct TooManyFingers: Error {}

    /// A finger in contact, keyed by slot (B) or tracking id / report index (A).
    private struct Contact {
        var x: Int, y: Int
        var samples: [TouchSample] = []
    }

    /// Finished contacts with their key, in lift order, times absolute (the recording's clock).
    private var finished: [(key: Int, samples: [TouchSample])] = []
    private var down: [Int: Contact] = [:]
    private var lastReport = 0.0
    private let scale: Double

    // Protocol B slot state.
    private var slot = 0
    private var slotX: [Int: Int] = [:], slotY: [Int: Int] = [:]
    private var slotLifted = Set<Int>(), slotBegan = Set<Int>()
    // Protocol A frame state.
    private var isProtocolA = false
    private var pending: (id: Int?, x: Int?, y: Int?) = (nil, nil, nil)
    private var frame: [(id: Int?, x: Int, y: Int)] = []

    init(scale: Double) { self.scale = scale }

    mutating func handle(_ e: EvdevEvent) throws(TooManyFingers) {
        switch e.kind {
        case let .positionX(v): pending.x = v; slotX[slot] = v
        case let .positionY(v): pending.y = v; slotY[slot] = v
        case let .trackingID(id):
            pending.id = id
            if id < 0 { slotLifted.insert(slot) } else { slotBegan.insert(slot) }
        case let .slot(s):
            guard (0..<Self.maxDown).contains(s) else { throw TooManyFingers() }
            slot = s
        case .mtReport:
            isProtocolA = true
            guard frame.count < Self.maxDown else { throw TooManyFingers() }
            if let x = pending.x, let y = pending.y { frame.append((pending.id, x, y)) }
            pending = (nil, nil, nil)
        case .report:
            lastReport = e.time
            if isProtocolA { reportA(e.time) } else { reportB(e.time) }
        }
    }

    /// Closes contacts still down and returns every contact in touch-down order, ties by key
    /// (absolute times).
    mutating func finish() -> [[TouchSample]] {
        for key in down.keys.sorted() { end(key, at: lastReport, phase: .cancelled) }
        return finished.sorted { ($0.samples[0].t, $0.key) < ($1.samples[0].t, $1.key) }.map(\.samples)
    }

    private mutating func reportA(_ t: Double) {
        var present = Set<Int>()
        for (index, c) in frame.enumerated() {
            let key = c.id ?? index
            present.insert(key)
            if down[key] == nil {
                begin(key, x: c.x, y: c.y, at: t)
            } else {
                move(key, x: c.x, y: c.y, at: t)
            }
        }
        for key in down.keys.sorted() where !present.contains(key) { end(key, at: t, phase: .ended) }
        frame.removeAll()
        pending = (nil, nil, nil)
    }

    private mutating func reportB(_ t: Double) {
        for s in slotLifted.sorted() { end(s, at: t, phase: .ended) }
        for s in slotBegan.sorted() where down[s] == nil && !slotLifted.contains(s) {
            if let x = slotX[s], let y = slotY[s] { begin(s, x: x, y: y, at: t) }
        }
        for s in down.keys.sorted() where !slotBegan.contains(s) {
            move(s, x: slotX[s]!, y: slotY[s]!, at: t)
        }
        slotLifted.removeAll(); slotBegan.removeAll()
        pending = (nil, nil, nil)
    }

    private func sample(_ x: Int, _ y: Int, _ t: Double, _ phase: TouchPhase) -> TouchSample {
        TouchSample(t: t, x: Double(x) / scale, y: Double(y) / scale, phase: phase)
    }

    private mutating func begin(_ key: Int, x: Int, y: Int, at t: Double) {
        var c = Contact(x: x, y: y)
        c.samples.append(sample(x, y, t, .began))
        down[key] = c
    }

    private mutating func move(_ key: Int, x: Int, y: Int, at t: Double) {
        guard var c = down.removeValue(forKey: key) else { return }
        c.x = x; c.y = y
        c.samples.append(sample(x, y, t, .moved))
        down[key] = c
    }

    private mutating func end(_ key: Int, at t: Double, phase: TouchPhase) {
        guard var c = down.removeValue(forKey: key) else { return }
        c.samples.append(sample(c.x, c.y, t, phase))
        finished.append((key, c.samples))
    }
}
