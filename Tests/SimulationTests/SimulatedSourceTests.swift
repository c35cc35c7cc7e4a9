import Altimetry
import Foundation
import Simulation
import Testing

/// Waits up to five seconds for `condition`, polling every millisecond.
private func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<5_000 {
        if condition() { return true }
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
    return condition()
}

@Suite("SimulatedSource")
struct SimulatedSourceTests {
    /// Two minutes of the seed's building visit: 1 Hz barometer, GPS fixes.
    static let scenario = Scenario.named(.building, seed: 3, duration: 120)

    @Test("GIVEN a simulated source WHEN its stream is read THEN it delivers every row of the recording, in kelvin")
    func deliversTheRecording() async throws {
        let recording = try Self.scenario.simulate()
        let source = SimulatedSource(scenario: Self.scenario)
        var received: [AltitudeReading] = []
        for try await reading in source.readings() { received.append(reading) }
        #expect(received == recording.readings.map(source.reading))
        #expect(received.count == recording.readings.count)
        #expect(source.activity.lastStop == .finished)
        #expect(source.activity.delivered == recording.readings.count)
    }

    @Test("fused(with:) gives the filter's estimates over the recording, bit for bit")
    func fusedEqualsFilter() async throws {
        let source = SimulatedSource(scenario: Self.scenario)
        let recording = try Self.scenario.simulate()
        var filter = try AltitudeFilter()
        let expected = try recording.readings.map { try filter.process(source.reading($0)) }
        var received: [AltitudeEstimate] = []
        for try await estimate in source.fused(with: AltitudeModelParameters()) { received.append(estimate) }
        #expect(received == expected)
    }

    @Test("GIVEN a device without the sensors THEN the stream finishes at once, without error")
    func unavailable() async throws {
        let source = SimulatedSource(scenario: Self.scenario, isAvailable: false)
        var count = 0
        for try await _ in source.readings() { count += 1 }
        #expect(count == 0)
        #expect(source.activity.lastStop == .unavailable)
        #expect(source.activity.running == 0)
    }

    @Test("GIVEN a paced source WHEN the consumer leaves the loop THEN the source stops before its end")
    func breakStops() async throws {
        // 100× real time: one reading per 10 ms, so the 120 s recording would take 1.2 s to play out.
        let source = SimulatedSource(scenario: Self.scenario, pacing: .realTime(speed: 100))
        var count = 0
        for try await _ in source.readings() {
            count += 1
            if count == 5 { break }
        }
        #expect(await eventually { source.activity.running == 0 })
        #expect(source.activity.lastStop == .cancelled)
        #expect(source.activity.delivered < 20)
    }

    @Test("GIVEN a paced source WHEN the consuming task is cancelled THEN the source stops")
    func cancellationStops() async throws {
        let source = SimulatedSource(scenario: Self.scenario, pacing: .realTime(speed: 10))
        let consumer = Task {
            var count = 0
            for try await _ in source.readings() { count += 1 }
            return count
        }
        #expect(await eventually { source.activity.delivered >= 2 })
        consumer.cancel()
        let count = try await consumer.value
        #expect(await eventually { source.activity.running == 0 })
        #expect(source.activity.lastStop == .cancelled)
        #expect(count < 100)  // at 10× real time the 120 s recording needs 12 s; the test cancels well before
    }

    @Test("GIVEN a scenario that cannot be simulated THEN the stream finishes with the simulator's error")
    func failure() async throws {
        var invalid = Self.scenario
        invalid.duration = -1
        let source = SimulatedSource(scenario: invalid)
        await #expect(throws: ScenarioError.self) {
            for try await _ in source.readings() {}
        }
        guard case .failed = source.activity.lastStop else {
            Issue.record("expected a failed stop, got \(String(describing: source.activity.lastStop))")
            return
        }
    }

    @Test("GIVEN only the stream holds the source THEN it receives every reading, and the source is released after")
    func streamKeepsTheSourceAlive() async throws {
        let expected = try Self.scenario.simulate().readings.count
        weak var weakSource: SimulatedSource?
        let activity: SourceActivity
        var stream: AsyncThrowingStream<AltitudeReading, any Error>
        do {
            // The seed's pitfall: the service is a temporary, released once its stream is made.
            let source = SimulatedSource(scenario: Self.scenario, pacing: .realTime(speed: 1_000))
            weakSource = source
            activity = source.activity
            stream = source.readings()
        }
        var count = 0
        var aliveWhileProducing = true
        for try await _ in stream {
            count += 1
            // The producer holds the source until it has delivered its last reading and stopped; readings still
            // in the buffer after that need no source.
            if weakSource == nil && activity.stops == 0 { aliveWhileProducing = false }
        }
        #expect(count == expected)
        #expect(aliveWhileProducing)
        // Once the producing task has returned nothing holds the source.
        stream = AsyncThrowingStream { $0.finish() }
        #expect(await eventually { weakSource == nil })
    }
}
