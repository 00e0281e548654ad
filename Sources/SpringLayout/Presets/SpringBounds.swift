import SpringCore

extension SpringSpec {
    /// The stiffest spring an engine runs (Reference §2.1): f ≤ 1000 Hz, ζ ≤ 1000. Beyond them
    /// e^(−ζωt) and the spring's other terms over- or underflow and the motion turns NaN
    /// (fuzz-engine: f = 1e200 Hz made a pulled row's height NaN).
    public static let maxFrequency = 1000.0, maxDamping = 1000.0

    /// The damping key of each spring form (by its first key).
    static let dampingKeys = ["frequency": "damping", "response": "dampingRatio", "duration": "bounce",
                              "stiffness": "dampingCoefficient", "tension": "friction"]

    /// Why an engine cannot run `s`, given in the form whose first key is `form`: the key to
    /// blame and the message, or nil.
    static func problem(_ s: SpringParameters, form: String) -> (key: String, message: String)? {
        if s.frequency > maxFrequency {
            return (form, "gives f = \(NumberFormat.significant(s.frequency, 9)) Hz, above the \(Int(maxFrequency)) Hz an engine runs")
        }
        if s.damping > maxDamping {
            return (dampingKeys[form] ?? form, "gives ζ = \(NumberFormat.significant(s.damping, 9)), above the \(Int(maxDamping)) an engine runs")
        }
        return nil
    }
}
