import Foundation
import Testing
import ToolRuntime
@testable import TraceIO

@Suite struct OutputFolderTests {
    /// A killed run's staging folder goes even while a child it left behind keeps adding files
    /// there (gnuplot drawing after springtune died): the next run into the target removes it.
    @Test func stagingOfAKilledRunGoesWhileAChildStillWrites() throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("outfolder-\(UUID().uuidString)").path
        let staging = "\(parent)/out.partial-999999"
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        for k in 0..<2000 { _ = FileManager.default.createFile(atPath: "\(staging)/old-\(k).dat", contents: Data(count: 16)) }
        // The orphan: writes new files into the folder as fast as it can for 0.5 s, as long as
        // the folder exists (a process cannot create files in a removed folder).
        let writer = Thread {
            let end = Date().addingTimeInterval(0.5)
            var k = 0
            while Date() < end {
                let fd = open("\(staging)/new-\(k).dat", O_CREAT | O_WRONLY, 0o644)
                if fd >= 0 { close(fd) }
                k += 1
            }
        }
        writer.start()
        usleep(20_000)
        let folder = try OutputFolder("\(parent)/out")
        folder.abandon()
        #expect(!FileManager.default.fileExists(atPath: staging))
        usleep(600_000)
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent).filter { $0.contains(".partial-") }.isEmpty)
        try? FileManager.default.removeItem(atPath: parent)
    }

    static func scratch() throws -> String {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("outfolder-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        return parent
    }

    /// Issue 27 item 8: the lock is on the resolved folder, so a symlink to it is the same folder.
    @Test func aSymlinkSpellingTakesTheSameLock() throws {
        let parent = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: parent) }
        try FileManager.default.createDirectory(atPath: "\(parent)/o", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: "\(parent)/olink", withDestinationPath: "o")
        let first = try OutputFolder("\(parent)/o")
        do { _ = try OutputFolder("\(parent)/olink"); Issue.record("second lock taken") } catch let e as ToolError {
            #expect(e.code == .cantCreate)
        }
        try first.commit()
        #expect(!FileManager.default.fileExists(atPath: "\(parent)/o.lock"))   // the lock file goes with the run
        let second = try OutputFolder("\(parent)/olink")
        #expect(second.target == "\(parent)/olink")
        try Data("x".utf8).write(to: URL(fileURLWithPath: "\(second.staging)/report.csv"))
        try second.commit()
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: "\(parent)/olink") == "o")
        #expect(FileManager.default.fileExists(atPath: "\(parent)/o/report.csv"))
    }

    /// Issue 27 item 7: the swap exchanges the two folders in one call where the file system can.
    @Test func theSwapExchangesAndLeavesNothingBeside() throws {
        let parent = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: parent) }
        for a in ["a", "b"] {
            try FileManager.default.createDirectory(atPath: "\(parent)/\(a)", withIntermediateDirectories: false)
            try Data(a.utf8).write(to: URL(fileURLWithPath: "\(parent)/\(a)/f"))
        }
        #expect(OutputFolder.exchange("\(parent)/a", "\(parent)/b") == true)   // ext4 and tmpfs have it
        #expect(try String(contentsOfFile: "\(parent)/a/f", encoding: .utf8) == "b")
        #expect(OutputFolder.exchange("\(parent)/a", "\(parent)/missing") == false)
        try Data("old".utf8).write(to: URL(fileURLWithPath: "\(parent)/a/report.csv"))
        let folder = try OutputFolder("\(parent)/a")
        try Data("new".utf8).write(to: URL(fileURLWithPath: "\(folder.staging)/report.csv"))
        try folder.commit()
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent).sorted() == ["a", "b"])
        #expect(try String(contentsOfFile: "\(parent)/a/report.csv", encoding: .utf8) == "new")
    }

    @Test func sameFileByDeviceAndInode() throws {
        let parent = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: parent) }
        try Data().write(to: URL(fileURLWithPath: "\(parent)/r.csv"))
        #expect(InputFile.same("\(parent)/r.csv", "\(parent)/../\(URL(fileURLWithPath: parent).lastPathComponent)/r.csv"))
        #expect(!InputFile.same("\(parent)/r.csv", "\(parent)/other.csv"))
    }

    /// Where the file system has no exchange, the swap is two renames and still leaves the new
    /// outputs in place and nothing beside them.
    @Test func theFallbackSwapRenamesTwice() throws {
        let parent = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: parent) }
        try FileManager.default.createDirectory(atPath: "\(parent)/a", withIntermediateDirectories: false)
        try Data("old".utf8).write(to: URL(fileURLWithPath: "\(parent)/a/report.csv"))
        let folder = try OutputFolder("\(parent)/a")
        folder.exchanging = { _, _ in nil }
        try Data("new".utf8).write(to: URL(fileURLWithPath: "\(folder.staging)/report.csv"))
        try folder.commit()
        #expect(try String(contentsOfFile: "\(parent)/a/report.csv", encoding: .utf8) == "new")
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent) == ["a"])
    }

    /// A kill between the fallback's two renames leaves `a.old-PID`; the next run puts it back.
    @Test func theNextRunPutsBackAFolderMovedAside() throws {
        let parent = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: parent) }
        try FileManager.default.createDirectory(atPath: "\(parent)/a.old-999999", withIntermediateDirectories: false)
        try Data("old".utf8).write(to: URL(fileURLWithPath: "\(parent)/a.old-999999/report.csv"))
        let folder = try OutputFolder("\(parent)/a")
        #expect(try String(contentsOfFile: "\(parent)/a/report.csv", encoding: .utf8) == "old")
        folder.abandon()
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent) == ["a"])
    }
}

