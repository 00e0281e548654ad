import Testing
import SpringLayout
@testable import SpringTune
import ToolRuntime
import TraceIO

/// The values of `sweep --vary`, `--set` and `--shard`, as the command line parses them.
@Suite struct ArgumentParsingTests {
    /// The message of the usage error `body` throws, or a note of what it did instead.
    func usageError(_ body: () throws -> Any) -> String {
        do { return "no error: \(try body())" } catch let e as ToolError { return e.code == .usage ? e.message : "code \(e.code)" } catch { return "\(error)" }
    }

    @Test func axesAsListsAndRanges() throws {
        let list = try SweepGrid.parseVary("damping=0.5,1,spring")
        #expect(list.name == "damping")
        #expect(list.values == [.number(0.5), .number(1), .text("spring")])
        let range = try SweepGrid.parseVary("frequency=1:4:3:log")
        #expect(range.name == "frequency")
        #expect(range.numbers!.map { ($0 * 1e9).rounded() / 1e9 } == [1, 2, 4])
        #expect(try SweepGrid.parseVary("frequency=1:3:3:linear").numbers == [1, 2, 3])
    }

    @Test func badAxesSayWhatIsExpected() {
        #expect(usageError { try SweepGrid.parseVary("damping") } == "--vary damping: expected NAME=VALUES")
        #expect(usageError { try SweepGrid.parseVary("=1,2") } == "--vary =1,2: expected NAME=VALUES")
        #expect(usageError { try SweepGrid.parseVary("damping=1:2") } == "--vary damping=1:2: expected NAME=FROM:TO:STEPS[:log]")
        #expect(usageError { try SweepGrid.parseVary("damping=1:2:3:cubic") } == "--vary damping=1:2:3:cubic: expected NAME=FROM:TO:STEPS[:log]")
        #expect(usageError { try SweepGrid.parseVary("damping=1,,2") } == "--vary damping=1,,2: expected comma-separated finite numbers or words")
        #expect(usageError { try SweepGrid.parseVary("damping=1,inf") } == "--vary damping=1,inf: expected comma-separated finite numbers or words")
        #expect(usageError { try SweepGrid.parseVary("damping=1:2:100000000") }.contains("100000000 is out of range 1…10000"))
    }

    @Test func settings() throws {
        #expect(try SweepGrid.parseSet("frequency=1.5") == ("frequency", .number(1.5)))
        #expect(try SweepGrid.parseSet("initialOffset=top") == ("initialOffset", .text("top")))
        #expect(try SweepGrid.parseSet("a=b=c") == ("a", .text("b=c")))
        for bad in ["frequency", "=1", "frequency="] {
            #expect(usageError { try SweepGrid.parseSet(bad) } == "--set \(bad): expected NAME=VALUE")
        }
    }

    @Test func shards() throws {
        #expect(try ShardChoice(parsing: "auto") == .auto)
        #expect(try ShardChoice(parsing: "1/1") == .part(index: 1, count: 1))
        #expect(try ShardChoice(parsing: "3/4") == .part(index: 3, count: 4))
        for bad in ["0/4", "5/4", "1/0", "1/x/2", "1/2/3", "+1/2", "1/", "/2", "-1/2", "1 /2", "12", "Auto", ""] {
            #expect(usageError { try ShardChoice(parsing: bad) } == "--shard \(bad): expected I/N with 1 <= I <= N, or auto", "\(bad)")
        }
    }

    @Test func shardsResolved() throws {
        #expect(try ShardChoice.part(index: 2, count: 4).resolved(shardCount: nil, environment: ["JOB_COMPLETION_INDEX": "0"]) == (2, 4))
        #expect(try ShardChoice.auto.resolved(shardCount: 3, environment: ["JOB_COMPLETION_INDEX": "2"]) == (3, 3))
        #expect(usageError { try ShardChoice.auto.resolved(shardCount: nil, environment: [:]) }.contains("not in an array task"))
    }

    /// A preset decoded without its model (as an app's decoder, or the preset fuzzer, reads it)
    /// whose own axis names no parameter: the grid refuses it in one line instead of crashing
    /// (the fuzzer found `SweepGrid.make` unwrapping the axis's missing spec).
    @Test func presetAxisOfNoParameterIsRefused() throws {
        var preset = try Fixture.store.load("tweetbot").preset
        preset.sweep.append(SweepAxis(name: "alongth", values: [1.0, 2.0]))
        let kind = try ModelKind(name: preset.model)
        #expect(usageError { try SweepGrid.make(preset: preset, kind: kind, vary: [], set: [:]) }.hasPrefix("cannot sweep 'alongth': not a parameter of flick-dismiss"))
    }
}
