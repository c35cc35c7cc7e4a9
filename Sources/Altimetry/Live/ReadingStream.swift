/// Builds the streams of `ReadingSource`s so that each keeps the guarantees above.
public enum ReadingStream {
    /// Delivers one reading; returns false once the consumer has gone (the producer should then return).
    public typealias Deliver = @Sendable (AltitudeReading) -> Bool

    /// A stream whose readings `produce` delivers from its own task.
    ///
    /// `produce` is retained by that task until it returns, so whatever it captures (the source itself) lives as
    /// long as the stream runs and no longer. When the consumer stops or is cancelled the task is cancelled:
    /// `Task.sleep` throws `CancellationError` and `deliver` returns false. An error thrown by `produce`
    /// finishes the stream with that error.
    ///
    /// - Parameters:
    ///   - isAvailable: false gives a stream that finishes at once without error, and `produce` never runs.
    ///   - activity: where the start, deliveries and stop are recorded.
    ///   - produce: delivers the readings, in order, and returns when done.
    public static func make(
        isAvailable: Bool, activity: SourceActivity,
        produce: @escaping @Sendable (_ deliver: Deliver) async throws -> Void
    ) -> AsyncThrowingStream<AltitudeReading, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: AltitudeReading.self, throwing: (any Error).self)
        activity.recordStart()
        guard isAvailable else {
            activity.recordStop(.unavailable)
            continuation.finish()
            return stream
        }
        let deliver: Deliver = { reading in
            guard !Task.isCancelled, case .enqueued = continuation.yield(reading) else { return false }
            activity.recordDelivery()
            return true
        }
        let task = Task {
            do {
                try await produce(deliver)
                if Task.isCancelled { activity.recordStop(.cancelled) } else { activity.recordStop(.finished) }
                continuation.finish()
            } catch is CancellationError {
                activity.recordStop(.cancelled)
                continuation.finish()
            } catch {
                activity.recordStop(Task.isCancelled ? .cancelled : .failed(String(describing: error)))
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { termination in
            if case .cancelled = termination { task.cancel() }
        }
        return stream
    }
}
