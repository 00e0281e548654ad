import SpringCore

/// A model as plain numbers (Reference §15): what the WebAssembly engine is handed, since it
/// decodes no preset. ``numbers`` lists the model's stored values in the order
/// ``init(numbers:scene:)`` reads them: the main spring's frequency (Hz) and damping ratio
/// first, then the model's own, a choice as its index and a switch as 0 or 1. The native build
/// writes them, both builds read them, so `M(numbers: m.numbers, scene: m.scene)` is `m`.
public protocol EngineNumbers: Sendable {
    /// The model's values in the order ``init(numbers:scene:)`` reads them.
    var numbers: [Double] { get }
    /// The model of `numbers` in `scene`; nil for another count, a number that is not finite,
    /// a count or index out of range, or a spring out of range (no model then).
    init?(numbers: [Double], scene: Scene)
}

/// Reads a list of numbers front to back (``EngineNumbers``), each checked as it is read: a
/// number that is not finite, a count or index out of range reads as nil.
public struct NumberReader: Sendable {
    private let numbers: [Double]
    private var next = 0

    /// A reader at the first of `numbers`.
    public init(_ numbers: [Double]) { self.numbers = numbers }

    /// True when every number has been read.
    public var isAtEnd: Bool { next == numbers.count }

    /// The next number when it is finite.
    public mutating func number() -> Double? {
        guard next < numbers.count, numbers[next].isFinite else { return nil }
        next += 1
        return numbers[next - 1]
    }

    /// The next number as a whole number in `range`.
    public mutating func integer(in range: ClosedRange<Int>) -> Int? {
        guard let x = number(), x == x.rounded(), x >= Double(range.lowerBound), x <= Double(range.upperBound) else { return nil }
        return Int(x)
    }

    /// The next number as an index into `count` choices (none for `count` < 1).
    public mutating func index(count: Int) -> Int? { count > 0 ? integer(in: 0...(count - 1)) : nil }

    /// The next number as the index of one of `C`'s cases (in `allCases` order).
    public mutating func choice<C: CaseIterable>(_: C.Type) -> C? {
        let cases = Array(C.allCases)
        return index(count: cases.count).map { cases[$0] }
    }

    /// The index of `value` among `C`'s cases, as ``choice(_:)`` reads it.
    public static func number<C: CaseIterable & Equatable>(of value: C) -> Double {
        Double(Array(C.allCases).firstIndex(of: value) ?? 0)
    }

    /// The next number as a switch: 0 off, 1 on.
    public mutating func flag() -> Bool? { integer(in: 0...1).map { $0 == 1 } }

    /// The next two as a spring's frequency (Hz) and damping ratio, when they make one.
    public mutating func spring() -> SpringParameters? {
        guard let f = number(), let zeta = number() else { return nil }
        return try? SpringParameters(frequency: f, damping: zeta)
    }
}

extension SpringParameters {
    /// Frequency (Hz) and damping ratio, as ``NumberReader/spring()`` reads them.
    public var numbers: [Double] { [frequency, damping] }
}
