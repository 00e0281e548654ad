import Foundation
import SpringCore
import ToolRuntime

/// How an importer turns device units into points (Reference §3: every importer states its scale).
public enum ImportUnits: Sendable, Equatable {
    /// Source units per point, the same on both axes.
    case scale(Double)
    /// The device's resolution in units per millimetre: 1 pt = 25.4/163 mm (the iPhone's
    /// 163 points per inch), so a gesture keeps its physical length on any device.
    case unitsPerMM(Double)
    /// The device's declared axis ranges mapped onto a screen of this size in points.
    case screen(width: Double, height: Double)

    /// Millimetres per point: 25.4/163.
    public static let millimetresPerPoint = 25.4 / 163

    /// A one-line statement of the mapping, for the import sidecar and messages.
    public var description: String {
        switch self {
        case let .scale(s): "\(NumberFormat.cell(s)) units per pt"
        case let .unitsPerMM(r): "\(NumberFormat.cell(r)) units per mm, 1 pt = 25.4/163 mm"
        case let .screen(w, h): "device axis ranges onto a \(NumberFormat.cell(w))×\(NumberFormat.cell(h)) pt screen"
        }
    }
}

/// The unit of a csv import's time column (evdev formats always give seconds).
public enum TimeUnit: String, CaseIterable, Sendable, Codable {
    case s, ms, us

    /// Units per second.
    public var perSecond: Double {
        switch self {
        case .s: 1
        case .ms: 1_000
        case .us: 1_000_000
        }
    }
}

/// A device's declared touch axis ranges (device units), from a `getevent -lp` dump or an evemu
/// recording's `A:` header lines.
public struct AxisRanges: Sendable, Equatable, Codable {
    public var xMin: Double, xMax: Double, yMin: Double, yMax: Double

    public init(xMin: Double, xMax: Double, yMin: Double, yMax: Double) {
        self.xMin = xMin; self.xMax = xMax; self.yMin = yMin; self.yMax = yMax
    }

    /// Parses `ABS_MT_POSITION_X : value 0, min 0, max 1279, …` lines (getevent -lp) or
    /// `A: 35 0 1279 0 0 0` lines (evemu; code in hex). The multitouch axes win over ABS_X/ABS_Y.
    /// Nil when the text declares no x and y range.
    public static func parse(_ text: String) -> AxisRanges? {
        var reader = Reader()
        for line in text.split(whereSeparator: \.isNewline) { reader.consume(line) }
        return reader.ranges
    }

    /// Collects ranges line by line (an evemu header read while its events stream).
    public struct Reader {
        private var found: [String: (Double, Double)] = [:]

        public init() {}

        /// Looks at one line: an evemu `A:` line or a `getevent -lp` axis line.
        public mutating func consume(_ line: Substring) {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," || $0 == ":" || $0 == "\r" })
            if words.first == "A", words.count >= 4, let code = Int(words[1], radix: 16), let lo = NumberFormat.decimal(words[2]), let hi = NumberFormat.decimal(words[3]) {
                let names = [0x35: "mtx", 0x36: "mty", 0x00: "x", 0x01: "y"]
                if let name = names[code] { found[name] = (lo, hi) }
            } else if let name = words.first.map(String.init), ["ABS_MT_POSITION_X", "ABS_MT_POSITION_Y", "ABS_X", "ABS_Y"].contains(name),
                      let minIndex = words.firstIndex(of: "min"), let maxIndex = words.firstIndex(of: "max"),
                      minIndex + 1 < words.count, maxIndex + 1 < words.count,
                      let lo = NumberFormat.decimal(words[minIndex + 1]), let hi = NumberFormat.decimal(words[maxIndex + 1]) {
                let key = ["ABS_MT_POSITION_X": "mtx", "ABS_MT_POSITION_Y": "mty", "ABS_X": "x", "ABS_Y": "y"][name]!
                found[key] = (lo, hi)
            }
        }

        /// The ranges, when both axes were declared with max > min.
        public var ranges: AxisRanges? {
            guard let x = found["mtx"] ?? found["x"], let y = found["mty"] ?? found["y"], x.1 > x.0, y.1 > y.0 else { return nil }
            return AxisRanges(xMin: x.0, xMax: x.1, yMin: y.0, yMax: y.1)
        }
    }
}

/// Device units to points: a clockwise rotation by `rotation` degrees inside the device's
/// extent (its declared ranges, else the largest coordinates the recording reaches), then the
/// unit conversion.
public struct ImportMapping: Sendable {
    public var units: ImportUnits
    public var rotation: Int
    public var ranges: AxisRanges?
    /// The unit of a csv import's times; they become seconds.
    public var timeUnit: TimeUnit

    public init(units: ImportUnits, rotation: Int = 0, ranges: AxisRanges? = nil, timeUnit: TimeUnit = .s) {
        self.units = units; self.rotation = rotation; self.ranges = ranges; self.timeUnit = timeUnit
    }

    /// Checks the numbers (exit 64 on a bad one).
    public func validate() throws {
        guard [0, 90, 180, 270].contains(rotation) else { throw ToolError(.usage, "--rotate must be 0, 90, 180 or 270, got \(rotation)") }
        switch units {
        case let .scale(s): guard s.isFinite, s > 0, s < 1e9 else { throw ToolError(.usage, "--scale must be a number in (0, 1e9), got \(s)") }
        case let .unitsPerMM(r): guard r.isFinite, r > 0, r < 1e9 else { throw ToolError(.usage, "--units-per-mm must be a number in (0, 1e9), got \(r)") }
        case let .screen(w, h):
            guard w.isFinite, h.isFinite, w > 0, h > 0, w < 1e6, h < 1e6 else { throw ToolError(.usage, "--screen must be WxH in points, each in (0, 1e6)") }
        }
    }

    /// Maps every contact's samples (device units) to points; `extent` covers a recording with
    /// no declared ranges.
    func apply(_ contacts: [[TouchSample]]) throws -> [[TouchSample]] {
        let r = ranges ?? Self.observed(contacts)
        if case .screen = units, ranges == nil {
            throw ToolError(.usage, "--screen needs the device's axis ranges: an evemu recording's header, or --device-info with a getevent -lp dump")
        }
        let w = r.xMax - r.xMin, h = r.yMax - r.yMin
        // Rotated extent (device units) for the screen mapping.
        let (rw, rh) = rotation == 90 || rotation == 270 ? (h, w) : (w, h)
        return contacts.map { samples in
            samples.map { s in
                var s = s
                let u = s.x - r.xMin, v = s.y - r.yMin
                let (ru, rv): (Double, Double)
                switch rotation {
                case 90: (ru, rv) = (h - v, u)
                case 180: (ru, rv) = (w - u, h - v)
                case 270: (ru, rv) = (v, w - u)
                default: (ru, rv) = (u + r.xMin, v + r.yMin)
                }
                switch units {
                case let .scale(k): (s.x, s.y) = (ru / k, rv / k)
                case let .unitsPerMM(res): (s.x, s.y) = (ru / res / ImportUnits.millimetresPerPoint, rv / res / ImportUnits.millimetresPerPoint)
                case let .screen(sw, sh):
                    let (bu, bv) = rotation == 0 ? (ru - r.xMin, rv - r.yMin) : (ru, rv)
                    (s.x, s.y) = (bu / rw * sw, bv / rh * sh)
                }
                return s
            }
        }
    }

    /// The extent a recording reaches, from 0 (for rotating one with no declared ranges).
    static func observed(_ contacts: [[TouchSample]]) -> AxisRanges {
        var xMax = 0.0, yMax = 0.0
        for c in contacts { for s in c { xMax = max(xMax, s.x); yMax = max(yMax, s.y) } }
        return AxisRanges(xMin: 0, xMax: xMax, yMin: 0, yMax: yMax)
    }
}
