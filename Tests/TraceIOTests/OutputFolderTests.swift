import Foundation
import Testing
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
}
