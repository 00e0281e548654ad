import SpringCore

/// `bottom-sheet` (Reference §7.10): a sheet rising from the bottom of the screen rests at
/// detents (the fraction of the screen height it covers: `largeDetent`, `mediumDetent`, and 0,
/// closed). A finger drags its top edge 1:1 (past the large detent at `overdrag` of the
/// finger's pace, never below the screen); at the release it springs to the nearest detent,
/// or, released at `flickVelocity` or faster, to the next detent in the flick's direction. It
/// is dismissed when that detent is the closed one. The spring runs on the finger's path (it
/// starts with the finger's velocity), and the sheet shows it through the same mapping, so
/// an overshoot past the large detent is damped by `overdrag` as a drag there is.
public struct BottomSheet: EngineNumbers {
    /// The spring that carries the sheet to its detent.
    public let spring: SpringParameters
    /// The sheet's top edge (screen y, pt) at each detent: large, medium, closed (the screen's bottom).
    public let detents: [Double]
    /// The top edge at touch-down (pt): the medium or large detent.
    public let startTop: Double
    /// The release speed (pt/s) from which a release goes to the next detent in its direction.
    public let flickVelocity: Double
    /// The sheet's pace past the large detent per pt of the finger's (0 < overdrag ≤ 1).
    public let overdrag: Double
    /// The screen and clock the model runs in.
    public let scene: Scene

    /// The model of its numbers: the spring, the detents as screen fractions the sheet covers
    /// (0 < `mediumDetent` < `largeDetent` ≤ 1), whether it rests at the large one at
    /// touch-down, the release speed of a flick (pt/s) and the pace past the large detent, in
    /// `scene` (a preset's values go through ``init(values:scene:)``, which checks the detents' order).
    public init(spring: SpringParameters, mediumDetent: Double, largeDetent: Double, startsLarge: Bool, flickVelocity: Double,
                overdrag: Double, scene: Scene) {
        (self.spring, self.scene) = (spring, scene)
        detents = [scene.height * (1 - largeDetent), scene.height * (1 - mediumDetent), scene.height]
        startTop = startsLarge ? detents[0] : detents[1]
        (self.flickVelocity, self.overdrag) = (flickVelocity, overdrag)
    }

    /// The spring, then the large and medium detents' top edges and the top at touch-down (pt),
    /// flickVelocity and overdrag (Reference §15).
    public var numbers: [Double] { spring.numbers + [detents[0], detents[1], startTop, flickVelocity, overdrag] }

    /// The model of ``numbers`` in `scene` (nil when they make none; the closed detent is the
    /// scene's bottom edge).
    public init?(numbers: [Double], scene: Scene) {
        var r = NumberReader(numbers)
        guard let spring = r.spring(), let large = r.number(), let medium = r.number(), let start = r.number(),
              let v = r.number(), let overdrag = r.number(), r.isAtEnd else { return nil }
        (self.spring, self.scene, detents, startTop) = (spring, scene, [large, medium, scene.height], start)
        (flickVelocity, self.overdrag) = (v, overdrag)
    }

    /// The top edge (pt) for the finger's path `raw` = start + translation (pt): raw between the
    /// large detent and the screen's bottom, `overdrag` of the way past the large detent, and the
    /// screen's bottom below it; with the top's rate per pt of the finger's.
    public func top(raw: Double) -> (top: Double, slope: Double) {
        let large = detents[0]
        if raw < large { return (large - (large - raw) * overdrag, overdrag) }
        return raw > scene.height ? (scene.height, 0) : (raw, 1)
    }

    /// The raw path whose top is `top` (the inverse of ``top(raw:)`` above the screen's bottom).
    func raw(top: Double) -> Double {
        let large = detents[0]
        return top < large ? large - (large - top) / overdrag : min(top, scene.height)
    }

    /// The detent (top edge, pt) a release at `top` (pt) with the sheet moving at `velocity` (pt/s,
    /// y down) goes to: the next one beyond `top` in the direction of motion at `flickVelocity`
    /// or faster (the last one when none is beyond), else the nearest.
    public func detent(top: Double, velocity: Double) -> Double {
        guard abs(velocity) >= flickVelocity, velocity != 0 else {
            return detents.min { abs($0 - top) < abs($1 - top) }!
        }
        return velocity > 0 ? detents.first { $0 > top } ?? detents[2] : detents.last { $0 < top } ?? detents[0]
    }
}

#if !hasFeature(Embedded)
/// The model as presets name and check it (the native build: the WebAssembly build is handed
/// the numbers, Reference §15).
extension BottomSheet: ResponseSpringModel {
    /// The model's name in presets: `bottom-sheet`.
    public static let modelName = "bottom-sheet"
    /// The per-frame engine an app drives.
    public typealias Engine = BottomSheetEngine
    /// The sheet's spring (`response` s, `dampingRatio`), then the detents and the release rule.
    public static let parameters: [ParameterSpec] = responseSpecs(response: 0.45, dampingRatio: 0.85) + [
        .number("mediumDetent", "1", 0.5, "screen fraction the sheet covers at its medium detent", min: 0, inclusive: false, max: 1, maxInclusive: false,
                domain: .linear(0.2, 0.6)),
        .number("largeDetent", "1", 0.92, "screen fraction the sheet covers at its large detent (> mediumDetent)", min: 0, inclusive: false, max: 1,
                domain: .linear(0.65, 1)),
        .number("flickVelocity", "pt/s", 600, "release speed from which the sheet goes to the next detent in the flick's direction",
                min: 0, max: ParameterSpec.maxLength, domain: .log(50, 5000)),
        .number("overdrag", "1", 0.3, "the sheet's pace past the large detent, per pt of the finger's", min: 0, inclusive: false, max: 1,
                domain: .linear(0.05, 1)),
        .text("startDetent", "medium", ["medium", "large"], "where the sheet rests at touch-down", tuning: false),
    ]
    /// `dismiss` (the sheet closes) or `keep` (it rests at the medium or large detent).
    public static let decisionLabels = [DecisionLabels(positive: .dismiss, negative: .keep)]

    /// The model of resolved parameter values in `scene`.
    ///
    /// - Throws: ``PresetError`` for a spring out of range or a large detent not above the medium one.
    public init(values: ParameterValues, scene: Scene) throws(PresetError) {
        let spring = try Self.spring(values)
        let (medium, large) = (values.number("mediumDetent"), values.number("largeDetent"))
        guard large > medium else {
            throw PresetError(path: "params.largeDetent", message: "\(large) must be above mediumDetent (\(medium))")
        }
        self.init(spring: spring, mediumDetent: medium, largeDetent: large, startsLarge: values["startDetent"] == .text("large"),
                  flickVelocity: values.number("flickVelocity"), overdrag: values.number("overdrag"), scene: scene)
    }
}
#endif

/// The per-frame engine of ``BottomSheet`` an app drives: add touch samples as they arrive, ask
/// for the sheet's top edge at each display frame. The frame that first sees the lift row decides.
public struct BottomSheetEngine: TouchEngine {
    /// The sheet at one frame: its top edge, the detent it heads for, and its velocity.
    public struct Frame: EngineFrame {
        /// The sheet's top edge (screen y, pt).
        public var top: Double
        /// Where the top heads: itself while dragged, then the detent (pt).
        public var target: Double
        /// The top's velocity (pt/s, y down).
        public var velocity: Double
        /// The top edge.
        public var shown: [Double] { [top] }
        /// Every number of the frame: what is shown, then targets and velocities.
        public var values: [Double] { [top, target, velocity] }
    }

    /// The model the engine runs.
    public let model: BottomSheet
    /// The touch samples given so far.
    public private(set) var input: TouchInput
    /// `dismiss` or `keep`, from the release frame on.
    public private(set) var decision: TraceIntent?
    /// The raw path at touch-down: the model's start, or where a grab took the sheet.
    private var rawStart: Double
    /// The finger's path (pt) after the release, heading for the detent; the top is ``BottomSheet/top(raw:)`` of it.
    private var spring: Simulation?

    /// An engine for `model` with the sheet at rest at its start detent.
    public init(model: BottomSheet, presentsDragVelocity: Bool) {
        self.model = model
        input = TouchInput(presentsDragVelocity: presentsDragVelocity)
        rawStart = model.startTop
    }

    /// Gives the engine the next touch sample (in time order).
    public mutating func add(_ sample: TouchSample) { input.add(sample) }

    /// A new gesture that grabs the sheet where this engine shows it at time t (s): the drag starts
    /// on the finger's path at that top edge (``BottomSheet/top(raw:)`` is inverted exactly: the
    /// top is never shown below the screen).
    public func interrupted(at t: Double) -> BottomSheetEngine {
        var previous = self
        var next = BottomSheetEngine(model: model, presentsDragVelocity: input.presentsDragVelocity)
        next.rawStart = model.raw(top: previous.frame(at: t).top)
        return next
    }

    /// The sheet at time t: following the finger while it is down, then on the spring to the detent.
    public mutating func frame(at t: Double) -> Frame {
        let drag = model.top(raw: rawStart + (input.latest?.y ?? 0) - (input.first?.y ?? 0))
        if !input.isLifted {
            return Frame(top: drag.top, target: drag.top, velocity: drag.slope * input.velocity(model.scene.estimator, at: t).y)
        }
        if decision == nil {
            let fingerV = input.releaseVelocity(model.scene.estimator).y
            // Released with the finger below the screen, the sheet at its bottom edge rises with
            // the finger from the first frame (the spring runs on the path): decide on that pace.
            let target = model.detent(top: drag.top, velocity: (drag.slope == 0 ? 1 : drag.slope) * fingerV)
            decision = target == model.detents[2] ? .dismiss : .keep
            spring = Simulation(spring: model.spring, position: model.raw(top: drag.top), velocity: fingerV, target: target, time: t)
        }
        var s = spring!
        s.advance(to: t)
        spring = s
        let shown = model.top(raw: s.position)
        return Frame(top: shown.top, target: s.target, velocity: shown.slope * s.velocity)
    }
}

extension BottomSheetEngine.Frame: FrameRates {
    /// The top edge and its velocity.
    var rates: [(value: Double, rate: Double)] { [(top, velocity)] }
}
