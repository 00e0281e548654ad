import Foundation
import SpringLayout
import SpringCore

/// The shapes the models' pictures of a frame are drawn with (each model's `picture` lives in its
/// measurement file), to scale in screen points. Colours are 0xRRGGBB.
extension Animation.Shape {
    static func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, _ color: Int) -> Animation.Shape {
        Animation.Shape(x: x, y: y, width: max(0, w), height: max(0, h), color: color)
    }

    /// A list row inset from the screen's sides.
    static func row(y: Double, height: Double, screenWidth: Double, color: Int) -> Animation.Shape {
        rect(12, y + 1, screenWidth - 24, height - 2, color)
    }

    /// A row of height `rowHeight` shown at height h as two halves folded by θ = acos(h/rowHeight),
    /// the upper half lit and the lower half shaded in proportion to the angle, from y down.
    static func folded(y: Double, height h: Double, rowHeight: Double, screenWidth: Double) -> [Animation.Shape] {
        let light = Fold(height: h, rowHeight: rowHeight).angle / (.pi / 2)   // 0 flat … 1 closed
        func shade(_ base: (Int, Int, Int), _ k: Double) -> Int {
            let f = max(0.25, 1 - 0.6 * k)
            return (Int(Double(base.0) * f) << 16) | (Int(Double(base.1) * f) << 8) | Int(Double(base.2) * f)
        }
        return [row(y: y, height: h / 2 + 1, screenWidth: screenWidth, color: shade((231, 76, 60), 0.4 * light)),
                row(y: y + h / 2 - 1, height: h / 2 + 1, screenWidth: screenWidth, color: shade((231, 76, 60), light))]
    }

    /// Rows a list picture draws at most: thinner rows than the screen height / 200 are not
    /// drawn one by one (a `rowHeight` of 1e-320 trapped converting the count to an Int).
    static let maxListRows = 200

    /// Clear-style list rows from y, enough to cover `span` pt (at most ``maxListRows``), in
    /// both directions (`up` stacks them upwards).
    static func list(from y: Double, rowHeight: Double, filling span: Double, up: Bool, screenWidth: Double) -> [Animation.Shape] {
        (0...Int(clamping: span / rowHeight, to: 0...maxListRows - 1)).map { i in
            let top = up ? y - Double(i + 1) * rowHeight : y + Double(i) * rowHeight
            let red = 200 - min(i, 8) * 12
            return row(y: top, height: rowHeight, screenWidth: screenWidth, color: (red << 16) | (60 << 8) | 50)
        }
    }
}
