import ArgumentParser
import SpringCore
import SpringTune

struct SpringCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spring",
        abstract: "Analyse one spring in continuous time: overshoot, settle time and every parameter form.",
        discussion: """
        Give exactly one parameter form: --frequency/--damping, --stiffness/--damping-coefficient \
        [--mass], --response/--damping-ratio, --duration/--bounce, or --tension/--friction.
        """
    )

    @Option(help: "Undamped natural frequency f (Hz).", transform: decimal) var frequency: Double?
    @Option(help: "Damping ratio ζ (1 = critical), with --frequency.", transform: decimal) var damping: Double?
    @Option(help: "Stiffness k.", transform: decimal) var stiffness: Double?
    @Option(name: .customLong("damping-coefficient"), help: "Damping coefficient c.", transform: decimal) var dampingCoefficient: Double?
    @Option(help: "Mass m (default 1).", transform: decimal) var mass: Double?
    @Option(help: "SwiftUI/UIKit response (s).", transform: decimal) var response: Double?
    @Option(name: .customLong("damping-ratio"), help: "Damping ratio, with --response.", transform: decimal) var dampingRatio: Double?
    @Option(help: "SwiftUI duration (s).", transform: decimal) var duration: Double?
    @Option(help: "SwiftUI bounce (-1 < bounce ≤ 1).", transform: decimal) var bounce: Double?
    @Option(help: "Origami/Rebound tension.", transform: decimal) var tension: Double?
    @Option(help: "Origami/Rebound friction.", transform: decimal) var friction: Double?
    @Option(help: "Initial displacement X = start − target (pt; default 1).", transform: decimal) var displacement: Double = 1
    @Option(help: "Initial velocity V = dX/dt (pt/s; positive moves away from the target; default 0).", transform: decimal) var velocity: Double = 0
    @Option(help: "Settling band (pt, absolute).", transform: decimal) var band: Double?
    @Option(name: .customLong("relative-band"), help: "Settling band as a fraction of |X| (default 0.005).", transform: decimal) var relativeBand: Double?
    @Flag(help: "Print one JSON object.") var json = false

    func validate() throws {
        let forms = [
            frequency != nil || damping != nil,
            stiffness != nil || dampingCoefficient != nil,
            response != nil || dampingRatio != nil,
            duration != nil || bounce != nil,
            tension != nil || friction != nil,
        ].filter { $0 }.count
        guard forms == 1 else { throw ValidationError("give exactly one parameter form (see --help)") }
        guard band == nil || relativeBand == nil else { throw ValidationError("--band and --relative-band exclude each other") }
        if let band, !(band > 0 && band.isFinite) { throw ValidationError("--band must be > 0") }
        if let relativeBand, !(relativeBand > 0 && relativeBand.isFinite) { throw ValidationError("--relative-band must be > 0") }
        guard displacement.isFinite, velocity.isFinite, abs(displacement) <= 1e9, abs(velocity) <= 1e9 else {
            throw ValidationError("--displacement and --velocity must be finite, at most 1e9 in size")
        }
        if let band { guard band.isFinite, band >= 1e-9, band <= 1e9 else { throw ValidationError("--band must be from 1e-9 to 1e9 pt") } }
        if let relativeBand { guard relativeBand.isFinite, relativeBand >= 1e-9, relativeBand <= 1 else { throw ValidationError("--relative-band must be from 1e-9 to 1") } }
        if mass != nil && stiffness == nil { throw ValidationError("--mass goes with --stiffness/--damping-coefficient") }
    }

    func spring() throws -> SpringParameters {
        func need(_ v: Double?, _ name: String) throws -> Double {
            guard let v else { throw ValidationError("missing --\(name)") }
            return v
        }
        do {
            if frequency != nil || damping != nil {
                return try SpringParameters(frequency: need(frequency, "frequency"), damping: need(damping, "damping"))
            }
            if stiffness != nil || dampingCoefficient != nil {
                return try SpringParameters(stiffness: need(stiffness, "stiffness"),
                                            dampingCoefficient: need(dampingCoefficient, "damping-coefficient"), mass: mass ?? 1)
            }
            if response != nil || dampingRatio != nil {
                return try SpringParameters(response: need(response, "response"), dampingRatio: need(dampingRatio, "damping-ratio"))
            }
            if duration != nil || bounce != nil {
                return try SpringParameters(duration: need(duration, "duration"), bounce: need(bounce, "bounce"))
            }
            return try SpringParameters(tension: need(tension, "tension"), friction: need(friction, "friction"))
        } catch let error as SpringError {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        let resolvedBand = band ?? relativeBand.map { $0 * abs(displacement) }
        if resolvedBand == 0 { throw ValidationError("--relative-band needs a non-zero --displacement") }
        let analysis = SpringAnalysis(spring: try spring(), mass: mass ?? 1, displacement: displacement, velocity: velocity, band: resolvedBand)
        print(json ? analysis.json.rendered() : analysis.table, terminator: "")
    }
}
