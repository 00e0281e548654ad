/// "The designer preferred `winner` to `loser`": indices into `PreferenceData.points`.
public struct Comparison: Hashable, Sendable {
    public var winner: Int
    public var loser: Int
    public init(winner: Int, loser: Int) { self.winner = winner; self.loser = loser }
}

/// What a designer answered about a round's candidates.
public enum Answer: Hashable, Sendable {
    /// This one is the worst: each other shown candidate is preferred to it (K − 1 comparisons).
    case worst(Int)
    /// This one is the best: it is preferred to each other shown candidate (K − 1 comparisons).
    case best(Int)
    /// No difference seen: recorded as no information (no comparison). A tie says the
    /// utilities are close but not which is higher; as a weak comparison both ways it would pull
    /// the candidates' utilities together at a noise level the model does not know, so it is
    /// left out (Reference §12).
    case same
}

/// The observations the model is fitted to: the points shown (unit-box vectors, each kept once)
/// and the comparisons between them.
public struct PreferenceData: Hashable, Sendable {
    public private(set) var points: [[Double]] = []
    public private(set) var comparisons: [Comparison] = []
    private var index: [[Double]: Int] = [:]

    public init() {}

    /// The index of `point`, added unless an equal point is already there.
    @discardableResult
    public mutating func add(point: [Double]) -> Int {
        precondition(points.isEmpty || point.count == points[0].count, "every point must have the space's dimension")
        if let i = index[point] { return i }
        points.append(point)
        index[point] = points.count - 1
        return points.count - 1
    }

    /// Records "point `winner` is preferred to point `loser`" (ignored when they are the same point).
    public mutating func prefer(_ winner: Int, over loser: Int) {
        precondition(points.indices.contains(winner) && points.indices.contains(loser), "comparison of an unknown point")
        guard winner != loser else { return }
        comparisons.append(Comparison(winner: winner, loser: loser))
    }

    /// Records a round's answer over the shown points (indices from `add(point:)`).
    public mutating func record(shown: [Int], answer: Answer) {
        switch answer {
        case let .worst(w):
            for i in shown where i != w { prefer(i, over: w) }
        case let .best(b):
            for i in shown where i != b { prefer(b, over: i) }
        case .same:
            break
        }
    }
}
