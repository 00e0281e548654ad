import Foundation
import SpringCore
import Testing
@testable import SpringLayout
@testable import SpringTune
import TraceIO

/// Reference §8 read literally, frame by frame, on the app's `FlowLayoutEngine`, and compared with
/// what the sweep measures on the real bundled gestures.
@Suite struct FlowLayoutMetricRuleTests {
    /// Every frame's positions, anchors and offset, kept whole (no measuring on the way).
    struct Frames {
        var p: [[Double]] = [], a: [[Double]] = [], o: [Double] = []
    }

    func frames(_ m: FlowLayout, _ prep: FlowLayout.Prepared) -> Frames {
        var f = Frames()
        var engine = FlowLayoutEngine(layout: m, offset: prep.offsets[0])
        for k in 0...prep.clock.lastFrame {
            if k > 0 { engine.advance(to: prep.offsets[k], touchY: prep.touchY[k]) }
            f.p.append(engine.positions); f.a.append(engine.anchors); f.o.append(engine.offset)
        }
        return f
    }

    /// The metrics by the letter of Reference §8, from whole frames.
    func literal(_ m: FlowLayout, _ prep: FlowLayout.Prepared) -> (TraceMetrics, Bool) {
        let f = frames(m, prep), clock = prep.clock, r = clock.releaseFrame, last = clock.lastFrame
        let n = m.itemCount, eps = m.scene.tolerance, h = m.itemHeight
        let final = (0..<n).map { m.restingCenter($0) - prep.restOffset }
        func counts(_ i: Int, _ k: Int) -> Bool {
            let y = f.p[k][i] - f.o[k]
            return y + h / 2 >= -100 && y - h / 2 <= m.scene.height + 100
        }
        func d(_ i: Int, _ k: Int) -> Double { f.p[k][i] - f.o[k] - final[i] }
        func ext(_ i: Int, _ k: Int) -> Double { f.p[k][i] - f.a[k][i] }
        var pt = 0.0, largest = 0.0
        for i in 0..<n {
            let d0 = d(i, r)
            let countsAfter = (r...last).contains { counts(i, $0) }
            if countsAfter { largest = max(largest, abs(d0)) }
            guard abs(d0) >= eps else { continue }
            for k in r...last where counts(i, k) { pt = max(pt, -(d0 > 0 ? 1.0 : -1.0) * d(i, k)) }
        }
        func settle(_ value: (Int, Int) -> Double) -> Double {
            let out = (r...last).filter { k in (0..<n).contains { counts($0, k) && abs(value($0, k)) > eps } }
            guard let lastOut = out.last else { return 0 }
            return lastOut == last ? .infinity : Double(lastOut + 1 - r) / clock.frameRate
        }
        var stretch: Double?, lag = 0.0
        for k in 0...last {
            for i in 1..<max(n, 1) where counts(i, k) && counts(i - 1, k) {
                stretch = max(stretch ?? -.infinity, f.p[k][i] - f.p[k][i - 1] - h - m.itemSpacing)
            }
            if k < r { for i in 0..<n where counts(i, k) { lag = max(lag, abs(ext(i, k))) } }
        }
        let settleTime = settle(d)
        let metrics = TraceMetrics([(.overshootPt, pt), (.overshootRatio, largest >= 1 ? pt / largest : nil), (.settleTime, settleTime),
                                    (.jiggleTime, settle(ext)), (.peakStretchPt, stretch), (.maxLagPt, lag)])
        return (metrics, settleTime.isInfinite)
    }

    @Test(arguments: ["evernote", "messages"])
    func realGesturesFollowTheRuleExactly(preset: String) throws {
        let loaded = try Fixture.store.load(preset)
        let m = try FlowLayout(preset: loaded.preset)
        var traces: [Trace] = []
        for file in PresetStore.traceFiles(for: loaded) { traces += try TraceReader().read(path: file).0 }
        #expect(traces.count == 30)
        var unsettled = 0, ratios = 0
        for trace in traces {
            let prep = m.prepare(trace)
            let run = m.run(prep, timeline: false)
            let (expected, expectedUnsettled) = literal(m, prep)
            for spec in FlowLayout.metrics {
                let a = run.metrics[spec], b = expected[spec]
                #expect((a == nil) == (b == nil), "\(trace.id) \(spec.name)")
                if let a, let b { #expect(a == b || abs(a - b) <= 1e-9 * max(1, abs(b)), "\(trace.id) \(spec.name): \(a) vs \(b)") }
            }
            #expect(run.unsettled == expectedUnsettled)
            if run.unsettled { unsettled += 1 }
            if run.metrics[.overshootRatio] != nil { ratios += 1 }
        }
        #expect(ratios > 0)
    }
}

/// Early exit (Reference §6): a run without a timeline may stop once nothing can change a metric; a
/// run with one walks every frame. Both paths must give the same bits on every real trace,
/// across light to heavy damping and slow to fast springs, and the early path must stop.
@Suite struct EarlyExitTests {
    @Test(arguments: ["evernote", "messages"])
    func earlyExitChangesNoBit(preset: String) throws {
        let loaded = try Fixture.store.load(preset)
        var traces: [Trace] = []
        for file in PresetStore.traceFiles(for: loaded) { traces += try TraceReader().read(path: file).0 }
        var stopped = 0, runs = 0, stoppedWithoutOvershoot = 0
        for damping in [0.05, 0.4, 0.8, 1.0, 1.2, 2.5] {
            for frequency in [0.5, 1.5, 6.0] {
                var preset = loaded.preset
                preset.spring.damping = damping
                preset.spring.frequency = frequency
                let m = try FlowLayout(preset: preset)
                for trace in traces {
                    let prep = m.prepare(trace)
                    let early = m.run(prep, timeline: false), full = m.run(prep, timeline: true)
                    runs += 1
                    #expect(early.unsettled == full.unsettled)
                    for spec in FlowLayout.metrics {
                        #expect(early.metrics[spec]?.bitPattern == full.metrics[spec]?.bitPattern, "\(trace.id) ζ \(damping) f \(frequency) \(spec.name)")
                    }
                    #expect(full.stoppedAt == nil)
                    if let k = early.stoppedAt, k < prep.clock.lastFrame {
                        stopped += 1
                        if full.metrics[.overshootPt] == 0 { stoppedWithoutOvershoot += 1 }
                    }
                }
            }
        }
        #expect(stopped > runs / 5, "early exit taken in \(stopped) of \(runs) runs")
        // Rows that close on their rest from the side they started (no overshoot at all) stop too.
        if preset == "evernote" { #expect(stoppedWithoutOvershoot > runs / 20, "\(stoppedWithoutOvershoot) of \(runs) runs without overshoot stopped early") }
    }

    /// In the calm phase the batch stops stepping rows that can never again meet the counted
    /// band, and stops measuring the neighbour gaps once no later frame can raise the peak
    /// stretch. Every lane's own full run (its timeline lists the rows inside the band per
    /// frame) never shows a row inside the band at or after the frame it was retired, and its
    /// peak stretch is the one the batch had when it stopped measuring gaps.
    @Test func retiredRowsAndSettledStretchHold() throws {
        let loaded = try Fixture.store.load("evernote")
        var traces: [Trace] = []
        for file in PresetStore.traceFiles(for: loaded) { traces += try TraceReader().read(path: file).0 }
        let models = try [(0.5, 0.5), (0.8, 1.2), (1.0, 2.2), (1.2, 4.0)].map { damping, frequency in
            var p = loaded.preset
            p.spring.damping = damping
            p.spring.frequency = frequency
            return try FlowLayout(preset: p)
        }
        var retiredRows = 0, settled = 0
        for trace in traces {
            let prep = models[0].prepare(trace)
            let r = prep.clock.releaseFrame
            var batch = LaneBatch(models, prep)
            defer { batch.deallocate() }
            var retiredAt = [Int?](repeating: nil, count: models[0].itemCount)
            for k in 0...prep.clock.lastFrame {
                _ = batch.frame(k, offset: prep.offsets[k], touchY: prep.touchY[k], releaseFrame: r)
                guard k > r, k >= prep.calmFrom, k & 7 == 0 else { continue }
                let leeways = models.map { $0.leeway(prep, at: prep.clock.time(k) - prep.clock.time(r), offset: prep.offsets[k]) }
                batch.retire(leeways, offset: prep.offsets[k])
                for i in retiredAt.indices where retiredAt[i] == nil && !batch.active.contains(i) { retiredAt[i] = k }
                if !batch.stretchSettled, batch.stretchStays(leeways, offset: prep.offsets[k]) {
                    batch.stretchSettled = true
                    settled += 1
                }
            }
            retiredRows += retiredAt.compactMap { $0 }.count
            for (lane, model) in models.enumerated() {
                for row in model.run(prep, timeline: true).timeline {
                    let k = Int((row.t * prep.clock.frameRate).rounded())
                    if let at = retiredAt[row.item] { #expect(k < at, "\(trace.id): row \(row.item) inside the band at frame \(k), retired at \(at)") }
                }
                let full = model.run(prep, timeline: false).metrics[.peakStretchPt] ?? -.infinity
                #expect(batch.peakStretch[lane].bitPattern == full.bitPattern, "\(trace.id) lane \(lane): \(batch.peakStretch[lane]) vs \(full)")
            }
        }
        #expect(retiredRows > traces.count, "\(retiredRows) rows retired over \(traces.count) traces")
        #expect(settled > traces.count / 3, "gaps settled in \(settled) of \(traces.count) traces")
    }

    /// Sets stepped together in SIMD lanes give each set's own numbers bit for bit: springs
    /// from light to heavy damping, stretch on and off, scroll lag on and off, 2 to 4 lanes.
    @Test(arguments: ["evernote", "messages"])
    func lanesEqualSingleRuns(preset: String) throws {
        let loaded = try Fixture.store.load(preset)
        var traces: [Trace] = []
        for file in PresetStore.traceFiles(for: loaded) { traces += try TraceReader().read(path: file).0 }
        var models: [FlowLayout] = []
        for (damping, frequency, boundary, lag) in [(0.05, 0.5, 10.0, 0.0), (0.7, 1.5, 0.0, 0.0), (1.0, 3.0, 20.0, 0.0), (2.5, 6.0, 4.0, 0.0),
                                                    (0.5, 2.0, 10.0, 800.0), (1.2, 1.0, 0.0, 1600.0), (0.9, 4.0, 8.0, 1000.0)] {
            var p = loaded.preset
            p.spring.damping = damping
            p.spring.frequency = frequency
            p.params["boundaryResistance"] = .number(boundary)
            p.params["scrollResistance"] = .number(lag)
            models.append(try FlowLayout(preset: p))
        }
        for trace in traces {
            let prep = models[0].prepare(trace)
            // Groups: stretch in some lanes; lag; stretch in some; stretch in every lane and no
            // lag (the carry added without a test); lag beside a lane with neither.
            for group in [Array(models[0..<4]), Array(models[4..<7]), Array(models[1..<3]), [models[0], models[2], models[3]], [models[1], models[4]]] {
                let batch = FlowLayout.run(group, prep)
                #expect(batch.count == group.count)
                for (model, lane) in zip(group, batch) {
                    let single = model.run(prep, timeline: false)
                    #expect(lane.unsettled == single.unsettled)
                    for spec in FlowLayout.metrics {
                        #expect(lane.metrics[spec]?.bitPattern == single.metrics[spec]?.bitPattern, "\(trace.id) \(spec.name)")
                    }
                }
            }
        }
    }
}

/// The lanes' state against the scalar engine frame by frame, so that a wrong anchor or carry
/// shows even where no metric would reveal it (a rounding-level difference in a row that never
/// counts again, say).
@Suite struct LaneStateTests {
    /// Every frame, every row's pᵢ, vᵢ and aᵢ in every lane equal ``FlowLayoutEngine``'s bit for
    /// bit: groups with stretch in every lane (no lag), in some lanes, lag beside a lane with
    /// neither; starting in bounds, past the top and past the bottom (the anchors then start
    /// stretched and return to rest once the scroll comes back in bounds).
    @Test(arguments: ["auto", "-40", "5000"])
    func lanesFollowTheEngine(initialOffset: String) throws {
        let loaded = try Fixture.store.load("evernote")
        var traces: [Trace] = []
        for file in PresetStore.traceFiles(for: loaded) { traces += try TraceReader().read(path: file).0 }
        var models: [FlowLayout] = []
        for (damping, frequency, boundary, lag) in [(0.05, 0.5, 10.0, 0.0), (0.7, 1.5, 0.0, 0.0), (1.0, 3.0, 20.0, 0.0), (2.5, 6.0, 4.0, 0.0),
                                                    (0.5, 2.0, 10.0, 800.0), (1.2, 1.0, 0.0, 1600.0)] {
            var p = loaded.preset
            p.spring.damping = damping
            p.spring.frequency = frequency
            p.params["boundaryResistance"] = .number(boundary)
            p.params["scrollResistance"] = .number(lag)
            p.params["initialOffset"] = Double(initialOffset).map { .number($0) } ?? .text(initialOffset)
            models.append(try FlowLayout(preset: p))
        }
        let groups = [[models[0], models[2], models[3]], [models[0], models[1]], [models[1], models[5]], [models[4], models[5], models[2]]]
        var returning = 0, frames = 0
        for trace in traces {
            let prep = models[0].prepare(trace)
            let m = models[0].scrollView.maxOffset
            for k in 1..<prep.offsets.count where prep.offsets[k] >= 0 && prep.offsets[k] <= m && !(prep.offsets[k - 1] >= 0 && prep.offsets[k - 1] <= m) {
                returning += 1
            }
            for sets in groups {
                // Padded to four lanes with the last set, as `FlowLayout.run` does.
                let group = sets + Array(repeating: sets[sets.count - 1], count: FlowLayout.lanes - sets.count)
                var batch = LaneBatch(group, prep)
                defer { batch.deallocate() }
                var engines = group.map { FlowLayoutEngine(layout: $0, offset: prep.offsets[0]) }
                var mismatch: String?
                for k in 0...prep.clock.lastFrame where mismatch == nil {
                    _ = batch.frame(k, offset: prep.offsets[k], touchY: prep.touchY[k], releaseFrame: prep.clock.releaseFrame)
                    frames += 1
                    for lane in group.indices {
                        if k > 0 { engines[lane].advance(to: prep.offsets[k], touchY: prep.touchY[k]) }
                        let e = engines[lane]
                        for i in 0..<e.positions.count {
                            let row = batch.rowState[i]
                            if row.p[lane].bitPattern != e.positions[i].bitPattern || row.v[lane].bitPattern != e.velocities[i].bitPattern
                                || row.a[lane].bitPattern != e.anchors[i].bitPattern {
                                mismatch = "frame \(k) lane \(lane) row \(i): p \(row.p[lane]) vs \(e.positions[i]), v \(row.v[lane]) vs \(e.velocities[i]), a \(row.a[lane]) vs \(e.anchors[i])"
                                break
                            }
                        }
                    }
                }
                #expect(mismatch == nil, "\(trace.id) (initial offset \(initialOffset)): \(mismatch ?? "")")
            }
        }
        #expect(frames > 10_000)
        // The traces leave bounds and come back: the rule that returns the anchors to rest runs.
        #expect(returning > 0)
    }
}

/// The report's aggregates against the per-trace file of the same sweep (Reference §8): a short tail
/// leaves traces unsettled, so `settle_time_p95`/`_max` are `inf` and `_mean` is over the rest.
@Suite struct UnsettledAggregateTests {
    @Test func shortTailGivesInfAndMeanOverSettled() throws {
        var loaded = try Fixture.store.load("evernote")
        loaded.preset.scene.tail = 1
        var job = SweepJob(loaded: loaded, outputDirectory: Fixture.tempDir())
        job.vary = try ["boundaryResistance=10", "damping=1", "frequency=2"].map(SweepGrid.parseVary)
        job.charts = false
        job.perTrace = true
        let outcome = try job.run()
        let report = try SweepReport.read(outcome.report)
        // per-trace.csv is not a report (no traces column): read it as plain CSV.
        var records: [CSVRecord] = []
        try CSVReader(path: outcome.perTrace!).forEachRecord { records.append($0) }
        let perTrace = try CSVHeader(records[0], file: outcome.perTrace!)
        let row = try #require(report.rows.first)
        func value(_ c: String) throws -> MetricValue? { report.value(row, try report.index(of: c)) }
        let settle = try #require(perTrace["settle_time"]), flag = try #require(perTrace["unsettled"])
        let rows = records.dropFirst().map(\.fields)
        let settled = rows.filter { $0[flag] == "0" }.map { Double($0[settle])! }
        let unsettled = rows.filter { $0[flag] == "1" }
        #expect(!unsettled.isEmpty && !settled.isEmpty)
        #expect(unsettled.allSatisfy { $0[settle].isEmpty })
        #expect(try value("unsettled") == .value(Double(unsettled.count)))
        #expect(try value("settle_time_max") == .neverSettled)
        let mean = try #require(try value("settle_time_mean")?.number)
        #expect(abs(mean - settled.reduce(0, +) / Double(settled.count)) < 1e-12)
        // p95 is +∞ exactly when more than 5 % of the traces never settle (nearest rank).
        let rank = Int((0.95 * 30).rounded(.up))
        #expect((try value("settle_time_p95") == .neverSettled) == (settled.count < rank))
    }
}
