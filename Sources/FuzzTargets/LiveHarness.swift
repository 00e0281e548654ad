import Foundation
import SpringCore
import SpringLayout
import SpringTune
import TraceIO

/// The studio's live socket past its message layer (Reference §10.16, live touch): a preset, then
/// samples as `/api/live` accepts them (times within 1e9 s, coordinates within ±1e6 pt, pointer
/// ids 0…15, any phase) through ``LiveReplay``, as the socket drives it: a sample the gesture
/// refuses ends the input (the socket closes), any other is added and its frames drawn. Traps
/// when a drawn frame carries a number that is not finite, comes out of time order, or one
/// message draws more frames than its time span holds. Input: the preset's JSON, a NUL byte,
/// then 6 bytes a sample (time step, x and y steps, phase, pointer); a preset that does not
/// decode is skipped.
func fuzzLive(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard case let (preset, kind, tail?)? = presetAndRest(bytes),
          var live = try? LiveReplay(PresetStore.Loaded(preset: preset, path: "fuzz.json", kind: kind), set: [:]) else { return }
    var rest = Array(tail)[...]
    var t = 1.0, x = 100.0, y = 100.0, drawn: Double = -1
    let phases: [TouchPhase] = [.began, .moved, .moved, .moved, .ended, .cancelled]
    while rest.count >= 6 {
        let b = Array(rest.prefix(6))
        rest = rest.dropFirst(6)
        // Mostly 120 Hz; sometimes a long pause, or the same time again.
        t += b[0] < 200 ? Double(b[0] % 4) / 120 : Double(b[0] - 200) * 0.25
        let scale = [0.5, 20, 1e4, 1e5][Int(b[5] >> 6)]
        x = min(1e6, max(-1e6, x + Double(Int8(bitPattern: b[1])) * scale))
        y = min(1e6, max(-1e6, y + Double(Int8(bitPattern: b[2])) * scale))
        let sample = TouchSample(t: t, x: x, y: y, phase: phases[Int(b[3]) % phases.count], pointer: Int(b[4] % 16))
        guard live.refusal(of: sample) == nil else { return }
        let span = t - (live.samples.last?.t ?? t)
        guard let pictures = try? live.add([sample]) else { return }
        if pictures.count > Int(span * live.frameRate) + 2 { fatalError("\(pictures.count) frames for \(span) s") }
        for p in pictures {
            guard p.t > drawn, p.shapes.allSatisfy({ [$0.x, $0.y, $0.width, $0.height].allSatisfy(\.isFinite) }) else {
                fatalError("frame at \(p.t) after \(drawn), or not finite")
            }
            drawn = p.t
        }
        if live.isComplete { return }
    }
}
