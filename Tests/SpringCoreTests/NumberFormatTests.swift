import Testing
@testable import SpringCore

/// The named number forms: report cells, table cells, significant and fixed digits.
@Suite struct NumberFormatTests {
    @Test func reportCells() {
        #expect(NumberFormat.cell(0.1) == "0.1")
        #expect(NumberFormat.cell(1.0 / 3) == "0.3333333333333333")
        #expect(NumberFormat.cell(3) == "3")
        #expect(NumberFormat.cell(-12) == "-12")
        #expect(NumberFormat.cell(-0.0) == "0")
        #expect(NumberFormat.cell(1e14) == "100000000000000")
        #expect(NumberFormat.cell(1e15) == "1000000000000000.0")
        #expect(NumberFormat.cell(1e20) == "1e+20")
        #expect(NumberFormat.cell(2.5e-7) == "2.5e-07")
        #expect(NumberFormat.cell(.infinity) == "inf")
        #expect(NumberFormat.cell(-.infinity) == "-inf")
        for x in [0.1, 1.0 / 3, 123.456, 2.5e-7, 6.02e23, -1e-300] { #expect(Double(NumberFormat.cell(x)) == x) }
    }

    @Test func tableForms() {
        #expect(NumberFormat.short(0.123456) == "0.1235")
        #expect(NumberFormat.short(12345) == "12345")
        #expect(NumberFormat.short(12345.5) == "1.235e+04")
        #expect(NumberFormat.short(2e20) == "2e+20")
        #expect(NumberFormat.short(cell: "0.123456") == "0.1235")
        #expect(NumberFormat.short(cell: "17") == "17")
        for text in ["", "inf", "spring", "nan"] { #expect(NumberFormat.short(cell: text) == text) }
    }

    @Test func digits() {
        #expect(NumberFormat.significant(1234.5, 3) == "1.23e+03")
        #expect(NumberFormat.significant(0.5, 6) == "0.5")
        #expect(NumberFormat.significant(2.0 / 3, 6) == "0.666667")
        #expect(NumberFormat.fixed(2.345, 1) == "2.3")
        #expect(NumberFormat.fixed(7, 0) == "7")
        #expect(NumberFormat.fixed(0.998_247, 6) == "0.998247")
        #expect(NumberFormat.fixed(-0.04, 1) == "-0.0")
    }

    /// Computed grid values read as typed: the cell of every value of a 0…1 grid in 5 and in 11
    /// steps has at most 12 significant digits, and the rounding moves no value by more than
    /// 5e-13 relative.
    @Test func typedDecimals() {
        #expect(NumberFormat.cell(NumberFormat.typed(0.1 + 0.2)) == "0.3")
        #expect(NumberFormat.cell(NumberFormat.typed(0.7999999999999999)) == "0.8")
        #expect(NumberFormat.typed(.infinity) == .infinity)
        for steps in [5, 11] {
            for i in 0..<steps {
                let raw = Double(i) / Double(steps - 1) * 0.8 + 0.1
                let typed = NumberFormat.typed(raw)
                #expect(NumberFormat.cell(typed).filter(\.isNumber).count <= 12)
                #expect(Swift.abs(typed - raw) <= 5e-13 * Swift.abs(raw))
            }
        }
    }

    /// Issue 27: `0x10` was read as 16 (Swift's `Double(_:)` takes hexadecimal).
    @Test func decimalRefusesHexadecimal() {
        #expect(NumberFormat.decimal("0x10") == nil)
        #expect(NumberFormat.decimal("0X1p3") == nil)
        #expect(NumberFormat.decimal("1e3") == 1000)
        #expect(NumberFormat.decimal("-0.5") == -0.5)
        #expect(NumberFormat.decimal("inf") == .infinity)
    }
}
