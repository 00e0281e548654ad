import SpringTune
import ToolRuntime
import TraceIO

/// Draws `figures` into `folder`'s staging folder (`compare`, `replay`) and returns the images
/// by their final paths. Without gnuplot, one note and no images; a gnuplot that fails swaps in
/// what the folder holds so far (the CSVs are kept, Reference §11) and fails (70).
func drawCharts(_ figures: [any GnuplotFigure], in folder: OutputFolder) throws -> [String] {
    do {
        return try Gnuplot.draw(figures, in: folder.staging).map { folder.target + $0.dropFirst(folder.staging.count) }
    } catch let error as ToolError where error.code == .unavailable {
        note("springtune: \(error.message)")
        return []
    } catch {
        try folder.commit()
        throw error
    }
}
