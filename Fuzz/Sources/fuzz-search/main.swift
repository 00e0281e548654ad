import Foundation
import SpringLayout
import SpringTune

/// `search`'s inputs (Reference §13): a preset, then `--free` values as a person types them
/// (`NAME`, `NAME=FROM:TO`, `all`; any text), parsed and made into the search box; then unit-box
/// points from the remaining bytes decoded into parameter sets, as the search proposes them. A
/// bad value is one error (skipped); traps when a decoded set lies outside its box, does not
/// encode back to a point of the box, or its values do not make the model or refuse with an error.
/// Input: the preset's JSON, a NUL byte, the `--free` values one per line, a NUL byte, then one
/// byte per coordinate of each point; a preset that does not decode is skipped.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSearch(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let split = bytes.firstIndex(of: 0), let preset = try? Preset.decode(Data(bytes[..<split])),
          let kind = try? ModelKind(name: preset.model) else { return 0 }
    let loaded = PresetStore.Loaded(preset: preset, path: "fuzz.json", kind: kind)
    let rest = bytes[(split + 1)...]
    let end = rest.firstIndex(of: 0) ?? bytes.count
    let lines = String(decoding: rest[..<end], as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).prefix(16)
    guard let free = try? lines.map({ try SearchBox.Free(parsing: String($0)) }),
          let box = try? SearchBox(loaded, free: free), !box.dimensions.isEmpty else { return 0 }
    let coordinates = end < bytes.count ? Array(bytes[(end + 1)...]) : []
    // The unit box has one coordinate per number and one per word of each word parameter.
    let n = box.space.dimension
    for start in stride(from: 0, to: min(coordinates.count, 64 * n) - n + 1, by: n) where coordinates.count >= n {
        let x = coordinates[start..<(start + n)].map { Double($0) / 255 }
        let row = box.row(x)
        for (d, v) in zip(box.dimensions, row) {
            switch (d.extent, v) {
            case let (.numbers(lo, hi, _), .number(value)) where lo <= value && value <= hi: break
            case let (.words(words), w) where words.contains(w): break
            default: fatalError("\(d.name) = \(v) outside its box")
            }
        }
        guard box.point(row) != nil else { fatalError("the row of \(x) is not a point of its box") }
        var values = kind.values(of: preset)
        for (k, v) in box.parameters(x) { values[k] = v }
        _ = try? model(kind.type, values: values, scene: preset.scene)
    }
    return 0
}

/// The model of `values`, as a sweep makes it (an error for values the model refuses).
func model<M: MeasuredModel>(_ type: M.Type, values: [String: ParamValue], scene: Scene) throws -> any MeasuredModel {
    try SweepRunner.model(type, values: values, scene: scene)
}
