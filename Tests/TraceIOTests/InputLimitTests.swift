import Foundation
import Testing
import ToolRuntime
@testable import TraceIO

/// Issue 27 item 3: inputs that are not regular files, and lines and fields without end.
@Suite struct InputLimitTests {
    func code(_ body: () throws -> Void) -> ToolError.Code? {
        do { try body(); return nil } catch let e as ToolError { return e.code } catch { return .software }
    }

    @Test func devicesAndFIFOsAreRefusedBeforeReading() throws {
        #expect(InputFile.refusal("/dev/zero") != nil)
        #expect(code { _ = try InputFile.contents("/dev/zero") } == .noInput)
        #expect(code { try CSVReader(path: "/dev/zero").forEachRecord { _ in } } == .noInput)
        #expect(code { try LineReader.forEachLine(path: "/dev/zero") { _, _ in } } == .noInput)
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("springtune-fifo-\(UUID().uuidString)").path
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        #expect(code { try CSVReader(path: fifo).forEachRecord { _ in } } == .noInput)   // returns, never waits for a writer
    }

    @Test func wholeFileReadsStopAtTheirLimit() throws {
        let path = try TestData.temp(String(repeating: "x", count: 5000), name: "big.json")
        #expect(code { _ = try InputFile.contents(path, limit: 4096) } == .dataError)
        #expect(try InputFile.contents(path, limit: 5000).count == 5000)
    }

    @Test func csvLineWithoutNewlineIsRefusedAtTheLimit() throws {
        let path = try TestData.temp("a,b\n" + String(repeating: "1", count: CSVReader.maxLineBytes + 1))
        do { try CSVReader(path: path).forEachRecord { _ in }; Issue.record("read") } catch let e as ToolError {
            #expect(e.code == .dataError && e.message.hasSuffix(":2:1: line longer than 1048576 bytes"))
        }
    }

    @Test func csvFieldsAreBounded() throws {
        let long = String(repeating: "i", count: CSVReader.maxFieldBytes + 1)
        let plain = try TestData.temp("id,t\n\(long),1\n")
        do { try CSVReader(path: plain).forEachRecord { _ in }; Issue.record("read") } catch let e as ToolError {
            #expect(e.message.hasSuffix(":2:1: field longer than 65536 bytes"))
        }
        // A quoted field across many short lines is bounded too.
        let quoted = try TestData.temp("id,t\n1,\"" + String(repeating: "ab\n", count: CSVReader.maxFieldBytes / 2) + "\"\n")
        do { try CSVReader(path: quoted).forEachRecord { _ in }; Issue.record("read") } catch let e as ToolError {
            #expect(e.message.hasSuffix(":2:3: quoted field longer than 65536 bytes"))
        }
        var count = 0
        try CSVReader(path: try TestData.temp("id,t\n\(long.dropLast()),1\n")).forEachRecord { _ in count += 1 }
        #expect(count == 2)
    }
}
