import Altimetry
import Simulation
import Testing

/// The Swift sample of README.md.
@Suite("README sample")
struct ReadmeSampleTests {
    @Test("Fusing readings follows a simulated hike's truth, and its one sigma covers most of the errors")
    func fuseReadingsRuns() throws {
        // GIVEN a simulated half-hour hike's readings and its truth
        let recording = try Scenario.named(.hike, seed: 4, duration: 1_800).simulate()
        let readings = recording.readings.map {
            AltitudeReading(
                time: $0.time, pressure: $0.pressure, gpsAltitude: $0.gpsAltitude,
                gpsVerticalAccuracy: $0.gpsVerticalAccuracy)
        }
        // WHEN the README's sample fuses them
        let estimates = try fuseReadings(readings)
        // THEN one estimate per reading; after the first 10 minutes the error is within GPS's 10 m and the one
        // sigma covers at least half of the errors (one draw of a correlated error is few independent samples)
        #expect(estimates.count == readings.count)
        let scored = zip(estimates, recording.readings).dropFirst(1_200)
        let errors = scored.map { $0.0.altitudeMeters - $0.1.trueAltitude }
        let rootMeanSquare = (errors.map { $0 * $0 }.reduce(0, +) / Double(errors.count)).squareRoot()
        let inside = zip(errors, scored).filter { abs($0.0) <= $0.1.0.sigmaMeters }.count
        #expect(rootMeanSquare < 10)
        #expect(Double(inside) / Double(errors.count) > 0.5)
    }
}
