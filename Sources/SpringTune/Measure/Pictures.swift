import Foundation
import SpringLayout

/// Each model's picture of one frame, drawn to scale in screen points from its timeline rows
/// (see each model's timeline items). Colours are 0xRRGGBB.
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

    /// Clear-style list rows from y, in both directions (`up` stacks them upwards).
    static func list(from y: Double, rowHeight: Double, count: Int, up: Bool, screenWidth: Double) -> [Animation.Shape] {
        (0..<count).map { i in
            let top = up ? y - Double(i + 1) * rowHeight : y + Double(i) * rowHeight
            let red = 200 - min(i, 8) * 12
            return row(y: top, height: rowHeight, screenWidth: screenWidth, color: (red << 16) | (60 << 8) | 50)
        }
    }
}

extension FlowLayout {
    /// Each counted row at its screen y.
    public func picture(_ rows: [TimelineRow]) -> [Animation.Shape] {
        rows.map { .row(y: $0.y - itemHeight / 2, height: itemHeight, screenWidth: scene.width, color: $0.item % 2 == 0 ? 0x4a90d9 : 0x7fb3e6) }
    }
}

extension FlickDismiss {
    /// The photo card at its centre (items 0 and 1: centre y and x).
    public func picture(_ rows: [TimelineRow]) -> [Animation.Shape] {
        guard let y = rows.first(where: { $0.item == 0 })?.y, let x = rows.first(where: { $0.item == 1 })?.y else { return [] }
        return [.rect(x - cardSize.x / 2, y - cardSize.y / 2, cardSize.x, cardSize.y, 0x3a3a3c)]
    }
}

extension CardDismiss {
    /// The card detail's frame (items 0–3: y, height, x, width).
    public func picture(_ rows: [TimelineRow]) -> [Animation.Shape] {
        let v = Dictionary(rows.map { ($0.item, $0.y) }, uniquingKeysWith: { a, _ in a })
        guard let y = v[0], let h = v[1], let x = v[2], let w = v[3] else { return [] }
        return [.rect(cardFrame.x, cardFrame.y, cardFrame.width, cardFrame.height, 0xd1d1d6), .rect(x, y, w, h, 0x5e9ed6)]
    }
}

extension PullToCreate {
    /// The new row folding open at the top, the list pushed down below it (item 0: hᵣ).
    public func picture(_ rows: [TimelineRow]) -> [Animation.Shape] {
        let h = max(0, rows.first { $0.item == 0 }?.y ?? 0)
        return Animation.Shape.folded(y: 0, height: h, rowHeight: rowHeight, screenWidth: scene.width)
            + Animation.Shape.list(from: h, rowHeight: rowHeight, count: Int(scene.height / rowHeight) + 1, up: false, screenWidth: scene.width)
    }
}

extension PinchFold {
    /// The row between the fingers at mid-screen, folding open or shut, the list parted around it.
    public func picture(_ rows: [TimelineRow]) -> [Animation.Shape] {
        let h = max(0, rows.first { $0.item == 0 }?.y ?? 0), c = scene.height / 2
        let n = Int(c / rowHeight) + 1
        return Animation.Shape.list(from: c - h / 2, rowHeight: rowHeight, count: n, up: true, screenWidth: scene.width)
            + Animation.Shape.folded(y: c - h / 2, height: h, rowHeight: rowHeight, screenWidth: scene.width)
            + Animation.Shape.list(from: c + h / 2, rowHeight: rowHeight, count: n, up: false, screenWidth: scene.width)
    }
}

extension PercentTransition {
    /// The list behind, and the note sliding right by s (item 0).
    public func picture(_ rows: [TimelineRow]) -> [Animation.Shape] {
        let s = rows.first { $0.item == 0 }?.y ?? 0
        let behind = (0..<Int(scene.height / 64)).map { Animation.Shape.row(y: 20 + Double($0) * 64, height: 60, screenWidth: scene.width, color: 0xc7c7cc) }
        return behind + [.rect(s - 6, 0, 6, scene.height, 0x8e8e93), .rect(s, 0, scene.width, scene.height, 0xfff3c4)]
    }
}
