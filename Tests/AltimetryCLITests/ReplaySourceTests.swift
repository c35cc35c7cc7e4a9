import Altimetry
import Foundation
import Testing

@testable import AltimetryCLI
@testable import AltimetryIO

@Suite("ReplaySource")
struct ReplaySourceTests {
    /// Pressure and GPS at separate and shared times, with a temperature and a row with no reading.
    static let csv = """
        t,pressure_hpa,gps_alt_m,gps_vacc_m,temperature_c
        0,1000.00,110.0,5,10
        1,1000.01,112.0,5,
        2,999.99,,,
        3,,109.0,4,
        4,,,,
        5,999.95,,,11

        """

    static let expected = [
        AltitudeReading(time: 0, pressure: 1000.00, gpsAltitude: 110, gpsVerticalAccuracy: 5, temperature: 283.15),
        AltitudeReading(time: 1, pressure: 1000.01, gpsAltitude: 112, gpsVerticalAccuracy: 5),
        AltitudeReading(time: 2, pressure: 999.99),
        AltitudeReading(time: 3, gpsAltitude: 109, gpsVerticalAccuracy: 4),
        AltitudeReading(time: 5, pressure: 999.95, temperature: 284.15),
    ]

    @Test("GIVEN a CSV file THEN the replay delivers its usable rows as the core's readings, in file order")
    func deliversRows() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let source = ReplaySource(path: try dir.file("in.csv", Self.csv))
        #expect(source.isAvailable)
        var received: [AltitudeReading] = []
        for try await reading in source.readings() { received.append(reading) }
        #expect(received.count == Self.expected.count)
        for (r, e) in zip(received, Self.expected) {
            // Parsed decimals against Swift literals: equal to the last ulp; temperatures add 273.15 in binary.
            #expect(r.time == e.time && r.pressure == e.pressure && r.gpsAltitude == e.gpsAltitude)
            #expect(r.gpsVerticalAccuracy == e.gpsVerticalAccuracy)
            #expect(abs((r.temperature ?? 0) - (e.temperature ?? 0)) < 1e-9)
        }
        #expect(source.activity.lastStop == .finished)
    }

    @Test("fused() over a replay gives the estimates of `altimetry fuse` on the same file: both adapt by default")
    func fusedEqualsFuse() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = try dir.file("in.csv", Self.csv)
        let table = try InputLoader.table(path, options: ReadOptions())
        let defaults = try ModelOptions(ArgumentScanner([], options: ModelOptions.options)).parameters()
        #expect(defaults == .adaptive)
        let expected = try fuseRows(table, parameters: defaults).compactMap { estimate, status in
            status == .predicted ? nil : estimate
        }
        var received: [AltitudeEstimate] = []
        for try await estimate in ReplaySource(path: path).fused() {
            received.append(estimate)
        }
        #expect(received.map(\.altitude) == expected.map(\.altitude))
        #expect(received.map(\.altitudeStandardDeviation) == expected.map(\.altitudeStandardDeviation))
        #expect(received.map(\.seaLevelPressure) == expected.map(\.seaLevelPressure))
    }

    @Test(
        "GIVEN a file that does not exist THEN the source is unavailable and its stream finishes at once without error")
    func unavailable() async throws {
        let source = ReplaySource(path: "/nonexistent/altimetry/track.csv")
        #expect(!source.isAvailable)
        var count = 0
        for try await _ in source.readings() { count += 1 }
        #expect(count == 0)
        #expect(source.activity.lastStop == .unavailable)
    }

    @Test("GIVEN a file with an invalid cell THEN the stream finishes with the reader's error, naming the line")
    func invalidFile() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let source = ReplaySource(path: try dir.file("bad.csv", "t,pressure_hpa\n0,1000\n1,abc\n"))
        do {
            for try await _ in source.readings() {}
            Issue.record("expected an InputError")
        } catch let error as InputError {
            #expect(error.line == 3)
        }
        guard case .failed = source.activity.lastStop else {
            Issue.record("expected a failed stop, got \(String(describing: source.activity.lastStop))")
            return
        }
    }

    @Test("Real-time pacing at 100× takes at least (t_last − t_first)/100 of wall-clock time")
    func pacing() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let source = ReplaySource(path: try dir.file("in.csv", Self.csv), pacing: .realTime(speed: 100))
        let clock = ContinuousClock()
        let start = clock.now
        var count = 0
        for try await _ in source.readings() { count += 1 }
        // The last reading is due 5 s / 100 = 50 ms after the first; sleeping never ends early. No upper bound:
        // a loaded machine may be late.
        #expect(clock.now - start >= .milliseconds(50))
        #expect(count == 5)
    }

    @Test("GIVEN a paced replay WHEN the consumer leaves the loop THEN the source stops")
    func breakStops() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let rows = (0..<1_000).map { "\($0),\(1000 - Double($0) * 0.001)" }.joined(separator: "\n")
        let source = ReplaySource(
            path: try dir.file("long.csv", "t,pressure_hpa\n" + rows + "\n"), pacing: .realTime(speed: 100))
        var count = 0
        for try await _ in source.readings() {
            count += 1
            if count == 3 { break }
        }
        var stopped = false
        for _ in 0..<5_000 where !stopped {
            stopped = source.activity.running == 0
            if !stopped { try await Task.sleep(nanoseconds: 1_000_000) }
        }
        #expect(stopped)
        #expect(source.activity.lastStop == .cancelled)
        #expect(source.activity.delivered < 100)  // the whole file would take 10 s at 100×
    }

    @Test("A file with several tracks replays the named one, and refuses to guess")
    func tracks() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = try dir.file("tracks.csv", "t,track_id,pressure_hpa\n0,a,1000\n0,b,990\n1,a,1000.1\n1,b,990.1\n")
        var received: [AltitudeReading] = []
        for try await reading in ReplaySource(path: path, track: "b").readings() { received.append(reading) }
        #expect(received.map(\.pressure) == [990, 990.1])
        await #expect(throws: InputError.self) {
            for try await _ in ReplaySource(path: path).readings() {}
        }
    }
}
