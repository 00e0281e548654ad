import Testing
@testable import SpringTune

/// The bench grid is pinned (docs/Performance.md): whatever evernote's default sweep is, `bench`
/// times 384 sets and counts 64, and the child `springtune` it counts gets the same grid.
@Suite struct BenchmarkGridTests {
    @Test func benchGridIsTheOld384SetDefault() throws {
        let job = try Benchmark.grid.applied(to: SweepJob(loaded: Fixture.store.load("evernote"), outputDirectory: Fixture.tempDir()))
        let grid = try job.grid()
        #expect(grid.count == 384)
        #expect(grid.axes.map(\.name) == ["boundaryResistance", "damping", "frequency"])
        #expect(grid.axes[0].numbers == [4, 6, 8, 10, 14, 20])
        #expect(grid.axes[1].values.count == 8 && grid.axes[2].values.count == 8)
    }

    @Test func countedGridFixesBoundaryResistanceInProcessAndOnTheCommandLine() throws {
        let job = try Benchmark.countedGrid.applied(to: SweepJob(loaded: Fixture.store.load("evernote"), outputDirectory: Fixture.tempDir()))
        let grid = try job.grid()
        #expect(grid.count == 64)
        #expect(grid.base["boundaryResistance"] == .number(10))
        #expect(Benchmark.countedGrid.arguments == ["--vary", "damping=0.5:1.2:8", "--vary", "frequency=0.5:4:8:log",
                                                    "--set", "boundaryResistance=10"])
    }
}
