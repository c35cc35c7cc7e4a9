import Altimetry
import Testing

/// `AltitudeReading.validate()`: the values the filter refuses before they can break its arithmetic.
@Suite("AltitudeReading")
struct AltitudeReadingTests {
    /// Readings the fusion fuzz target found (a pressure of 1e-297 hPa gave the barometer an infinite variance and a
    /// numerical failure instead of a refused row), and their neighbours at the other bounds.
    static let extremes: [(String, AltitudeReading)] = [
        ("pressure_hpa", AltitudeReading(time: 20, pressure: 2.3787432113339995e-297)),
        ("pressure_hpa", AltitudeReading(time: 20, pressure: 9.99)),
        ("pressure_hpa", AltitudeReading(time: 20, pressure: 1e300)),
        ("t", AltitudeReading(time: 1.7310439876765347e+169, pressure: 1000)),
        ("t", AltitudeReading(time: -1e13, pressure: 1000)),
        ("gps_vacc_m", AltitudeReading(time: 20, gpsAltitude: 100, gpsVerticalAccuracy: 1e200)),
    ]

    @Test(
        "An extreme value is refused as invalid, naming its field, and the filter goes on unchanged",
        arguments: 0..<extremes.count)
    func extremeRefused(index: Int) throws {
        let (field, reading) = Self.extremes[index]
        var filter = try AltitudeFilter()
        _ = try filter.process(AltitudeReading(time: 0, pressure: 1000, gpsAltitude: 110))
        let before = try #require(filter.currentEstimate)
        #expect {
            _ = try filter.process(reading)
        } throws: { error in
            guard case AltitudeModelError.invalidReading(_, let named, _, _) = error else { return false }
            return named == field
        }
        #expect(filter.currentEstimate == before)
        let after = try filter.process(AltitudeReading(time: 30, pressure: 999.9))
        #expect(after.altitudeStandardDeviation.isFinite && after.altitude.isFinite)
    }

    @Test("Values at the edges of the bounds are accepted")
    func boundsAccepted() throws {
        var filter = try AltitudeFilter()
        _ = try filter.process(AltitudeReading(time: -9.9e11, pressure: 1000))
        for reading in [
            AltitudeReading(time: -9.8e11, pressure: 1_200), AltitudeReading(time: -9.7e11, pressure: 10),
            AltitudeReading(time: 9.9e11, gpsAltitude: 100, gpsVerticalAccuracy: 99_999),
        ] {
            let e = try filter.process(reading)
            #expect(e.altitude.isFinite && e.altitudeStandardDeviation.isFinite)
        }
    }
}
