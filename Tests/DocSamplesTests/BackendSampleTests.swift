import Altimetry
import Foundation
import Simulation
import Testing

@Suite("Docs/backend-guide.md samples")
struct BackendSampleTests {
    /// Two devices' readings, in requests of 60 rows.
    static func requests() throws -> [(track: String, readings: [AltitudeReading])] {
        let devices = try [ScenarioName.hike, .front].enumerated().map { index, name in
            let scenario = Scenario.named(name, seed: UInt64(index + 1), duration: 600)
            let source = SimulatedSource(scenario: scenario)
            return try scenario.simulate().readings.map(source.reading)
        }
        return stride(from: 0, to: 600, by: 60).flatMap { start in
            devices.enumerated().map { index, rows in ("device-\(index)", Array(rows[start..<start + 60])) }
        }
    }

    @Test("The track store, saved and restored between every request, gives what one filter per track gives")
    func trackStoreRuns() async throws {
        var saved = try await TrackStore().save()
        var filters: [String: AltitudeFilter] = [:]
        for (track, readings) in try Self.requests() {
            let store = try TrackStore(restoring: saved)  // a new process could serve each request
            let estimates = try await store.ingest(readings, track: track)
            saved = try await store.save()
            var filter = try filters[track] ?? AltitudeFilter(parameters: .adaptive)
            #expect(try estimates == readings.map { try filter.process($0) })
            filters[track] = filter
            let latest = await store.altitude(track: track)
            #expect(latest?.meters == estimates.last?.altitude)
        }
    }
}
