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
