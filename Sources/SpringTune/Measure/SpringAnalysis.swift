import SpringCore

/// `springtune spring`: one spring analysed in continuous time (Reference §2), with every
/// conversion of its parameters.
public struct SpringAnalysis: Sendable {
    public var spring: SpringParameters
    public var mass: Double
    /// Initial displacement X = start − target (pt) and velocity V = dX/dt (pt/s).
    public var displacement: Double
    public var velocity: Double
    /// Settling band (pt, > 0).
    public var band: Double

    public var overshoot: (ratio: Double, time: Double)?
    public var settleTime: Double?

    /// `band` defaults to 0.5 % of |X| (of the amplitude bound when X = 0).
    public init(spring: SpringParameters, mass: Double = 1, displacement: Double = 1, velocity: Double = 0, band: Double? = nil) {
        self.spring = spring
        self.mass = mass
        self.displacement = displacement
        self.velocity = velocity
        let motion = SpringMotion(spring: spring, initial: SpringState(x: displacement, v: velocity))
        let resolved = band ?? 0.005 * (displacement != 0 ? abs(displacement) : motion.amplitudeBound)
        self.band = resolved
        overshoot = motion.peakOvershoot()
        settleTime = resolved > 0 ? motion.settleTime(band: resolved) : nil
    }

    /// Every figure by name, in a fixed order (the `--json` contract).
    public var fields: [(String, Double?)] {
        [
            ("frequency", spring.frequency), ("damping", spring.damping), ("omega", spring.omega),
            ("stiffness", spring.stiffness(mass: mass)), ("damping_coefficient", spring.dampingCoefficient(mass: mass)),
            ("mass", mass), ("response", spring.response), ("damping_ratio", spring.damping),
            ("duration", spring.response), ("bounce", spring.bounce), ("tension", spring.tension), ("friction", spring.friction),
            ("displacement", displacement), ("velocity", velocity), ("band", band),
            ("overshoot_ratio", overshoot?.ratio), ("overshoot_pt", overshoot.map { $0.ratio * abs(displacement) }),
            ("overshoot_time", overshoot?.time), ("settle_time", settleTime),
        ]
    }

    public var json: JSONValue { .object(fields.map { ($0.0, JSONValue.number($0.1)) }) }

    /// A readable two-column table.
    public var table: String {
        let units: [String: String] = [
            "frequency": "Hz", "omega": "rad/s", "stiffness": "mass/s²", "damping_coefficient": "mass/s",
            "response": "s", "duration": "s", "displacement": "pt", "velocity": "pt/s", "band": "pt",
            "overshoot_pt": "pt", "overshoot_time": "s", "settle_time": "s",
        ]
        return fields.map { name, value in
            let text = value.map { NumberFormat.significant($0, 6) + (units[name].map { " " + $0 } ?? "") } ?? (name == "settle_time" ? "never" : "none")
            return name.padding(toLength: 21, withPad: " ", startingAt: 0) + text
        }.joined(separator: "\n") + "\n"
    }
}
