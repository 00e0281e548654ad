import Foundation
import SpringLayout
import SpringTune
import ToolRuntime
import TraceIO

/// Arbitrary bytes to the strict and the skipping trace reader: traces that begin and lift, or a
/// ToolError.
func fuzzTraces(_ bytes: UnsafeBufferPointer<UInt8>) {
    let path = scratchFile("traces", bytes, suffix: ".csv")
    for skip in [false, true] {
        expectToolError {
            let (traces, _) = try TraceReader(skipInvalid: skip).read(path: path)
            for t in traces { precondition(t.samples.first?.phase == .began && t.samples.last?.phase.isLift == true) }
        }
    }
}

/// Arbitrary bytes as a trace file, read with --skip-invalid, then its traces run through one
/// parameter set (the defaults) of every model, streamed in blocks of weight 64: one result
/// counting every trace, or a ToolError.
func fuzzSweep(_ bytes: UnsafeBufferPointer<UInt8>) {
    let path = scratchFile("sweep", bytes, suffix: ".csv")
    expectToolError {
        for kind in ModelKind.all {
            let traces = try TraceSource(files: [path], kind: kind, skipInvalid: true, scene: Scene(), blockSamples: 64)
            let runner = SweepRunner(kind: kind, scene: Scene(), sets: SweepGrid(axes: [], base: [:]), threads: 1)
            let results = try runner.run(traces)
            precondition(results.count == 1 && results[0].aggregate.traces == traces.tags.count)
        }
    }
}

/// Arbitrary bytes to the getevent, evemu and csv importers (contacts and gestures, rotated):
/// traces that pass the reader's rules (``TraceRules``), or a ToolError.
func fuzzImport(_ bytes: UnsafeBufferPointer<UInt8>) {
    let path = scratchFile("import", bytes, suffix: ".txt")
    for format in TraceImporter.Format.allCases {
        for grouping in ContactGrouping.allCases {
            expectToolError {
                let (traces, _, _) = try TraceImporter.importFile(path, format: format, mapping: ImportMapping(units: .scale(1), rotation: 90), grouping: grouping)
                for t in traces { precondition(TraceRules.problem(t) == nil, "an imported trace breaks a rule of the reader") }
            }
        }
    }
}

/// Runs `body`; a ToolError is an answer, any other error traps.
func expectToolError(_ body: () throws -> Void) {
    do {
        try body()
    } catch is ToolError {
    } catch {
        fatalError("unexpected error type: \(error)")
    }
}
