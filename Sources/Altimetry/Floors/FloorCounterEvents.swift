/// An asynchronous sequence of floor-counter events over an asynchronous sequence of samples.
///
/// Each sample from `base` goes through a `StreamingFloorCounter`; the events it publishes are yielded in order.
/// The sequence ends when `base` ends, and rethrows `base`'s errors and the counter's `FloorCountingError`.
public struct FloorCounterEvents<Base: AsyncSequence>: AsyncSequence where Base.Element == FloorSample {
    public typealias Element = FloorCounterEvent

    private let base: Base
    private let counter: StreamingFloorCounter

    /// Events from `counter` (usually fresh, possibly with a `weatherTrend` set) over `base`.
    ///
    /// - Parameters:
    ///   - base: the samples, in time order.
    ///   - counter: the counter that consumes them.
    public init(_ base: Base, counter: StreamingFloorCounter) {
        self.base = base
        self.counter = counter
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), counter: counter)
    }

    /// Pulls samples until the counter has something to say.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private var base: Base.AsyncIterator
        private var counter: StreamingFloorCounter
        private var queued: [FloorCounterEvent] = []
        private var queuedHead = 0

        init(base: Base.AsyncIterator, counter: StreamingFloorCounter) {
            self.base = base
            self.counter = counter
        }

        /// The counter as it stands after the samples pulled so far.
        public var state: StreamingFloorCounter { counter }

        public mutating func next() async throws -> FloorCounterEvent? {
            while queuedHead == queued.count {
                guard let sample = try await base.next() else { return nil }
                queued = try counter.consume(sample)
                queuedHead = 0
            }
            defer { queuedHead += 1 }
            return queued[queuedHead]
        }
    }
}

extension FloorCounterEvents: Sendable where Base: Sendable {}

extension AsyncSequence where Element == FloorSample {
    /// The floor-counter events over these samples.
    ///
    /// - Parameters:
    ///   - configuration: the floor counter's thresholds.
    ///   - weatherTrend: an external pressure trend in hPa/h (the fusion's), or nil to measure it.
    /// - Throws: `FloorCountingError.invalidConfiguration` for a bad threshold.
    public func floorEvents(
        configuration: FloorCounterConfiguration = FloorCounterConfiguration(),
        weatherTrend: Double? = nil
    ) throws(FloorCountingError) -> FloorCounterEvents<Self> {
        var counter = try StreamingFloorCounter(configuration: configuration)
        counter.weatherTrend = weatherTrend
        return FloorCounterEvents(self, counter: counter)
    }
}
