import Foundation
import Testing
import SpringCore
@testable import SpringTune
import ToolRuntime
import TraceIO

/// `fit spring` and `fit deceleration`: exact data back exactly, independent references
/// (an RK4 spring, Flutter's friction), trackpad-like wheel streams, and refusals.
@Suite struct FitTests {
    /// Positions of a free spring from `start` toward `target` with velocity `v0`, at `rate` Hz.
    static func springSamples(_ s: SpringParameters, target: Double = 250, start: Double = 100, v0: Double = 400,
                              rate: Double = 120, duration: Double = 1.5, t0: Double = 0.25) -> (t: [Double], x: [Double]) {
        let motion = SpringMotion(spring: s, initial: SpringState(x: start - target, v: v0))
        let t = (0...Int(duration * rate)).map { t0 + Double($0) / rate }
        return (t, t.map { target + motion.state(at: $0 - t0).x })
    }

    static func close(_ a: Double, _ b: Double, relative: Double) -> Bool { abs(a - b) <= relative * abs(b) }

    @Test(arguments: [0.3, 0.7, 1.0, 2.5])
    func exactSpringComesBackExact(damping: Double) throws {
        let truth = try SpringParameters(frequency: 2, damping: damping)
        let (t, x) = Self.springSamples(truth)
        let fit = try SpringFit.fit(times: t, values: x)
        #expect(Self.close(fit.spring.frequency, truth.frequency, relative: 1e-6), "f \(fit.spring.frequency)")
        #expect(Self.close(fit.spring.damping, truth.damping, relative: 1e-6), "ζ \(fit.spring.damping)")
        #expect(abs(fit.target - 250) <= 1e-4, "target \(fit.target)")
        #expect(abs(fit.initial.x - -150) <= 1e-4 && abs(fit.initial.v - 400) <= 1e-3)
        #expect(fit.rms < 1e-8 && fit.warnings.isEmpty && fit.targetFitted && fit.sampleCount == 181)
        // With the target given, the same spring.
        let fixed = try SpringFit.fit(times: t, values: x, target: 250)
        #expect(Self.close(fixed.spring.frequency, truth.frequency, relative: 1e-6) && Self.close(fixed.spring.damping, truth.damping, relative: 1e-6))
        #expect(!fixed.targetFitted && fixed.target == 250)
    }

    @Test func unevenSamplesAndOtherSprings() throws {
        // Jittered 60-240 Hz sampling of springs from light to heavy damping.
        var seed: UInt64 = 7
        func random() -> Double { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return Double(seed >> 11) / Double(1 << 53) }
        for (f, z) in [(0.8, 0.05), (5.0, 0.1), (1.5, 0.999), (1.5, 1.001), (3.0, 6.0), (0.7, 0.0)] {
            let truth = try SpringParameters(frequency: f, damping: z)
            let motion = SpringMotion(spring: truth, initial: SpringState(x: -80, v: -300))
            var t = [0.0]
            while t.last! < 2 { t.append(t.last! + (1 + 3 * random()) / 240) }
            let fit = try SpringFit.fit(times: t, values: t.map { 40 + motion.state(at: $0).x })
            #expect(Self.close(fit.spring.frequency, f, relative: 1e-6), "f \(f) ζ \(z): got f \(fit.spring.frequency)")
            #expect(abs(fit.spring.damping - z) <= 1e-6 * max(z, 1), "f \(f) ζ \(z): got ζ \(fit.spring.damping)")
            #expect(abs(fit.target - 40) <= 1e-4)
        }
    }

    /// An independent reference: a spring library stepping ẍ = −k(x − target) − c·ẋ with
    /// classic fixed-step RK4 at 60 Hz (as Rebound-style libraries do).
    static func rk4(stiffness k: Double, damping c: Double, from x0: Double, to target: Double, steps: Int) -> [Double] {
        var x = x0, v = 0.0
        let h = 1.0 / 60
        func a(_ x: Double, _ v: Double) -> Double { -k * (x - target) - c * v }
        var out = [x]
        for _ in 0..<steps {
            let k1x = v, k1v = a(x, v)
            let k2x = v + 0.5 * h * k1v, k2v = a(x + 0.5 * h * k1x, v + 0.5 * h * k1v)
            let k3x = v + 0.5 * h * k2v, k3v = a(x + 0.5 * h * k2x, v + 0.5 * h * k2v)
            let k4x = v + h * k3v, k4v = a(x + h * k3x, v + h * k3v)
            x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
            v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
            out.append(x)
        }
        return out
    }

    @Test(arguments: [(170.0, 26.0), (300.0, 10.0), (100.0, 20.0), (600.0, 20.0)])
    func rk4SpringLibrary(k: Double, c: Double) throws {
        let x = Self.rk4(stiffness: k, damping: c, from: 0, to: 1000, steps: 90)
        let fit = try SpringFit.fit(times: x.indices.map { Double($0) / 60 }, values: x)
        #expect(Self.close(fit.spring.stiffness(), k, relative: 0.005), "k \(fit.spring.stiffness())")
        #expect(Self.close(fit.spring.dampingCoefficient(), c, relative: 0.01), "c \(fit.spring.dampingCoefficient())")
        #expect(abs(fit.target - 1000) < 1)
    }

    @Test func noisySpringDegradesGracefully() throws {
        let truth = try SpringParameters(frequency: 1.5, damping: 0.4)
        let (t, clean) = Self.springSamples(truth, duration: 2)
        var x = clean
        var seed: UInt64 = 3
        for i in x.indices {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            x[i] += (Double(seed >> 11) / Double(1 << 53) - 0.5) * 2      // ±1 pt on a 150 pt motion
        }
        let fit = try SpringFit.fit(times: t, values: x)
        #expect(Self.close(fit.spring.frequency, 1.5, relative: 0.01) && Self.close(fit.spring.damping, 0.4, relative: 0.03))
        #expect(fit.rms > 0.4 && fit.rms < 0.7 && fit.warnings.isEmpty)
    }

    @Test func refusals() throws {
        let t = (0..<50).map { Double($0) / 60 }
        #expect(throws: FitError.tooFewSamples(count: 5, minimum: 6)) { try SpringFit.fit(times: Array(t.prefix(5)), values: [1, 2, 3, 4, 5]) }
        #expect(throws: FitError.constant) { try SpringFit.fit(times: t, values: t.map { _ in 3 }) }
        #expect(throws: FitError.timeNotIncreasing(index: 2)) { try SpringFit.fit(times: [0, 1, 1, 2, 3, 4], values: [1, 2, 3, 4, 5, 6]) }
        // Alternating noise is no spring.
        let noise = t.indices.map { Double(($0 * 7919) % 13) - 6 }
        #expect { try SpringFit.fit(times: t, values: noise) } throws: { error in
            guard case let .notThisMotion(why) = error as? FitError else { return false }
            return why.contains("do not look like a damped spring")
        }
        // A ramp is the start of a slow over-damped approach: it fits, with a warning.
        let ramp = try SpringFit.fit(times: t, values: t.map { 10 + 50 * $0 })
        #expect(ramp.warnings.contains { $0.contains("outside the samples") || $0.contains("search") })
    }

    /// Flutter's iOS-style scroll friction: FrictionSimulation(drag 0.135, x 100, v 100) moves as
    /// x(t) = x₀ + v₀·(dragᵗ − 1)/ln(drag).
    @Test func flutterFriction() throws {
        let drag = 0.135
        let t = (0...240).map { Double($0) / 120 }
        let x = t.map { 100 + 100 * (pow(drag, $0) - 1) / log(drag) }
        let fit = try DecelerationFit.fit(times: t, values: x)
        #expect(abs(fit.decelerationRate - pow(drag, 1.0 / 1000)) <= 1e-5)
        #expect(abs(fit.decelerationRate - 0.998) < 1e-5)
        #expect(Self.close(fit.lambda, -log(drag), relative: 1e-8))
        #expect(Self.close(fit.initialVelocity, 100, relative: 1e-8) && Self.close(fit.restPosition, 100 - 100 / log(drag), relative: 1e-10))
        // 1/λ against UIKit's per-millisecond sum (r/1000)/(1 − r): the same to half a millisecond.
        let r = fit.decelerationRate
        #expect(abs(fit.projectedDistancePerVelocity - (r / 1000) / (1 - r)) < 0.0006)
    }

    @Test func decelerationRefusals() throws {
        let t = (0..<60).map { Double($0) / 60 }
        #expect { try DecelerationFit.fit(times: t, values: t.map { 5 * $0 }) } throws: { error in
            (error as? FitError)?.description.contains("does not slow down") == true
        }
        #expect(throws: FitError.constant) { try DecelerationFit.fit(times: t, values: t.map { _ in 1 }) }
    }

    /// A trackpad-like stream: a finger phase at 120 Hz, a pause, then momentum at 60 Hz whose
    /// deltas are rounded to whole pixels, timestamps jittering by a millisecond.
    @Test func wheelMomentumTail() throws {
        var times: [Double] = [], deltas: [Double] = []
        var t = 0.0
        for i in 0..<12 { t += 0.008; times.append(t); deltas.append(Double(8 + 6 * i)) }
        let rate = 0.9965, lambda = -1000 * log(rate), v0 = 9000.0
        var position = 0.0, reported = 0.0
        t += 0.025
        let start = t
        for i in 0..<90 {
            let now = start + Double(i) / 60
            position = v0 / lambda * (1 - exp(-lambda * (now - start)))
            let delta = (position - reported).rounded()
            reported += delta
            if delta != 0 { times.append(now + (i % 3 == 1 ? 0.001 : 0)); deltas.append(delta) }
        }
        let tail = try WheelMomentum(times: times, deltas: deltas.map { -$0 })
        #expect(tail.times.first! >= start - 1e-9 && tail.times.count > 60)
        let fit = try tail.fit()
        #expect(abs(fit.decelerationRate - rate) < 2e-5, "rate \(fit.decelerationRate)")
    }
}

extension FitTests {
    /// The command's layer: reading columns with positions, reports, the trackpad recordings, presets.
    @Suite struct Command {
        static func file(_ text: String) -> String {
            let path = Fixture.tempDir() + "/samples.csv"
            _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
            return path
        }

        static func csv(_ t: [Double], _ x: [Double], header: String = "t,x") -> String {
            header + "\n" + zip(t, x).map { "\($0),\($1)" }.joined(separator: "\n") + "\n"
        }

        @Test func badFilesNameTheCell() throws {
            func message(_ text: String, time: String = "t", value: String = "x") -> ToolError? {
                do { _ = try Fitting.spring(path: Self.file(text), timeColumn: time, valueColumn: value); return nil } catch { return error as? ToolError }
            }
            #expect(message("t,y\n0,1\n")?.message.hasSuffix("samples.csv:1:1: missing column 'x' (the header has 't', 'y')") == true)
            #expect(message("t,x\n0,1\n0.1,abc\n")?.message.hasSuffix("samples.csv:3:5: x: 'abc' is not a number") == true)
            #expect(message("t,x\n0,1\n0.1,1e9\n")?.message.hasSuffix("samples.csv:3:5: x: '1e9' is beyond ±1000000") == true)
            #expect(message("a;t;x\n1;0;1\n1;0,5;2\n")?.message.contains("samples.csv:3:3: t: '0,5' is not a number (a decimal comma?") == true)
            let back = message("t,x\n0,1\n1,2\n2,3\n2,4\n3,1\n4,1\n")
            #expect(back?.code == .dataError && back?.message.hasSuffix("samples.csv:5:1: t: 2.0 is not after the previous sample's 2.0: times must increase from sample to sample, by at least 1e-9 s") == true)
            #expect(message("t,x\n0,1\n1,2\n")?.message.hasSuffix("samples.csv: 2 samples: a fit needs at least 6") == true)
            #expect(message("t,x\n")?.message.hasSuffix("samples.csv: no samples (only a header)") == true)
            #expect(message("")?.message.hasSuffix("samples.csv:1:1: empty file: header required") == true)
        }

        @Test func springReportAndChart() throws {
            let truth = try SpringParameters(frequency: 2, damping: 0.3)
            let (t, x) = FitTests.springSamples(truth)
            let fitted = try Fitting.spring(path: Self.file(Self.csv(t, x, header: "time,pos")), timeColumn: "time", valueColumn: "pos")
            let json = try JSONSerialization.jsonObject(with: Data(try JSONCoding.encode(fitted.report).utf8)) as! [String: Any]
            let forms = json["spring"] as! [String: Double]
            #expect(Set(forms.keys) == ["frequency", "damping", "stiffness", "dampingCoefficient", "mass", "response", "dampingRatio", "duration", "bounce", "tension", "friction"])
            #expect(abs(forms["stiffness"]! - truth.stiffness()) < 1e-6 && abs(forms["bounce"]! - 0.7) < 1e-6 && abs(forms["duration"]! - 0.5) < 1e-6)
            #expect(json["samples"] as? Int == 181 && json["targetFitted"] as? Bool == true && (json["warnings"] as? [String])?.isEmpty == true)
            #expect(fitted.text.contains("damping coefficient   7.53982") && fitted.text.contains("target                250 (fitted)"))
            // The chart: the fitted curve and the samples, then the residuals.
            guard case let .lines(_, _, _, series, _) = fitted.panels[0] else { Issue.record("not a line panel"); return }
            #expect(series.map(\.style) == [.curve, .points] && series[1].points.count == 181)
        }

        @Test func trackpadMomentum() throws {
            let fitted = try Fitting.wheel(path: Fixture.repo.appendingPathComponent("Tests/Data/wheel-gestures-trackpad/traces.csv").path)
            let report = fitted.report
            #expect(report.decelerationRate > 0.99 && report.decelerationRate < 0.998, "median \(report.decelerationRate)")
            #expect(report.fitted == 11 && report.skipped == 2)
            #expect(report.gestures.first { $0.trace == "square-move-trackpad" }?.skipped?.hasPrefix("no momentum tail") == true)
            #expect(report.gestures.first { $0.trace == "slow-drag-right" }?.skipped?.contains("a finger slowing down") == true)
            // Each tail starts where the momentum does: after the finger phase, at the display's cadence.
            let up = try #require(report.gestures.first { $0.trace == "swipe-up-trackpad" })
            #expect(up.axis == "y" && up.tailEvents == 71 && up.tailStart == 0.127)
        }

        @Test func wheelFileErrors() throws {
            let h = "trace_id,t_seconds,dx,dy\n"
            let backwards = Self.file(h + "a,0,1,0\na,0.02,1,0\na,0.01,1,0\n")
            #expect(throws: ToolError.data(backwards, line: 4, column: 3, "t_seconds goes backwards (0.01 < 0.02) in gesture 'a'")) { try Fitting.wheel(path: backwards) }
            let split = Self.file(h + "a,0,1,0\nb,0,1,0\na,0.1,1,0\n")
            #expect(throws: ToolError.data(split, line: 4, column: 1, "gesture 'a' appears again after other gestures (rows of a gesture must be contiguous)")) { try Fitting.wheel(path: split) }
            let none = Self.file(h + "a,0,1,0\na,0.1,0,2\n")
            #expect(throws: ToolError(.dataError, "\(none): no gesture has a momentum tail to fit (1 gestures)")) { try Fitting.wheel(path: none) }
        }

        @Test func presetCopyTakesTheFittedSpring() throws {
            let truth = try SpringParameters(frequency: 1.25, damping: 0.8)
            let (t, x) = FitTests.springSamples(truth)
            let fitted = try Fitting.spring(path: Self.file(Self.csv(t, x)))
            let loaded = try Fixture.store.load("appstore")
            let destination = Fixture.tempDir() + "/fitted.json"
            let (preset, dropped) = fitted.preset(from: loaded, destination: destination)
            #expect(dropped == ["dampingRatio"] && !preset.sweep.contains { $0.name == "dampingRatio" })
            try AtomicFile.write(try JSONCoding.encode(preset), to: destination)
            let back = try Fixture.store.load(destination)
            #expect(abs(back.preset.spring.frequency - 1.25) < 1e-9 && abs(back.preset.spring.damping - 0.8) < 1e-9)
            #expect(back.kind.values(of: back.preset)["response"]?.number.map { abs($0 - 0.8) < 1e-9 } == true)
            #expect(PresetStore.traceFiles(for: back) == PresetStore.traceFiles(for: loaded))
        }
    }
}
