import StateEstimation

/// What the streaming floor counter says after one barometer reading.
public struct FloorUpdate: Sendable, Equatable, Codable {
    /// Time of the reading, in seconds.
    public var time: Seconds
    /// The current floor, counting the first reading's floor as 0.
    public var floor: Int
    /// Whether the floor is trusted.
    public var confidence: FloorConfidence
    /// What this reading caused: transitions, uncertainty raised or cleared (usually nothing).
    public var events: [FloorCounterEvent]

    /// An update at `time` (seconds) on `floor` with `confidence` and `events`.
    ///
    /// - Parameters:
    ///   - time: the reading's time, in seconds.
    ///   - floor: the floor, counting the first sample's floor as 0.
    ///   - confidence: whether the floor is trusted.
    ///   - events: what the reading caused.
    public init(time: Seconds, floor: Int, confidence: FloorConfidence, events: [FloorCounterEvent]) {
        self.time = time
        self.floor = floor
        self.confidence = confidence
        self.events = events
    }
}

/// The streaming floor counter over a sequence of readings: one `FloorUpdate` per reading with a pressure.
///
/// Readings without a pressure (GPS alone) are skipped; the counter converts pressure to relative altitude with
/// the hypsometric equation from the first pressure. A sample the counter refuses (`FloorCountingError`: time not
/// increasing, pressure not positive) ends the iteration with that error.
public struct FloorUpdates<Base: AsyncSequence>: AsyncSequence where Base.Element == AltitudeReading {
    public typealias Element = FloorUpdate

    /// The readings.
    public let base: Base
    /// The counter's thresholds.
    public let configuration: FloorCounterConfiguration

    /// The floor updates of `base`'s readings with `configuration`'s thresholds.
    ///
    /// - Parameters:
    ///   - base: the readings, in time order.
    ///   - configuration: the floor counter's thresholds.
    public init(_ base: Base, configuration: FloorCounterConfiguration) {
        self.base = base
        self.configuration = configuration
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        var readings: Base.AsyncIterator
        let configuration: FloorCounterConfiguration
        var counter: StreamingFloorCounter?

        /// The counter's state after the next reading with a pressure; nil when the readings end.
        ///
        /// - Throws: the source's error, or `FloorCountingError`.
        public mutating func next() async throws -> FloorUpdate? {
            while let reading = try await readings.next() {
                guard let pressure = reading.pressure else { continue }
                var current = try counter ?? StreamingFloorCounter(configuration: configuration)
                let events = try current.consume(time: reading.time, pressure: pressure)
                counter = current
                return FloorUpdate(
                    time: reading.time, floor: current.floor, confidence: current.confidence, events: events)
            }
            return nil
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(readings: base.makeAsyncIterator(), configuration: configuration, counter: nil)
    }
}

extension AsyncSequence where Element == AltitudeReading {
    /// The floor counter's state after each reading with a pressure.
    public func floors(configuration: FloorCounterConfiguration = FloorCounterConfiguration()) -> FloorUpdates<Self> {
        FloorUpdates(self, configuration: configuration)
    }
}

extension ReadingSource {
    /// The floor counter's state after each barometer reading of a new stream from this source.
    public func floors(configuration: FloorCounterConfiguration = FloorCounterConfiguration())
        -> FloorUpdates<AsyncThrowingStream<AltitudeReading, any Error>>
    {
        readings().floors(configuration: configuration)
    }
}
