import Altimetry
import Simulation
import Testing

@Suite("FloorCounterEvents")
struct FloorCounterEventsTests {
    @Test(
        "The async adapter yields the batch counter's events, from another task",
        arguments: [FloorScenario.Kind.seedVisit, .slowerLift, .missedSlowLiftUp, .doorSlams])
    func yieldsBatchEvents(kind: FloorScenario.Kind) async throws {
        for seed in UInt64(1)...5 {
            let scenario = kind.scenario(seed: seed)
            let expected = try FloorCounter().count(scenario.samples).events
            let (stream, continuation) = AsyncStream.makeStream(of: FloorSample.self)
            let events = try stream.floorEvents()
            // The sequence is Sendable: a child task consumes it while this task feeds the samples.
            let consumer = Task {
                var collected: [FloorCounterEvent] = []
                for try await event in events { collected.append(event) }
                return collected
            }
            for sample in scenario.samples { continuation.yield(sample) }
            continuation.finish()
            #expect(try await consumer.value == expected, "\(kind), seed \(seed)")
            #expect(!expected.isEmpty)
        }
    }

    @Test("A bad sample ends the sequence with the counter's error")
    func throwsCounterError() async throws {
        let samples = [FloorSample(time: 0, relativeAltitude: 0), FloorSample(time: 0, relativeAltitude: 1)]
        let (stream, continuation) = AsyncStream.makeStream(of: FloorSample.self)
        for sample in samples { continuation.yield(sample) }
        continuation.finish()
        await #expect(throws: FloorCountingError.timeNotIncreasing(previous: 0, time: 0)) {
            for try await _ in try stream.floorEvents() {}
        }
    }
}
