import Foundation
import SpringLayout
import SpringTune
import ToolRuntime
import TraceIO

/// Arbitrary bytes as a preset: decoded strictly, then its grid built (with the default size
/// limit): a grid or a PresetError/ToolError, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPreset(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    do {
        let preset = try Preset.decode(Data(bytes: data, count: size))
        let grid = try SweepGrid.make(preset: preset, kind: try ModelKind(name: preset.model), vary: [], set: [:])
        if let n = SweepGrid.size(grid.axes), n <= 1000 { _ = (0..<n).map(grid.values) }
    } catch is PresetError {
    } catch is ToolError {
    } catch {
        fatalError("unexpected error type: \(error)")
    }
    return 0
}
