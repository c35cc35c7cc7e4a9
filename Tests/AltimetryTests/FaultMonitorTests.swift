import Foundation
import Testing

@testable import Altimetry

@Suite("FaultMonitor")
struct FaultMonitorTests {
    static let gate = 5.0
    static func noMotion(_ duration: Double) -> Double { 1 }

    /// GIVEN pressures whose innovations pass, WHEN three readings fail by 90 m (a start spike as a watch records
    /// it) and the next passes, THEN they are rejected, nothing is re-anchored, and the run is a spike episode.
    @Test("A spike of a few readings is rejected and never re-anchors the barometer")
    func spike() {
        var monitor = FaultMonitor(thresholds: FaultThresholds())
        for t in 0..<3 {
            #expect(
                monitor.judgePressure(
                    1_000 + Double(t) * 0.01, at: Double(t), innovation: 0.1, variance: 1,
                    interval: 1, gate: Self.gate, gpsMotionAllowance: Self.noMotion) == .fuse)
        }
        for t in 3..<6 {
            #expect(
                monitor.judgePressure(
                    990 + Double(t) * 0.01, at: Double(t), innovation: 90, variance: 1,
                    interval: 1, gate: Self.gate, gpsMotionAllowance: Self.noMotion) == .reject)
            // Each refused reading says why in its row's status.
            #expect(monitor.status == .barometerSpike)
            monitor.beginReading()
        }
        #expect(
            monitor.judgePressure(
                1_000.2, at: 6, innovation: 0.2, variance: 1, interval: 4, gate: Self.gate,
                gpsMotionAllowance: Self.noMotion) == .fuse)
        #expect(monitor.episodes.map(\.kind) == [.barometerSpike])
        #expect(monitor.episodeCount(.barometerStep) == 0)
    }

    /// GIVEN a barometer that steps by 250 m and stays, THEN its readings are rejected for the step time and then
    /// re-anchored by the run's median innovation.
    @Test("A lasting step is re-anchored after the step time")
    func step() {
        var monitor = FaultMonitor(thresholds: FaultThresholds())
        var verdicts: [FaultMonitor.PressureVerdict] = []
        for t in 0...12 {
            verdicts.append(
                monitor.judgePressure(
                    970 + Double(t) * 0.01, at: Double(t), innovation: 250 + Double(t % 3),
                    variance: 1, interval: 1, gate: Self.gate, gpsMotionAllowance: Self.noMotion))
        }
        #expect(verdicts.prefix(10).allSatisfy { $0 == .reject })
        #expect(verdicts[10] == .reanchor(offset: 251))
        #expect(monitor.episodes.last?.kind == .barometerStep)
    }

    /// A barometer quantised to whole metres reads the same value for minutes at rest; with the GPS still, it is not
    /// stuck until the rest time; with the GPS moving beyond three of its spreads, it is after the stuck time.
    @Test("A quantised barometer at rest is not stuck; a frozen one during a climb is")
    func stuck() {
        var atRest = FaultMonitor(thresholds: FaultThresholds())
        var climbing = FaultMonitor(thresholds: FaultThresholds())
        var restStuck = false, climbStuck = false
        for t in 0..<3_600 {
            let time = Double(t)
            _ = atRest.judgeFix(fix: 250, residual: 0, accepted: true, at: time, runSpread: { _ in 10 })
            _ = climbing.judgeFix(fix: 250 + 0.5 * time, residual: 0, accepted: true, at: time, runSpread: { _ in 10 })
            if atRest.judgePressure(
                980, at: time, innovation: 0, variance: 1, interval: 1, gate: Self.gate,
                gpsMotionAllowance: { _ in 14 }) == .reject
            {
                restStuck = true
            }
            if climbing.judgePressure(
                980, at: time, innovation: 0, variance: 1, interval: 1, gate: Self.gate,
                gpsMotionAllowance: { _ in 14 }) == .reject, !climbStuck
            {
                climbStuck = true
                #expect(time >= 60 && time < 120, "stuck at \(time) s")
            }
        }
        #expect(!restStuck)
        #expect(climbStuck)
        #expect(climbing.episodes.last?.kind == .barometerStuck)
    }

    /// GIVEN fixes refused by the gate, WHEN they agree with each other for the reset time, THEN the filter resets
    /// to their median; WHEN they scatter by hundreds of metres (a glitch), THEN it never does.
    @Test("Refused fixes that agree reset the level after the timeout; a glitch's never do")
    func reset() {
        var agreeing = FaultMonitor(thresholds: FaultThresholds())
        var glitch = FaultMonitor(thresholds: FaultThresholds())
        var resetAt: Double?
        for t in 0...120 {
            let time = Double(t)
            if case .reset(let shift, _) = agreeing.judgeFix(
                fix: 400, residual: 150 + Double(t % 5), accepted: false,
                at: time, runSpread: { _ in 10 }), resetAt == nil
            {
                resetAt = time
                #expect(abs(shift - 152) <= 2)
            }
            let wild = Double((t * 7919) % 600) - 300
            #expect(
                glitch.judgeFix(fix: 400 + wild, residual: wild, accepted: false, at: time, runSpread: { _ in 10 })
                    == .none)
        }
        #expect(resetAt == 60)
        #expect(agreeing.episodeCount(.reset) >= 1)
    }

    /// GIVEN a slow receiver (40 m / 330 s), WHEN refused fixes ramp away at 2 m/s for two minutes (as a GNSS
    /// altitude does when it loses its fix in a car: the 7.3 h Bergen logger's ramp from −50 m to +147 m in 80 s), THEN
    /// the run never resets, since such a receiver's fixes barely move about their mean within a minute; WHEN they
    /// hold a constant offset, THEN it resets after the timeout, as before.
    @Test("A run of refused fixes that ramps away is a glitch, not a level, under a slow receiver")
    func rampingRunIsNoLevel() {
        let receiver = GPSReceiverModel(
            errorStandardDeviation: 40, correlationTime: 330, whiteNoiseStandardDeviation: 1)
        let spread: (Double) -> Double = { receiver.runStandardDeviation(over: $0, whiteVariance: 1) }
        var ramp = FaultMonitor(thresholds: FaultThresholds())
        var offset = FaultMonitor(thresholds: FaultThresholds())
        var resetAt: Double?
        for t in 0...120 {
            let time = Double(t)
            #expect(
                ramp.judgeFix(fix: 2 * time, residual: 30 + 2 * time, accepted: false, at: time, runSpread: spread)
                    == .none, "ramp reset at \(time) s")
            if case .reset = offset.judgeFix(
                fix: 150, residual: 150 + Double(t % 3), accepted: false, at: time, runSpread: spread), resetAt == nil
            {
                resetAt = time
            }
        }
        #expect(resetAt == 60)
        // Under the stationary spread (√(40² + 1) m) the ramp, scattering 35 m over its minute, would have agreed.
        #expect(spread(60) < 35.0 / 3 && receiver.totalStandardDeviation > 35.0 / 3)
    }

    /// GIVEN a logger with a fix every 30 s whose receiver converges (the stress benchmark's fading logger: refused
    /// fixes whose residuals rise to 160 m as 160 (1 − exp(−t/150 s)), then hold), under a 10 m / 60 s receiver, WHEN
    /// the fault monitor judges them THEN the run resets between 5 and 12 minutes after its start, once its last
    /// minute agrees to three of the receiver's spreads over a minute (the fixes then within about 10 % of their
    /// level), since the agreement is the scatter of the run's last minute (weighted by exp(−age/60 s)), not of the
    /// whole run; and it resets to their level then, within 10 m of the last residual (the median of the last minute's
    /// fixes lags a run still rising by a few metres a fix; the fixes fused after the reset take the rest).
    ///
    /// Scored over the whole run, the ramp's first values kept the scatter above three spreads for the whole half hour.
    @Test("A run that ramps and then settles resets once it has settled")
    func settlingRunResets() throws {
        let receiver = GPSReceiverModel(errorStandardDeviation: 10, correlationTime: 60, whiteNoiseStandardDeviation: 1)
        let spread: (Double) -> Double = { receiver.runStandardDeviation(over: $0, whiteVariance: 1) }
        var monitor = FaultMonitor(thresholds: FaultThresholds())
        var reset: (time: Double, shift: Double, residual: Double)?
        for k in 0...60 where reset == nil {
            let time = 30 * Double(k)
            let residual = 160 * -expm1(-time / 150)
            if case .reset(let shift, _) = monitor.judgeFix(
                fix: residual, residual: residual, accepted: false, at: time, runSpread: spread)
            {
                reset = (time, shift, residual)
            }
        }
        let settled = try #require(reset, "no reset in 30 minutes")
        #expect((300...720).contains(settled.time), "reset at \(settled.time) s")
        #expect(
            abs(settled.shift - settled.residual) < 10, "shift \(settled.shift) m, residual \(settled.residual) m")
    }
}

extension FaultMonitor {
    func episodeCount(_ kind: FilterEpisode.Kind) -> Int { episodeCounts[kind] ?? 0 }
}
