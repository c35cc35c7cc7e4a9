/// The altitude filter's estimates over a sequence of readings, one estimate per reading, computed as the
/// readings arrive.
///
/// `for try await estimate in source.fused(with: parameters)` reads like the seed's loop over
/// `relativeAltitudes()`. The filter is created when iteration starts, so each iteration is a fresh run; a
/// reading the filter refuses (`AltitudeModelError`) ends the iteration with that error, and an error of the
/// source ends it with the source's error. Leaving the loop stops the source (see `ReadingSource`).
public struct FusedReadings<Base: AsyncSequence>: AsyncSequence where Base.Element == AltitudeReading {
    public typealias Element = AltitudeEstimate

    /// The readings.
    public let base: Base
    /// The model's parameters.
    public let parameters: AltitudeModelParameters

    /// The estimates of `base`'s readings by a filter with `parameters`.
    ///
    /// - Parameters:
    ///   - base: the readings, in time order.
    ///   - parameters: the filter's parameters.
    public init(_ base: Base, parameters: AltitudeModelParameters) {
        self.base = base
        self.parameters = parameters
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        var readings: Base.AsyncIterator
        let parameters: AltitudeModelParameters
        var filter: AltitudeFilter?

        /// The estimate after the next reading; nil when the readings end.
        ///
        /// - Throws: the source's error, or `AltitudeModelError` for a reading the filter refuses.
        public mutating func next() async throws -> AltitudeEstimate? {
            guard let reading = try await readings.next() else { return nil }
            if filter == nil { filter = try AltitudeFilter(parameters: parameters) }
            // Mutating through the optional keeps the filter's storage uniquely referenced (no copy per reading).
            return try filter?.process(reading)
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(readings: base.makeAsyncIterator(), parameters: parameters, filter: nil)
    }
}

extension AsyncSequence where Element == AltitudeReading {
    /// The filter's estimate after each reading; by default the adaptive model (`AltitudeModelParameters.adaptive`),
    /// since a live track's receiver is rarely identified beforehand.
    public func fused(with parameters: AltitudeModelParameters = .adaptive) -> FusedReadings<Self> {
        FusedReadings(self, parameters: parameters)
    }
}

extension ReadingSource {
    /// The filter's estimate after each reading of a new stream from this source; by default the adaptive model.
    ///
    /// The stream keeps the source alive while it is iterated, so `SomeSource(...).fused(with: p)` on a
    /// temporary is safe.
    public func fused(with parameters: AltitudeModelParameters = .adaptive)
        -> FusedReadings<AsyncThrowingStream<AltitudeReading, any Error>>
    {
        readings().fused(with: parameters)
    }
}
