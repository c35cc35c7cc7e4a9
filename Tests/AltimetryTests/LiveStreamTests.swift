import Altimetry
import Foundation
import Simulation
import Testing

/// A source over fixed readings, for the adapters and the stream's guarantees without the simulator.
struct ArraySource: ReadingSource {
    var values: [AltitudeReading]
    var failure: (after: Int, error: LiveTestError)?
    var isAvailable = true
    let activity = SourceActivity()

    func readings() -> AsyncThrowingStream<AltitudeReading, any Error> {
        ReadingStream.make(isAvailable: isAvailable, activity: activity) { [values, failure] deliver in
            for (i, reading) in values.enumerated() {
                if let failure, i == failure.after { throw failure.error }
                await Task.yield()
                guard deliver(reading) else { return }
            }
        }
    }
}

struct LiveTestError: Error, Equatable {
    var code: Int
}

/// Waits up to two seconds for `condition`, polling every millisecond.
func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<2_000 {
        if condition() { return true }
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
    return condition()
}

@Suite("ReadingStream, fused(with:) and floors(configuration:)")
struct LiveStreamTests {
    static let visit = BuildingVisit.simulate(seed: 9)

    static var visitReadings: [AltitudeReading] {
        visit.pressure.enumerated().map { AltitudeReading(time: Double($0.offset), pressure: $0.element) }
    }

    @Test("fused(with:) gives exactly the filter's estimates, reading by reading")
    func fusedEqualsFilter() async throws {
        let readings = Array(Self.visitReadings.prefix(300))
        var filter = try AltitudeFilter()
        let expected = try readings.map { try filter.process($0) }
        var received: [AltitudeEstimate] = []
        for try await estimate in ArraySource(values: readings).fused(with: AltitudeModelParameters()) {
            received.append(estimate)
        }
        #expect(received == expected)
    }

    @Test("floors(configuration:) counts the seed's building visit as the streaming counter does: +3, −4, floor −1")
    func floorsEqualCounter() async throws {
        var counter = try StreamingFloorCounter()
        var expected: [FloorCounterEvent] = []
        for reading in Self.visitReadings {
            expected += try counter.consume(time: reading.time, pressure: reading.pressure ?? 0)
        }
        var events: [FloorCounterEvent] = []
        var last: FloorUpdate?
        for try await update in ArraySource(values: Self.visitReadings).floors() {
            events += update.events
            last = update
        }
        #expect(events == expected)
        #expect(last?.floor == -1)
        #expect(last?.floor == counter.floor)
    }

    @Test("An unavailable source's stream finishes at once, without error, and never starts producing")
    func unavailable() async throws {
        let source = ArraySource(values: Self.visitReadings, isAvailable: false)
        var count = 0
        for try await _ in source.readings() { count += 1 }
        #expect(count == 0)
        #expect(source.activity.lastStop == .unavailable)
        #expect(source.activity.delivered == 0)
    }

    @Test("A source error finishes the stream with that error, after the readings before it")
    func failure() async throws {
        let source = ArraySource(values: Self.visitReadings, failure: (after: 7, error: LiveTestError(code: 42)))
        var count = 0
        await #expect(throws: LiveTestError(code: 42)) {
            for try await _ in source.readings() { count += 1 }
        }
        #expect(count == 7)
        #expect(source.activity.lastStop == .failed(String(describing: LiveTestError(code: 42))))
    }

    @Test("A filter error ends fused(with:) with the filter's error")
    func filterError() async throws {
        let readings = [AltitudeReading(time: 1, pressure: 1_000), AltitudeReading(time: 0, pressure: 1_000)]
        var count = 0
        await #expect(throws: AltitudeModelError.self) {
            for try await _ in ArraySource(values: readings).fused() { count += 1 }
        }
        #expect(count == 1)
    }

    @Test("Leaving the loop early stops the source")
    func breakStops() async throws {
        let source = ArraySource(values: Self.visitReadings)
        var count = 0
        for try await _ in source.readings() {
            count += 1
            if count == 3 { break }
        }
        #expect(await eventually { source.activity.running == 0 })
        #expect(source.activity.stops == 1)
        // The producer may have delivered a few more into the buffer before it saw the consumer go; it must
        // not have gone on to the end of the 1,662 readings (it yields to the scheduler after each one).
        #expect(source.activity.delivered < Self.visitReadings.count)
        #expect(source.activity.lastStop == .cancelled)
    }
}
