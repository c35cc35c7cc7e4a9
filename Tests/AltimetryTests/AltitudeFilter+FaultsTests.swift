import Foundation
import Simulation
import Testing

@testable import Altimetry

/// A wild fix among the first ones re-levels the filter (`AltitudeFilter.relevelAtWildStartFix`), so that a logger's
/// cold start cannot hold the level, and a single wild fix at the start cannot either; a start whose fixes still move
/// against the barometer holds its level open (`AltitudeFilter.widenLevel(toAltitudeVariance:)`).
@Suite("AltitudeFilter at a wrong start")
struct AltitudeFilterFaultsTests {
    /// The estimates of `scenario` fused with `parameters`, with the true altitude, and the filter's episodes.
    static func run(_ scenario: Scenario, _ parameters: AltitudeModelParameters) throws -> (
        rows: [(estimate: AltitudeEstimate, truth: Double)], episodes: [FilterEpisode]
    ) {
        let recording = try scenario.simulate()
        var filter = try AltitudeFilter(parameters: parameters)
        var rows: [(AltitudeEstimate, Double)] = []
        for r in recording.readings {
            let e = try filter.process(AltitudeReading(time: r.time, pressure: r.pressure, gpsAltitude: r.gpsAltitude))
            rows.append((e, r.trueAltitude))
        }
        return (rows, filter.episodes)
    }

    /// The error (m) and sigma at the first row at or after `time` of `scenario`, the error of its twin without GPS
    /// faults, and the faulty run's episodes.
    static func errorAgainstTwin(_ scenario: Scenario, at time: Double, _ parameters: AltitudeModelParameters) throws
        -> (error: Double, sigma: Double, twin: Double, episodes: [FilterEpisode])
    {
        var twin = scenario
        twin.gps.faults = []
        func errors(_ s: Scenario) throws -> (Double, Double, [FilterEpisode]) {
            let run = try Self.run(s, parameters)
            let row = try #require(run.rows.first { $0.estimate.time >= time })
            return (row.estimate.altitude - row.truth, row.estimate.altitudeStandardDeviation, run.episodes)
        }
        let faulty = try errors(scenario)
        return (faulty.0, faulty.1, try errors(twin).0, faulty.2)
    }

    /// GIVEN the `cold-logger` stress scenario (a pressure and a fix every 30 s, the first fix 50 to 300 m off, the
    /// next ones good from 630 s), WHEN fused by the fixed model and by the bank, THEN three minutes after the first
    /// good fix the error is the fault-free twin's to within a sigma, and the sigma is a GPS error's, not a start's;
    /// the fixed model reports the reset at the first good fix.
    @Test("A logger's wild first fix is recovered within 3 minutes of good fixes", arguments: [false, true])
    func loggerColdStart(adaptive: Bool) throws {
        let parameters: AltitudeModelParameters = adaptive ? .adaptive : AltitudeModelParameters()
        for seed: UInt64 in 1...4 {
            let r = try Self.errorAgainstTwin(.stress(.loggerColdStart, seed: seed), at: 810, parameters)
            // Measured at 810 s: 1.2 to 4.0 m from the twin at ±6.4 m (fixed), 0.4 to 5.3 m at ±12 to 25 m (the bank,
            // whose 30 m members keep a share).
            #expect(
                abs(r.error - r.twin) < r.sigma && r.sigma < 30,
                "seed \(seed): \(r.error) m off at ±\(r.sigma) m, its twin \(r.twin) m")
            if !adaptive {
                #expect(r.episodes.first?.kind == .reset && r.episodes.first?.startTime == 630, "\(r.episodes)")
            }
        }
    }

    /// GIVEN the `fading-logger` stress scenario (a pressure and a fix every 30 s, the fixes 50 to 300 m off at 600 s
    /// and converging with a time constant of 150 s), WHEN fused by the fixed model and by the bank, THEN from the
    /// seventh fix to the end of the fade (1,200 s) the error stays within a few of the filter's sigmas at every row:
    /// the level is held open from the sixth fix while the fixes move against the barometer
    /// (`SensorFaultMonitor.unsteadyStartVariance(at:)`), and meanwhile the bank's weights are the prior's
    /// (`GPSErrorModelBank.process(_:)`).
    @Test("A logger's fading start leaves the sigma honest", arguments: [false, true])
    func loggerFadingStart(adaptive: Bool) throws {
        let parameters: AltitudeModelParameters = adaptive ? .adaptive : AltitudeModelParameters()
        // Measured, seeds 1 to 4: the fixed model 0.6 to 3.7 sigmas at worst, without the hold 6.3 to 15.4 (31 to 42 m
        // off at ±5 m at 1,200 s); the bank 0.7 to 1.6, with its weights learning from the fade 4.4 to 6.0.
        let bound = adaptive ? 3.0 : 5.0
        for seed: UInt64 in 1...4 {
            let run = try Self.run(.stress(.loggerFadingStart, seed: seed), parameters)
            let fade = run.rows.filter { $0.estimate.time >= 780 && $0.estimate.time <= 1_200 }
            let worst = try #require(
                fade.map { abs($0.estimate.altitude - $0.truth) / $0.estimate.altitudeStandardDeviation }.max())
            #expect(worst < bound, "seed \(seed): \(worst) sigmas off during the fade")
        }
    }

    /// GIVEN a still logger whose second fix alone is 200 m off, WHEN fused, THEN the wild fix re-levels the filter
    /// but the good fixes after it take the level straight back: two fixes later the error is its fault-free twin's
    /// to within a sigma.
    @Test("A single wild fix at the start does not capture the level")
    func singleWildStartFix() throws {
        for seed: UInt64 in 1...4 {
            var scenario = Scenario.stress(.loggerColdStart, seed: seed)
            scenario.gps.faults = [.jump(start: 630, duration: 1, change: 200)]
            let r = try Self.errorAgainstTwin(scenario, at: 690, AltitudeModelParameters())
            #expect(r.episodes.first?.startTime == 630, "seed \(seed): \(r.episodes)")
            // Measured at 690 s: 3.1 to 5.7 m from the twin at ±9 m; the fix after the wild one re-levels it back.
            #expect(
                abs(r.error - r.twin) < r.sigma && r.sigma < 30,
                "seed \(seed): \(r.error) m off at ±\(r.sigma) m, its twin \(r.twin) m")
        }
    }

    /// GIVEN the first 2 h of the simulated hike (a fix every second) with its third fix 150 m high, WHEN fused by the
    /// fixed model, THEN the track is as good as without that fix: RMSE within 10 % of the clean run's and the column
    /// within 1 K of it at the end.
    @Test("A wild third fix costs a hike nothing", arguments: [1, 2] as [UInt64])
    func wildThirdFixOnAHike(seed: UInt64) throws {
        let recording = try Scenario.named(.hike, seed: seed, duration: 7_200).simulate()
        func fused(wildFix: Bool) throws -> (rmse: Double, column: Double) {
            var filter = try AltitudeFilter(parameters: AltitudeModelParameters())
            var fixes = 0, sum = 0.0, count = 0
            var last: AltitudeEstimate?
            for r in recording.readings {
                var fix = r.gpsAltitude
                if fix != nil { fixes += 1 }
                if wildFix, fixes == 3, let f = fix { fix = f + 150 }
                let e = try filter.process(AltitudeReading(time: r.time, pressure: r.pressure, gpsAltitude: fix))
                if r.time >= 600 {
                    sum += (e.altitude - r.trueAltitude) * (e.altitude - r.trueAltitude)
                    count += 1
                }
                last = e
            }
            return ((sum / Double(max(count, 1))).squareRoot(), try #require(last).columnTemperature)
        }
        let wild = try fused(wildFix: true), clean = try fused(wildFix: false)
        // Measured on the whole 12 h hike, seeds 1 to 8: RMSE 2.9 to 3.9 m against 2.9 to 3.9 m clean, the column
        // ending at 9 to 12 °C. Admitted as an ordinary update, the fix took the hike to 13 to 16 m (coverage 0.11
        // to 0.18) and the column to −63 to −68 °C.
        #expect(wild.rmse < 1.1 * clean.rmse, "seed \(seed): RMSE \(wild.rmse) m against \(clean.rmse) m clean")
        #expect(abs(wild.column - clean.column) < 1, "seed \(seed): column \(wild.column) K against \(clean.column) K")
    }

    /// GIVEN the same logger without its wild first fix, WHEN fused, THEN no fix re-levels it: a fix within the gate
    /// is an ordinary fix.
    @Test("A logger whose first fixes are sound is not re-levelled")
    func soundStart() throws {
        for seed: UInt64 in 1...4 {
            var scenario = Scenario.stress(.loggerColdStart, seed: seed)
            scenario.gps.faults = []
            let run = try Self.run(scenario, AltitudeModelParameters())
            #expect(run.episodes.isEmpty, "seed \(seed): \(run.episodes)")
        }
    }
}
