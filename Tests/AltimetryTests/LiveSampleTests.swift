import Altimetry
import Foundation
import Randomness
import Testing

@Suite("AltitudeSample and GPSFix")
struct LiveSampleTests {
    @Test("Core Motion's kilopascals and Android's hectopascals give the same sample, in hPa")
    func kilopascalsBecomeHectopascals() {
        let apple = AltitudeSample(timestamp: 12, relativeAltitude: 3, kilopascals: 101.325)
        let android = AltitudeSample(timestamp: 12, relativeAltitude: 3, hectopascals: 1_013.25)
        // 101.325 × 10 is computed in binary floating point; one ulp of 1013.25 is 1.1e-13 hPa.
        #expect(abs(apple.pressure - 1_013.25) < 1e-12)
        #expect(abs(apple.pressure - android.pressure) < 1e-12)
        #expect(apple.reading.pressure == apple.pressure)
    }

    @Test(
        "A pressure measurement in any unit is stored in hPa",
        arguments: [
            (UnitPressure.kilopascals, 101.325), (.newtonsPerMetersSquared, 101_325), (.millibars, 1_013.25),
            (.inchesOfMercury, 29.921_26), (.hectopascals, 1_013.25),
        ])
    func measurementsConvert(unit: UnitPressure, value: Double) {
        let sample = AltitudeSample(
            timestamp: 0, relativeAltitude: 0, pressure: Foundation.Measurement(value: value, unit: unit))
        // Standard sea-level pressure in each unit; 29.92126 inHg is given to 7 digits, 3e-4 hPa.
        #expect(abs(sample.pressure - 1_013.25) < 1e-3, "\(unit.symbol)")
        #expect(abs(sample.pressureMeasurement.converted(to: .kilopascals).value - 101.325) < 1e-4)
    }

    @Test("A kilopascal value never reaches the filter unconverted: the estimate is the true altitude, over 50 seeds")
    func kilopascalsNeverReachTheCore() throws {
        for seed in UInt64(1)...50 {
            var random = SeededGenerator(seed: seed)
            let altitude = -300 + 4_300 * random.uniform()
            let hectopascals = try StandardAtmosphere.pressure(atAltitude: altitude)
            let sample = AltitudeSample(timestamp: 0, relativeAltitude: 0, kilopascals: hectopascals / 10)
            var filter = try AltitudeFilter()
            let estimate = try filter.process(sample.reading)
            // The first pressure sets the altitude to its standard-atmosphere altitude; the round trip through
            // kPa costs a few ulps, micrometres. An unconverted kPa value (about 100 "hPa") would read 16 km.
            #expect(abs(estimate.altitude - altitude) < 1e-3, "seed \(seed)")
        }
    }

    @Test("The JSON form names the unit, and round-trips")
    func codable() throws {
        let sample = AltitudeSample(timestamp: 5, relativeAltitude: -1.5, kilopascals: 95)
        let data = try JSONEncoder().encode(sample)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Double])
        #expect(object["pressureHectopascals"] == 950)
        #expect(object["pressure"] == nil)
        #expect(try JSONDecoder().decode(AltitudeSample.self, from: data) == sample)
        let fix = GPSFix(timestamp: 5, altitude: 120, verticalAccuracy: 4)
        #expect(try JSONDecoder().decode(GPSFix.self, from: JSONEncoder().encode(fix)) == fix)
    }

    @Test("A fix's 95 % accuracy is divided by 1.959964 to one sigma; a one-sigma figure is kept")
    func fixConventions() {
        let w3c = GPSFix(
            timestamp: 1, altitude: 250, reportedAccuracy: 19.599_639_845_400_54, convention: .ninetyFivePercent)
        let android = GPSFix(timestamp: 1, altitude: 250, reportedAccuracy: 10, convention: .oneSigma)
        // 19.5996… is exactly 10 × the quantile, to a few ulps
        #expect(abs((w3c.verticalAccuracy ?? .nan) - 10) < 1e-12)
        #expect(android.verticalAccuracy == 10)
        #expect(android.reading == AltitudeReading(time: 1, gpsAltitude: 250, gpsVerticalAccuracy: 10))
    }

    @Test("Real-time pacing waits (t − t₀)/speed; immediate pacing never waits")
    func pacing() {
        #expect(SourcePacing.realTime(speed: 1).delay(of: 12, after: 2) == 10)
        #expect(SourcePacing.realTime(speed: 20).delay(of: 12, after: 2) == 0.5)
        #expect(SourcePacing.realTime(speed: 0).delay(of: 12, after: 2) == nil)
        #expect(SourcePacing.immediate.delay(of: 12, after: 2) == nil)
    }
}
