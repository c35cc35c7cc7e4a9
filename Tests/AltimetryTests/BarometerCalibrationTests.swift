import Altimetry
import Foundation
import Simulation
import Testing

@Suite("BarometerCalibration")
struct BarometerCalibrationTests {
    static func readings(seed: UInt64, duration: Double) throws -> [AltitudeReading] {
        try Scenario.named(.seedCalibration, seed: seed, duration: duration).simulate().readings.map {
            AltitudeReading(time: $0.time, pressure: $0.pressure, gpsAltitude: $0.gpsAltitude)
        }
    }

    /// GIVEN a user standing still for ten minutes with a 10 m, 60 s GPS, THEN the calibration reports about 4 m
    /// (the GLS bound is 4.09 m; the default weather noise adds a little), never the 0.4 m of σ/√N.
    @Test("Ten minutes of still GPS calibrate to about 4 m, not 0.4 m", arguments: [1, 2, 3] as [UInt64])
    func tenMinutes(seed: UInt64) throws {
        var calibration = try BarometerCalibration(targetStandardDeviation: 5)
        for r in try Self.readings(seed: seed, duration: 600) { try calibration.add(r) }
        let status = try #require(calibration.status)
        #expect(
            (4.0...5.0).contains(status.altitudeOffsetStandardDeviation),
            "sigma \(status.altitudeOffsetStandardDeviation)")
        #expect(status.isTargetReached && status.minutesNeeded == 0)
        // The offset maps the barometer's standard-atmosphere altitude to the calibrated one.
        #expect(
            abs(
                status.altitude - status.altitudeOffset
                    - NaiveAveragingBaseline.pressureAltitude(1_013.25 * pow(1 - 0.0065 * 250 / 288.15, 5.255_8))) < 1.0
        )
        // QNH is the altimeter setting: the sea-level pressure that maps the station's pressure to its altitude through
        // the standard atmosphere, so its sigma is the altitude's at 8.3 m per hPa (the column below the station is
        // part of the setting, and a still station teaches nothing about the column above it).
        let expected = status.altitudeOffsetStandardDeviation / 8.3
        #expect(
            abs(status.seaLevelPressureStandardDeviation - expected) < 0.1,
            "\(status.seaLevelPressureStandardDeviation) hPa, expected \(expected)")
    }

    @Test("The forecast of minutes needed matches what the real data then takes")
    func forecastMatchesReality() throws {
        let all = try Self.readings(seed: 5, duration: 3_600)
        var calibration = try BarometerCalibration(targetStandardDeviation: 4.6)
        for r in all where r.time < 300 { try calibration.add(r) }
        let before = try #require(calibration.status)
        let forecast = try #require(before.minutesNeeded)
        let start = before.time
        var reached: Double?
        for r in all where r.time >= 300 {
            try calibration.add(r)
            if let e = calibration.filter.currentEstimate, e.altitudeStandardDeviation <= 4.6 {
                reached = (e.time - start) / 60
                break
            }
        }
        let actual = try #require(reached, "forecast \(forecast) min")
        // Both runs see fixes at 1 Hz. The covariance depends on the values only through the column's observation
        // (dh/dC = h₀/T₀ moves with the altitude) and the noise scaled at the state, both second order: they agree to
        // within 0.15 min (0.1 min measured).
        #expect(abs(forecast - actual) <= 0.15, "forecast \(forecast) min, actual \(actual) min")
    }

    @Test("A target below the weather's floor is reported unreachable, a reachable one with its minutes")
    func unreachable() throws {
        var calibration = try BarometerCalibration(targetStandardDeviation: 0.5)
        for r in try Self.readings(seed: 2, duration: 300) { try calibration.add(r) }
        let status = try #require(calibration.status)
        #expect(!status.isTargetReached)
        #expect(status.minutesNeeded == nil)
        // At rest the barometer carries the weather, and the sigma settles where the GPS's averaging meets the rest
        // walk (what the rest test cannot see, `MotionState`): near 2 m for this receiver. 4.6 m is reachable, 1 m is not.
        let minutes = try #require(calibration.minutesNeeded(toReach: 4.6))
        #expect(minutes > 0 && minutes < 60, "\(minutes) min")
        #expect(calibration.minutesNeeded(toReach: 1) == nil)
    }

    @Test("Pressures enter in any unit: a kPa reading equals its hPa value")
    func units() throws {
        var a = try BarometerCalibration()
        var b = try BarometerCalibration()
        try a.addPressure(Foundation.Measurement(value: 101.0, unit: .kilopascals), at: 0)
        try b.add(AltitudeReading(time: 0, pressure: 1_010))
        try a.addFix(altitude: 30, verticalAccuracy: 19.6, convention: .ninetyFivePercent, at: 1)
        try b.add(AltitudeReading(time: 1, gpsAltitude: 30, gpsVerticalAccuracy: 19.6 / 1.959963984540054))
        #expect(a.status == b.status)
        #expect(throws: AltitudeModelError.self) { try BarometerCalibration(targetStandardDeviation: 0) }
    }
}
