/// Double → Int without a trap: `Int(_:)` stops the process on NaN, ±∞ and anything beyond
/// ±9.2e18, all reachable from user-given numbers (a damping of 1e-300, a frequency of 1e308).
extension Int {
    /// `value` rounded toward zero and clamped to `range`; NaN gives `range.lowerBound`.
    public init(clamping value: Double, to range: ClosedRange<Int>) {
        if value.isNaN || value <= Double(range.lowerBound) {
            self = range.lowerBound
        } else if value >= Double(range.upperBound) {
            self = range.upperBound
        } else {
            self = Int(value)
        }
    }
}
