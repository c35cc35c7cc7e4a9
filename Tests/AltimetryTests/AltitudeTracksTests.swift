import Altimetry
import Foundation
import Simulation
import Testing

@Suite("AltitudeTracks")
struct AltitudeTracksTests {
    /// Three scenarios' readings, each a track, interleaved row by row.
    static func interleaved(rows: Int) throws -> [(track: String, reading: AltitudeReading)] {
        let names: [ScenarioName] = [.hike, .front, .building]
        let tracks = try names.enumerated().map { index, name in
            let scenario = Scenario.named(name, seed: UInt64(index + 1), duration: Double(rows) * 2)
            let source = SimulatedSource(scenario: scenario)
            return try scenario.simulate().readings.prefix(rows).map(source.reading)
        }
        return (0..<rows).flatMap { row in names.indices.map { ("track-\($0)", tracks[$0][row]) } }
    }

    @Test("GIVEN interleaved tracks WHEN fused in one set THEN each track equals its own filter alone, bit for bit")
    func tracksAreIndependent() throws {
        let rows = try Self.interleaved(rows: 400)
        var set = try AltitudeTracks()
        var alone: [String: AltitudeFilter] = [:]
        for (track, reading) in rows {
            let shared = try set.process(reading, track: track)
            var filter = try alone[track] ?? AltitudeFilter()
            let expected = try filter.process(reading)
            alone[track] = filter
            #expect(shared == expected, "\(track) at t = \(reading.time)")
        }
        #expect(set.trackIDs == ["track-0", "track-1", "track-2"])
    }

    @Test("Saving the set as JSON between requests and restoring it continues every track bit for bit")
    func checkpointBetweenRequests() throws {
        let rows = try Self.interleaved(rows: 300)
        var whole = try AltitudeTracks()
        var resumed = try AltitudeTracks()
        for (index, (track, reading)) in rows.enumerated() {
            if index % 97 == 0 {
                // A request boundary: the set goes to a store and comes back.
                let data = try JSONEncoder().encode(resumed.checkpoint)
                resumed = try AltitudeTracks(restoring: JSONDecoder().decode(AltitudeTracksCheckpoint.self, from: data))
            }
            let expected = try whole.process(reading, track: track)
            #expect(try resumed.process(reading, track: track) == expected)
        }
        #expect(resumed.trackIDs == whole.trackIDs)
    }

    @Test("A batch is all or nothing: a refused reading leaves the track as it was and other tracks untouched")
    func batchIsAtomic() throws {
        let rows = try Self.interleaved(rows: 50).filter { $0.track == "track-0" }.map(\.reading)
        var set = try AltitudeTracks()
        _ = try set.process(Array(rows.prefix(20)), track: "a")
        _ = try set.process(Array(rows.prefix(20)), track: "b")
        var untouched = set
        var bad = Array(rows[20..<30])
        bad[5].time = bad[4].time - 10  // time goes backwards in the middle of the batch
        #expect(throws: AltitudeModelError.self) { try set.process(bad, track: "a") }
        // The good batch then gives what it gives on a set that never saw the bad one.
        let estimates = try set.process(Array(rows[20..<30]), track: "a")
        #expect(try estimates == untouched.process(Array(rows[20..<30]), track: "a"))
        #expect(set.estimate(track: "a")?.altitude == estimates.last?.altitude)
        #expect(set.estimate(track: "b")?.time == rows[19].time)
    }

    @Test("A new track whose first reading is refused is not started; removing a track ends it")
    func startAndEnd() throws {
        var set = try AltitudeTracks()
        #expect(throws: AltitudeModelError.self) { try set.process(AltitudeReading(time: 0), track: "empty") }
        #expect(set.trackIDs.isEmpty)
        _ = try set.process(AltitudeReading(time: 0, pressure: 1000), track: "x")
        let removed = set.removeTrack("x")
        let ended = try #require(removed)
        #expect(ended.currentEstimate != nil)
        #expect(set.trackIDs.isEmpty)
        #expect(set.estimate(track: "x") == nil)
    }

    @Test("Invalid parameters are refused when the set is made")
    func invalidParameters() {
        var parameters = AltitudeModelParameters()
        parameters.altitudeNoiseDensity = -1
        #expect(throws: AltitudeModelError.self) { try AltitudeTracks(parameters: parameters) }
    }
}
