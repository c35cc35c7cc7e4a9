import Foundation
import Randomness
import Simulation
import Testing

@testable import Altimetry

/// The fault and lock-out rules of `SensorFaultMonitor`, through the filter, on simulated recordings. Smaller seed
/// counts than `altimetry bench --stress` (100 seeds), each assertion one that a broken rule fails.
@Suite("SensorFaultMonitor")
struct SensorFaultMonitorTests {
    struct Run {
        var estimates: [AltitudeEstimate] = []
        var truth: [Double] = []
        var episodes: [FilterEpisode] = []
        var gpsRefusedAtOutliers = 0
        var outliers = 0

        /// Seconds from `time` until the error is first within the sigma.
        func recovery(after time: Double) -> Double? {
            for (e, h) in zip(estimates, truth)
            where e.time >= time && abs(e.altitude - h) <= e.altitudeStandardDeviation {
                return e.time - time
            }
            return nil
        }
    }

    static func run(_ scenario: Scenario, parameters: AltitudeModelParameters = AltitudeModelParameters()) throws -> Run
    {
        let recording = try scenario.simulate()
        var filter = try AltitudeFilter(parameters: parameters)
        var run = Run()
        for (i, r) in recording.readings.enumerated() {
            let e = try filter.process(AltitudeReading(time: r.time, pressure: r.pressure, gpsAltitude: r.gpsAltitude))
            run.estimates.append(e)
            run.truth.append(r.trueAltitude)
            if recording.truth[i].isOutlier {
                run.outliers += 1
                if e.gpsUpdate?.decision.wasApplied == false { run.gpsRefusedAtOutliers += 1 }
            }
        }
        run.episodes = filter.episodes
        return run
    }

    @Test(
        "A 30 hPa barometer step is re-anchored and reported; the altitude is within its sigma within 5 minutes",
        arguments: [1, 2, 3] as [UInt64])
    func barometerStep(seed: UInt64) throws {
        let run = try Self.run(.stress(.barometerStep, seed: seed))
        let steps = run.episodes.filter { $0.kind == .barometerStep }
        #expect(steps.count == 1, "\(run.episodes)")
        // 30 hPa at 1,000 m is about 280 m of altitude, the barometer reading higher pressure: lower altitude.
        #expect(steps.first.map { abs($0.sizeMeters + 280) < 30 } ?? false, "\(steps)")
        let recovery = try #require(run.recovery(after: 1_800))
        #expect(recovery <= 300, "recovered after \(recovery) s")
        #expect(run.estimates.contains { $0.status.contains(.barometerStep) })
    }

    @Test(
        "A 10 s spike is one spike episode, and the track comes back within its sigma", arguments: [1, 2] as [UInt64])
    func barometerSpike(seed: UInt64) throws {
        let run = try Self.run(.stress(.barometerSpike, seed: seed))
        #expect(run.episodes.map(\.kind) == [.barometerSpike], "\(run.episodes)")
        #expect(try #require(run.recovery(after: 1_811)) <= 300)
    }

    @Test("A barometer stuck for an hour during a 300 m climb is ignored while stuck, and reported")
    func barometerStuck() throws {
        let run = try Self.run(.stress(.barometerStuck, seed: 4))
        let stuck = try #require(run.episodes.first { $0.kind == .barometerStuck })
        #expect(abs(stuck.startTime - 600) < 2 && abs(stuck.endTime - 4_200) < 2, "\(stuck)")
        // Without the rule the filter ends the climb near its start (325 m off); with it, GPS carries the climb.
        let atTop = try #require(zip(run.estimates, run.truth).first { $0.0.time >= 4_150 })
        #expect(
            abs(atTop.0.altitude - atTop.1) < 3 * atTop.0.altitudeStandardDeviation, "\(atTop.0.altitude) vs \(atTop.1)"
        )
        #expect(try #require(run.recovery(after: 600)) <= 300)
    }

    @Test(
        "A GPS that jumps 300 m and stays is re-anchored and reported, not followed", arguments: [5, 6, 7] as [UInt64])
    func gpsJump(seed: UInt64) throws {
        let run = try Self.run(.stress(.gpsJump, seed: seed))
        let jump = try #require(run.episodes.first { $0.kind == .gpsJump })
        #expect(abs(jump.startTime - 1_800) < 2 && abs(jump.sizeMeters - 300) < 15, "\(jump)")
        #expect(!run.episodes.contains { $0.kind == .reset }, "\(run.episodes)")
        // Re-anchored, the fixes are fused again: after the jump's first seconds, none refused.
        let refused = run.estimates.filter { $0.time > 1_830 && $0.gpsUpdate?.decision.wasApplied == false }
        #expect(refused.count < 5, "\(refused.count) fixes refused after the jump")
        let last = try #require(run.estimates.last), truth = try #require(run.truth.last)
        #expect(abs(last.altitude - truth) < 3 * last.altitudeStandardDeviation)
        // GPS still carries the level: the sigma stays a GPS-fused one, not the barometer's alone after an hour.
        #expect(last.altitudeStandardDeviation < 7, "sigma \(last.altitudeStandardDeviation) m")
    }

    /// GIVEN a still device at 100 m whose GPS, after 25 minutes of good fixes, wanders 150 m up over 100 s (indoors)
    /// and a model of a poor receiver (30 m, 30 s) that follows the wander into its GPS-error estimate, WHEN the GPS
    /// snaps back to the truth, THEN that is not a jump of the datum: the filter resets to the fixes instead of
    /// anchoring them 150 m away, and ends within its sigma. (The 7.3 h Bergen logger does this at t = 7,458 s; anchored,
    /// a 30 m / 30 s model ended that recording 130 m high at ±6 m.)
    @Test("The GPS coming back from an excursion is not taken for a jump of its datum")
    func returnFromExcursionIsNoJump() throws {
        var parameters = AltitudeModelParameters()
        parameters.gpsErrorStandardDeviation = 30
        parameters.gpsCorrelationTime = 30
        var filter = try AltitudeFilter(parameters: parameters)
        var random = SeededGenerator(seed: 11)
        let truth = 100.0
        let pressure = try StandardAtmosphere.pressure(atAltitude: truth)
        var errorAtReturn = 0.0
        var last: AltitudeEstimate?
        for second in 0...2_700 {
            let t = Double(second)
            // The excursion: a ramp to 150 m over 100 s, held for 60 s, then gone at 1,660 s.
            let wander = t < 1_500 ? 0 : t < 1_600 ? 1.5 * (t - 1_500) : t < 1_660 ? 150 : 0
            let reading = AltitudeReading(
                time: t, pressure: pressure + 0.01 * random.gaussian(), gpsAltitude: truth + wander + random.gaussian())
            let e = try filter.process(reading)
            if second == 1_659 { errorAtReturn = e.gpsError }
            last = e
        }
        // The scenario does what it is for: the model followed the wander into e.
        #expect(errorAtReturn > 75, "GPS-error estimate \(errorAtReturn) m at the end of the excursion")
        #expect(!filter.episodes.contains { $0.kind == .gpsJump }, "\(filter.episodes)")
        let end = try #require(last)
        #expect(
            abs(end.altitude - truth) < 2 * end.altitudeStandardDeviation,
            "\(end.altitude) ± \(end.altitudeStandardDeviation)")
    }

    @Test(
        "A cold start 300 m off that ends abruptly is reset within 3 minutes of good fixes (the lock-out rule)",
        arguments: [-300, 300] as [Double])
    func coldStartLockout(offset: Double) throws {
        var scenario = Scenario.stress(.coldStart, seed: 6)
        scenario.gps.faults = [.coldStart(offset: offset, duration: 60, fade: 1)]
        let run = try Self.run(scenario)
        #expect(run.episodes.first?.kind == .reset, "\(run.episodes)")
        let recovery = try #require(run.recovery(after: 65))
        #expect(recovery <= 180, "recovered \(recovery) s after the good fixes began")
    }

    /// GIVEN cold starts that fade over 20 s (the stress scenario's), of either sign and 50 to 300 m, WHEN the good
    /// fixes arrive at 160 s, THEN the filter is within its sigma within 3 minutes: the resets wait until the fixes
    /// hold still against the barometer over a minute of lifts instead of resetting into the fade.
    @Test("A fading cold start is recovered within 3 minutes of good fixes")
    func fadingColdStart() throws {
        var missed: [UInt64] = []
        let seeds = Array(1...24) as [UInt64]
        for seed in seeds {
            let run = try Self.run(.stress(.coldStart, seed: seed))
            if (run.recovery(after: 160) ?? .infinity) > 180 { missed.append(seed) }
        }
        // Seeds 1 to 24 all recover (with a steadiness test over the last 16 lifts alone, seeds 2, 14 and 15 did not:
        // reset 20 s into the fade, they kept 15 to 30 m of it for minutes); without the reset rules a 300 m start is
        // never recovered (`lockoutWithoutRules`).
        #expect(missed.isEmpty, "not recovered within 3 minutes: seeds \(missed)")
    }

    /// GIVEN lifts that fade as a receiver's cold start does (200 m, time constant 20 s) at 1 Hz, WHEN the steadiness
    /// test looks after each fix, THEN it holds them still only once under 3 m of the fade is left, where a test over
    /// the last 16 lifts alone passed with 17 m left; and a minute of still lifts with the model's GPS error is steady.
    @Test("The steadiness test waits until a fade has settled")
    func steadinessWaitsForTheFade() throws {
        let monitor = SensorFaultMonitor(parameters: AltitudeModelParameters())
        var lifts = SensorFaultMonitor.RecentValues(capacity: SensorFaultMonitor.liftCount)
        var settled: Double?
        for second in 0..<300 {
            let t = Double(second)
            lifts.add(200 * exp(-t / 20), at: t)
            if second >= 16, settled == nil, monitor.isSteady(lifts) { settled = t }
        }
        let t = try #require(settled)
        #expect(200 * exp(-t / 20) < 3, "steady at \(t) s with \(200 * exp(-t / 20)) m of the fade left")
        var still = SensorFaultMonitor.RecentValues(capacity: SensorFaultMonitor.liftCount)
        var random = SeededGenerator(seed: 7)
        var e = 0.0
        var steady = 0
        for second in 0..<600 {
            // The model's GPS error: Gauss-Markov, 10 m and 60 s, plus 1 m of white noise.
            e = e * exp(-1.0 / 60) + 10 * (1 - exp(-2.0 / 60)).squareRoot() * random.gaussian()
            still.add(e + random.gaussian(), at: Double(second))
            if second >= 64, monitor.isSteady(still) { steady += 1 }
        }
        // Under the model each half-median difference is within 2 sigmas about 95 % of the time, and both windows must pass.
        #expect(steady >= 400, "\(steady) of 536 still windows steady")
    }

    /// GIVEN a logger's lifts (a fix every 30 s) fading from 200 m with a time constant of 150 s, WHEN the monitor
    /// looks after each of the first ten fixes, THEN it holds the young level open from the sixth on, at least by the
    /// fade's move between the halves (70 m and more); and GIVEN lifts with the model's own GPS error (10 m, 60 s, 1 m
    /// white) at the same cadence, it holds at most 3 open in 1,000 starts of 20 fixes (15,000 looks).
    @Test("An unsettled start holds the level open, a sound one does not")
    func unsettledStartHoldsTheLevelOpen() throws {
        var monitor = SensorFaultMonitor(parameters: AltitudeModelParameters())
        monitor.establishedSince = 0
        for k in 0..<10 {
            let t = 30 * Double(k)
            monitor.recentLifts.add(200 * exp(-t / 150), at: t)
            let floor = monitor.unsteadyStartVariance(at: t)
            if k < 5 {
                #expect(floor == nil, "fix \(k + 1): too few lifts to tell a move")
            } else {
                #expect((floor ?? 0) >= 70 * 70, "fix \(k + 1): floor \(floor ?? 0) m²")
            }
        }
        var random = SeededGenerator(seed: 11)
        var held = 0
        for _ in 0..<1_000 {
            var sound = SensorFaultMonitor(parameters: AltitudeModelParameters())
            sound.establishedSince = 0
            var e = 10 * random.gaussian()
            for k in 0..<20 {
                e = e * exp(-30.0 / 60) + 10 * (1 - exp(-60.0 / 60)).squareRoot() * random.gaussian()
                sound.recentLifts.add(e + random.gaussian(), at: 30 * Double(k))
                if sound.unsteadyStartVariance(at: 30 * Double(k)) != nil { held += 1 }
            }
        }
        // Each look is beyond 4 sigmas with probability 6e-5 under the model: about one in 15,000 looks.
        #expect(held <= 3, "\(held) of 15,000 sound looks held the level open")
    }

    /// GIVEN a monitor's ring of recent values as a checkpoint saves it, WHEN it is decoded as saved and with each
    /// corruption that would index outside the ring (no values, fewer times than values, a negative count), THEN the
    /// saved one round-trips and every corrupt one is a decoding error, not a crash at the next fix.
    @Test("A corrupt ring of recent values in a checkpoint is refused")
    func corruptRingIsRefused() throws {
        var ring = SensorFaultMonitor.RecentValues(capacity: 4)
        for i in 0..<6 { ring.add(Double(i), at: Double(10 * i)) }
        let saved = try JSONEncoder().encode(ring)
        #expect(try JSONDecoder().decode(SensorFaultMonitor.RecentValues.self, from: saved) == ring)
        for corrupt in [
            #"{"values":[],"times":[],"count":0}"#, #"{"values":[1,2],"times":[1],"count":2}"#,
            #"{"values":[1,2],"times":[1,2],"count":-3}"#,
        ] {
            #expect(throws: DecodingError.self, "\(corrupt)") {
                try JSONDecoder().decode(SensorFaultMonitor.RecentValues.self, from: Data(corrupt.utf8))
            }
        }
    }

    /// GIVEN a still station whose GPS error wanders slowly (16 m over 20 minutes, as a receiver indoors) and far
    /// beyond the model's 10 m, 60 s, WHEN the filter has tracked it for 10 minutes, THEN it never resets to the
    /// wander (the consistency test is the young level's only), and it stays within 3 sigmas of the truth as often as
    /// without the fault rules.
    @Test("A receiver whose error wanders slowly is not reset to its wander", arguments: [1, 2, 3] as [UInt64])
    func slowWanderIsNoLockout(seed: UInt64) throws {
        let scenario = Scenario(
            name: "indoor", seed: seed, duration: 4 * 3_600, profile: AltitudeProfile(startAltitude: 30),
            weather: WeatherModel.outdoor(initialOffset: 4),
            gps: GPSModel(correlatedErrorStandardDeviation: 16, correlationTime: 1_200))
        let run = try Self.run(scenario)
        let late = run.episodes.filter { $0.kind == .reset && $0.startTime > 600 }
        #expect(late.isEmpty, "seed \(seed): \(late)")
        var without = AltitudeModelParameters()
        without.detectsFaults = false
        let reference = try Self.run(scenario, parameters: without)
        func squares(_ r: Run) -> Double {
            zip(r.estimates, r.truth).filter { $0.0.time > 600 }.reduce(0) {
                $0 + ($1.0.altitude - $1.1) * ($1.0.altitude - $1.1)
            }
        }
        // The rules may act in the first minutes (the young level); after that the two runs agree closely.
        #expect(squares(run) <= 1.1 * squares(reference), "seed \(seed): \(squares(run)) vs \(squares(reference))")
    }

    @Test("Without the fault rules the same cold start locks the filter out")
    func lockoutWithoutRules() throws {
        var scenario = Scenario.stress(.coldStart, seed: 6)
        scenario.gps.faults = [.coldStart(offset: 300, duration: 60, fade: 1)]
        var parameters = AltitudeModelParameters()
        parameters.detectsFaults = false
        let run = try Self.run(scenario, parameters: parameters)
        let atTenMinutes = try #require(zip(run.estimates, run.truth).first { $0.0.time >= 600 })
        #expect(abs(atTenMinutes.0.altitude - atTenMinutes.1) > 100)
    }

    @Test(
        "The canyon's outliers are all refused, and the benchmark scenarios report no episode",
        arguments: ScenarioName.benchmark)
    func noFalseFaults(name: ScenarioName) throws {
        for seed in [11, 12] as [UInt64] {
            let run = try Self.run(.named(name, seed: seed))
            #expect(run.episodes.isEmpty, "\(name) seed \(seed): \(run.episodes)")
            #expect(run.gpsRefusedAtOutliers == run.outliers)
        }
    }

    @Test("The status reads ok, or the flags joined by +")
    func statusDescription() {
        #expect(AltitudeFilterStatus().description == "ok")
        #expect(AltitudeFilterStatus([.barometerStuck, .gpsJump]).description == "baro-stuck+gps-jump")
    }
}
