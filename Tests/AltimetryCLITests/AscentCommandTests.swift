import Altimetry
import Foundation
import Simulation
import Testing
@testable import AltimetryCLI

@Suite("AscentCommand")
struct AscentCommandTests {
    @Test("GIVEN ten minutes of rolling terrain WHEN ascent --json runs THEN every key of the issue is there and the totals match the library")
    func json() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let recording = try Scenario.named(.rolling, seed: 4, duration: 600).simulate()
        let input = try dir.file("rolling.csv", String(decoding: SimulateCommand.csv(recording.readings), as: UTF8.self))
        let result = runAltimetry(["ascent", input, "--json"])
        #expect(result.code == .success, "\(result.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        for key in ["ascent_m", "ascent_sigma_m", "descent_m", "descent_sigma_m", "highest_m", "highest_sigma_m", "lowest_m",
                    "lowest_sigma_m", "temperature_assumed", "gps_only", "barometer_only", "segments"] {
            #expect(object[key] != nil, "missing \(key)")
        }
        let gps = try #require(object["gps_only"] as? [[String: Any]])
        #expect(gps.compactMap { $0["hysteresis_m"] as? Double } == [0, 3, 5, 10])
        let segments = try #require(object["segments"] as? [[String: Any]])
        #expect(segments.count >= 8)   // four hills and a bit: about 9 climbs and descents
        #expect(segments.allSatisfy { ($0["gain_m"] as? Double).map { abs($0) > 1 } ?? false })
        // The command reads what the file holds (times and values in CSV precision), so compare loosely with the
        // library on the simulated readings themselves.
        let readings = recording.readings.map { AltitudeReading(time: $0.time, pressure: $0.pressure, gpsAltitude: $0.gpsAltitude) }
        let report = try AscentAnalysis.measure(readings)
        let ascent = try #require(object["ascent_m"] as? Double)
        #expect(abs(ascent - report.ascent.value) < 0.1, "\(ascent) against \(report.ascent.value)")
        #expect(object["temperature_assumed"] as? Bool == true)
    }

    @Test("The text output names the totals, the hysteresis, the assumption and the comparisons")
    func text() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let recording = try Scenario.named(.rolling, seed: 5, duration: 300).simulate()
        let input = try dir.file("rolling.csv", String(decoding: SimulateCommand.csv(recording.readings), as: UTF8.self))
        let result = runAltimetry(["ascent", input])
        #expect(result.code == .success)
        for text in ["Ascent: ", "Descent: ", "Highest: ", "Hysteresis: ", "Air column: temperature none in the track", "GPS only (gpxpy)", "Barometer only"] {
            #expect(result.out.contains(text), "missing '\(text)'")
        }
    }

    @Test("A missing file is exit 66 naming it; a missing argument is a usage error")
    func errors() {
        let missing = runAltimetry(["ascent", "/nonexistent/walk.csv"])
        #expect(missing.code == .noInput && missing.err.contains("/nonexistent/walk.csv"))
        #expect(runAltimetry(["ascent"]).code == .usage)
        #expect(runAltimetry(["ascent", "--help"]).out.contains("USAGE: altimetry ascent INPUT"))
    }
}
