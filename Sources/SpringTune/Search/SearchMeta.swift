import SpringCore
import SpringLayout

/// The `search` block of a search's `report.meta.json` (Reference §13): how it ran, the box,
/// what it chose and how far the choice is from breaking.
public struct SearchMeta: Codable, Sendable, Equatable {
    /// Search evaluations asked for (`--budget`) and made (the rows of `report.csv`).
    public var budget: Int
    public var evaluations: Int
    /// Sets proposed together (`--batch`).
    public var batch: Int
    public var seed: UInt64
    /// The `--free` options as given.
    public var free: [String]
    /// The box: `{name, unit, from, to, log}` or `{name, unit, words}` per free parameter.
    public var box: [Box]
    /// The objective column and its direction.
    public var column: String
    public var maximize: Bool
    /// After each search evaluation, the best objective value of a feasible set so far (one
    /// that meets every constraint and is on every target); nil while none is.
    public var convergence: [ReportNumber]
    /// The robustness and margin checks' evaluations (`checks.csv`), counted apart from the budget.
    public var checks: Int
    /// The chosen set: its evaluation, whether it kept every constraint and target at its ±2 %
    /// neighbours, and what was given up for that (nil when it is the best feasible set).
    public var chosen: Int?
    public var robust: Bool?
    public var givenUp: String?
    /// Per free numeric parameter of the chosen set, its margins.
    public var margins: [Margin]

    /// One free parameter of the box.
    public struct Box: Codable, Sendable, Equatable {
        public var name: String
        public var unit: String
        public var from: Double?
        public var to: Double?
        public var log: Bool?
        public var words: [ParamValue]?

        init(_ d: SearchBox.Dimension) {
            name = d.name; unit = d.unit
            switch d.extent {
            case let .numbers(lo, hi, isLog): from = lo; to = hi; log = isLog
            case let .words(w): words = w
            }
        }

        /// The dimension it records.
        public var dimension: SearchBox.Dimension {
            let extent: SearchBox.Dimension.Extent = words.map { .words($0) } ?? .numbers(min: from ?? 0, max: to ?? 0, log: log ?? false)
            return SearchBox.Dimension(name: name, unit: unit, extent: extent)
        }
    }

    /// How far a parameter of the chosen set can move, the others fixed, before a hard
    /// constraint or a target breaks: `down` and `up` in the parameter's unit (nil: no break
    /// within 25 % of the box that way, or the domain ends first), `margin` the nearer.
    public struct Margin: Codable, Sendable, Equatable {
        public var name: String
        public var unit: String
        public var value: Double
        public var down: Double?
        public var up: Double?
        /// What breaks first, e.g. `dismiss_accuracy >= 0.96 below 439.2`.
        public var breaks: String?

        public init(name: String, unit: String, value: Double, down: Double?, up: Double?, breaks: String?) {
            self.name = name; self.unit = unit; self.value = value; self.down = down; self.up = up; self.breaks = breaks
        }

        /// min(down, up), nil when neither breaks.
        public var margin: Double? { [down, up].compactMap { $0 }.min() }

        /// `0.7 pt/s (dismiss_accuracy >= 0.96 below 439.2)` or `>25% of the box`.
        public var text: String {
            guard let m = margin else { return ">25% of the box" }
            return "\(NumberFormat.short(m)) \(unit)" + (breaks.map { " (\($0))" } ?? "")
        }
    }

    enum CodingKeys: String, CodingKey {
        case budget, evaluations, batch, seed, free, box, column, maximize, convergence, checks, chosen, robust
        case givenUp = "given_up", margins
    }
}

