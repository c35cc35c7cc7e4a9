/// An asynchronous sequence of estimates, one per measurement of a base sequence: the streaming API.
///
/// Each measurement goes through `KalmanFilter.process(_:)`, the same core as the batch API, so a stream and a
/// batch of the same measurements give identical estimates. The sequence finishes when the base finishes, and
/// throws the first error of the base or of the filter (an `EstimationError`), after which it is finished.
///
///     for try await estimate in filter.estimates(for: measurementStream) {
///         print(estimate.time, estimate.mean[0, 0], estimate.covariance[0, 0].squareRoot())
///     }
public struct EstimateSequence<Model: StateSpaceModel, Kind: MeasurementKind, Base: AsyncSequence>: AsyncSequence
where Base.Element == TimedMeasurement<Kind> {
    public typealias Element = Estimate

    let filter: KalmanFilter<Model>
    let base: Base

    public func makeAsyncIterator() -> Iterator {
        Iterator(filter: filter, base: base.makeAsyncIterator())
    }

    /// The iterator: it owns the filter that the measurements update.
    public struct Iterator: AsyncIteratorProtocol {
        var filter: KalmanFilter<Model>
        var base: Base.AsyncIterator
        var finished = false

        /// The filter after the measurements seen so far.
        public var currentFilter: KalmanFilter<Model> { filter }

        public mutating func next() async throws -> Estimate? {
            if finished { return nil }
            do {
                guard let measurement = try await base.next() else {
                    finished = true
                    return nil
                }
                return try filter.process(measurement)
            } catch {
                finished = true
                throw error
            }
        }
    }
}

extension EstimateSequence: Sendable where Base: Sendable {}
