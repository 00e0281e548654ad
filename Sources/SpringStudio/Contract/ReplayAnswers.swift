import Foundation
import SpringCore
import SpringLayout
import SpringTune
import ToolRuntime

// The studio's answers: `POST /api/replay` and `POST /api/evaluate`: frames to draw and a set's metrics.
// Each a value type encoded by ``JSONTextEncoder``, with its OpenAPI schema next to its fields. Lengths in pt, times in s, speeds in pt/s.

/// A picture of a replay (``StudioFrames``): at `t` (s from touch-down), the timeline rows when
/// asked (`[item, y, anchor, velocity]`, pt and pt/s), the shapes on screen (`[x, y, width,
/// height, 0xRRGGBB]`, pt to 0.01) and the fingers down (`[x, y]`, pt).
struct Frame: Encodable, StudioContract {
    var t: Double
    var items: [[Double]], shapes: [[Double]], fingers: [[Double]]

    static let schemaName = "Frame"
    static var schema: Schema {
        .object([(CodingKeys.t, .number), (.items, .array(.array(.number, min: 4, max: 4))),
                 (.shapes, .array(.array(Schema.number.nullable, min: 5, max: 5))), (.fingers, .array(.array(.number, min: 2, max: 2)))])
    }
}

/// One trace replayed: its metrics and their verdicts, and the frames the page draws.
struct TraceReplayAnswer: Encodable, StudioContract {
    var trace: String, kind: String
    var intent: String?, decision: String?
    var unsettled: Bool
    /// Width and height (pt).
    var screen: [Double]
    /// When everything rests (s from touch-down).
    var rest: Double
    var metrics: MetricRow
    var verdicts: [Verdict]
    var frames: [Frame]
    /// The engine through this trace when asked (`engine: true`), else null.
    var engine: EngineRun?

    static let schemaName = "TraceReplay"
    static var schema: Schema {
        .object([(CodingKeys.trace, .string), (.kind, .string), (.intent, Schema.string.nullable), (.decision, Schema.string.nullable),
                 (.unsettled, .boolean), (.screen, .array(.number)), (.rest, .number), (.metrics, .ref(MetricRow.self)),
                 (.verdicts, .array(.ref(Verdict.self))), (.frames, .array(.ref(Frame.self))), (.engine, Schema.nullable(EngineRun.self))],
                optional: [.intent, .decision, .unsettled, .engine])
    }
}

/// What the page's WebAssembly module starts an engine with for the answer's set (Reference
/// §15, ``EngineStart``): `kind` (the model's index), the scene's six numbers, the model's
/// numbers (`flow-layout`'s `initialOffset: auto` settled by the page on a gesture's first
/// samples) and whether the model reads every finger (`allPointers`) or the first.
struct EngineStartAnswer: Encodable, StudioContract {
    var kind: Int
    var scene: [Double], numbers: [Double]
    var allPointers: Bool

    init(_ start: EngineStart) { (kind, scene, numbers, allPointers) = (start.engine, start.scene, start.numbers, start.allPointers) }

    static let schemaName = "EngineStart"
    static var schema: Schema {
        .object([(CodingKeys.kind, .integer), (.scene, .array(.number, min: 6, max: 6)), (.numbers, .array(.number, max: 64)), (.allPointers, .boolean)])
    }
}

/// The native engine through one trace (``EngineRecord``): the model's numbers as it ran that
/// trace and each frame as `[t, values…]`, t from the first sample (s), the values
/// ``EngineFrame/values`` (pt, pt/s).
struct EngineRun: Encodable, StudioContract {
    var numbers: [Double]
    var frames: [[Double]]

    init(_ record: EngineRecord) {
        let t0 = record.samples.first?.t ?? 0
        numbers = record.numbers
        frames = record.frames.map { [$0.t - t0] + $0.values }
    }

    static let schemaName = "EngineRun"
    static var schema: Schema { .object([(CodingKeys.numbers, .array(.number)), (.frames, .array(.array(.number, min: 1)))]) }
}

/// `POST /api/replay`: the set, what the page's module starts its engine with for it, and each trace replayed.
struct ReplayAnswer: Encodable, StudioContract {
    var params: ParamSet
    var engine: EngineStartAnswer
    var replays: [TraceReplayAnswer]
    static let schemaName = "ReplayAnswer"
    static var schema: Schema {
        .object([(CodingKeys.params, .ref(ParamSet.self)), (.engine, .ref(EngineStartAnswer.self)), (.replays, .array(.ref(TraceReplayAnswer.self)))])
    }
}

/// `POST /api/evaluate`: the report row's aggregates over every trace, their verdicts and
/// their 95 % intervals over the groups of the traces.
struct Evaluation: Encodable, StudioContract {
    var params: ParamSet
    var metrics: MetricRow
    var verdicts: [Verdict]
    var intervals: IntervalsAnswer
    static let schemaName = "Evaluation"
    static var schema: Schema {
        .object([(CodingKeys.params, .ref(ParamSet.self)), (.metrics, .ref(MetricRow.self)), (.verdicts, .array(.ref(Verdict.self))),
                 (.intervals, .ref(IntervalsAnswer.self))])
    }
}
