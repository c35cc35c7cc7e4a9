/// Anything that delivers altitude readings over time: a device's sensors, a recording, a simulation.
///
/// The shape is the seed's altimeter service, made portable: an availability check, readings as an
/// `AsyncThrowingStream`, units converted at the source's boundary (`AltitudeSample`, `GPSFix`), and these
/// guarantees, which every source in the package keeps and tests on Linux:
///
/// - **Unavailable**: when `isAvailable` is false, `readings()` returns a stream that finishes at once without
///   error (as Core Motion's start call "does nothing" on a device without a barometer).
/// - **Stopping**: when the consumer stops iterating (leaves its `for try await` loop) or its task is cancelled,
///   the source stops producing (`SourceActivity.lastStop == .cancelled`).
/// - **Failing**: an error in the source finishes the stream with that error; the consumer's loop throws it.
/// - **Lifetime**: the stream keeps the source alive for as long as it runs, so the seed's pitfall (a service
///   deallocated as soon as its stream was made, silently stopping updates) cannot happen. Iterating
///   `SimulatedSource(...).readings()` on a temporary is correct; the source is released when the stream ends.
///
/// The element is the core's `AltitudeReading` (hPa, metres, one sigma, kelvin): a row may carry a pressure, a
/// fix, or both, exactly as a file row does, so a replayed file and its `fuse` give the same estimates.
public protocol ReadingSource: Sendable {
    /// Whether the source can deliver readings here (a barometer exists, the file exists, …).
    var isAvailable: Bool { get }
    /// What the source has done so far (streams started and stopped, and why).
    var activity: SourceActivity { get }
    /// A new stream of readings, in time order. Each call starts the source afresh.
    func readings() -> AsyncThrowingStream<AltitudeReading, any Error>
}

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
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: AltitudeReading.self, throwing: (any Error).self)
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
