import Foundation
import SpringLayout
import SpringTune
import ToolRuntime

/// Arbitrary bytes as a preset: decoded strictly, then its grid built (with the default size
/// limit): a grid, or a PresetError or ToolError.
func fuzzPreset(_ bytes: UnsafeBufferPointer<UInt8>) {
    expectToolError {
        do {
            let preset = try Preset.decode(Data(bytes))
            let grid = try SweepGrid.make(preset: preset, kind: try ModelKind(name: preset.model), vary: [], set: [:])
            if let n = SweepGrid.size(grid.axes), n <= 1000 { _ = (0..<n).map(grid.values) }
        } catch is PresetError {}
    }
}

/// The preset and its model's kind from the bytes before the first NUL byte (nil when they do
/// not decode: the input is skipped), and the bytes after it.
func presetAndRest(_ bytes: UnsafeBufferPointer<UInt8>) -> (preset: Preset, kind: ModelKind, rest: UnsafeBufferPointer<UInt8>.SubSequence?)? {
    let (head, tail) = splitAtNUL(bytes)
    guard let preset = try? Preset.decode(Data(head)), let kind = try? ModelKind(name: preset.model) else { return nil }
    return (preset, kind, tail)
}

/// `search`'s inputs (Reference §13): a preset, then `--free` values as a person types them
/// (`NAME`, `NAME=FROM:TO`, `all`; any text), parsed and made into the search box; then unit-box
/// points from the remaining bytes decoded into parameter sets, as the search proposes them. A
/// bad value is one error (skipped); traps when a decoded set lies outside its box, does not
/// encode back to a point of the box, or its values do not make the model or refuse with an error.
/// Input: the preset's JSON, a NUL byte, the `--free` values one per line, a NUL byte, then one
/// byte per coordinate of each point; a preset that does not decode is skipped.
func fuzzSearch(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard case let (preset, kind, rest?)? = presetAndRest(bytes) else { return }
    let loaded = PresetStore.Loaded(preset: preset, path: "fuzz.json", kind: kind)
    let end = rest.firstIndex(of: 0) ?? rest.endIndex
    let lines = String(decoding: rest[..<end], as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).prefix(16)
    guard let free = try? lines.map({ try SearchBox.Free(parsing: String($0)) }),
          let box = try? SearchBox(loaded, free: free), !box.dimensions.isEmpty else { return }
    let coordinates = end < rest.endIndex ? Array(rest[(end + 1)...]) : []
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
        _ = try? SweepRunner.model(kind.type, values: values, scene: preset.scene)
    }
}
