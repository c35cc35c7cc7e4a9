import Foundation
import LinearAlgebra
import StateEstimation
import Testing

@Suite("Streaming estimates")
struct EstimateSequenceTests {
    @Test("A stream of measurements gives the same estimates as the batch")
    func streamEqualsBatch() async throws {
        let measurements = FilterCheckpointTests.measurements(seed: 9)
        var batchFilter = try FilterCheckpointTests.filter()
        let batch = try batchFilter.process(measurements)

        let (stream, continuation) = AsyncStream.makeStream(of: TimedMeasurement<LinearMeasurement>.self)
        let producer = Task {
            for measurement in measurements {
                continuation.yield(measurement)
                await Task.yield()
            }
            continuation.finish()
        }
        var streamed: [Estimate] = []
        for try await estimate in try FilterCheckpointTests.filter().estimates(for: stream) {
            streamed.append(estimate)
        }
        await producer.value
        #expect(streamed == batch)
    }

    @Test("A bad measurement ends the stream with its error")
    func errorEndsStream() async throws {
        let position = LinearMeasurement(observationRow: [1, 0, 0])
        let measurements = [
            TimedMeasurement(time: 1, kind: position, value: 100, variance: 1),
            TimedMeasurement(time: 0.5, kind: position, value: 100, variance: 1),
            TimedMeasurement(time: 2, kind: position, value: 100, variance: 1),
        ]
        var iterator = try FilterCheckpointTests.filter().estimates(for: measurements.async).makeAsyncIterator()
        #expect(try await iterator.next()?.time == 1)
        await #expect(throws: EstimationError.timeWentBackwards(from: 1, to: 0.5)) { _ = try await iterator.next() }
        #expect(try await iterator.next() == nil)
    }
}

/// A synchronous array as an asynchronous sequence, for tests.
struct AsyncArray<Element: Sendable>: AsyncSequence, Sendable {
    let elements: [Element]

    struct AsyncIterator: AsyncIteratorProtocol {
        var index = 0
        let elements: [Element]
        mutating func next() async -> Element? {
            defer { index += 1 }
            return index < elements.count ? elements[index] : nil
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(elements: elements) }
}

extension Array where Element: Sendable {
    var async: AsyncArray<Element> { AsyncArray(elements: self) }
}
