import Altimetry
import Foundation
import Testing

/// The plain three-state model against an independent numpy implementation of the same equations
/// (`Fixtures/plain_altitude_filter.py`), on irregular, asynchronous rows with both sensors, one or the other.
@Suite("AltitudeFilter against numpy")
struct AltitudeFilterFixtureTests {
    struct Fixture: Decodable {
        struct Row: Decodable {
            var t: Double
            var pressure_hpa: Double?
            var gps_alt_m: Double?
        }
        struct Expected: Decodable {
            var altitude_m: Double
            var sigma_m: Double
            var qnh_hpa: Double
            var qnh_sigma_hpa: Double
            var gps_error_m: Double
        }
        var rows: [Row]
        var expected: [Expected]
    }

    @Test("The plain model matches the numpy filter to 1e-9 relative at every row")
    func plainModelMatchesNumpy() throws {
        let url = try #require(
            Bundle.module.url(forResource: "plain_altitude_filter", withExtension: "json", subdirectory: "Fixtures"))
        let fixture = try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url))
        #expect(fixture.rows.count == 400 && fixture.expected.count == 400)
        var filter = try AltitudeFilter(parameters: .plain)
        // Relative agreement; the GPS error passes through zero, so it is compared against its sigma scale instead.
        func close(_ a: Double, _ b: Double, scale: Double? = nil) -> Bool {
            abs(a - b) <= 1e-9 * (scale ?? max(abs(a), abs(b)))
        }
        for (i, (row, want)) in zip(fixture.rows, fixture.expected).enumerated() {
            let got = try filter.process(
                AltitudeReading(time: row.t, pressure: row.pressure_hpa, gpsAltitude: row.gps_alt_m))
            #expect(close(got.altitude, want.altitude_m), "row \(i): altitude \(got.altitude) vs \(want.altitude_m)")
            #expect(
                close(got.altitudeStandardDeviation, want.sigma_m),
                "row \(i): sigma \(got.altitudeStandardDeviation) vs \(want.sigma_m)")
            #expect(
                close(got.seaLevelPressure, want.qnh_hpa), "row \(i): QNH \(got.seaLevelPressure) vs \(want.qnh_hpa)")
            #expect(close(got.seaLevelPressureStandardDeviation, want.qnh_sigma_hpa), "row \(i): QNH sigma")
            #expect(
                close(got.gpsError, want.gps_error_m, scale: 10),
                "row \(i): GPS error \(got.gpsError) vs \(want.gps_error_m)")
        }
    }
}
