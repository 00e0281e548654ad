import Testing
@testable import ToolRuntime

/// Issue 27 messages: one rule cuts every echoed piece of input.
@Suite struct EchoTests {
    @Test func cutsToTheLimitOnOneLine() {
        #expect(Echo.cut("a\nb\tc") == "a b c")
        #expect(Echo.cut(String(repeating: "é", count: 300)) == String(repeating: "é", count: 300))
        let long = Echo.cut(String(repeating: "x", count: 10_000_000))
        #expect(long.count == 301 && long.hasSuffix("…"))
    }

    @Test func listsKeepTheirFirstNames() {
        let names = (0..<50).map { "c\($0)" }
        #expect(Echo.list(names).count == 21)
        #expect(Echo.list(names).last == "… and 30 more")
        #expect(Echo.list(["a", "b"]) == ["a", "b"])
    }
}
