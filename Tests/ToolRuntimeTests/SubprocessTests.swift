import Foundation
import Testing
@testable import ToolRuntime

/// The spawn helper: argument vectors (no shell), captured streams, lines as they come, bounds.
@Suite struct SubprocessTests {
    let sh = Subprocess.executable("sh")!

    @Test func argumentsReachTheProgramAsTheyAre() throws {
        // A shell would expand `$HOME` and run `; echo injected`; an argument vector passes them on.
        let r = try Subprocess.run(Subprocess.executable("printf")!, ["%s|", "$HOME", "; echo injected", "a b"])
        #expect(r == Subprocess.Finished(status: 0, output: "$HOME|; echo injected|a b|", errors: ""))
    }

    @Test func statusAndBothStreamsAreKeptApart() throws {
        let r = try Subprocess.run(sh, ["-c", "echo out; echo err >&2; exit 3"])
        #expect(r.status == 3)
        #expect(r.output == "out\n")
        #expect(r.errors == "err\n")
    }

    @Test func environmentDirectoryAndDiscardedOutput() throws {
        let r = try Subprocess.run(sh, ["-c", "echo \"$SPRINGTUNE_TEST_VALUE\" >&2; pwd >&2; echo gone"],
                                   environment: ["SPRINGTUNE_TEST_VALUE": "42"], directory: "/tmp", discardOutput: true)
        #expect(r.output == "")
        #expect(r.errors == "42\n/tmp\n")
    }

    @Test func linesArriveOneByOneWithoutTheirNewline() throws {
        var lines: [String] = []
        let r = try Subprocess.run(sh, ["-c", "printf '123;c\\nsecond\\nlast'"]) { lines.append($0) }
        #expect(lines == ["123;c", "second", "last"])
        #expect(r.output == "123;c\nsecond\nlast")
    }

    @Test func capturedOutputKeepsOnlyItsLastBytes() throws {
        let n = Subprocess.keptBytes + 5000
        let r = try Subprocess.run(sh, ["-c", "head -c \(n) /dev/zero | tr '\\0' a; printf END"])
        #expect(r.output.utf8.count == Subprocess.keptBytes)
        #expect(r.output.hasSuffix("aaaEND"))
    }

    @Test func aProgramThatCannotStartIsUnavailable() {
        #expect(throws: ToolError(.unavailable, "cannot run /nonexistent/tool: The operation could not be completed. The file doesn’t exist.")) {
            try Subprocess.run("/nonexistent/tool", [])
        }
        #expect(Subprocess.executable("no-such-program-anywhere", environment: ["PATH": "/usr/bin:/bin"]) == nil)
        #expect(Subprocess.executable("sh", environment: ["PATH": "/nonexistent:/bin"]) == "/bin/sh")
    }
}
