import ArgumentParser
import Foundation
import SpringLayout
import SpringTune
import ToolRuntime
import TraceIO

struct PlotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "plot", abstract: "Chart one report column against a parameter (PNG + SVG + .gp; units on the axes, log x for a log-spaced parameter).")
    @Argument(help: "Report CSV.") var report: String
    @Option(help: "Parameter column for the x axis.") var x: String
    @Option(help: "Report column for the y axis.") var y: String
    @Option(help: "Parameter column drawn as one line per value.") var by: String?
    @Option(help: "Output image (.png or .svg; both are written, with the .gp script beside them).") var out: String?

    func run() throws {
        try reportingErrors {
            let table = try SweepReport.read(report)
            // The file name comes from column names (untrusted): made safe, so it stays in the folder.
            let target = URL(fileURLWithPath: out ?? URL(fileURLWithPath: report).deletingLastPathComponent()
                .appendingPathComponent(safeFileName("plot-\(y)-vs-\(x)\(by.map { "-by-\($0)" } ?? "")") + ".png").path)
            guard let chart = try ReportCharts.plot(table, x: x, y: y, by: by, name: target.deletingPathExtension().lastPathComponent) else {
                throw ToolError(.dataError, "\(report): no row has finite numbers in both \(x) and \(y)")
            }
            let images = try Gnuplot.draw([chart], in: target.deletingLastPathComponent().path)
            images.forEach { print($0) }
        }
    }
}
