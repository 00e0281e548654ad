import Foundation
import SpringLayout

// Usage: record-demo OUT.csv — records, as an app's pan handler would, a straight drag down at
// 1000 pt/s sampled at 120 Hz (timestamps on a device clock that starts at 5021.25 s), a second
// finger that never lifts, and writes springtune's trace CSV.
guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: record-demo OUT.csv\n".utf8))
    exit(64)
}
var recorder = TraceRecorder()
let clock = 5021.25, frames = 24
for k in 0...frames {
    let t = clock + Double(k) / 120
    recorder.record(trace: "pan-1", phase: k == 0 ? .began : .moved, time: t, x: 200, y: 300 + 1000 * Double(k) / 120, intent: .dismiss)
}
recorder.record(trace: "pan-1", phase: .ended, time: clock + Double(frames) / 120 + 0.004, x: 200, y: 300 + 1000 * Double(frames) / 120)
recorder.record(trace: "pinch-1", phase: .began, time: clock + 1, x: 100, y: 400, pointer: 0)
recorder.record(trace: "pinch-1", phase: .began, time: clock + 1, x: 100, y: 460, pointer: 1)
recorder.record(trace: "pinch-1", phase: .ended, time: clock + 1.1, x: 100, y: 400, pointer: 0)
do {
    try recorder.csv.write(toFile: CommandLine.arguments[1], atomically: true, encoding: .utf8)
    print("\(CommandLine.arguments[1]): \(recorder.traceCount) traces")
} catch {
    FileHandle.standardError.write(Data("record-demo: \(error)\n".utf8))
    exit(73)
}
