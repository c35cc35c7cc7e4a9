import StateEstimation

/// Counts floors over a whole recording: the seed's `FloorCounter`, in time rather than sample indices.
///
/// It runs `StreamingFloorCounter` over the samples, so its results equal the streaming counter's by
/// construction; see that type for the algorithm and the uncertainty rule.
public struct FloorCounter: Sendable, Equatable {
    /// The thresholds.
    public var configuration: FloorCounterConfiguration

    /// A counter with `configuration`'s thresholds.
    public init(configuration: FloorCounterConfiguration = FloorCounterConfiguration()) {
        self.configuration = configuration
    }

    /// Counts the floors in a recording.
    ///
    /// - Parameters:
    ///   - samples: the readings, in time order, all altitudes or all pressures.
    ///   - weatherTrend: an external pressure trend in hPa/h (the fusion's), or nil to measure it.
    /// - Throws: `FloorCountingError` for a bad configuration or the first bad sample.
    /// - Complexity: O(n) in the number of samples (times the samples per smoothing window).
    public func count(_ samples: some Sequence<FloorSample>, weatherTrend: Double? = nil) throws(FloorCountingError)
        -> FloorCount
    {
        var counter = try StreamingFloorCounter(configuration: configuration)
        counter.weatherTrend = weatherTrend
        var events: [FloorCounterEvent] = []
        for sample in samples {
            events += try counter.consume(sample)
        }
        return FloorCount(
            transitions: counter.transitions, floor: counter.floor, confidence: counter.confidence,
            events: events, weatherRate: counter.weatherRate)
    }

    /// Counts the floors in evenly spaced relative altitudes, in metres, the seed's input.
    ///
    /// - Parameters:
    ///   - relativeAltitude: one altitude per sample, in metres.
    ///   - interval: seconds between samples (1 for the seed); the first sample is at time 0.
    /// - Throws: `FloorCountingError` for a bad configuration or the first bad altitude.
    public func count(relativeAltitude: [Meters], interval: Seconds = 1) throws(FloorCountingError) -> FloorCount {
        try count(
            relativeAltitude.enumerated().lazy.map { index, altitude in
                FloorSample(time: Double(index) * interval, relativeAltitude: altitude)
            })
    }
}
