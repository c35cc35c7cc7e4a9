// Compiled only where Core Motion's altimeter exists (iPhone, Apple Watch). This file cannot be compiled on the
// Linux machines the package is developed and tested on; it is kept small, and every guarantee it makes is
// the one `ReadingStream` gives and the Linux tests check with the replay and simulated sources.
#if canImport(CoreMotion) && (os(iOS) || os(watchOS))
import CoreMotion
import Foundation

/// A `ReadingSource` over Core Motion's `CMAltimeter`: the seed's altimeter service, with absolute altitude.
///
/// - Relative altitude updates become pressure readings; Core Motion's kilopascals are converted to hPa by
///   `AltitudeSample(timestamp:relativeAltitude:kilopascals:)`, at the boundary.
/// - With `includesAbsoluteAltitude`, where available (iOS 15 / watchOS 8, iPhone 12 and later), absolute
///   altitude updates become fixes weighted by their one-sigma `accuracy` (`AbsoluteAltitudeSample.fix`);
///   `absoluteAltitudes()` gives them with their `precision`.
/// - Unavailable (no barometer, as in the iOS simulator): the stream finishes at once without error.
/// - Each stream owns its `CMAltimeter`. The stream's termination handler holds it, so it lives exactly as long
///   as the stream runs, whatever happens to this source (the seed's pitfall cannot happen); when the consumer
///   stops or is cancelled, or Core Motion reports an error, the handler stops the updates.
///
/// Timestamps are Core Motion's: seconds since the device booted.
public final class CoreMotionSource: ReadingSource {
    /// Whether absolute altitude is delivered too, where available.
    public let includesAbsoluteAltitude: Bool
    public let activity = SourceActivity()

    public init(includesAbsoluteAltitude: Bool = true) {
        self.includesAbsoluteAltitude = includesAbsoluteAltitude
    }

    /// Whether relative altitude (the barometer) is available on this device.
    public var isAvailable: Bool { CMAltimeter.isRelativeAltitudeAvailable() }

    /// Whether absolute altitude is available on this device.
    public var isAbsoluteAltitudeAvailable: Bool {
        if #available(iOS 15.0, watchOS 8.0, *) { return CMAltimeter.isAbsoluteAltitudeAvailable() }
        return false
    }

    /// Barometer readings (and, with `includesAbsoluteAltitude`, absolute-altitude fixes) as they arrive.
    public func readings() -> AsyncThrowingStream<AltitudeReading, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: AltitudeReading.self, throwing: (any Error).self)
        activity.recordStart()
        guard isAvailable else {
            activity.recordStop(.unavailable)
            continuation.finish()
            return stream
        }
        let session = AltimeterSession()
        let absolute = includesAbsoluteAltitude && isAbsoluteAltitudeAvailable
        continuation.onTermination = { [activity] termination in
            session.stop(absolute: absolute)  // `session` is held here until the stream terminates
            if case .finished(let error?) = termination {
                activity.recordStop(.failed(String(describing: error)))
            } else if case .finished = termination {
                activity.recordStop(.finished)
            } else {
                activity.recordStop(.cancelled)
            }
        }
        session.altimeter.startRelativeAltitudeUpdates(
            to: session.queue,
            withHandler: Self.relativeHandler(continuation, activity: activity))
        if absolute, #available(iOS 15.0, watchOS 8.0, *) {
            let handler = Self.absoluteHandler(
                deliver: { [activity] sample in
                    if case .enqueued = continuation.yield(sample.fix.reading) { activity.recordDelivery() }
                },
                failure: { error in continuation.finish(throwing: error) })
            session.altimeter.startAbsoluteAltitudeUpdates(to: session.queue, withHandler: handler)
        }
        return stream
    }

    /// Absolute-altitude samples, with accuracy and precision, as they arrive; finishes at once where absolute
    /// altitude is unavailable.
    public func absoluteAltitudes() -> AsyncThrowingStream<AbsoluteAltitudeSample, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: AbsoluteAltitudeSample.self, throwing: (any Error).self)
        guard isAbsoluteAltitudeAvailable else {
            continuation.finish()
            return stream
        }
        if #available(iOS 15.0, watchOS 8.0, *) {
            let session = AltimeterSession()
            continuation.onTermination = { _ in session.stop(absolute: true, relative: false) }
            let handler = Self.absoluteHandler(
                deliver: { sample in continuation.yield(sample) },
                failure: { error in continuation.finish(throwing: error) })
            session.altimeter.startAbsoluteAltitudeUpdates(to: session.queue, withHandler: handler)
        }
        return stream
    }

    /// The relative-altitude handler, built outside any actor (Core Motion calls it on its queue).
    private nonisolated static func relativeHandler(
        _ continuation: AsyncThrowingStream<AltitudeReading, any Error>.Continuation,
        activity: SourceActivity
    ) -> CMAltitudeHandler {
        { data, error in
            if let error { return continuation.finish(throwing: error) }
            guard let data else { return }
            let sample = AltitudeSample(
                timestamp: data.timestamp, relativeAltitude: data.relativeAltitude.doubleValue,
                kilopascals: data.pressure.doubleValue)
            if case .enqueued = continuation.yield(sample.reading) { activity.recordDelivery() }
        }
    }

    /// The absolute-altitude handler, built outside any actor.
    @available(iOS 15.0, watchOS 8.0, *)
    private nonisolated static func absoluteHandler(
        deliver: @escaping @Sendable (AbsoluteAltitudeSample) -> Void,
        failure: @escaping @Sendable (any Error) -> Void
    ) -> CMAbsoluteAltitudeHandler {
        { data, error in
            if let error { return failure(error) }
            guard let data else { return }
            deliver(
                AbsoluteAltitudeSample(
                    timestamp: data.timestamp, altitude: data.altitude, accuracy: data.accuracy,
                    precision: data.precision))
        }
    }
}

/// One stream's altimeter and the serial queue its updates arrive on.
private final class AltimeterSession: @unchecked Sendable {
    // Safety: the altimeter is started once, from `readings()`, and stopped once, from the stream's termination
    // handler, on its own serial queue; Core Motion calls the handlers on that queue.
    let altimeter = CMAltimeter()
    let queue: OperationQueue = {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.name = "Altimetry.CoreMotionSource"
        return queue
    }()

    func stop(absolute: Bool, relative: Bool = true) {
        queue.addOperation {
            if relative { self.altimeter.stopRelativeAltitudeUpdates() }
            if absolute, #available(iOS 15.0, watchOS 8.0, *) { self.altimeter.stopAbsoluteAltitudeUpdates() }
        }
    }
}
#endif
