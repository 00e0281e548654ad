import Foundation

/// Every way springtune writes a number as text, by name. It lives in SpringCore, which depends
/// on nothing, because SpringCore's own fit messages need it and every other module (TraceIO's
/// report cells, SpringTune's charts and fits, the command line) imports SpringCore.
public enum NumberFormat {
    /// The report cell (Reference §9.2): Swift's shortest decimal that reads back as the same
    /// Double (deterministic bytes); integers below 10¹⁵ without ".0", larger ones as Swift
    /// writes them (`1000000000000000.0`, `1e+20`); −0 as "0". `cell(0.1)` = "0.1",
    /// `cell(3)` = "3", `cell(-0.0)` = "0", `cell(.infinity)` = "inf".
    public static func cell(_ x: Double) -> String {
        if x == 0 { return "0" }
        if x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) }
        return "\(x)"
    }

    /// The one reader of a number typed by a person or read from a file: Swift's `Double(_:)`
    /// (decimal, `inf`, `nan`, as the callers then allow) without its hexadecimal forms, so
    /// `0x10` is not 16 anywhere (`decimal("0x10")` = nil, `decimal("1e3")` = 1000).
    public static func decimal(_ text: some StringProtocol) -> Double? {
        text.contains { $0 == "x" || $0 == "X" } ? nil : Double(text)
    }

    /// A number in a table or a summary line: the cell form when it is an integer (`12345`),
    /// else 4 significant digits (`0.1235`, `1.235e+04`).
    public static func short(_ x: Double) -> String { short(cell: cell(x)) }

    /// A report cell as shown in a table: a number with a fraction or an exponent to 4
    /// significant digits; integers, words, `inf` and empty cells as they are.
    public static func short(cell text: String) -> String {
        guard let x = Double(text), text.contains(".") || text.contains("e") else { return text }
        return significant(x, 4)
    }

    /// `digits` significant digits, C's `%.<digits>g`: `significant(1234.5, 3)` = "1.23e+03",
    /// `significant(0.5, 6)` = "0.5".
    public static func significant(_ x: Double, _ digits: Int) -> String { String(format: "%.\(digits)g", x) }

    /// `x` as the decimal a person would type: rounded to 12 significant digits, so a computed
    /// grid value reads 0.2 rather than 0.19999999999999998 (`typed(0.1 + 0.2)` = 0.3). The
    /// change is at most 5e-13 relative, far below anything a parameter can mean.
    public static func typed(_ x: Double) -> Double {
        guard x.isFinite else { return x }
        return Double(significant(x, 12)) ?? x
    }

    /// `digits` digits after the point, C's `%.<digits>f`: `fixed(2.345, 1)` = "2.3", `fixed(7, 0)` = "7".
    public static func fixed(_ x: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", x) }

    /// At most `digits` digits after the point, without trailing zeros (a sampled curve's
    /// points): `decimals(0.50004, 4)` = "0.5", `decimals(0.99996, 4)` = "1", `decimals(-0.00001, 4)` = "0".
    public static func decimals(_ x: Double, _ digits: Int) -> String {
        var text = fixed(x, digits)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }
}
